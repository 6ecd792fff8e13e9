/**
 * Where an endpoint at `offset` goes when `deleteLength` characters at `start` are replaced by
 * `insertLength` new ones, following Atom's marker index:
 * - before the change: unchanged; after it: shifted;
 * - strictly inside the replaced text, or at its end: to the end of the new text;
 * - exactly at the start: stays, unless `moveAtStart` (an exclusive start, or an insertion pushing
 *   the end of a non-exclusive marker).
 */
export function mapOffset(offset: number, start: number, deleteLength: number, insertLength: number, moveAtStart: boolean): number {
  if (offset < start) return offset
  if (offset === start) return moveAtStart ? start + insertLength : start
  if (offset <= start + deleteLength) return start + insertLength
  return offset - deleteLength + insertLength
}
