import * as Y from 'yjs'
import { Emitter } from '../events/emitter.ts'
import { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import { LineIndex, lineEndingLength, lineText, type Line } from './line-index.ts'
import { lastLineLength, lineBreakCount, type BufferChangeEvent, type TextChange } from './text-change.ts'
import { clipColumn, isHighSurrogate, isLowSurrogate, toFiniteNumber } from '../point/unicode.ts'
import { mirrorChange } from './mirror-change.ts'
import { YTextChangeReader, diffChange, rawChangesFromDelta, type RawChange } from './ytext-changes.ts'
import type { ChangeSet } from './change-set.ts'
import { TransactionChanges } from './transaction-changes.ts'
import { ChangePipeline, type ChangeHook, type PipelineStage } from './pipeline.ts'
import { StopChanging, type Schedule } from './stop-changing.ts'
import { checkOffsetReplacements, writeOffsetReplacements, type OffsetReplacement } from './offset-write.ts'
import { replaceAll, scanWithArguments, type ScanIterator, type ScanOptions } from './scan.ts'

export type { BufferChangeEvent, TextChange } from './text-change.ts'

export type { ChangeHook, PipelineStage } from './pipeline.ts'
export type { Schedule } from './stop-changing.ts'
export type { OffsetReplacement } from './offset-write.ts'

export interface TextBufferOptions {
  /** The shared text. Default: a fresh doc's `getText('text')`. */
  ytext?: Y.Text
  /** Initial text, written into `ytext` (with `origin`) when given. */
  text?: string
  /** The transaction origin of this buffer's own edits. */
  origin?: unknown
  /** Milliseconds since the epoch for each change set's `time`. Default: `Date.now`. */
  clock?: (() => number) | undefined
  /** The environment's timer, which `onDidStopChanging` waits with; without one that event never fires. */
  schedule?: Schedule | undefined
  /** How long changes must pause before `onDidStopChanging` (Atom's default: 300 ms). */
  stoppedChangingDelay?: number | undefined
}

interface BufferEvents {
  'did-change': BufferChangeEvent
  'did-stop-changing': ChangeSet
  'did-change-text': ChangeSet
}


/**
 * A line-oriented view of a Y.Text. The line index follows every Y.Text transaction, whoever made it,
 * so row/column <-> offset conversions are O(log n) and no read stringifies the CRDT.
 */
export class TextBuffer {
  /** The shared text this buffer follows. */
  readonly ytext: Y.Text
  /** The Y.Doc the text belongs to. */
  readonly doc: Y.Doc
  /** Origin given to this buffer's own transactions; observers use it to know their own echo. */
  readonly origin: unknown
  private readonly index: LineIndex
  private readonly emitter = new Emitter<BufferEvents>()
  /** The parts that follow the text, in the declared order (pipeline.ts). */
  private readonly pipeline = new ChangePipeline()
  private readonly changeReader: YTextChangeReader
  /** Each transaction's replacements, made into one change set and announced when it ends. */
  private readonly transactions: TransactionChanges
  private readonly stopChanging: StopChanging
  /** How many transactions had to be read through Yjs's slow delta (a diagnostic; expected 0). */
  slowReads = 0
  /** Increases with every change of the text; lets callers cache derived values. */
  version = 0
  private readonly observer: (event: Y.YTextEvent, transaction: Y.Transaction) => void
  private destroyed = false

  constructor(options: TextBufferOptions = {}) {
    const delay = options.stoppedChangingDelay ?? 300
    if (!(typeof delay === 'number' && delay >= 0)) throw new TypeError(`stoppedChangingDelay must be a number >= 0; got ${String(delay)}`)
    if (options.schedule !== undefined && typeof options.schedule !== 'function') throw new TypeError('schedule must be a function (callback, delayMs) => cancel')
    this.ytext = options.ytext ?? new Y.Doc().getText('text')
    if (!this.ytext.doc) throw new Error('TextBuffer needs a Y.Text that belongs to a Y.Doc')
    this.doc = this.ytext.doc
    this.origin = options.origin ?? this
    this.index = new LineIndex(this.ytext.toString())
    this.changeReader = new YTextChangeReader(this.ytext)
    this.observer = (event, transaction) => this.applyYEvent(event, transaction)
    this.ytext.observe(this.observer)
    this.transactions = new TransactionChanges(this.ytext, options.clock ?? Date.now, () => this.index.length, (change) => {
      if (this.destroyed) return
      this.stopChanging.changed(change)
      this.emitter.emit('did-change-text', change)
    }, () => this.emitter.hasListeners('did-change-text') || this.emitter.hasListeners('did-stop-changing'))
    this.stopChanging = new StopChanging(options.schedule ?? null, delay, () => this.emitter.hasListeners('did-stop-changing'), (changes) => {
      if (!this.destroyed) this.emitter.emit('did-stop-changing', changes)
    })
    if (options.text !== undefined && options.text !== '') this.setText(options.text)
  }

  /** Stops following the Y.Text and releases every listener; the Y.Text itself is left alone. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.ytext.unobserve(this.observer)
    this.transactions.destroy()
    this.stopChanging.dispose()
    this.emitter.dispose()
    this.pipeline.clear()
  }

  /** Whether `destroy` was called. */
  isDestroyed(): boolean {
    return this.destroyed
  }

  // Reading

  /** The whole text. */
  getText(): string {
    return this.index.getText()
  }

  /** The length of the text in UTF-16 code units. */
  getLength(): number {
    return this.index.length
  }

  /** The number of rows (at least 1: an empty text has one empty row). */
  getLineCount(): number {
    return this.index.lineCount
  }

  /** The last row. */
  getLastRow(): number {
    return this.index.lineCount - 1
  }

  /** Whether the text is empty. */
  isEmpty(): boolean {
    return this.index.length === 0
  }

  /** The text of `row` without its line ending; undefined for a row outside the buffer. */
  lineForRow(row: number): string | undefined {
    if (!Number.isInteger(row) || row < 0 || row >= this.index.lineCount) return undefined
    const { line, plain } = this.index.lineAndOffsetForRow(row)
    return lineText(line).slice(0, this.index.contentLength(row, line, plain))
  }

  /** The length of a row's text, without its line ending (0 beyond the last row). */
  lineLengthForRow(row: number): number {
    if (!Number.isInteger(row) || row < 0 || row >= this.index.lineCount) return 0
    const { line, plain } = this.index.lineAndOffsetForRow(row)
    return this.index.contentLength(row, line, plain)
  }

  /** '\n', '\r\n', '\r', or '' for the last row. */
  lineEndingForRow(row: number): string {
    if (!Number.isInteger(row) || row < 0 || row >= this.index.lineCount) return ''
    const { line } = this.index.lineAndOffsetForRow(row)
    return line.slice(line.length - lineEndingLength(line), line.length)
  }

  /** Every row's text, without line endings. */
  getLines(): string[] {
    return this.index.linesWithEndings(0, this.index.lineCount).map((line) => line.slice(0, line.length - lineEndingLength(line)))
  }

  /** Whether a row holds only whitespace. */
  isRowBlank(row: number): boolean {
    if (!Number.isInteger(row) || row < 0 || row >= this.index.lineCount) return true
    // The line ending is whitespace too, so the line is read as the index keeps it.
    const { line } = this.index.lineAndOffsetForRow(row)
    return typeof line === 'string' ? !/\S/.test(line) : !line.hasNonWhitespace()
  }

  /** The nearest row before `startRow` with non-whitespace text, or null. */
  previousNonBlankRow(startRow: number): number | null {
    for (let row = Math.min(startRow, this.getLastRow() + 1) - 1; row >= 0; row--) if (!this.isRowBlank(row)) return row
    return null
  }

  /** The nearest row after `startRow` with non-whitespace text, or null. */
  nextNonBlankRow(startRow: number): number | null {
    for (let row = startRow + 1; row <= this.getLastRow(); row++) if (!this.isRowBlank(row)) return row
    return null
  }

  /** The position at the end of the text. */
  getEndPosition(): Point {
    const lastRow = this.getLastRow()
    return new Point(lastRow, this.lineLengthForRow(lastRow))
  }

  /** The range of the whole text. */
  getRange(): Range {
    return new Range(Point.ZERO, this.getEndPosition())
  }

  /** The offset of the end of the text. */
  getMaxCharacterIndex(): number {
    return this.index.length
  }

  /** The range of `row`, including its line ending when `includeNewline`. */
  rangeForRow(row: number, includeNewline = false): Range {
    const clipped = this.clipRow(row)
    if (includeNewline && clipped < this.getLastRow()) return new Range([clipped, 0], [clipped + 1, 0])
    return new Range([clipped, 0], [clipped, this.lineLengthForRow(clipped)])
  }

  /** The text in a range (clipped to the text). */
  getTextInRange(range: RangeLike): string {
    const { start, end } = this.clipRange(range)
    return this.index.textBetween(this.offsetForPoint(start), this.offsetForPoint(end))
  }

  /** Text between two character offsets (clipped to the buffer). */
  getTextBetweenOffsets(startOffset: number, endOffset: number): string {
    const length = this.index.length
    const a = Math.max(0, Math.min(length, startOffset))
    const b = Math.max(0, Math.min(length, endOffset))
    return this.index.textBetween(Math.min(a, b), Math.max(a, b))
  }

  // Coordinates

  /** Clips a point into the buffer: rows and columns into range, never inside '\r\n' or a surrogate pair. */
  clipPosition(position: PointLike): Point {
    const point = Point.fromObject(position, false, 'position')
    Point.assertValid(point)
    const row = point.row
    if (row < 0) return Point.ZERO
    if (row > this.index.lineCount - 1) return this.getEndPosition()
    const clippedRow = Math.floor(row)
    const { line } = this.index.lineAndOffsetForRow(clippedRow)
    const clippedColumn = clipColumnOf(line, Math.floor(point.column), line.length - lineEndingLength(line))
    if (clippedRow === point.row && clippedColumn === point.column) return point
    return new Point(clippedRow, clippedColumn)
  }

  /** The range between the nearest valid positions of its ends. */
  clipRange(range: RangeLike): Range {
    const r = Range.fromObject(range, false, 'range')
    const start = this.clipPosition(r.start)
    const end = this.clipPosition(r.end)
    return start === r.start && end === r.end ? r : new Range(start, end)
  }

  /** The offset of a position (clipped first). */
  characterIndexForPosition(position: PointLike): number {
    const point = position instanceof Point ? position : Point.fromObject(position, false, 'position')
    const row = toFiniteNumber(point.row)
    if (row < 0) return 0
    const lastRow = this.index.lineCount - 1
    if (row > lastRow) return this.index.length
    // One descent gives the row's text (to clip the column) and its offset. A plain row (the index
    // says: no surrogates, a '\n' ending) is clipped from its length, without reading its text.
    const whole = Math.floor(row)
    const { line, offset, plain } = this.index.lineAndOffsetForRow(whole)
    const column = Math.floor(toFiniteNumber(point.column))
    if (plain) return offset + (column <= 0 ? 0 : Math.min(column, line.length - (whole === lastRow ? 0 : 1)))
    return offset + clipColumnOf(line, column, contentLength(line, column))
  }

  /** The position of an offset (clipped to the text). */
  positionForCharacterIndex(offset: number): Point {
    const n = toFiniteNumber(offset)
    const clamped = Math.max(0, Math.min(this.index.length, Math.floor(n)))
    const { row, rowStart, line, plain } = this.index.lineForOffset(clamped)
    const column = clamped - rowStart
    // In a plain row an offset is never inside a pair or past the content ('\n' is one code unit).
    if (plain) return new Point(row, column)
    return new Point(row, clipColumnOf(line, column, contentLength(line, column)))
  }

  /** Offset of an already clipped point. */
  offsetForPoint(point: Point): number {
    return this.index.offsetForRow(point.row) + point.column
  }

  // Relative positions (positions that survive everybody's edits)

  /** A Yjs relative position for a character offset; assoc < 0 binds it to the character before. */
  relativePositionForOffset(offset: number, assoc = -1): Y.RelativePosition {
    return this.changeReader.relativePositionFor(this.idForOffset(offset, assoc), assoc)
  }

  /** @internal `relativePositionForOffset(offset, assoc).item` without the position (the undo history keeps IDs alone). */
  idForOffset(offset: number, assoc = -1): Y.ID | null {
    const clamped = Math.max(0, Math.min(this.index.length, Math.floor(toFiniteNumber(offset))))
    return this.changeReader.idAt(clamped, assoc)
  }

  /** @internal The relative position in this text bound to the character `id` (null: outside it), as `relativePositionForOffset` makes it. */
  relativePositionForId(id: Y.ID | null, assoc = -1): Y.RelativePosition {
    return this.changeReader.relativePositionFor(id, assoc)
  }

  /**
   * The offset a relative position resolves to in this text, or null if it is not in it (yet).
   * `followRedone: false` resolves a position bound to text an undo brought back where the original
   * was, as every peer (who never saw that undo's link) would.
   */
  offsetForRelativePosition(position: Y.RelativePosition, options: { followRedone?: boolean } = {}): number | null {
    const fast = this.changeReader.offsetForRelativePosition(position, options.followRedone ?? true)
    if (fast !== undefined) return fast === null ? null : Math.max(0, Math.min(this.index.length, fast))
    const absolute = Y.createAbsolutePositionFromRelativePosition(position, this.doc, options.followRedone ?? true)
    if (absolute === null || absolute.type !== this.ytext) return null
    return Math.max(0, Math.min(this.index.length, absolute.index))
  }

  // Writing

  /** Replaces the whole text in one transaction. */
  setText(text: string): Range {
    this.assertText(text, 'text')
    this.write(0, this.index.length, text, this.origin)
    return this.getRange()
  }

  /**
   * Replaces the text in `range` and returns the range of the new text. As in Atom, line endings in
   * `text` are normalised to the ending of the row (or the row above) unless `normalizeLineEndings`
   * is false; `origin` overrides the transaction origin (an untracked one keeps it out of undo).
   */
  setTextInRange(range: RangeLike, text: string, options: { normalizeLineEndings?: boolean; origin?: unknown } = {}): Range {
    this.assertText(text, 'text')
    const r = Range.fromObject(range, false, 'range')
    // The end is clipped as clipPosition would, straight to its offset (an insertion's is the start's).
    Point.assertValid(r.end)
    const start = this.clipPosition(r.start)
    if (options.normalizeLineEndings !== false && /[\r\n]/.test(text)) {
      const ending = this.lineEndingForRow(start.row) || this.lineEndingForRow(start.row - 1)
      // Text already in '\n' endings for a '\n' row is left as it is (a 2 MB paste is not copied).
      if (ending && !(ending === '\n' && text.indexOf('\r') === -1)) text = text.replace(/\r\n|\r|\n/g, ending)
    }
    const startOffset = this.offsetForPoint(start)
    const endOffset = r.end === r.start || r.end.isEqual(r.start) ? startOffset : this.characterIndexForPosition(r.end)
    this.write(startOffset, endOffset - startOffset, text, options.origin ?? this.origin)
    const breaks = lineBreakCount(text)
    return new Range(start, breaks === 0 ? new Point(start.row, start.column + text.length) : new Point(start.row + breaks, lastLineLength(text)))
  }

  /** Inserts text at a position; returns the inserted range. */
  insert(position: PointLike, text: string, options: { normalizeLineEndings?: boolean } = {}): Range {
    const point = this.clipPosition(position)
    return this.setTextInRange(new Range(point, point), text, options)
  }

  /** Inserts text at the end; returns the inserted range. */
  append(text: string, options: { normalizeLineEndings?: boolean } = {}): Range {
    return this.insert(this.getEndPosition(), text, options)
  }

  /** Deletes the text in a range; returns the (empty) range where it was. */
  delete(range: RangeLike): Range {
    return this.setTextInRange(range, '')
  }

  /** Deletes a row with its line ending. */
  deleteRow(row: number): Range {
    return this.deleteRows(row, row)
  }

  /** Deletes whole rows with their line endings (the ending before them when they are the last). */
  deleteRows(startRow: number, endRow: number): Range {
    const lastRow = this.getLastRow()
    // A row range wholly outside the buffer deletes nothing (Atom's: an empty range at the nearer end).
    if (Math.max(startRow, endRow) < 0) return new Range(Point.ZERO, Point.ZERO)
    if (Math.min(startRow, endRow) > lastRow) return new Range(this.getEndPosition(), this.getEndPosition())
    const first = this.clipRow(Math.min(startRow, endRow))
    const last = this.clipRow(Math.max(startRow, endRow))
    if (last < lastRow) return this.delete(new Range([first, 0], [last + 1, 0]))
    if (first > 0) return this.delete(new Range([first - 1, this.lineLengthForRow(first - 1)], [last, this.lineLengthForRow(last)]))
    return this.delete(new Range([first, 0], [last, this.lineLengthForRow(last)]))
  }

  /**
   * Replaces several ranges in one write: `edits` are offsets in the text as it is now, sorted and not
   * overlapping (touching is allowed), each with its new text (line endings as given). An offset
   * inside a '\r\n' or a surrogate pair is taken back before it, as `positionForCharacterIndex` clips.
   * Yjs gets the edits left to right in one transaction (the caller's, if one is open); the line index,
   * the pipeline's stages and the change set see them in one pass, and `onDidChange` listeners get one
   * event per change, each once all of them are applied. Returns, per edit, the offset where its new
   * text ends in the text after the write. A multi-cursor keystroke is one such write.
   */
  setTextInOffsetRanges(edits: readonly OffsetReplacement[], options: { origin?: unknown } = {}): number[] {
    checkOffsetReplacements(edits, this.index.length)
    const ends: number[] = []
    this.doc.transact((transaction) => {
      const clockBefore = Y.getState(this.doc.store, this.doc.clientID)
      const raw = writeOffsetReplacements(this.ytext, this.changeReader, edits, (offset) => this.clipOffset(offset), ends)
      if (raw.length === 0) return
      // Nothing else writes as this client meanwhile: the inserted items are one run of clocks.
      this.transactions.record(transaction).own.push([clockBefore, Y.getState(this.doc.store, this.doc.clientID)])
      this.applyChanges(raw, transaction, false, false, true)
    }, options.origin ?? this.origin)
    return ends
  }

  /** The row of a character offset (clipped to the text), without making a `Point`. */
  rowForCharacterIndex(offset: number): number {
    const clamped = Math.max(0, Math.min(this.index.length, Math.floor(toFiniteNumber(offset))))
    return this.index.lineForOffset(clamped).row
  }

  /** The offset of the position an offset clips to, as `positionForCharacterIndex` clips it (one descent). */
  private clipOffset(offset: number): number {
    const { rowStart, line } = this.index.lineForOffset(offset)
    const column = offset - rowStart
    return rowStart + clipColumnOf(line, column, contentLength(line, column))
  }

  /** Runs `fn` in one Yjs transaction with this buffer's origin (nested calls join the outer one). */
  transact<T>(fn: () => T, origin: unknown = this.origin): T {
    let result: T
    this.doc.transact(() => {
      result = fn()
    }, origin)
    return result!
  }

  // Events

  /** Calls back after every change of the text, local or remote, with its old and new range and text. */
  onDidChange(callback: (event: BufferChangeEvent) => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  /**
   * Atom's `onDidChangeText`: called once per Y.Text transaction that changed the text, local or remote,
   * with all its replacements as one `ChangeSet` (origin, author, time, inserted and deleted Yjs IDs).
   * It runs when Yjs has finished the transaction: the buffer, the markers and the undo history are
   * current, and a listener may edit (its edit is a transaction of its own). A listener's error is
   * rethrown once Yjs has finished every pending transaction, so the document's update still goes out.
   */
  onDidChangeText(callback: (change: ChangeSet) => void): Disposable {
    return this.emitter.on('did-change-text', callback)
  }

  /**
   * Atom's `onDidStopChanging`: once changes pause for `stoppedChangingDelay` ms, one call with every
   * change since the last call composed into one `ChangeSet`. `core/` keeps no timer: the wait runs on
   * the `schedule` the buffer was given (the page passes `setTimeout`); without one it never fires.
   */
  onDidStopChanging(callback: (changes: ChangeSet) => void): Disposable {
    return this.emitter.on('did-stop-changing', callback)
  }

  /**
   * Registers a part that follows every change at its stage of the pipeline (see pipeline.ts): it runs
   * synchronously on each change, after the stages before it and before the public `onDidChange`
   * listeners, whatever order the parts registered in.
   */
  addChangeHook(stage: PipelineStage, hook: ChangeHook): Disposable {
    return this.pipeline.add(stage, hook)
  }

  /**
   * Registers a part's step after the public listeners, once per transaction, in pipeline order
   * (markers emit their change events here, so a multi-cursor command reports each marker once).
   */
  addAfterChangeHook(stage: PipelineStage, hook: () => void): Disposable {
    return this.pipeline.addAfter(stage, hook)
  }

  private assertText(text: unknown, name: string): asserts text is string {
    if (typeof text !== 'string') throw new TypeError(`${name} must be a string; got ${typeof text}`)
  }

  private clipRow(row: number): number {
    const n = Math.floor(toFiniteNumber(row))
    return Math.max(0, Math.min(this.getLastRow(), n))
  }

  /**
   * Writes to the Y.Text and mirrors the edit at once. Yjs runs observers only when the outermost
   * transaction ends, but a command that edits at several cursors must see each edit before the
   * next; so our own edits are applied to the index (and hooks) immediately, and the observer later
   * only checks that nothing else changed the text inside the same transaction.
   */
  private write(offset: number, deleteLength: number, text: string, origin: unknown): void {
    if (deleteLength === 0 && text.length === 0) return
    this.doc.transact((transaction) => {
      const client = this.doc.clientID
      const clockBefore = Y.getState(this.doc.store, client)
      if (deleteLength > 0) {
        this.ytext.delete(offset, deleteLength)
        this.changeReader.noteOwnDelete(offset, deleteLength)
      }
      if (text.length > 0) this.ytext.insert(offset, text)
      const clockAfter = Y.getState(this.doc.store, client)
      this.changeReader.noteOwnInsert(client, clockBefore, clockAfter)
      this.transactions.record(transaction).own.push([clockBefore, clockAfter])
      const change = { offset, deleteLength, insertText: text }
      // After-change consumers (marker events) run once, when the transaction ends, as in Atom.
      this.applyChanges([change], transaction, false, false)
    }, origin)
  }

  private applyYEvent(event: Y.YTextEvent, transaction: Y.Transaction): void {
    const own = this.transactions.ownInsertions(transaction)
    if (own !== null) {
      if (this.ytext.length === this.index.length && this.changeReader.indexedLength === this.index.length && this.changeReader.insertedOnlyIn(transaction, own)) {
        this.transactions.finish(transaction)
        this.pipeline.runAfter()
        return
      }
      // Something else edited the text inside our transaction: realign with one covering change.
      this.changeReader.reset()
      this.applyChanges([diffChange(this.index.getText(), this.ytext.toString())], transaction)
      this.transactions.finish(transaction)
      return
    }
    let raw = this.changeReader.read(transaction, this.index.length)
    if (raw === null) {
      this.slowReads++
      raw = rawChangesFromDelta(event)
    }
    try {
      this.applyChanges(raw, transaction, true)
    } finally {
      this.transactions.finish(transaction)
    }
  }

  private applyChanges(raw: readonly RawChange[], transaction: Y.Transaction, repairSurrogates = false, runAfterHooks = true, eventPerChange = false): void {
    if (raw.length === 0) return
    const origin = transaction.origin
    const local = transaction.local
    const record = this.transactions.record(transaction)
    const changes: TextChange[] = []
    for (const rawChange of raw) {
      const change = mirrorChange(this.index, rawChange, repairSurrogates)
      if (change === null) continue
      record.edits.push({ offset: change.startOffset, deleteLength: change.oldLength, insertText: change.newText })
      changes.push(change)
    }
    if (changes.length === 0) return
    this.version++
    const bufferEvent: BufferChangeEvent = { changes, origin, local }
    this.pipeline.run(bufferEvent)
    try {
      if (!eventPerChange || changes.length === 1) this.emitter.emit('did-change', bufferEvent)
      else for (const change of changes) this.emitter.emit('did-change', { changes: [change], origin, local })
    } finally {
      if (runAfterHooks) this.pipeline.runAfter()
    }
  }

  // Searching (Atom's scan API; the algorithm and its semantics are in scan.ts)

  /**
   * Calls `iterator` with each match of `regex` (only the first when not global); its replacements are one
   * transaction. Throws ScanTooSlowError, changing nothing, past `options.timeLimit` (default 250 ms).
   */
  scan(regex: RegExp, optionsOrIterator: ScanOptions | ScanIterator, iterator?: ScanIterator): void {
    this.scanInRange(regex, this.getRange(), optionsOrIterator, iterator)
  }

  /** `scan` from the last match to the first. */
  backwardsScan(regex: RegExp, optionsOrIterator: ScanOptions | ScanIterator, iterator?: ScanIterator): void {
    this.backwardsScanInRange(regex, this.getRange(), optionsOrIterator, iterator)
  }

  /** `scan` within `range`. */
  scanInRange(regex: RegExp, range: RangeLike, optionsOrIterator: ScanOptions | ScanIterator, iterator?: ScanIterator): void {
    scanWithArguments(this, regex, range, optionsOrIterator, iterator, false, (fn) => this.transact(fn))
  }

  /** `scanInRange` from the last match to the first. */
  backwardsScanInRange(regex: RegExp, range: RangeLike, optionsOrIterator: ScanOptions | ScanIterator, iterator?: ScanIterator): void {
    scanWithArguments(this, regex, range, optionsOrIterator, iterator, true, (fn) => this.transact(fn))
  }

  /** Replaces every match of `regex` (as `matchText.replace(regex, replacementText)`) in one transaction; returns the count. */
  replace(regex: RegExp, replacementText: string): number {
    return replaceAll(this, regex, replacementText, (fn) => this.transact(fn))
  }
}




/**
 * The length of `line` without its ending, as far as clipping `column` needs it: a column well
 * inside the line clips the same against any longer length, so the ending is read only near it.
 */
function contentLength(line: Line, column: number): number {
  return column < line.length - 2 ? line.length : line.length - lineEndingLength(line)
}

/**
 * `clipColumn(text, column, 'backward', contentLength)` for a line of the index: a line in pieces is
 * read only at the two code units around the column.
 */
function clipColumnOf(line: Line, column: number, contentLength: number): number {
  if (typeof line === 'string') return clipColumn(line, column, 'backward', contentLength)
  if (Number.isNaN(column) || column <= 0) return 0
  if (column >= contentLength) return contentLength
  const whole = Math.floor(column)
  return whole > 0 && isHighSurrogate(line.charCodeAt(whole - 1)) && isLowSurrogate(line.charCodeAt(whole)) ? whole - 1 : whole
}
