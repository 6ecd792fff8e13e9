import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import type { DisplayMarker, MarkerChangeEvent } from '../anchors/display-marker.ts'
import type { Cursor, CursorPositionEvent } from './cursor.ts'
import type { CursorHost, WriteOptions } from './host.ts'
import {
  addSelectionVertically,
  copySelection,
  deleteSelectedLines,
  indentSelection,
  insertTextIntoSelection,
  joinSelectedLines,
  outdentSelectedRows,
  type InsertTextOptions,
} from './selection-editing.ts'

export type { InsertTextOptions } from './selection-editing.ts'

export interface SelectionRangeEvent {
  oldBufferRange: Range
  oldScreenRange: Range
  newBufferRange: Range
  newScreenRange: Range
  selection: Selection
}

export interface SetRangeOptions {
  reversed?: boolean
  preserveFolds?: boolean
  autoscroll?: boolean
}

interface SelectionEvents {
  'did-change-range': SelectionRangeEvent
  'did-destroy': undefined
}

/** Who a selection belongs to: this editor's user, or a peer (whose selections are read-only here). */
export interface SelectionOwner {
  readonly local: boolean
  readonly name: string
  /** A peer's last selection: what `isLastSelection` answers about for that peer's selections. */
  getLastSelection?(): Selection | undefined
}

const LOCAL_OWNER: SelectionOwner = { local: true, name: '' }

let nextSelectionId = 0

/** A range of text with a cursor at its head, as Atom's `Selection`. */
export class Selection {
  readonly id = nextSelectionId++
  readonly cursor: Cursor
  readonly marker: DisplayMarker
  readonly editor: CursorHost
  readonly owner: SelectionOwner
  destroyed = false
  wordwise = false
  linewise = false
  private initialScreenRange: Range | null = null
  private goalScreenRange: Range | null = null
  private retainSelection = false
  private readonly emitter = new Emitter<SelectionEvents>()
  private markerSubscription: Disposable | null = null

  constructor(editor: CursorHost, cursor: Cursor, marker: DisplayMarker, owner: SelectionOwner = LOCAL_OWNER) {
    this.editor = editor
    this.cursor = cursor
    this.marker = marker
    this.owner = owner
    cursor.selection = this
    // A peer's selection resolves positions only when somebody listens; ours always feed the editor.
    if (owner.local) this.subscribeToMarker()
    marker.onDidDestroy(() => this.markerDidDestroy())
  }

  destroy(): void {
    this.assertLocal('destroy')
    this.marker.destroy()
  }

  /** Internal: destroys a peer's selection when the peer leaves. */
  destroyRemote(): void {
    this.marker.destroy()
  }

  isLastSelection(): boolean {
    return this === (this.owner.local ? this.editor.getLastSelection() : this.owner.getLastSelection?.())
  }

  isLocal(): boolean {
    return this.owner.local
  }

  getCursor(): Cursor {
    return this.cursor
  }

  // Events

  onDidChangeRange(callback: (event: SelectionRangeEvent) => void): Disposable {
    this.subscribeToMarker()
    return this.emitter.on('did-change-range', callback)
  }

  onDidDestroy(callback: () => void): Disposable {
    return this.emitter.once('did-destroy', callback)
  }

  /** Internal: a peer's cursor got a listener, so its marker must report moves. */
  subscribeToMarker(): void {
    if (this.markerSubscription === null && !this.destroyed) {
      this.markerSubscription = this.marker.onDidChange((event) => this.markerDidChange(event))
    }
  }

  // Range

  getScreenRange(): Range {
    return this.marker.getScreenRange()
  }

  setScreenRange(screenRange: RangeLike, options: SetRangeOptions = {}): void {
    this.setBufferRange(this.editor.bufferRangeForScreenRange(Range.fromObject(screenRange, false, 'screenRange')), options)
  }

  getBufferRange(): Range {
    return this.marker.getBufferRange()
  }

  setBufferRange(bufferRange: RangeLike, options: SetRangeOptions = {}): void {
    this.assertLocal('change the range of')
    const range = this.editor.clipBufferRange(Range.fromObject(bufferRange, false, 'bufferRange'))
    const reversed = options.reversed ?? this.isReversed()
    if (!options.preserveFolds) this.editor.destroyFoldsContainingBufferPositions([range.start, range.end], true)
    this.modifySelection(() => this.marker.setBufferRange(range, { reversed }))
  }

