/** What paragraph detection reads from a document. */
export interface ParagraphSource {
  lineForRow(row: number): string | undefined
  getLineCount(): number
  /** Whether the row holds only a comment (a language mode's `isRowCommented`). */
  isRowCommented(row: number): boolean
}

const NON_WHITESPACE = /\S/

/**
 * The rows of the paragraph around `row`, as Atom's `rowRangeForParagraphAtBufferRow`: the run of non-blank
 * rows that are all comment-only or all code, so a comment block next to code is its own paragraph. Null on a
 * blank row.
 */
export function paragraphRowRange(source: ParagraphSource, row: number): { startRow: number; endRow: number } | null {
  if (typeof row !== 'number' || !Number.isInteger(row)) throw new TypeError(`row must be an integer; got ${String(row)}`)
  const lineCount = source.getLineCount()
  if (row < 0 || row >= lineCount) return null
  const isText = (r: number) => NON_WHITESPACE.test(source.lineForRow(r) ?? '')
  if (!isText(row)) return null
  const commented = source.isRowCommented(row)
  let startRow = row
  while (startRow > 0 && isText(startRow - 1) && source.isRowCommented(startRow - 1) === commented) startRow--
  let endRow = row
  while (endRow + 1 < lineCount && isText(endRow + 1) && source.isRowCommented(endRow + 1) === commented) endRow++
  return { startRow, endRow }
}
