import type { TextBuffer } from '../buffer/text-buffer.ts'
import { clipColumn } from '../point/unicode.ts'
import { isTransacting } from '../buffer/yjs-internals.ts'
import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import { LONG_ROW, clipColumnDelta, clipRowColumn, type AtomicClipSettings } from './clip.ts'
import {
  lineOfRow,
  positionForScreenColumn,
  rowIndexForPosition,
  screenColumnForPosition,
  screenRowText,
  type ClipDirection,
  type RowColumn,
} from './display-line.ts'
import type { FoldAnchors } from './fold-anchors.ts'
import { FoldSet, type Fold, type FoldSpan } from './fold-set.ts'
import { foldableRowRangeContainingRow, isFoldableAtRow } from './fold-ranges.ts'
import type { RowEntry, RowIndex } from './row-index.ts'
import { metaHasTab, metaWidth } from './row-index.ts'
import { ScreenLayout } from './screen-layout.ts'
import { ScreenPatch, type ScreenChange } from './screen-patch.ts'

export type { ClipDirection } from './display-line.ts'
export type { Fold } from './fold-set.ts'
export type { ScreenChange } from './screen-patch.ts'
export { FOLD_PLACEHOLDER } from './layout.ts'

export interface ClipOptions {
  /** Where a position between two valid ones goes. Default 'closest'. */
  clipDirection?: ClipDirection
  /** With 'backward', a position in a continuation row's indentation stays on that row. */
  skipSoftWrapIndentation?: boolean
}

export interface DisplayLayerOptions {
  /** Screen columns per tab stop. Default 2 (the editor's default). */
  tabLength?: number
  /** Default false. */
  softWrapped?: boolean
  /** Wrap width in columns when soft wrapped. Default 80. */
  editorWidthInChars?: number
  /** Extra indentation of continuation rows. Default 0. */
  softWrapHangingIndentLength?: number
  /** Positions inside a tab stop's worth of leading spaces clip to tab stops (Atom's default). Default true. */
  atomicSoftTabs?: boolean
  /** Buffer ranges to fold before the first layout (restoring a session, or a reference layout in tests). */
  folds?: readonly RangeLike[]
}

interface DisplayLayerEvents {
  'did-change': ScreenChange[]
}

function positiveInteger(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || Number.isNaN(value)) throw new TypeError(`${name} must be a number; got ${typeof value}`)
  const n = Math.floor(value)
  if (!(n >= min) || !Number.isFinite(n)) throw new RangeError(`${name} must be a finite number >= ${min}; got ${value}`)
  return n
}

/** A soft-wrap width: a number, floored; 0 or less is 1, as Atom's display layer takes `Math.max(1, softWrapColumn)`. */
function wrapWidth(value: unknown): number {
  if (typeof value !== 'number' || Number.isNaN(value)) throw new TypeError(`editorWidthInChars must be a number; got ${typeof value}`)
  if (value === Infinity) throw new RangeError('editorWidthInChars must be finite (turn soft wrap off instead)')
  return Math.max(1, Math.floor(value))
}

function directionOf(options: ClipOptions | undefined): ClipDirection {
  const direction = options?.clipDirection ?? 'closest'
  if (direction !== 'closest' && direction !== 'backward' && direction !== 'forward') {
    throw new TypeError(`clipDirection must be 'backward', 'forward' or 'closest'; got ${String(direction)}`)
  }
  return direction
}

function compare(a: RowColumn, b: RowColumn): number {
  return a.row === b.row ? a.column - b.column : a.row - b.row
}

/**
 * Buffer <-> screen coordinates of one editor: hard tabs expanded to tab stops, soft wrap, folds.
 * Every buffer row has an entry in a balanced row index (screen rows it starts, 0 when a fold hides
 * it); an edit, fold or setting change re-lays out only the display lines it can affect, and the
 * layout of a display line is computed from the buffer's lines when a query needs it (and cached
 * until the next change). It follows the buffer through a change hook, so it is current before any
 * public buffer listener runs, for local and remote edits alike. It never edits the buffer.
 */
