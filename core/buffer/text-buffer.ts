import * as Y from 'yjs'
import { Emitter } from '../events/emitter.ts'
import { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import { LineIndex, endingLength } from './line-index.ts'
import type { BufferChangeEvent, TextChange } from './text-change.ts'
import { clipColumn, isHighSurrogate, isLowSurrogate, toFiniteNumber } from '../point/unicode.ts'
import { YTextChangeReader, diffChange, rawChangesFromDelta, type RawChange } from './ytext-changes.ts'
import type { ChangeSet } from './change-set.ts'
import { TransactionChanges } from './transaction-changes.ts'

export type { BufferChangeEvent, TextChange } from './text-change.ts'

/** A synchronous consumer of buffer changes, run before public listeners (markers, display layer). */
export type ChangeHook = (event: BufferChangeEvent) => void

export interface TextBufferOptions {
  /** The shared text. Default: a fresh doc's `getText('text')`. */
  ytext?: Y.Text
  /** Initial text, written into `ytext` (with `origin`) when given. */
  text?: string
  /** The transaction origin of this buffer's own edits. */
  origin?: unknown
  /** Milliseconds since the epoch for each change set's `time`. Default: `Date.now`. */
  clock?: () => number
}

interface BufferEvents {
  'did-change': BufferChangeEvent
  'did-stop-changing': undefined
  'did-change-text': ChangeSet
}


/**
 * A line-oriented view of a Y.Text. The line index follows every Y.Text transaction, whoever made it,
 * so row/column <-> offset conversions are O(log n) and no read stringifies the CRDT.
 */
export class TextBuffer {
  readonly ytext: Y.Text
  readonly doc: Y.Doc
  /** Origin given to this buffer's own transactions; observers use it to know their own echo. */
  readonly origin: unknown
  private readonly index: LineIndex
  private readonly emitter = new Emitter<BufferEvents>()
  private readonly hooks: ChangeHook[] = []
  private readonly afterHooks: (() => void)[] = []
  private readonly changeReader: YTextChangeReader
  /** Each transaction's replacements, made into one change set and announced when it ends. */
  private readonly transactions: TransactionChanges
  /** How many transactions had to be read through Yjs's slow delta (a diagnostic; expected 0). */
  slowReads = 0
  /** Increases with every change of the text; lets callers cache derived values. */
  version = 0
  private readonly observer: (event: Y.YTextEvent, transaction: Y.Transaction) => void
  private destroyed = false

  constructor(options: TextBufferOptions = {}) {
    this.ytext = options.ytext ?? new Y.Doc().getText('text')
    if (!this.ytext.doc) throw new Error('TextBuffer needs a Y.Text that belongs to a Y.Doc')
    this.doc = this.ytext.doc
    this.origin = options.origin ?? this
    this.index = new LineIndex(this.ytext.toString())
    this.changeReader = new YTextChangeReader(this.ytext)
    this.observer = (event, transaction) => this.applyYEvent(event, transaction)
    this.ytext.observe(this.observer)
    this.transactions = new TransactionChanges(this.ytext, options.clock ?? Date.now, () => this.index.length, (change) => {
      if (!this.destroyed) this.emitter.emit('did-change-text', change)
    })
    if (options.text !== undefined && options.text !== '') this.setText(options.text)
  }

  /** Stops following the Y.Text and releases every listener; the Y.Text itself is left alone. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.ytext.unobserve(this.observer)
    this.transactions.destroy()
    this.emitter.dispose()
    this.hooks.length = 0
    this.afterHooks.length = 0
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
    const line = this.index.lineWithEnding(row)
    return line.slice(0, line.length - endingLength(line))
  }

  /** The length of a row's text, without its line ending (0 beyond the last row). */
  lineLengthForRow(row: number): number {
    return this.lineForRow(row)?.length ?? 0
  }

  /** '\n', '\r\n', '\r', or '' for the last row. */
  lineEndingForRow(row: number): string {
    if (!Number.isInteger(row) || row < 0 || row >= this.index.lineCount) return ''
    const line = this.index.lineWithEnding(row)
    return line.slice(line.length - endingLength(line))
  }

  /** Every row's text, without line endings. */
  getLines(): string[] {
    return this.index.linesWithEndings(0, this.index.lineCount).map((line) => line.slice(0, line.length - endingLength(line)))
  }

  /** Whether a row holds only whitespace. */
  isRowBlank(row: number): boolean {
    return !/\S/.test(this.lineForRow(row) ?? '')
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
    const row = toFiniteNumber(point.row)
    if (row < 0) return Point.ZERO
    if (row > this.index.lineCount - 1) return this.getEndPosition()
    const clippedRow = Math.floor(row)
    const line = this.index.lineWithEnding(clippedRow)
    const clippedColumn = clipColumn(line, Math.floor(toFiniteNumber(point.column)), 'backward', line.length - endingLength(line))
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
    if (row > this.index.lineCount - 1) return this.index.length
    // One descent gives the row's text (to clip the column) and its offset.
    const { line, offset } = this.index.lineAndOffsetForRow(Math.floor(row))
    const column = Math.floor(toFiniteNumber(point.column))
    return offset + clipColumn(line, column, 'backward', contentLength(line, column))
  }

  /** The position of an offset (clipped to the text). */
  positionForCharacterIndex(offset: number): Point {
    const n = toFiniteNumber(offset)
    const clamped = Math.max(0, Math.min(this.index.length, Math.floor(n)))
    const { row, rowStart, line } = this.index.lineForOffset(clamped)
    const column = clamped - rowStart
    return new Point(row, clipColumn(line, column, 'backward', contentLength(line, column)))
  }

  /** Offset of an already clipped point. */
  offsetForPoint(point: Point): number {
    return this.index.offsetForRow(point.row) + point.column
  }

  // Relative positions (positions that survive everybody's edits)

  /** A Yjs relative position for a character offset; assoc < 0 binds it to the character before. */
  relativePositionForOffset(offset: number, assoc = -1): Y.RelativePosition {
    const clamped = Math.max(0, Math.min(this.index.length, Math.floor(toFiniteNumber(offset))))
    return this.changeReader.relativePositionAt(clamped, assoc)
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
    this.replace(0, this.index.length, text, this.origin)
    return this.getRange()
  }

  /**
   * Replaces the text in `range` and returns the range of the new text. As in Atom, line endings in
   * `text` are normalised to the ending of the row (or the row above) unless `normalizeLineEndings`
   * is false; `origin` overrides the transaction origin (an untracked one keeps it out of undo).
   */
  setTextInRange(range: RangeLike, text: string, options: { normalizeLineEndings?: boolean; origin?: unknown } = {}): Range {
    this.assertText(text, 'text')
    const { start, end } = this.clipRange(range)
    if (options.normalizeLineEndings !== false && /[\r\n]/.test(text)) {
      const ending = this.lineEndingForRow(start.row) || this.lineEndingForRow(start.row - 1)
      if (ending) text = text.replace(/\r\n|\r|\n/g, ending)
    }
    const startOffset = this.offsetForPoint(start)
    const endOffset = this.offsetForPoint(end)
    this.replace(startOffset, endOffset - startOffset, text, options.origin ?? this.origin)
    return Range.fromText(start, text)
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
    const first = this.clipRow(Math.min(startRow, endRow))
    const last = this.clipRow(Math.max(startRow, endRow))
    if (last < lastRow) return this.delete(new Range([first, 0], [last + 1, 0]))
    if (first > 0) return this.delete(new Range([first - 1, this.lineLengthForRow(first - 1)], [last, this.lineLengthForRow(last)]))
    return this.delete(new Range([first, 0], [last, this.lineLengthForRow(last)]))
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
   * Registers a consumer that runs synchronously on every change before the public `onDidChange`
   * listeners, in registration order, so that markers and layout are current when listeners read them.
   */
  addChangeHook(hook: ChangeHook): Disposable {
    this.hooks.push(hook)
    return new Disposable(() => {
      const i = this.hooks.indexOf(hook)
      if (i !== -1) this.hooks.splice(i, 1)
    })
  }

  /**
   * Registers a consumer run after the public listeners, once per transaction (markers emit their
   * change events here, so a multi-cursor command reports each marker once).
   */
  addAfterChangeHook(hook: () => void): Disposable {
    this.afterHooks.push(hook)
    return new Disposable(() => {
      const i = this.afterHooks.indexOf(hook)
      if (i !== -1) this.afterHooks.splice(i, 1)
    })
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
  private replace(offset: number, deleteLength: number, text: string, origin: unknown): void {
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
        this.runAfterHooks()
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

  private applyChanges(raw: readonly RawChange[], transaction: Y.Transaction, repairSurrogates = false, runAfterHooks = true): void {
    if (raw.length === 0) return
    const origin = transaction.origin
    const local = transaction.local
    const record = this.transactions.record(transaction)
    const changes: TextChange[] = []
    for (const rawChange of raw) {
      // Each change's offsets assume the earlier ones applied, so repair against the current index.
      const repaired = repairSurrogates ? this.withSplitSurrogates(rawChange) : rawChange
      const { offset, deleteLength, insertText } = this.withLineEndingPairs(repaired)
      if (deleteLength === 0 && insertText.length === 0) continue
      // One descent finds the row; a change that deletes within the row's content needs no other.
      const at = this.index.lineForOffset(offset)
      const local = offset - at.rowStart
      const start = new Point(at.row, local)
      let oldText: string
      let oldEnd: Point
      if (local + deleteLength <= at.line.length - endingLength(at.line)) {
        oldText = at.line.slice(local, local + deleteLength)
        oldEnd = new Point(at.row, local + deleteLength)
      } else {
        oldText = this.index.textBetween(offset, offset + deleteLength)
        oldEnd = this.positionForOffsetUnclipped(offset + deleteLength)
      }
      this.index.edit(offset, deleteLength, insertText, at)
      record.edits.push({ offset, deleteLength, insertText })
      const oldRange = new Range(start, oldEnd)
      const newRange = Range.fromText(start, insertText)
      changes.push({
        startOffset: offset,
        oldLength: deleteLength,
        newLength: insertText.length,
        start,
        oldExtent: oldRange.getExtent(),
        newExtent: newRange.getExtent(),
        oldRange,
        newRange,
        oldText,
        newText: insertText,
      })
    }
    if (changes.length === 0) return
    this.version++
    const bufferEvent: BufferChangeEvent = { changes, origin, local }
    for (const hook of [...this.hooks]) hook(bufferEvent)
    try {
      this.emitter.emit('did-change', bufferEvent)
    } finally {
      if (runAfterHooks) this.runAfterHooks()
    }
  }

  private runAfterHooks(): void {
    let firstError: unknown = null
    for (const hook of [...this.afterHooks]) {
      try {
        hook()
      } catch (error) {
        firstError ??= error
      }
    }
    if (firstError !== null) throw firstError
  }

  /**
   * An edit that joins a '\r' and a '\n' into one line ending, or splits one, changes the rows around
   * it: "a\rb" plus "\n" at (1, 0) keeps two rows. Widening the change over the '\r' and '\n' involved
   * makes its extents tell the truth, so markers, layout and listeners see the real rows.
   */
  private withLineEndingPairs(change: RawChange): RawChange {
    let { offset, deleteLength, insertText } = change
    const before = this.index.charAt(offset - 1)
    const after = this.index.charAt(offset + deleteLength)
    if (before !== '\r' && after !== '\n') return change
    const firstOld = this.index.charAt(offset)
    const lastOld = deleteLength > 0 ? this.index.charAt(offset + deleteLength - 1) : ''
    const firstNew = insertText.length > 0 ? insertText[0] : after
    const lastNew = insertText.length > 0 ? insertText[insertText.length - 1] : before
    // A pair forms across the left edge, or the edit starts inside an existing pair.
    if (before === '\r' && (firstNew === '\n' || firstOld === '\n')) {
      offset -= 1
      deleteLength += 1
      insertText = '\r' + insertText
    }
    // A pair forms across the right edge, or the edit ends inside an existing pair.
    if (after === '\n' && (lastNew === '\r' || lastOld === '\r')) {
      deleteLength += 1
      insertText += '\n'
    }
    return { offset, deleteLength, insertText }
  }

  /**
   * Yjs replaces both halves of a surrogate pair with U+FFFD when an edit splits the pair inside one
   * item, without reporting it; widen such a change so the mirror sees the same text.
   */
  private withSplitSurrogates(change: RawChange): RawChange {
    let { offset, deleteLength, insertText } = change
    const around = this.index.textBetween(offset - 1, offset + 1)
    if (offset > 0 && around.length === 2 && isHighSurrogate(around.charCodeAt(0)) && isLowSurrogate(around.charCodeAt(1))) {
      offset -= 1
      deleteLength += 1
      insertText = '\ufffd' + insertText
      if (change.deleteLength === 0) {
        deleteLength += 1
        insertText += '\ufffd'
      }
    }
    if (change.deleteLength > 0) {
      const end = change.offset + change.deleteLength
      const edge = this.index.textBetween(end - 1, end + 1)
      if (edge.length === 2 && isHighSurrogate(edge.charCodeAt(0)) && isLowSurrogate(edge.charCodeAt(1))) {
        deleteLength += 1
        insertText += '\ufffd'
      }
    }
    return { offset, deleteLength, insertText }
  }

  private positionForOffsetUnclipped(offset: number): Point {
    const { row, rowStart } = this.index.rowForOffset(offset)
    return new Point(row, offset - rowStart)
  }
}




/**
 * The length of `line` without its ending, as far as clipping `column` needs it: a column well
 * inside the line clips the same against any longer length, so the ending is read only near it.
 */
function contentLength(line: string, column: number): number {
  return column < line.length - 2 ? line.length : line.length - endingLength(line)
}
