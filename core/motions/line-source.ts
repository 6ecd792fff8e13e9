import { Point, type PointLike } from '../point/point.ts'
import { clipColumn, type ClipDirection } from '../point/unicode.ts'

/**
 * The narrow view of a text that every motion reads: rows of text without their line endings.
 * `TextBuffer` satisfies it for buffer coordinates; a display layer can satisfy it for screen rows.
 */
export interface LineSource {
  getLineCount(): number
  lineForRow(row: number): string | undefined
  /**
   * Optional, for a source whose rows can be long: the text of `row` between two columns (clamped into
   * it) and the row's length. A motion then reads a long row only around the position it moves from.
   */
  textInRow?(row: number, from: number, to: number): RowText
}

/** Part of a row: its text from column `from` on, and the whole row's length. */
export interface RowText {
  readonly from: number
  readonly text: string
  readonly length: number
}

export type { ClipDirection }

/** A `LineSource` over a plain string; `'\n'`, `'\r\n'` and `'\r'` each end a line, as in `TextBuffer`. */
export function linesOf(text: string): LineSource {
  if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
  const rows = text.split(/\r\n|\r|\n/)
  return {
    getLineCount: () => rows.length,
    lineForRow: (row: number) => (Number.isInteger(row) && row >= 0 && row < rows.length ? rows[row] : undefined),
  }
}

/** Throws a TypeError naming the argument unless `lines` looks like a `LineSource`. */
export function assertLineSource(lines: unknown, name = 'lines'): asserts lines is LineSource {
  const candidate = lines as Partial<LineSource> | null
  if (
    candidate === null ||
    typeof candidate !== 'object' ||
    typeof candidate.getLineCount !== 'function' ||
    typeof candidate.lineForRow !== 'function'
  ) {
    throw new TypeError(`${name} must be a LineSource (getLineCount() and lineForRow(row)); got ${typeof lines}`)
  }
}

/** The last row; a source that reports no lines is treated as one empty line, like an empty buffer. */
export function lastRowOf(lines: LineSource): number {
  return Math.max(0, lines.getLineCount() - 1)
}

/** The text of `row`, or `''` outside the source. */
export function lineAt(lines: LineSource, row: number): string {
  return lines.lineForRow(row) ?? ''
}

/** The position after the last character. */
export function endOfText(lines: LineSource): Point {
  const lastRow = lastRowOf(lines)
  return new Point(lastRow, lineAt(lines, lastRow).length)
}

/**
 * Clips a position into the text as `TextBuffer#clipPosition` does (rows before the start go to the
 * start, rows after the end go to the end, NaN counts as 0), and out of a surrogate pair in `direction`.
 */
export function clipPoint(lines: LineSource, position: PointLike, direction: ClipDirection = 'backward'): Point {
  const point = Point.fromObject(position, false, 'position')
  const row = Number.isNaN(point.row) ? 0 : point.row
  if (row < 0) return Point.ZERO
  const lastRow = lastRowOf(lines)
  if (row > lastRow) return endOfText(lines)
  const clippedRow = Math.floor(row)
  const column = clipColumn(lineAt(lines, clippedRow), point.column, direction)
  return clippedRow === point.row && column === point.column ? point : new Point(clippedRow, column)
}

const NON_WHITESPACE = /\S/

/** True when the row has no non-whitespace character (Atom's `TextBuffer#isRowBlank`). */
export function isBlankRow(lines: LineSource, row: number): boolean {
  return !NON_WHITESPACE.test(lineAt(lines, row))
}

/** The nearest row above `row` that is not blank, or null (Atom's `TextBuffer#previousNonBlankRow`). */
export function previousNonBlankRow(lines: LineSource, row: number): number | null {
  for (let r = Math.min(row, lastRowOf(lines) + 1) - 1; r >= 0; r--) if (!isBlankRow(lines, r)) return r
  return null
}

/** The text between two positions (start <= end, both clipped), rows joined with `'\n'`. */
export function textBetween(lines: LineSource, start: Point, end: Point): string {
  if (start.row === end.row) return lineAt(lines, start.row).slice(start.column, end.column)
  const parts = [lineAt(lines, start.row).slice(start.column)]
  for (let row = start.row + 1; row < end.row; row++) parts.push(lineAt(lines, row))
  parts.push(lineAt(lines, end.row).slice(0, end.column))
  return parts.join('\n')
}
