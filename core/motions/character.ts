import { Point } from '../point/point.ts'
import { nextClusterBoundary, previousClusterBoundary } from '../point/unicode.ts'
import { type LineSource, type RowText, lastRowOf, lineAt } from './line-source.ts'
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
  return characters(lines, position, count, -1)
}

/** `count` characters to the right, across row ends; stops at the end of the last row. */
export function characterRight(lines: LineSource, position: Point, count: number): Point {
  return characters(lines, position, count, 1)
}

/** How far either side of the position a motion on a long row reads, and how near its edges it may end. */
const AROUND = 256
const MARGIN = 80

function characters(lines: LineSource, position: Point, count: number, direction: 1 | -1): Point {
  if (lines.textInRow && count < MARGIN) {
    const near = charactersNear(lines, lines.textInRow(position.row, position.column - AROUND, position.column + AROUND), position, count, direction)
    if (near) return near
  }
  let { row, column } = position
  const lastRow = lastRowOf(lines)
  let line = lineAt(lines, row)
  let remaining = count
  while (remaining > 0) {
    if (direction < 0 ? column === 0 : column >= line.length) {
      if (direction < 0 ? row === 0 : row >= lastRow) break
      row += direction
      line = lineAt(lines, row)
      column = direction < 0 ? line.length : 0
      remaining--
      continue
    }
    // A run of plain characters is crossed in one step; anything else one cluster at a time.
    const far = direction < 0 ? Math.max(0, column - remaining) : Math.min(line.length, column + remaining)
    if (direction < 0 ? isSimpleRun(line, far, column) : isSimpleRun(line, column + 1, far + 1)) {
      remaining -= Math.abs(far - column)
      column = far
    } else {
      column = direction < 0 ? previousClusterBoundary(line, column) : nextClusterBoundary(line, column)
      remaining--
    }
  }
  return new Point(row, column)
}

/**
 * The motion within the part of the row around the position, read alone; null (move over the whole
 * rows) when it ends at a row edge or so near the part's edges that text outside it could matter.
 */
function charactersNear(lines: LineSource, part: RowText, position: Point, count: number, direction: 1 | -1): Point | null {
  const { from, text, length } = part
  const local = position.column - from
  if (!Number.isInteger(position.column) || !Number.isInteger(position.row) || local < 0 || local > text.length || position.row < 0 || position.row > lastRowOf(lines)) return null
  const moved = characters({ getLineCount: () => 1, lineForRow: () => text }, new Point(0, local), count, direction).column
  const end = from + text.length
  if (from + moved <= 0 || from + moved >= length) return null
  if ((from > 0 && moved < MARGIN) || (end < length && moved > text.length - MARGIN)) return null
  return new Point(position.row, from + moved)
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
