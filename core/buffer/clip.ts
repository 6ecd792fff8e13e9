/** NaN becomes 0; infinities are kept so that Infinity means "the end", as in Atom. */
export function toFiniteNumber(value: number): number {
  return Number.isNaN(value) ? 0 : value
}

/**
 * Clips a column into a line's content (its first `contentLength` characters, default all) and out
 * of the middle of a surrogate pair.
 */
export function clipColumn(line: string, column: number, contentLength = line.length): number {
  if (column <= 0) return 0
  if (column >= contentLength) return contentLength
  const before = line.charCodeAt(column - 1)
  const after = line.charCodeAt(column)
  if (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff) return column - 1
  return column
}
