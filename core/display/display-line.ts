import { FOLD_PLACEHOLDER, pieceText, type DisplayLine, type Piece, type TextPiece } from './layout.ts'

import type { ClipDirection } from '../point/unicode.ts'

export type { ClipDirection }

/** A buffer position in plain numbers. */
export interface RowColumn {
  readonly row: number
  readonly column: number
}

const TAB = 9

function compare(rowA: number, columnA: number, rowB: number, columnB: number): number {
  return rowA === rowB ? columnA - columnB : rowA - rowB
}

function pieceStart(piece: Piece): RowColumn {
  return piece.kind === 'text' ? { row: piece.row, column: piece.start } : { row: piece.fold.startRow, column: piece.fold.startColumn }
}

/** The text of buffer row `row`, one of the rows the display line shows. */
export function lineOfRow(line: DisplayLine, row: number): string {
  for (const piece of line.pieces) if (piece.kind === 'text' && piece.row === row) return piece.line
  return ''
}

/** The buffer position where screen row `k` of the display line starts. */
export function rowStartPosition(line: DisplayLine, k: number): RowColumn {
  const row = line.rows[k]!
  const piece = line.pieces[row.piece]!
  return piece.kind === 'text' ? { row: piece.row, column: row.column } : pieceStart(piece)
}

/** The buffer position where the display line ends (after its last character). */
export function endPosition(line: DisplayLine): RowColumn {
  const last = line.pieces[line.pieces.length - 1]!
  return last.kind === 'text' ? { row: last.row, column: last.end } : { row: last.fold.endRow, column: last.fold.endColumn }
}

/**
 * The position of the last character before screen row `k` (k >= 1): where a position at the end of
 * a wrapped row or in the next row's indentation goes when it clips back (Atom: one column back).
 */
export function positionBeforeRow(line: DisplayLine, k: number): RowColumn {
  const row = line.rows[k]!
  let p = row.piece
  const piece = line.pieces[p]!
  if (piece.kind === 'text' && row.column > piece.start) return { row: piece.row, column: row.column - 1 }
  for (p--; p >= 0; p--) {
    const previous = line.pieces[p]!
    if (previous.kind === 'fold') return pieceStart(previous)
    if (previous.end > previous.start) return { row: previous.row, column: previous.end - 1 }
  }
  return rowStartPosition(line, 0)
}

