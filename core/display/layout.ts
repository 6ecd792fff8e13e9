import { charWidthAt } from './char-width.ts'
import { hasHalfPairAtEdge, isClusterBoundary, isHighSurrogate, splitsSurrogatePair } from '../point/unicode.ts'
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
/** How far around a position deciding whether it is a grapheme cluster boundary may read (unicode.ts's window). */
const CLUSTER_READ = 64
const SPACE = 32

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

/** Size of a display line without its row layout: what the row index stores. */
export interface LineMeasure {
  rowCount: number
  width: number
  hasTab: boolean
}

/** Measures one piece of text from screen column `columns` into `out` (width, tab); returns the new column. */
function measureText(line: string, from: number, to: number, columns: number, tabLength: number, out: LineMeasure): number {
  let width = out.width
  for (let i = from; i < to; i++) {
    const code = line.charCodeAt(i)
    if (code === TAB) {
      const distance = tabLength - (columns % tabLength)
      columns += distance
      width += distance
      out.hasTab = true
    } else {
      columns++
      width += code < 0x1100 ? 1 : charWidthAt(line, i)
    }
  }
  out.width = width
  return columns
}

/** Measures the pieces into `out`; returns the unwrapped line's screen columns. */
function measurePieces(pieces: readonly Piece[], tabLength: number, out: LineMeasure): number {
  out.width = 0
  out.hasTab = false
  let columns = 0
  for (const piece of pieces) {
    if (piece.kind === 'fold') {
      columns++
      out.width++
    } else {
      columns = measureText(piece.line, piece.start, piece.end, columns, tabLength, out)
    }
  }
  return columns
}

/** Lays out a display line: one screen row unless it is wider than the wrap column. */
export function layoutDisplayLine(pieces: readonly Piece[], settings: LayoutSettings): DisplayLine {
  const measure: LineMeasure = { rowCount: 1, width: 0, hasTab: false }
  const columns = measurePieces(pieces, settings.tabLength, measure)
  const rows: ScreenRowLayout[] = []
  if (measure.width <= settings.wrapColumn) rows.push({ piece: 0, column: startOf(pieces[0]!), indent: 0, length: columns })
  else wrapRows(pieces, settings, rows)
  return { pieces, rows, width: measure.width, hasTab: measure.hasTab }
}

/** Counts the screen rows of a display line into `out` without keeping its layout. */
export function measureDisplayLine(pieces: readonly Piece[], settings: LayoutSettings, out: LineMeasure): void {
  measurePieces(pieces, settings.tabLength, out)
  out.rowCount = out.width <= settings.wrapColumn ? 1 : wrapRows(pieces, settings, null)
}

/** `measureDisplayLine` for a buffer row with no fold on it; allocates only when the row wraps. */
export function measureRow(row: number, line: string, settings: LayoutSettings, out: LineMeasure): void {
  out.width = 0
  out.hasTab = false
  measureText(line, 0, line.length, 0, settings.tabLength, out)
  out.rowCount = out.width <= settings.wrapColumn ? 1 : wrapRows([{ kind: 'text', row, start: 0, end: line.length, line }], settings, null)
}

/**
 * The unwrapped width of a row after an edit inside it, from its width before, reading only the
 * edit's text and the text between the hard tabs around it: the old and new text are measured from
 * the edit's column (known modulo the tab length from the tab before it), and the first tab after
 * the edit changes width with the columns before it; past that tab the columns line up with the old
 * ones again. Sets `out.width` and `out.hasTab`; answers false (having set nothing) when an edge of
 * the edit splits a surrogate pair, for the caller to measure the whole row.
 */