  /** Rows the selection covers; a selection ending at column 0 does not include that row. */
  getBufferRowRange(): [number, number] {
    const range = this.getBufferRange()
    const start = range.start.row
    let end = range.end.row
    if (range.end.column === 0) end = Math.max(start, end - 1)
    return [start, end]
  }

  getTailScreenPosition(): Point {
    return this.marker.getTailScreenPosition()
  }

  getTailBufferPosition(): Point {
    return this.marker.getTailBufferPosition()
  }

  getHeadScreenPosition(): Point {
    return this.marker.getHeadScreenPosition()
  }

  getHeadBufferPosition(): Point {
    return this.marker.getHeadBufferPosition()
  }

  // Info

  isEmpty(): boolean {
    return this.getBufferRange().isEmpty()
  }

  isReversed(): boolean {
    return this.marker.isReversed()
  }

  isSingleScreenLine(): boolean {
    return this.getScreenRange().isSingleLine()
  }

  getText(): string {
    return this.editor.buffer.getTextInRange(this.getBufferRange())
  }

  intersectsBufferRange(bufferRange: RangeLike): boolean {
    return this.getBufferRange().intersectsWith(bufferRange)
  }

  intersectsScreenRowRange(startRow: number, endRow: number): boolean {
    return this.getScreenRange().intersectsRowRange(startRow, endRow)
  }

  intersectsScreenRow(screenRow: number): boolean {
    return this.getScreenRange().intersectsRow(screenRow)
  }

  intersectsWith(otherSelection: Selection, exclusive = false): boolean {
    return this.getBufferRange().intersectsWith(otherSelection.getBufferRange(), exclusive)
  }

  // Modifying the selected range

  clear(options: { autoscroll?: boolean } = {}): void {
    void options
    this.assertLocal('clear')
    this.goalScreenRange = null
    if (!this.retainSelection) this.marker.clearTail()
    this.finalize()
  }

