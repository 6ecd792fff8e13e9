/**
 * Indentation-based fold ranges, as Atom's plain-text (TextMate) language mode finds them: a fold
 * starts at a non-blank row and runs over the following rows indented deeper than it (blank rows in
 * between included), up to the last such row.
 */

/** The lines the search reads (TextBuffer has these). */
export interface FoldableLines {
  lineForRow(row: number): string | undefined
  getLineCount(): number
}

const NON_WHITESPACE = /\S/

/** Leading whitespace width, tabs expanded to tab stops of `tabLength`. */
export function indentLengthForLine(line: string, tabLength: number): number {
  let length = 0
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i)
    if (code === 9) length += tabLength - (length % tabLength)
    else if (code === 32) length++
    else break
  }
  return length
}

/**
 * The last row of the fold that starts at `row`, or null when no fold starts there. With
 * `existenceOnly` it stops at the first deeper row (enough to know there is a fold).
 */
export function endRowForFoldAtRow(lines: FoldableLines, row: number, tabLength: number, existenceOnly = false): number | null {
  const line = lines.lineForRow(row)
  if (line === undefined || !NON_WHITESPACE.test(line)) return null
  const startIndent = indentLengthForLine(line, tabLength)
  let endRow: number | null = null
  for (let next = row + 1, count = lines.getLineCount(); next < count; next++) {
    const nextLine = lines.lineForRow(next) ?? ''
    if (!NON_WHITESPACE.test(nextLine)) continue
    if (indentLengthForLine(nextLine, tabLength) <= startIndent) break
    endRow = next
    if (existenceOnly) break
  }
  return endRow
}

/** Atom's `isFoldableAtRow`: a fold starts at `row`, comparing indentation with every whitespace character as one column. */
export function isFoldableAtRow(lines: FoldableLines, row: number): boolean {
  return endRowForFoldAtRow(lines, row, 1, true) !== null
}

/**
 * The rows [start, end] of the fold that `row` belongs to (Atom's `getFoldableRangeContainingPoint`
 * at the end of the row): the fold starting at `row` if there is one, else the nearest one above
 * that reaches `row`. `fromRowEnd` false asks for a fold containing the start of the row instead,
 * which only an empty row can start.
 */
export function foldableRowRangeContainingRow(
  lines: FoldableLines,
  row: number,
  tabLength: number,
  fromRowEnd = true,
): [number, number] | null {
  const line = lines.lineForRow(row)
  if (line === undefined) return null
  if (fromRowEnd || line.length === 0) {
    const endRow = endRowForFoldAtRow(lines, row, tabLength)
    if (endRow !== null) return [row, endRow]
  }
  // A row above can hold `row` only if it is shallower than every non-blank row between: track the
  // minimum so that the search skips the rows Atom would test and reject (and stops at a top-level row).
  let minIndent = NON_WHITESPACE.test(line) ? indentLengthForLine(line, tabLength) : Infinity
  for (let above = row - 1; above >= 0 && minIndent > 0; above--) {
    const text = lines.lineForRow(above) ?? ''
    if (!NON_WHITESPACE.test(text)) continue
    const indent = indentLengthForLine(text, tabLength)
    if (indent < minIndent) {
      const endRow = endRowForFoldAtRow(lines, above, tabLength)
      if (endRow !== null && endRow >= row) return [above, endRow]
      minIndent = indent
    }
  }
  return null
}

/** Every indentation fold as rows [start, end], nested ones included (Atom's plain-text `getFoldableRanges`). */
export function indentationFoldRowRanges(lines: FoldableLines, tabLength: number): [number, number][] {
  const result: [number, number][] = []
  for (let row = 0, count = lines.getLineCount(); row < count; row++) {
    const endRow = endRowForFoldAtRow(lines, row, tabLength)
    if (endRow !== null) result.push([row, endRow])
  }
  return result
}

/**
 * The folds starting on rows indented exactly `level` levels, skipping the rows an earlier one covers
 * (Atom's plain-text `getFoldableRangesAtIndentLevel`).
 */
export function indentationFoldRowRangesAtLevel(lines: FoldableLines, level: number, tabLength: number): [number, number][] {
  const result: [number, number][] = []
  for (let row = 0, count = lines.getLineCount(); row < count; row++) {
    const line = lines.lineForRow(row) ?? ''
    if (indentLengthForLine(line, tabLength) / tabLength !== level) continue
    const endRow = endRowForFoldAtRow(lines, row, tabLength)
    if (endRow === null) continue
    result.push([row, endRow])
    row = endRow
  }
  return result
}