export class DisplayLayer {
  readonly buffer: TextBuffer
  private tabLength = 2
  private softWrapped = false
  private editorWidthInChars = 80
  private hangingIndent = 0
  private atomicSoftTabs = true
  private readonly folds: FoldSet
  private readonly layout: ScreenLayout
  private readonly rows: RowIndex
  private readonly emitter = new Emitter<DisplayLayerEvents>()
  private readonly hook: Disposable
  private readonly afterHook: Disposable
  private pendingPatch: ScreenPatch | null = null
  /** Set while a fold change made inside a transaction waits for it to end (one combined event, as Atom). */
  private flushOnTransactionEnd: (() => void) | null = null
  private atomicClipSettings: AtomicClipSettings = { tabLength: 2, atomicSoftTabs: true, wrapColumn: Infinity }
  private destroyed = false

  constructor(buffer: TextBuffer, options: DisplayLayerOptions = {}) {
    this.buffer = buffer
    if (options.tabLength !== undefined) this.tabLength = positiveInteger(options.tabLength, 'tabLength', 1)
    if (options.softWrapped !== undefined) this.softWrapped = Boolean(options.softWrapped)
    if (options.editorWidthInChars !== undefined) this.editorWidthInChars = wrapWidth(options.editorWidthInChars)
    if (options.softWrapHangingIndentLength !== undefined) {
      this.hangingIndent = positiveInteger(options.softWrapHangingIndentLength, 'softWrapHangingIndentLength', 0)
    }
    if (options.atomicSoftTabs !== undefined) this.atomicSoftTabs = Boolean(options.atomicSoftTabs)
    this.folds = new FoldSet(buffer)
    this.layout = new ScreenLayout(buffer, this.folds)
    this.rows = this.layout.rows
    this.updateSettings()
    for (const range of options.folds ?? []) this.folds.add(this.clipBufferRange(range))
    this.layout.layOutEverything()
    // The buffer mirrors its own edits one by one inside a transaction; the layout follows each at
    // once, but views hear about the whole transaction once, when it ends.
    this.hook = buffer.addChangeHook('display', (event) => {
      if (this.destroyed) return
      const patch = this.layout.applyBufferChange(event)
      if (patch.isEmpty()) return
      patch.spliceInto((this.pendingPatch ??= new ScreenPatch()))
    })
    this.afterHook = buffer.addAfterChangeHook('display', () => {
      const pending = this.pendingPatch
      this.pendingPatch = null
      if (pending && !this.destroyed) this.emit(pending)
    })
  }

  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.hook.dispose()
    this.afterHook.dispose()
    if (this.flushOnTransactionEnd) this.buffer.doc.off('afterTransaction', this.flushOnTransactionEnd)
    this.emitter.dispose()
  }

  isDestroyed(): boolean {
    return this.destroyed
  }

  /** Fires after every layout change (edit, fold, setting) with the screen rows it replaced, in order. */
  onDidChange(callback: (changes: ScreenChange[]) => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  // Settings

  getTabLength(): number {
    return this.tabLength
  }

  /** Re-lays out the display lines that hold a hard tab. */
  setTabLength(tabLength: number): void {
    this.changeSetting('tabLength', positiveInteger(tabLength, 'tabLength', 1), () => {
      this.emit(this.layout.relayOutWhere((_maxWidth, anyTab) => anyTab, (meta) => metaHasTab(meta)))
    })
  }

  isSoftWrapped(): boolean {
    return this.softWrapped
  }

  setSoftWrapped(softWrapped: boolean): void {
    const on = Boolean(softWrapped)
    if (on === this.softWrapped) return
    this.softWrapped = on
    this.updateSettings()
    this.relayOutWiderThan(this.editorWidthInChars)
  }

  getEditorWidthInChars(): number {
    return this.editorWidthInChars
  }

  setEditorWidthInChars(editorWidthInChars: number): void {
    const old = this.editorWidthInChars
    this.changeSetting('editorWidthInChars', wrapWidth(editorWidthInChars), (n) => {
      if (this.softWrapped) this.relayOutWiderThan(Math.min(old, n))
    })
  }

  getSoftWrapHangingIndentLength(): number {
    return this.hangingIndent
  }

  setSoftWrapHangingIndentLength(length: number): void {
    this.changeSetting('hangingIndent', positiveInteger(length, 'softWrapHangingIndentLength', 0), () => {
      if (this.softWrapped) this.relayOutWiderThan(this.editorWidthInChars)
    })
  }

  /** Sets a numeric layout setting; when it changed, hands the layout the new settings and re-lays out what it affects. */
  private changeSetting(key: 'tabLength' | 'editorWidthInChars' | 'hangingIndent', value: number, relayOut: (value: number) => void): void {
    if (value === this[key]) return
    this[key] = value
    this.updateSettings()
    relayOut(value)
  }

  getAtomicSoftTabs(): boolean {
    return this.atomicSoftTabs
  }

  /** Only changes how positions clip; the layout stays. */
  setAtomicSoftTabs(atomicSoftTabs: boolean): void {
    this.atomicSoftTabs = Boolean(atomicSoftTabs)
    this.updateSettings()
  }

  /** The column at which lines wrap: the editor width when soft wrapped, Infinity otherwise. */
  getSoftWrapColumn(): number {
    return this.softWrapped ? this.editorWidthInChars : Infinity
  }

  // Screen lines

  getScreenLineCount(): number {
    return this.rows.screenCount
  }

  getLastScreenRow(): number {
    return this.rows.screenCount - 1
  }

  /** The text of a screen row: tabs as spaces, each fold as '⋯', wrap indentation as spaces ('' past the end). */
  lineTextForScreenRow(screenRow: number): string {
    const found = this.screenRowEntry(screenRow)
    if (!found) return ''
    const { entry, k } = found
    if (this.layout.isPlain(entry)) return this.buffer.lineForRow(entry.row) ?? ''
    const line = this.layout.displayLine(entry.row)
    return screenRowText(line, Math.min(k, line.rows.length - 1), this.tabLength)
  }

  /** `LineSource` (core/motions): the screen rows, so every motion also runs in screen coordinates. */
  getLineCount(): number {
    return this.getScreenLineCount()
  }

  lineForRow(screenRow: number): string | undefined {
    return Number.isInteger(screenRow) && screenRow >= 0 && screenRow < this.getScreenLineCount() ? this.lineTextForScreenRow(screenRow) : undefined
  }

  /** `LineSource`: a screen row's text between two columns and its length, a long row read only there. */
  textInRow(screenRow: number, from: number, to: number): { from: number; text: string; length: number } {
    const found = this.screenRowEntry(screenRow)
    const part = found !== null && this.layout.isPlain(found.entry) ? this.layout.partOfLongRow(found.entry.row, from, to, LONG_ROW) : null
    if (part) return part
    const line = this.lineTextForScreenRow(screenRow)
    return { from: 0, text: line, length: line.length }
  }

  /** Screen columns of a screen row, wrap indentation and trailing whitespace included (0 past the end). */
  lineLengthForScreenRow(screenRow: number): number {
    const found = this.screenRowEntry(screenRow)
    if (!found) return 0
    const { entry, k } = found
    if (this.layout.isPlain(entry)) return this.buffer.lineLengthForRow(entry.row)
    const { rows } = this.layout.displayLine(entry.row)
    return rows[Math.min(k, rows.length - 1)]!.length
  }

  /** Columns of soft-wrap indentation at the start of a screen row (0 on the first row of a line). */
  softWrapIndentLengthForScreenRow(screenRow: number): number {
    const found = this.screenRowEntry(screenRow)
    if (!found || found.k === 0) return 0
    const { rows } = this.layout.displayLine(found.entry.row)
    return rows[Math.min(found.k, rows.length - 1)]!.indent
  }

  /** True when the screen row continues the one above it (soft wrap), false on a line's first row. */
  isSoftWrapContinuation(screenRow: number): boolean {
    const found = this.screenRowEntry(screenRow)
    return found !== null && found.k > 0
  }

  /** The buffer row shown at the start of a screen row (Atom: the buffer row of screen position [row, 0]). */
  bufferRowForScreenRow(screenRow: number): number {
    const row = Math.floor(Number(screenRow))
    if (!(row > 0)) return 0
    const found = this.screenRowEntry(Math.min(row, this.getLastScreenRow()))
    if (found && found.k === 0) return found.entry.row
    return this.bufferPositionForScreenPosition([row, 0]).row
  }

  /** The screen row showing the start of a buffer row (Atom: the row of buffer position [row, 0]). */
  screenRowForBufferRow(bufferRow: number): number {
    const row = Math.floor(Number(bufferRow))
    if (!(row > 0)) return 0
    const last = this.buffer.getLastRow()
    if (row > last) return this.screenPositionForBufferPosition([row, 0]).row
    const entry = this.rows.lookup(row)
    if (entry.count > 0) return entry.screenStart
    return this.screenPositionForBufferPosition([row, 0]).row
  }

  /** The first and last screen rows of the display line that holds a buffer row. */
  screenRowRangeForBufferRow(bufferRow: number): [number, number] {
    const row = Math.max(0, Math.min(this.buffer.getLastRow(), Math.floor(Number(bufferRow)) || 0))
    const owner = this.rows.lookup(this.rows.ownerRow(row))
    return [owner.screenStart, owner.screenStart + owner.count - 1]
  }

  // Translation

  screenPositionForBufferPosition(bufferPosition: PointLike, options?: ClipOptions): Point {
    const direction = directionOf(options)
    const point = Point.fromObject(bufferPosition, false, 'bufferPosition')
    // Clipped as TextBuffer#clipPosition does, reading the line once for both clips.
    const lastRow = this.buffer.getLastRow()
    const pointRow = Number.isNaN(point.row) ? 0 : point.row
    // Before the first row: (0, 0); past the last: the end of the last row.
    const row = pointRow < 0 ? 0 : pointRow > lastRow ? lastRow : Math.floor(pointRow)
    let column = pointRow < 0 ? 0 : pointRow > lastRow ? Infinity : Math.floor(Number.isNaN(point.column) ? 0 : point.column)
    // A long row is read around the column only.
    const length = this.buffer.lineLengthForRow(row)
    if (length > LONG_ROW) column = clipRowColumn(this.layout.rowReader(row), length, column, direction, this.clipSettings())
    else {
      const line = this.buffer.lineForRow(row) ?? ''
      column = clipColumn(line, column)
      column += clipColumnDelta(line, column, direction, this.clipSettings())
    }
    return this.screenPositionForValidPosition(row, column, direction)
  }

  bufferPositionForScreenPosition(screenPosition: PointLike, options?: ClipOptions): Point {
    const direction = directionOf(options)
    const skip = options?.skipSoftWrapIndentation === true
    const point = Point.fromObject(screenPosition, false, 'screenPosition')
    let row = Number.isNaN(point.row) ? 0 : Math.floor(point.row)
    let column = Number.isNaN(point.column) ? 0 : Math.floor(point.column)
    const lastScreenRow = this.getLastScreenRow()
    if (row < 0) {
      row = 0
      column = 0
    } else if (row > lastScreenRow) {
      row = lastScreenRow
      column = Infinity
    } else if (column < 0) {
      column = 0
    }
    const entry = this.rows.rowForScreen(row)
    const forwardToNextRow = direction === 'forward' && row < lastScreenRow
    if (this.layout.isPlain(entry)) {
      const length = this.buffer.lineLengthForRow(entry.row)
      if (column > length && forwardToNextRow) return this.bufferPositionForScreenPosition([row + 1, 0], options)
      const plainColumn = Math.min(column, length)
      if (length > LONG_ROW) return new Point(entry.row, clipRowColumn(this.layout.rowReader(entry.row), length, plainColumn, direction, this.clipSettings(), false))
      const text = this.buffer.lineForRow(entry.row) ?? ''
      return new Point(entry.row, plainColumn + clipColumnDelta(text, plainColumn, direction, this.clipSettings()))
    }
    const line = this.layout.displayLine(entry.row)
    // (The clamp only matters for a query made while a buffer change is being applied.)
    const k = Math.min(row - entry.screenStart, line.rows.length - 1)
    const length = line.rows[k]!.length
    if (column > length && forwardToNextRow) return this.bufferPositionForScreenPosition([row + 1, 0], options)
    const position = positionForScreenColumn(line, k, Math.min(column, length), direction, skip, this.tabLength)
    const rowLength = this.buffer.lineLengthForRow(position.row)
    if (rowLength > LONG_ROW) return new Point(position.row, clipRowColumn(this.layout.rowReader(position.row), rowLength, position.column, direction, this.clipSettings(), false))
    const text = lineOfRow(line, position.row)
    return new Point(position.row, position.column + clipColumnDelta(text, position.column, direction, this.clipSettings()))
  }

  screenRangeForBufferRange(bufferRange: RangeLike, options?: ClipOptions): Range {
    const range = Range.fromObject(bufferRange, false, 'bufferRange')
    return new Range(this.screenPositionForBufferPosition(range.start, options), this.screenPositionForBufferPosition(range.end, options))
  }

  bufferRangeForScreenRange(screenRange: RangeLike, options?: ClipOptions): Range {
    const range = Range.fromObject(screenRange, false, 'screenRange')
    return new Range(this.bufferPositionForScreenPosition(range.start, options), this.bufferPositionForScreenPosition(range.end, options))
  }

  /** The nearest screen position a cursor can occupy (Atom: screen -> buffer -> screen). */
  clipScreenPosition(screenPosition: PointLike, options?: ClipOptions): Point {
    return this.screenPositionForBufferPosition(this.bufferPositionForScreenPosition(screenPosition, options), options)
  }

  clipScreenRange(screenRange: RangeLike, options?: ClipOptions): Range {
    const range = Range.fromObject(screenRange, false, 'screenRange')
    return new Range(this.clipScreenPosition(range.start, options), this.clipScreenPosition(range.end, options))
  }

  /**
   * Clips into the buffer only (rows, columns, line endings, surrogate pairs), as Atom's
   * `TextEditor#clipBufferPosition`: a position inside a fold or a tab stays where it is, because
   * it is a real place in the text; only its screen position snaps. `options` are accepted for
   * symmetry with the screen methods and do not change the result.
   */
  clipBufferPosition(bufferPosition: PointLike, _options?: ClipOptions): Point {
    return this.buffer.clipPosition(Point.fromObject(bufferPosition, false, 'bufferPosition'))
  }

  clipBufferRange(bufferRange: RangeLike): Range {
    return this.buffer.clipRange(Range.fromObject(bufferRange, false, 'bufferRange'))
  }

  // Folds

  /** Keeps the folds' ends in `anchors` (an editor's one anchor index, which maps them at the pipeline's 'anchors' stage, before this layer follows a change). */
  useAnchors(anchors: FoldAnchors): void {
    this.folds.moveTo(anchors)
  }

  /** Folds a buffer range (clipped); returns the fold's id. Overlapping folds show as one. */
  foldBufferRange(bufferRange: RangeLike): number {
    const range = this.clipBufferRange(bufferRange)
    const hidden = this.folds.anyContains(range.start, range.end)
    const id = this.folds.add(range)
    if (!hidden && !range.isEmpty()) this.relayOutFolds([range])
    return id
  }

  /**
   * Folds the indentation block that starts at or contains `bufferRow` (Atom's plain-text
   * `foldBufferRow`): from the end of its first row to the end of its last. When that block is
   * already folded, the enclosing block is folded instead. Returns the new fold's id, or null.
   */
  foldBufferRow(bufferRow: number): number | null {
    const lastRow = this.buffer.getLastRow()
    let row = Math.max(0, Math.min(lastRow, Math.floor(Number(bufferRow)) || 0))
    let fromRowEnd = true
    for (;;) {
      const rows = foldableRowRangeContainingRow(this.buffer, row, this.tabLength, fromRowEnd)
      if (!rows) return null
      const start = new Point(rows[0], this.buffer.lineLengthForRow(rows[0]))
      const existing = this.folds.intersecting(start, start)
      if (existing.length === 0) return this.foldBufferRange([start, [rows[1], this.buffer.lineLengthForRow(rows[1])]])
      const firstStart = existing[0]!.range.start
      const position = fromRowEnd ? new Point(row, Infinity) : new Point(row, 0)
      if (!firstStart.isLessThan(position)) return null
      row = firstStart.row
      fromRowEnd = false
    }
  }

  /** Destroys every fold containing the end of `bufferRow` (Atom's `unfoldBufferRow`). */
  unfoldBufferRow(bufferRow: number): Range[] {
    const row = Math.floor(Number(bufferRow)) || 0
    return this.destroyFoldsContainingBufferPositions([[row, Infinity]], false)
  }

  destroyFold(id: number): void {
    const range = this.folds.get(id)
    if (!range) return
    this.folds.remove([id])
    this.relayOutFolds([range])
  }

  /** Destroys the folds sharing a point with the range; returns their ranges. */
  destroyFoldsIntersectingBufferRange(bufferRange: RangeLike): Range[] {
    const range = this.clipBufferRange(bufferRange)
    return this.destroyFolds(this.folds.intersecting(range.start, range.end))
  }

  /** Destroys the folds containing any of the positions (strictly inside when `excludeEndpoints`). */
  destroyFoldsContainingBufferPositions(bufferPositions: PointLike[], excludeEndpoints: boolean): Range[] {
    if (!Array.isArray(bufferPositions)) throw new TypeError('bufferPositions must be an array of points')
    const doomed = new Map<number, Fold>()
    for (const position of bufferPositions) {
      const clipped = this.clipBufferPosition(position)
      for (const fold of this.folds.containing(clipped, Boolean(excludeEndpoints))) doomed.set(fold.id, fold)
    }
    return this.destroyFolds([...doomed.values()])
  }

  unfoldAll(): Range[] {
    return this.destroyFolds(this.folds.all())
  }

  /** Folds sharing at least a point with the range, in buffer order. */
  foldsIntersectingBufferRange(bufferRange: RangeLike): Fold[] {
    const range = this.clipBufferRange(bufferRange)
    return this.folds.intersecting(range.start, range.end)
  }

  getFolds(): Fold[] {
    return this.folds.all()
  }

  bufferRangeForFold(id: number): Range | undefined {
    return this.folds.get(id)
  }

  /** True when a fold touches the row (Atom: a fold intersects [[row, 0], [row, length]]). */
  isFoldedAtBufferRow(bufferRow: number): boolean {
    const row = Math.floor(Number(bufferRow))
    if (!(row >= 0) || row > this.buffer.getLastRow() || this.folds.size === 0) return false
    return this.folds.intersecting(new Point(row, 0), new Point(row, this.buffer.lineLengthForRow(row))).length > 0
  }

  isFoldedAtScreenRow(screenRow: number): boolean {
    return this.isFoldedAtBufferRow(this.bufferRowForScreenRow(screenRow))
  }

  /** True when an indentation fold starts at the row (Atom's plain-text `isFoldableAtRow`). */
  isFoldableAtBufferRow(bufferRow: number): boolean {
    const row = Math.floor(Number(bufferRow))
    if (!(row >= 0) || row > this.buffer.getLastRow()) return false
    return isFoldableAtRow(this.buffer, row)
  }

  // Internals

  private updateSettings(): void {
    this.layout.setSettings({ tabLength: this.tabLength, wrapColumn: this.getSoftWrapColumn(), hangingIndent: this.hangingIndent })
    this.atomicClipSettings = { tabLength: this.tabLength, atomicSoftTabs: this.atomicSoftTabs, wrapColumn: this.getSoftWrapColumn() }
  }

  private clipSettings(): AtomicClipSettings {
    return this.atomicClipSettings
  }

  private screenRowEntry(screenRow: number): { entry: RowEntry; k: number } | null {
    const row = Math.floor(Number(screenRow))
    if (!(row >= 0) || row >= this.rows.screenCount) return null
    const entry = this.rows.rowForScreen(row)
    return { entry, k: row - entry.screenStart }
  }

  private screenPositionForValidPosition(row: number, column: number, direction: ClipDirection): Point {
    let entry = this.rows.lookup(row)
    if (entry.count === 0) entry = this.rows.lookup(this.rows.ownerRow(row))
    else if (this.layout.isPlain(entry)) return new Point(entry.screenStart, column)
    const owner = entry.row
    let target: RowColumn = { row, column }
    const fold = this.folds.size === 0 ? null : this.folds.mergedStrictlyContaining(row, column)
    if (fold) target = this.clipIntoFoldEdge(fold, target, direction)
    const line = this.layout.displayLine(owner)
    const k = rowIndexForPosition(line, target.row, target.column)
    return new Point(entry.screenStart + k, screenColumnForPosition(line, k, target.row, target.column, this.tabLength))
  }

  /** A position strictly inside a fold goes to its start or end (closest: the nearer, ties to the start). */
  private clipIntoFoldEdge(fold: FoldSpan, position: RowColumn, direction: ClipDirection): RowColumn {
    const start = { row: fold.startRow, column: fold.startColumn }
    const end = { row: fold.endRow, column: fold.endColumn }
    if (direction === 'backward') return start
    if (direction === 'forward') return end
    const fromStart = position.row === start.row ? { row: 0, column: position.column - start.column } : { row: position.row - start.row, column: position.column }
    const toEnd = end.row === position.row ? { row: 0, column: end.column - position.column } : { row: end.row - position.row, column: end.column }
    return compare(fromStart, toEnd) <= 0 ? start : end
  }

  private relayOutFolds(ranges: Range[]): void {
    this.emit(this.layout.relayOutRowRanges(ranges.map((range) => [range.start.row, range.end.row])))
  }

  private destroyFolds(folds: Fold[]): Range[] {
    if (folds.length === 0) return []
    const ranges = this.folds.remove(folds.map((fold) => fold.id))
    this.relayOutFolds(ranges)
    return ranges
  }

  private relayOutWiderThan(width: number): void {
    this.emit(this.layout.relayOutWhere((maxWidth) => maxWidth > width, (meta) => metaWidth(meta) > width))
  }

  /**
   * Announces a layout change. Inside a transaction it joins the transaction's pending patch, announced
   * once when the transaction ends (by the buffer's after-change step, or here when no text changed).
   */
  private emit(patch: ScreenPatch): void {
    if (patch.isEmpty()) return
    if (isTransacting(this.buffer.doc)) {
      this.pendingPatch ??= new ScreenPatch()
      for (const { start, oldCount, newCount } of patch.changes()) this.pendingPatch.splice(start, oldCount, newCount)
      if (this.flushOnTransactionEnd === null) {
        const flush = (): void => {
          this.buffer.doc.off('afterTransaction', flush)
          this.flushOnTransactionEnd = null
          const pending = this.pendingPatch
          this.pendingPatch = null
          if (pending && !this.destroyed) this.emit(pending)
        }
        this.flushOnTransactionEnd = flush
        this.buffer.doc.on('afterTransaction', flush)
      }
      return
    }
    if (!this.emitter.hasListeners('did-change')) return
    this.emitter.emit('did-change', patch.changes())
  }
}