  selectToScreenPosition(position: PointLike, options: { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(position, false, 'position')
    this.modifySelection(() => {
      const initial = this.initialScreenRange
      if (initial) {
        if (point.isLessThan(initial.start)) this.marker.setScreenRange([point, initial.end], { reversed: true })
        else this.marker.setScreenRange([initial.start, point], { reversed: false })
      } else {
        this.cursor.setScreenPosition(point, options)
      }
      if (this.linewise) this.expandOverLine(options)
      else if (this.wordwise) this.expandOverWord(options)
    })
  }

  selectToBufferPosition(position: PointLike): void {
    const point = Point.fromObject(position, false, 'position')
    this.modifySelection(() => this.cursor.setBufferPosition(point))
  }

  selectRight(columnCount = 1): void {
    this.modifySelection(() => this.cursor.moveRight(columnCount))
  }

  selectLeft(columnCount = 1): void {
    this.modifySelection(() => this.cursor.moveLeft(columnCount))
  }

  selectUp(rowCount = 1): void {
    this.modifySelection(() => this.cursor.moveUp(rowCount))
  }

  selectDown(rowCount = 1): void {
    this.modifySelection(() => this.cursor.moveDown(rowCount))
  }

  selectToTop(): void {
    this.modifySelection(() => this.cursor.moveToTop())
  }

  selectToBottom(): void {
    this.modifySelection(() => this.cursor.moveToBottom())
  }

  selectAll(): void {
    this.setBufferRange(this.editor.buffer.getRange(), { autoscroll: false })
  }

  selectToBeginningOfLine(): void {
    this.modifySelection(() => this.cursor.moveToBeginningOfLine())
  }

  selectToFirstCharacterOfLine(): void {
    this.modifySelection(() => this.cursor.moveToFirstCharacterOfLine())
  }

  /** To the end of the screen line (see selectToEndOfBufferLine). */
  selectToEndOfLine(): void {
    this.modifySelection(() => this.cursor.moveToEndOfScreenLine())
  }

  selectToEndOfBufferLine(): void {
    this.modifySelection(() => this.cursor.moveToEndOfLine())
  }

  selectToBeginningOfWord(): void {
    this.modifySelection(() => this.cursor.moveToBeginningOfWord())
  }

  selectToEndOfWord(): void {
    this.modifySelection(() => this.cursor.moveToEndOfWord())
  }

  selectToBeginningOfNextWord(): void {
    this.modifySelection(() => this.cursor.moveToBeginningOfNextWord())
  }

  selectToPreviousWordBoundary(): void {
    this.modifySelection(() => this.cursor.moveToPreviousWordBoundary())
  }

  selectToNextWordBoundary(): void {
    this.modifySelection(() => this.cursor.moveToNextWordBoundary())
  }

  selectToPreviousSubwordBoundary(): void {
    this.modifySelection(() => this.cursor.moveToPreviousSubwordBoundary())
  }

  selectToNextSubwordBoundary(): void {
    this.modifySelection(() => this.cursor.moveToNextSubwordBoundary())
  }

  selectToBeginningOfNextParagraph(): void {
    this.modifySelection(() => this.cursor.moveToBeginningOfNextParagraph())
  }

  selectToBeginningOfPreviousParagraph(): void {
    this.modifySelection(() => this.cursor.moveToBeginningOfPreviousParagraph())
  }

  /** Selects the word under the cursor and returns its range (Atom returns nothing; the seed does). */
  selectWord(options: { wordRegex?: RegExp; includeNonWordCharacters?: boolean } & SetRangeOptions = {}): Range {
    const wordOptions = { ...options }
    if (this.cursor.isSurroundedByWhitespace()) wordOptions.wordRegex = /[\t ]*/g
    if (this.cursor.isBetweenWordAndNonWord()) wordOptions.includeNonWordCharacters = false
    const range = this.cursor.getCurrentWordBufferRange(wordOptions)
    this.setBufferRange(range, options)
    this.wordwise = true
    this.initialScreenRange = this.getScreenRange()
    return this.getBufferRange()
  }

  expandOverWord(_options: { autoscroll?: boolean } = {}): void {
    this.setBufferRange(this.getBufferRange().union(this.cursor.getCurrentWordBufferRange()), { autoscroll: false })
  }

  selectLine(row?: number, options: SetRangeOptions = {}): void {
    if (row !== undefined && row !== null) {
      this.setBufferRange(this.editor.bufferRangeForBufferRow(row, { includeNewline: true }), options)
    } else {
      const startRange = this.editor.bufferRangeForBufferRow(this.marker.getStartBufferPosition().row)
      const endRange = this.editor.bufferRangeForBufferRow(this.marker.getEndBufferPosition().row, { includeNewline: true })
      this.setBufferRange(startRange.union(endRange), options)
    }
    this.linewise = true
    this.wordwise = false
    this.initialScreenRange = this.getScreenRange()
  }

  /** Keeps the selection's start and adds the cursor's row with its newline. */
  expandOverLine(_options: { autoscroll?: boolean } = {}): void {
    const range = this.getBufferRange().union(this.cursor.getCurrentLineBufferRange({ includeNewline: true }))
    this.setBufferRange(range, { autoscroll: false })
  }

  // Modifying the selected text

  insertText(text: string, options: InsertTextOptions = {}): Range {
    if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
    return this.write('insertText', options, () => insertTextIntoSelection(this, text, options))
  }

  backspace(options: WriteOptions = {}): void {
    this.write('backspace', options, () => {
      if (this.isEmpty()) this.selectLeft()
      this.deleteSelectedText(options)
    })
  }

  deleteToPreviousWordBoundary(options: WriteOptions = {}): void {
    this.deleteAfterSelecting('deleteToPreviousWordBoundary', options, () => this.selectToPreviousWordBoundary())
  }

  deleteToNextWordBoundary(options: WriteOptions = {}): void {
    this.deleteAfterSelecting('deleteToNextWordBoundary', options, () => this.selectToNextWordBoundary())
  }

  deleteToBeginningOfWord(options: WriteOptions = {}): void {
    this.deleteAfterSelecting('deleteToBeginningOfWord', options, () => this.selectToBeginningOfWord())
  }

  deleteToEndOfWord(options: WriteOptions = {}): void {
    this.deleteAfterSelecting('deleteToEndOfWord', options, () => this.selectToEndOfWord())
  }

  deleteToBeginningOfSubword(options: WriteOptions = {}): void {
    this.deleteAfterSelecting('deleteToBeginningOfSubword', options, () => this.selectToPreviousSubwordBoundary())
  }

  deleteToEndOfSubword(options: WriteOptions = {}): void {
    this.deleteAfterSelecting('deleteToEndOfSubword', options, () => this.selectToNextSubwordBoundary())
  }

  /** From the line start up to the selection start (forward), or through its end (reversed). */
  deleteToBeginningOfLine(options: WriteOptions = {}): void {
    this.write('deleteToBeginningOfLine', options, () => {
      if (this.isEmpty() && this.cursor.isAtBeginningOfLine()) this.selectLeft()
      else this.selectToBeginningOfLine()
      this.deleteSelectedText(options)
    })
  }

  delete(options: WriteOptions = {}): void {
    this.write('delete', options, () => {
      if (this.isEmpty()) this.selectRight()
      this.deleteSelectedText(options)
    })
  }

  deleteToEndOfLine(options: WriteOptions = {}): void {
    this.write('deleteToEndOfLine', options, () => {
      if (this.isEmpty()) {
        if (this.cursor.isAtEndOfLine()) {
          this.delete(options)
          return
        }
        this.selectToEndOfLine()
      }
      this.deleteSelectedText(options)
    })
  }

  deleteSelectedText(options: WriteOptions = {}): void {
    this.write('deleteSelectedText', options, () => {
      const range = this.getBufferRange()
      if (!range.isEmpty()) this.editor.buffer.delete(range)
      this.cursor.setBufferPosition(range.start)
    })
  }

  deleteLine(options: WriteOptions = {}): void {
    this.write('deleteLine', options, () => deleteSelectedLines(this))
  }

  joinLines(options: WriteOptions = {}): void {
    this.write('joinLines', options, () => joinSelectedLines(this))
  }

  outdentSelectedRows(options: WriteOptions = {}): void {
    this.write('outdentSelectedRows', options, () => outdentSelectedRows(this))
  }

  autoIndentSelectedRows(options: WriteOptions = {}): void {
    this.write('autoIndentSelectedRows', options, () => {
      const [start, end] = this.getBufferRowRange()
      this.editor.autoIndentBufferRows(start, end)
    })
  }

  toggleLineComments(options: WriteOptions = {}): void {
    this.write('toggleLineComments', options, () => {
      const [start, end] = this.getBufferRowRange()
      this.editor.toggleLineCommentsForBufferRows(start, end)
    })
  }

  cutToEndOfLine(maintainClipboard = false, options: WriteOptions = {}): void {
    this.write('cutToEndOfLine', options, () => {
      if (this.isEmpty()) this.selectToEndOfLine()
      this.cut(maintainClipboard, false, options)
    })
  }

  cutToEndOfBufferLine(maintainClipboard = false, options: WriteOptions = {}): void {
    this.write('cutToEndOfBufferLine', options, () => {
      if (this.isEmpty()) this.selectToEndOfBufferLine()
      this.cut(maintainClipboard, false, options)
    })
  }

  /** The third argument is Atom's positional `bypassReadOnly` Boolean, or an options object. */
  cut(maintainClipboard = false, fullLine = false, bypassReadOnly: boolean | WriteOptions = {}): void {
    const options: WriteOptions = typeof bypassReadOnly === 'boolean' ? { bypassReadOnly } : bypassReadOnly
    this.write('cut', options, () => {
      this.copy(maintainClipboard, fullLine)
      this.delete(options)
    })
  }

  /** Copies to the editor's clipboard with Atom's metadata (indentBasis, fullLine, selections). */
  copy(maintainClipboard = false, fullLine = false): void {
    copySelection(this, maintainClipboard, fullLine)
  }

  fold(): void {
    this.assertLocal('fold')
    const range = this.getBufferRange()
    if (range.isEmpty()) return
    this.editor.foldBufferRange(range)
    this.cursor.setBufferPosition(range.end)
  }

  /** With an empty selection: auto-indents the row, or inserts a tab; otherwise indents every row. */
  indent(options: WriteOptions & { autoIndent?: boolean } = {}): void {
    this.write('indent', options, () => indentSelection(this, options))
  }

  indentSelectedRows(options: WriteOptions = {}): void {
    this.write('indentSelectedRows', options, () => {
      const [start, end] = this.getBufferRowRange()
      const buffer = this.editor.buffer
      for (let row = start; row <= end; row++) {
        if (buffer.lineLengthForRow(row) !== 0) buffer.insert([row, 0], this.editor.getTabText())
      }
    })
  }

  // Multiple selections

  addSelectionBelow(): void {
    this.assertLocal('add a selection next to')
    addSelectionVertically(this, 1)
  }

  addSelectionAbove(): void {
    this.assertLocal('add a selection next to')
    addSelectionVertically(this, -1)
  }

  /** Absorbs `otherSelection` (union of ranges and goal ranges), then destroys it. */
  merge(otherSelection: Selection, options: SetRangeOptions = {}): void {
    this.assertLocal('merge')
    this.editor.batch(() => this.mergeWith(otherSelection, options))
  }

  private mergeWith(otherSelection: Selection, options: SetRangeOptions): void {
    const mine = this.goalScreenRange
    const theirs = otherSelection.goalScreenRange
    const goal = mine && theirs ? mine.union(theirs) : (mine ?? theirs)
    const range = this.getBufferRange().union(otherSelection.getBufferRange())
    this.setBufferRange(range, { autoscroll: false, ...options })
    this.goalScreenRange = goal
    otherSelection.destroy()
  }

  compare(otherSelection: Selection): number {
    return this.marker.compare(otherSelection.marker)
  }

  getGoalScreenRange(): Range {
    return this.goalScreenRange ?? this.getScreenRange()
  }

  setGoalScreenRange(range: RangeLike): void {
    this.assertLocal('set the goal range of')
    this.goalScreenRange = Range.fromObject(range)
  }

  // Internal

  /** Plants a tail, runs `fn` (which moves the head), and keeps the tail where it was. */
  modifySelection(fn: () => void): void {
    this.assertLocal('change')
    this.retainSelection = true
    try {
      // One batch: collaboration publishes the final range once, not each step of the change.
      this.editor.batch(() => {
        this.marker.plantTail()
        fn()
      })
    } finally {
      this.retainSelection = false
    }
  }

  plantTail(): void {
    this.assertLocal('change')
    this.marker.plantTail()
  }

  assertLocal(action: string, what: 'selection' | 'cursor' = 'selection'): void {
    if (!this.owner.local) {
      throw new Error(`Cannot ${action} this ${what}: it belongs to another user (${this.owner.name || 'a peer'})`)
    }
  }

  private write<T>(name: string, options: WriteOptions, fn: () => T): T {
    this.assertLocal('edit through')
    return this.editor.mutateText(name, options, fn)
  }

  private deleteAfterSelecting(name: string, options: WriteOptions, select: () => void): void {
    this.write(name, options, () => {
      if (this.isEmpty()) select()
      this.deleteSelectedText(options)
    })
  }


  private finalize(): void {
    if (!this.initialScreenRange || !this.initialScreenRange.isEqual(this.getScreenRange())) this.initialScreenRange = null
    if (this.isEmpty()) {
      this.wordwise = false
      this.linewise = false
    }
  }

  private markerDidChange(event: MarkerChangeEvent): void {
    const { oldHeadBufferPosition, oldTailBufferPosition, newHeadBufferPosition, newTailBufferPosition } = event
    const { oldHeadScreenPosition, oldTailScreenPosition, newHeadScreenPosition, newTailScreenPosition, textChanged } = event
    if (!oldHeadScreenPosition.isEqual(newHeadScreenPosition) || !oldHeadBufferPosition.isEqual(newHeadBufferPosition)) {
      this.cursor.goalColumn = null
      const cursorEvent: CursorPositionEvent = {
        oldBufferPosition: oldHeadBufferPosition,
        oldScreenPosition: oldHeadScreenPosition,
        newBufferPosition: newHeadBufferPosition,
        newScreenPosition: newHeadScreenPosition,
        textChanged,
        cursor: this.cursor,
      }
      this.cursor.emitter.emit('did-change-position', cursorEvent)
      if (this.owner.local) this.editor.cursorMoved(cursorEvent)
    }
    const rangeEvent: SelectionRangeEvent = {
      oldBufferRange: new Range(oldHeadBufferPosition, oldTailBufferPosition),
      oldScreenRange: new Range(oldHeadScreenPosition, oldTailScreenPosition),
      newBufferRange: new Range(newHeadBufferPosition, newTailBufferPosition),
      newScreenRange: new Range(newHeadScreenPosition, newTailScreenPosition),
      selection: this,
    }
    this.emitter.emit('did-change-range', rangeEvent)
    if (this.owner.local) this.editor.selectionRangeChanged(rangeEvent)
  }

  private markerDidDestroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.cursor.destroyed = true
    this.markerSubscription?.dispose()
    this.editor.removeSelection(this)
    try {
      this.cursor.emitter.emit('did-destroy')
      this.emitter.emit('did-destroy')
    } finally {
      this.cursor.emitter.dispose()
      this.emitter.dispose()
    }
  }
}