export function measureEditedRow(
  line: string,
  oldWidth: number,
  oldHasTab: boolean,
  start: number,
  oldText: string,
  newText: string,
  tabLength: number,
  out: LineMeasure,
): boolean {
  const end = start + newText.length
  if (splitsSurrogatePair(line, start) || splitsSurrogatePair(line, end) || hasHalfPairAtEdge(oldText) || hasHalfPairAtEdge(newText)) return false
  const tabs = oldHasTab || newText.includes('\t')
  // The edit's column modulo the tab length: every tab ends on a tab stop.
  const column = tabs && start > 0 ? start - line.lastIndexOf('\t', start - 1) - 1 : 0
  const scratch: LineMeasure = { rowCount: 1, width: 0, hasTab: false }
  const oldEnd = measureText(oldText, 0, oldText.length, column, tabLength, scratch)
  const oldTextWidth = scratch.width
  const oldTextTab = scratch.hasTab
  scratch.width = 0
  scratch.hasTab = false
  const newEnd = measureText(newText, 0, newText.length, column, tabLength, scratch)
  let width = oldWidth - oldTextWidth + scratch.width
  if (tabs) {
    const nextTab = line.indexOf('\t', end)
    if (nextTab >= 0) {
      const gap = nextTab - end
      width += tabLength - ((newEnd + gap) % tabLength) - (tabLength - ((oldEnd + gap) % tabLength))
    }
  }
  out.width = width
  // Deleting a tab may have deleted the row's last one.
  out.hasTab = scratch.hasTab || (oldHasTab && (!oldTextTab || line.includes('\t')))
  return true
}

/** Reads the text of one buffer row between two columns (0 <= from <= to <= the row's length). */
export type RowReader = (from: number, to: number) => string

/**
 * The text piece of a re-wrapped row: its whole text is read from the buffer only when a reader asks
 * for it (drawing the row's screen rows, a tab's width), not on every keystroke in a long row.
 */
class RowTextPiece implements TextPiece {
  readonly kind = 'text' as const
  readonly start = 0
  private text: string | null = null

  constructor(
    readonly row: number,
    readonly end: number,
    private readonly read: RowReader,
  ) {}

  /** The row's whole text, read once. */
  get line(): string {
    if (this.text === null) this.text = this.read(0, this.end)
    return this.text
  }

  /** The row's text between two columns, read alone unless the whole text was read already. */
  slice(from: number, to: number): string {
    return this.text === null ? this.read(from, to) : this.text.slice(from, to)
  }
}

/** A text piece's text between two columns (0 <= from <= to <= its row's length), not reading a long row whole. */
export function pieceText(piece: TextPiece, from: number, to: number): string {
  return piece instanceof RowTextPiece ? piece.slice(from, to) : piece.line.slice(from, to)
}

/** Characters before the re-wrap's first row that a cluster-boundary test may read (unicode.ts reads 66). */
const WINDOW_BEFORE = 80

/** Where `wrapRows` starts when it re-wraps part of a one-piece line, and where it may stop. */
interface WrapResume {
  /** Index in the line where a row starts, and that row's indentation (0 on the first row). */
  readonly index: number
  readonly indent: number
  /** The line's first non-whitespace screen column; -1 to find it (from the first row). */
  readonly firstNonWhitespace: number
  /** Whether a row starting at this index ends the re-wrap (the rest of the layout is known). */
  stop(index: number): boolean
}

/**
 * The layout of a wrapped display line of one buffer row, no fold, after an edit inside it, from its
 * layout before: the rows that cannot have seen the edit stay, the rows from there are wrapped
 * again until one starts where an old row started (moved by the edit), and the old rows from there
 * on are reused, moved. A row's layout depends only on where it starts and on the continuation indent,
 * so from such a row on nothing changes. Null when the edit reaches into the line's leading
 * whitespace (which sets the indent of every continuation row), or when that whitespace fills the
 * first row (the indent then changes from row to row): lay the line out whole then.
 * `oldEnd` and `newEnd` are the ends of the replaced and the inserted text. The row's text is read
 * through `read`, only around the edit: the re-wrap reads a window from a little before the first row
 * it wraps again, and a wider one (up to the whole row) when the rows have not realigned inside it.
 * `old` is consumed: its rows are reused, in place, by the answer.
 */