/** The screen row (index within the display line) that shows buffer position (row, column). */
export function rowIndexForPosition(line: DisplayLine, row: number, column: number): number {
  let lo = 0
  let hi = line.rows.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    const start = rowStartPosition(line, mid)
    if (compare(start.row, start.column, row, column) <= 0) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** Screen column of buffer position (row, column) on screen row `k`; the position is not inside a fold. */
export function screenColumnForPosition(line: DisplayLine, k: number, row: number, column: number, tabLength: number): number {
  const layout = line.rows[k]!
  const { pieces } = line
  // One piece and no tab: a column per code unit from the row's start (the text is not read).
  if (!line.hasTab && pieces.length === 1) {
    const piece = pieces[0] as TextPiece
    const target = piece.row === row && column >= layout.column && column <= piece.end ? column : piece.end
    return layout.indent + Math.max(0, target - layout.column)
  }
  let screenColumn = layout.indent
  let i = layout.column
  for (let p = layout.piece; p < pieces.length; p++) {
    const piece = pieces[p]!
    if (p > layout.piece) i = piece.kind === 'text' ? piece.start : 0
    if (piece.kind === 'fold') {
      // A row can start at a fold (the wrap came right before it): its start is that row's column.
      if (piece.fold.startRow === row && piece.fold.startColumn === column) return screenColumn
      screenColumn++
      continue
    }
    const target = piece.row === row && column >= i && column <= piece.end ? column : piece.end
    const text = piece.line
    for (; i < target; i++) {
      screenColumn += text.charCodeAt(i) === TAB ? tabLength - (screenColumn % tabLength) : 1
    }
    if (target === column && piece.row === row) return screenColumn
  }
  return screenColumn
}

/**
 * The buffer position shown at `column` of screen row `k` (column already within [0, row length]).
 * Inside a hard tab the direction decides; `closest` goes after the tab only past its rounded-up
 * midpoint (a tab over columns 1-4 maps column 3 before it). The indentation of a continuation row
 * and the end of a wrapped row belong to the wrap: see `DisplayLayer.bufferPositionForScreenPosition`.
 */
export function positionForScreenColumn(
  line: DisplayLine,
  k: number,
  column: number,
  direction: ClipDirection,
  skipSoftWrapIndentation: boolean,
  tabLength: number,
): RowColumn {
  const layout = line.rows[k]!
  const isLastRow = k === line.rows.length - 1
  if (k > 0 && column < layout.indent) {
    return direction === 'backward' && !skipSoftWrapIndentation ? positionBeforeRow(line, k) : rowStartPosition(line, k)
  }
  if (!isLastRow && column >= layout.length) {
    return direction === 'closest' || (direction === 'backward' && !skipSoftWrapIndentation)
      ? positionBeforeRow(line, k + 1)
      : rowStartPosition(line, k + 1)
  }
  const { pieces } = line
  // One piece and no tab: a code unit per column from the row's start (the text is not read).
  if (!line.hasTab && pieces.length === 1) {
    const piece = pieces[0] as TextPiece
    const at = layout.column + column - layout.indent
    return at < piece.end ? { row: piece.row, column: at } : endPosition(line)
  }
  let screenColumn = layout.indent
  let i = layout.column
  for (let p = layout.piece; p < pieces.length; p++) {
    const piece = pieces[p]!
    if (p > layout.piece) i = piece.kind === 'text' ? piece.start : 0
    if (piece.kind === 'fold') {
      if (column === screenColumn) return pieceStart(piece)
      screenColumn++
      continue
    }
    const text = piece.line
    for (; i < piece.end; i++) {
      if (column === screenColumn) return { row: piece.row, column: i }
      if (text.charCodeAt(i) === TAB) {
        const tabEnd = screenColumn + tabLength - (screenColumn % tabLength)
        if (column < tabEnd) {
          if (direction === 'backward') return { row: piece.row, column: i }
          if (direction === 'forward') return { row: piece.row, column: i + 1 }
          return { row: piece.row, column: column > Math.ceil((screenColumn + tabEnd) / 2) ? i + 1 : i }
        }
        screenColumn = tabEnd
      } else {
        screenColumn++
      }
    }
    if (column === screenColumn && p + 1 < pieces.length) return { row: piece.row, column: piece.end }
  }
  return endPosition(line)
}

/** The text of screen row `k`: wrap indentation and tabs as spaces, each fold as the placeholder. */
export function screenRowText(line: DisplayLine, k: number, tabLength: number): string {
  const layout = line.rows[k]!
  const next = line.rows[k + 1]
  const { pieces } = line
  let out = ' '.repeat(layout.indent)
  let screenColumn = layout.indent
  let i = layout.column
  for (let p = layout.piece; p < pieces.length; p++) {
    const piece = pieces[p]!
    if (p > layout.piece) i = piece.kind === 'text' ? piece.start : 0
    if (next && p === next.piece && (piece.kind === 'fold' || i === next.column)) break
    if (piece.kind === 'fold') {
      out += FOLD_PLACEHOLDER
      screenColumn++
      continue
    }
    const end = next && next.piece === p ? next.column : piece.end
    if (!line.hasTab) {
      // No tab: the screen row shows the piece's text as it is (read without the rest of a long row).
      out += pieceText(piece, i, end)
      screenColumn += end - i
      if (next && next.piece === p) break
      continue
    }
    const text = piece.line
    let runStart = i
    for (; i < end; i++) {
      if (text.charCodeAt(i) !== TAB) {
        screenColumn++
        continue
      }
      out += text.slice(runStart, i)
      const spaces = tabLength - (screenColumn % tabLength)
      out += ' '.repeat(spaces)
      screenColumn += spaces
      runStart = i + 1
    }
    out += text.slice(runStart, end)
    if (next && next.piece === p) break
  }
  return out
}
