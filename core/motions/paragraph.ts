import { Point, type PointLike } from '../point/point.ts'
import { type LineSource, assertLineSource, clipPoint, endOfText, lastRowOf, lineAt } from './line-source.ts'

/*
 * Atom moves between paragraphs by scanning for `\n[\t ]*\n`: a row holding only spaces and tabs with a
 * line break on both sides. Going forward the scan starts at the cursor, so the next such row is the
 * stop. Going backward Atom scans from the top of the text and keeps the last match; the scan is global,
 * so in a run of such rows the matches alternate (each match consumes the break that the next row's
 * match would start with), and counted from the first row of the run that has a break before it, only
 * every other row is a stop. These functions reproduce those matches row by row instead of scanning
 * text. Rows end wherever the LineSource says (Atom's pattern knew only '\n' and '\r\n', not a lone '\r').
 */

const BLANK = /^[\t ]*$/

function isSpacesOnly(lines: LineSource, row: number): boolean {
  return BLANK.test(lineAt(lines, row))
}

/**
 * Atom's `moveToBeginningOfNextParagraph`: the start of the first row below the position that holds only
 * spaces or tabs and is not the last row; with none, one column before the end of the text (clipped,
 * so the start of an empty last row).
 */
export function beginningOfNextParagraph(lines: LineSource, position: PointLike): Point {
  assertLineSource(lines)
  const current = clipPoint(lines, position)
  const lastRow = lastRowOf(lines)
  for (let row = current.row + 1; row < lastRow; row++) {
    if (isSpacesOnly(lines, row)) return new Point(row, 0)
  }
  const end = endOfText(lines)
  return clipPoint(lines, new Point(end.row, end.column - 1), 'backward')
}

/**
 * Atom's `moveToBeginningOfPreviousParagraph`: Atom scans from the top of the text up to the row above
 * the position (at the position's column), and goes to the row of the last `\n[\t ]*\n` match found,
 * or to (0, 0). A match must end by then, so its row is at least two rows above the position.
 */
export function beginningOfPreviousParagraph(lines: LineSource, position: PointLike): Point {
  assertLineSource(lines)
  const current = clipPoint(lines, position)
  let row = current.row - 2
  while (row >= 0) {
    if (!isSpacesOnly(lines, row)) {
      row--
      continue
    }
    // `row` is the lowest candidate of a run of spaces-only rows; find where the run starts.
    let runStart = row
    while (runStart > 0 && isSpacesOnly(lines, runStart - 1)) runStart--
    // Row 0 has no break before it, so a run at the top first matches on row 1.
    const firstMatch = Math.max(runStart, 1)
    if (row >= firstMatch) return new Point((row - firstMatch) % 2 === 0 ? row : row - 1, 0)
    row = runStart - 1
  }
  return Point.ZERO
}

const NON_WHITESPACE = /\S/

/**
 * Atom's `rowRangeForParagraphAtBufferRow` (what `getCurrentParagraphBufferRange` spans): the rows around
 * `row` that have a non-whitespace character and, when `isCommentRow` is given, are comment rows exactly
 * when `row` is. Null when `row` has no non-whitespace character. `row` is clipped to the text.
 */
export function paragraphRowRange(
  lines: LineSource,
  row: number,
  isCommentRow?: (row: number) => boolean,
): [number, number] | null {
  assertLineSource(lines)
  if (typeof row !== 'number') throw new TypeError(`row must be a number; got ${typeof row}`)
  if (isCommentRow !== undefined && typeof isCommentRow !== 'function') {
    throw new TypeError(`isCommentRow must be a function; got ${typeof isCommentRow}`)
  }
  const lastRow = lastRowOf(lines)
  const target = Number.isNaN(row) ? 0 : Math.max(0, Math.min(lastRow, Math.floor(row)))
  const belongs = (r: number, commented: boolean) =>
    NON_WHITESPACE.test(lineAt(lines, r)) && (isCommentRow === undefined || Boolean(isCommentRow(r)) === commented)
  if (!NON_WHITESPACE.test(lineAt(lines, target))) return null
  const commented = isCommentRow !== undefined && Boolean(isCommentRow(target))
  let startRow = target
  while (startRow > 0 && belongs(startRow - 1, commented)) startRow--
  let endRow = target
  while (endRow < lastRow && belongs(endRow + 1, commented)) endRow++
  return [startRow, endRow]
}