export function rewrapEditedLine(
  old: DisplayLine,
  read: RowReader,
  lineLength: number,
  row: number,
  start: number,
  oldEnd: number,
  newEnd: number,
  measure: LineMeasure,
  settings: LayoutSettings,
): DisplayLine | null {
  const oldRows = old.rows
  if (old.pieces.length !== 1 || oldRows.length < 2) return null
  // Only the leading whitespace up to the second row's start matters (past it the answer is null).
  const line = read(0, Math.min(lineLength, oldRows[1]!.column + 1))
  let leading = 0
  let leadingColumns = 0
  for (; leading < line.length; leading++) {
    const code = line.charCodeAt(leading)
    if (code === SPACE) leadingColumns++
    else if (code === TAB) leadingColumns += settings.tabLength - (leadingColumns % settings.tabLength)
    else break
  }
  // Continuation rows share one indent only when the first row holds the first non-whitespace character.
  if (start <= leading || leading >= oldRows[1]!.column) return null
  const delta = newEnd - oldEnd
  // The old row holding the edit's start.
  let k = 0
  for (let lo = 0, hi = oldRows.length - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1
    if (oldRows[mid]!.column <= start) {
      k = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  // A row's break can look ahead to the character that did not fit (at most two code units per
  // column past its start) and go back to a word start: every row that may have seen the edit is
  // wrapped again.
  // A row that ends with a grapheme cluster reaching past the wrap column is longer, and whether its end is a
  // cluster boundary reads the text after it: the row before an edit close to a row start is wrapped again too.
  let from = k
  while (from > 0 && (oldRows[from - 1]!.column + 2 * settings.wrapColumn + 2 > start || oldRows[from]!.column + CLUSTER_READ > start)) from--
  const resumeIndex = oldRows[from]!.column
  const base = Math.max(0, resumeIndex - WINDOW_BEFORE)
  // A row's break reads at most 2 x wrap column + 2 code units past its start, and a boundary test
  // 66 more: rows that realign this far before the window's end were wrapped as on the whole row.
  const reach = 2 * settings.wrapColumn + 2 + WINDOW_BEFORE
  let windowEnd = Math.min(lineLength, newEnd + 4 * reach)
  let synced = -1
  let syncIndex = -1
  const stop = (local: number): boolean => {
    const index = local + base
    if (index < newEnd) return false
    const target = index - delta
    for (let lo = k, hi = oldRows.length - 1; lo <= hi; ) {
      const mid = (lo + hi) >> 1
      const column = oldRows[mid]!.column
      if (column === target) {
        synced = mid
        syncIndex = index
        return true
      }
      if (column < target) lo = mid + 1
      else hi = mid - 1
    }
    return false
  }
  const resume: WrapResume = {
    index: resumeIndex - base,
    indent: oldRows[from]!.indent,
    firstNonWhitespace: from === 0 ? -1 : leadingColumns,
    stop,
  }
  let wrapped: ScreenRowLayout[]
  for (;;) {
    const window = read(base, windowEnd)
    wrapped = []
    synced = -1
    wrapRows([{ kind: 'text', row, start: 0, end: window.length, line: window }], settings, wrapped, resume)
    if (windowEnd === lineLength || (synced >= 0 && syncIndex + reach <= windowEnd)) break
    windowEnd = Math.min(lineLength, base + 4 * (windowEnd - base))
  }
  // The rows before the first one wrapped again stay; the new rows go in; the old rows from the
  // realigned one on move by the edit's length (in place: `old` is not used again).
  const rows = oldRows as ScreenRowLayout[]
  const kept = synced >= 0 ? synced : oldRows.length
  for (const wrappedRow of wrapped) (wrappedRow as { column: number }).column += base
  if (synced >= 0 && delta !== 0) for (let j = synced; j < rows.length; j++) (rows[j] as { column: number }).column += delta
  rows.splice(from, kept - from, ...wrapped)
  measure.rowCount = rows.length
  return { pieces: [new RowTextPiece(row, lineLength, read)], rows, width: measure.width, hasTab: measure.hasTab }
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
 * Pushes the rows into `rows` when given; returns how many there are.
 */
function wrapRows(pieces: readonly Piece[], settings: LayoutSettings, rows: ScreenRowLayout[] | null, resume?: WrapResume): number {
  const { tabLength, wrapColumn, hangingIndent } = settings
  const count = pieces.length
  let rowCount = 0
  let p = 0
  let i = resume?.index ?? startOf(pieces[0]!)
  let rowPiece = p
  let rowColumn = i
  let indent = resume?.indent ?? 0
  let column = indent
  let width = indent
  let firstNonWhitespace = resume?.firstNonWhitespace ?? -1
  let boundaryPiece = -1
  let boundaryIndex = 0
  let boundaryColumn = 0
  // Where the layout goes on after a break: the boundary, or the character that did not fit.
  let breakPiece = -1
  let breakIndex = 0
  let breakColumn = 0
  pieces: while (p < count) {
    const piece = pieces[p]!
    if (piece.kind === 'fold') {
      const foldColumn = piece.fold.startColumn
      const previous = foldColumn > 0 ? (pieces[p - 1] as TextPiece).line.charCodeAt(foldColumn - 1) : -1
      const atRowStart = p === rowPiece
      if (firstNonWhitespace < 0) firstNonWhitespace = column
      else if (!atRowStart && (previous === SPACE || previous === TAB)) {
        boundaryPiece = p
        boundaryIndex = 0
        boundaryColumn = column
      }
      if (!atRowStart && previous >= 0 && width > 0 && width + 1 > wrapColumn) {
        breakPiece = p
        breakIndex = 0
        breakColumn = column
      } else {
        column++
        width++
        p++
        if (p < count) i = startOf(pieces[p]!)
        continue
      }
    } else {
      const { line, end } = piece
      const rowStartHere = p === rowPiece ? rowColumn : -1
      let previous = i > 0 ? line.charCodeAt(i - 1) : -1
      for (; i < end; i++) {
        const code = line.charCodeAt(i)
        const isWhitespace = code === SPACE || code === TAB
        if (firstNonWhitespace < 0) {
          if (!isWhitespace) firstNonWhitespace = column
        } else if (!isWhitespace && (previous === SPACE || previous === TAB) && i !== rowStartHere && (code < 0x300 || isClusterBoundary(line, i))) {
          boundaryPiece = p
          boundaryIndex = i
          boundaryColumn = column
        }
        const characterWidth = code === TAB ? tabLength - (column % tabLength) : code < 0x1100 ? 1 : charWidthAt(line, i)
        // A surrogate pair counts only its first unit for fitting, and nothing breaks inside a grapheme cluster
        // (Atom's isCharacterPair): a cluster reaching across the wrap column stays on its row, the wrap after it.
        const fitWidth = isHighSurrogate(code) ? 1 : characterWidth
        if (width + fitWidth > wrapColumn && width > 0 && characterWidth > 0 && previous >= 0 && i !== rowStartHere && isClusterBoundary(line, i)) {
          breakPiece = p
          breakIndex = i
          breakColumn = column
          break
        }
        column += code === TAB ? characterWidth : 1
        width += characterWidth
        previous = code
      }
      if (breakPiece < 0) {
        p++
        if (p < count) i = startOf(pieces[p]!)
        continue pieces
      }
    }
    if (boundaryPiece >= 0) {
      breakPiece = boundaryPiece
      breakIndex = boundaryIndex
      breakColumn = boundaryColumn
    }
    rows?.push({ piece: rowPiece, column: rowColumn, indent, length: breakColumn })
    rowCount++
    indent = firstNonWhitespace >= 0 && firstNonWhitespace < wrapColumn ? firstNonWhitespace : 0
    if (indent + hangingIndent < wrapColumn) indent += hangingIndent
    p = rowPiece = breakPiece
    i = rowColumn = breakIndex
    if (resume?.stop(i)) return -1
    column = indent
    width = indent
    boundaryPiece = -1
    breakPiece = -1
  }
  rows?.push({ piece: rowPiece, column: rowColumn, indent, length: column })
  return rowCount + 1
}
