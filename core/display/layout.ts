import { charWidthAt } from './char-width.ts'
import type { FoldSpan } from './fold-set.ts'

/** What a fold shows as on screen: one column. */
export const FOLD_PLACEHOLDER = '⋯'

/**
 * A display line is one buffer row, or several joined by folds: the visible text of each row as a
 * text piece, each (merged) fold as a fold piece between them. It always starts and ends with a text
 * piece (possibly empty) and alternates text, fold, text, ...
 */
export interface TextPiece {
  readonly kind: 'text'
  readonly row: number
  readonly start: number
  readonly end: number
  readonly line: string
}

export interface FoldPiece {
  readonly kind: 'fold'
  readonly fold: FoldSpan
}

export type Piece = TextPiece | FoldPiece

export interface LayoutSettings {
  readonly tabLength: number
  /** Width at which lines wrap; Infinity when soft wrap is off. */
  readonly wrapColumn: number
  readonly hangingIndent: number
}

/** One screen row of a display line. */
export interface ScreenRowLayout {
  /** The piece where the row's content starts, and the buffer column in it (0 for a fold piece). */
  readonly piece: number
  readonly column: number
  /** Columns of soft-wrap indentation before the content (0 on a display line's first row). */
  readonly indent: number
  /** Screen columns of the row, indentation and trailing whitespace included. */
  readonly length: number
}

export interface DisplayLine {
  readonly pieces: readonly Piece[]
  readonly rows: readonly ScreenRowLayout[]
  /** Width of the unwrapped line in wrap columns (tabs expanded, wide characters 2, a fold 1). */
  readonly width: number
  readonly hasTab: boolean
}

const TAB = 9
const SPACE = 32
const FOLD_CODE = -2

/** Cuts the display line that starts at `startRow` into pieces around the merged folds on it. */
export function buildPieces(startRow: number, lineForRow: (row: number) => string, folds: readonly FoldSpan[]): Piece[] {
  const pieces: Piece[] = []
  let row = startRow
  let column = 0
  let line = lineForRow(row)
  for (const fold of folds) {
    if (fold.startRow !== row || fold.startColumn < column) continue
    pieces.push({ kind: 'text', row, start: column, end: Math.min(fold.startColumn, line.length), line })
    pieces.push({ kind: 'fold', fold })
    if (fold.endRow !== row) line = lineForRow(fold.endRow)
    row = fold.endRow
    column = Math.min(fold.endColumn, line.length)
  }
  pieces.push({ kind: 'text', row, start: column, end: line.length, line })
  return pieces
}

function startOf(piece: Piece): number {
  return piece.kind === 'text' ? piece.start : 0
}

/** Lays out a display line: one screen row unless it is wider than the wrap column. */
export function layoutDisplayLine(pieces: readonly Piece[], settings: LayoutSettings): DisplayLine {
  const { tabLength } = settings
  let columns = 0
  let width = 0
  let hasTab = false
  for (const piece of pieces) {
    if (piece.kind === 'fold') {
      columns++
      width++
      continue
    }
    const { line, end } = piece
    for (let i = piece.start; i < end; i++) {
      const code = line.charCodeAt(i)
      if (code === TAB) {
        const distance = tabLength - (columns % tabLength)
        columns += distance
        width += distance
        hasTab = true
      } else {
        columns++
        width += code < 0x1100 ? 1 : charWidthAt(line, i)
      }
    }
  }
  const rows =
    width <= settings.wrapColumn
      ? [{ piece: 0, column: startOf(pieces[0]!), indent: 0, length: columns }]
      : wrapRows(pieces, settings)
  return { pieces, rows, width, hasTab }
}

/**
 * Atom's soft wrap: break before the character that would pass the wrap column, at the last word
 * start (whitespace followed by non-whitespace) on the row when there is one, inside the word when
 * there is none. Continuation rows are indented like the line's leading whitespace (unless that is
 * not narrower than the wrap column) plus the hanging indent (when that still fits). After a break
 * the layout resumes from the break, so tabs re-expand from their new columns.
 * As in Atom, the character "before" a position is the buffer's (a fold is transparent): the text
 * after a fold starts a word when the folded text ended with a space, and nothing breaks right after
 * a fold that ends at column 0.
 */
function wrapRows(pieces: readonly Piece[], settings: LayoutSettings): ScreenRowLayout[] {
  const { tabLength, wrapColumn, hangingIndent } = settings
  const rows: ScreenRowLayout[] = []
  const count = pieces.length
  let p = 0
  let i = startOf(pieces[0]!)
  let rowPiece = p
  let rowColumn = i
  let indent = 0
  let column = 0
  let width = 0
  let firstNonWhitespace = -1
  let boundaryPiece = -1
  let boundaryIndex = 0
  let boundaryColumn = 0
  while (p < count) {
    const piece = pieces[p]!
    let code: number
    let previous: number
    if (piece.kind === 'text') {
      if (i >= piece.end) {
        p++
        if (p < count) i = startOf(pieces[p]!)
        continue
      }
      code = piece.line.charCodeAt(i)
      previous = i > 0 ? piece.line.charCodeAt(i - 1) : -1
    } else {
      code = FOLD_CODE
      const column = piece.fold.startColumn
      previous = column > 0 ? (pieces[p - 1] as TextPiece).line.charCodeAt(column - 1) : -1
    }
    const isWhitespace = code === SPACE || code === TAB
    const atRowStart = p === rowPiece && i === rowColumn
    if (firstNonWhitespace < 0) {
      if (!isWhitespace) firstNonWhitespace = column
    } else if (!atRowStart && !isWhitespace && (previous === SPACE || previous === TAB)) {
      boundaryPiece = p
      boundaryIndex = i
      boundaryColumn = column
    }
    const characterWidth =
      code === TAB ? tabLength - (column % tabLength) : code === FOLD_CODE ? 1 : charWidthAt((piece as TextPiece).line, i)
    if (!atRowStart && previous >= 0 && width > 0 && characterWidth > 0 && width + characterWidth > wrapColumn) {
      let breakColumn = column
      if (boundaryPiece >= 0) {
        p = boundaryPiece
        i = boundaryIndex
        breakColumn = boundaryColumn
      }
      rows.push({ piece: rowPiece, column: rowColumn, indent, length: breakColumn })
      indent = firstNonWhitespace >= 0 && firstNonWhitespace < wrapColumn ? firstNonWhitespace : 0
      if (indent + hangingIndent < wrapColumn) indent += hangingIndent
      rowPiece = p
      rowColumn = i
      column = indent
      width = indent
      boundaryPiece = -1
      continue
    }
    if (code === FOLD_CODE) {
      column++
      width++
      p++
      if (p < count) i = startOf(pieces[p]!)
    } else {
      column += code === TAB ? characterWidth : 1
      width += characterWidth
      i++
    }
  }
  rows.push({ piece: rowPiece, column: rowColumn, indent, length: column })
  return rows
}
