import { Point } from '../point/point.ts'
import { nextClusterBoundary, previousClusterBoundary } from '../point/unicode.ts'
import { type LineSource, lastRowOf, lineAt } from './line-source.ts'
import { leadingWhitespaceLength } from './line.ts'

/*
 * Character and line motions, as pure functions of a `LineSource` and a position. Run over a `TextBuffer`
 * they move in buffer coordinates, over a `DisplayLayer` in screen coordinates (tabs expanded, folds as
 * one column, wrapped rows): the caller clips the result in the same space. A step is one grapheme
 * cluster, so nothing that renders as one character is split; a row break is one step.
 */

const SIMPLE = 0x300

/** True when every code unit of `line` in [from - 1, to) is below U+0300: each column there is a boundary. */
function isSimpleRun(line: string, from: number, to: number): boolean {
  for (let c = Math.max(0, from - 1); c < to; c++) if (line.charCodeAt(c) >= SIMPLE) return false
  return true
}

/** `count` characters to the left, across row starts; stops at (0, 0). */
export function characterLeft(lines: LineSource, position: Point, count: number): Point {
  let { row, column } = position
  let remaining = count
  while (remaining > 0) {
    if (column === 0) {
      if (row === 0) break
      column = lineAt(lines, --row).length
      remaining--
      continue
    }
    const line = lineAt(lines, row)
    const from = Math.max(0, column - remaining)
    if (isSimpleRun(line, from, column)) {
      remaining -= column - from
      column = from
    } else {
      column = previousClusterBoundary(line, column)
      remaining--
    }
  }
  return new Point(row, column)
}

/** `count` characters to the right, across row ends; stops at the end of the last row. */
export function characterRight(lines: LineSource, position: Point, count: number): Point {
  let { row, column } = position
  const lastRow = lastRowOf(lines)
  let line = lineAt(lines, row)
  let remaining = count
  while (remaining > 0) {
    if (column >= line.length) {
      if (row >= lastRow) break
      line = lineAt(lines, ++row)
      column = 0
      remaining--
      continue
    }
    const to = Math.min(line.length, column + remaining)
    if (isSimpleRun(line, column + 1, to + 1)) {
      remaining -= to - column
      column = to
    } else {
      column = nextClusterBoundary(line, column)
      remaining--
    }
  }
  return new Point(row, column)
}

/** `rowDelta` rows up (negative) or down at the goal column; the caller clips the column into the row. */
export function vertically(position: Point, rowDelta: number, goalColumn: number | null): Point {
  return new Point(position.row + rowDelta, goalColumn ?? position.column)
}

/** Column 0 of the position's row. */
export function beginningOfLine(_lines: LineSource, position: Point): Point {
  return new Point(position.row, 0)
}

/** The end of the position's row. */
export function endOfLine(lines: LineSource, position: Point): Point {
  return new Point(position.row, lineAt(lines, position.row).length)
}

/**
 * Atom's `moveToFirstCharacterOfLine`: the first non-whitespace character of the row, or the row's start
 * when the position is already there or the row is blank.
 */
export function firstCharacterOfLine(lines: LineSource, position: Point): Point {
  const first = lineAt(lines, position.row).search(/\S/)
  return new Point(position.row, first !== -1 && first !== position.column ? first : 0)
}

/** The end of the run of spaces and tabs at the start of the row, if the position is inside it. */
export function afterLeadingWhitespace(lines: LineSource, position: Point): Point {
  const end = leadingWhitespaceLength(lineAt(lines, position.row))
  return end > position.column ? new Point(position.row, end) : position
}

/** (0, 0). */
export function top(): Point {
  return Point.ZERO
}

/** The end of the last row. */
export function bottom(lines: LineSource): Point {
  const row = lastRowOf(lines)
  return new Point(row, lineAt(lines, row).length)
}
