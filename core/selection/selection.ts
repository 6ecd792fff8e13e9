import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import { selectWordRange } from '../motions/word.ts'
import type { DisplayMarker, MarkerChangeEvent } from '../anchors/display-marker.ts'
import { Cursor, type CursorEvents, type CursorState } from './cursor.ts'
import type { CursorPositionEvent, SelectionContext, SelectionHost, SelectionRangeEvent, WriteOptions } from './host.ts'
import { type DeleteMethods, type Motion, MOTIONS, type SelectMethods } from './motion-table.ts'
import {
  addSelectionVertically,
  copySelection,
  deleteSelectedLines,
  indentSelection,
  insertTextIntoSelection,
  joinSelectedLines,
  outdentSelectedRows,
  wordOptionsFor,
  type InsertTextOptions,
} from './selection-editing.ts'

export type { InsertTextOptions } from './selection-editing.ts'

export type { SelectionRangeEvent } from './host.ts'

/** This file's class, registered with host.ts (a name of its own: inside the block `Selection` is host.ts's). */
type SelectionClass = Selection
declare module './host.ts' {
  interface SelectionParts {
    selection: SelectionClass
  }
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

let nextSelectionId = 0

/**
 * A range of text with a cursor at its head, as Atom's `Selection`. Selecting and deleting by a motion
 * (`selectUp`, `deleteToEndOfWord`, …) run a row of the motion table (`selectBy`, `deleteBy`); every change runs through
 * the host, which for a peer's selection refuses: peers' selections are read-only by construction.
 */
export class Selection implements SelectMethods, DeleteMethods<WriteOptions> {
  /** A number unique among the selections of this process. */
  readonly id = nextSelectionId++
  /** The cursor at the selection's head. */
  readonly cursor: Cursor
  /** The marker whose range the selection is. */
  readonly marker: DisplayMarker
  /** What the selection reads: the buffer, the display layer, the editor's settings and language. */
  readonly editor: SelectionContext
  /** Set once the selection is destroyed. */
  destroyed = false
  /** Set by a double click: extending selects whole words. */
  wordwise = false
  /** Set by a triple click: extending selects whole lines. */
  linewise = false
  private initialScreenRange: Range | null = null
  private goalScreenRange: Range | null = null
  private retainSelection = false
  private readonly emitter = new Emitter<SelectionEvents>()
  private readonly cursorState: CursorState = { goalColumn: null, visible: true, emitter: new Emitter<CursorEvents>() }
  private markerSubscription: Disposable | null = null

  constructor(
    editor: SelectionContext,
    private readonly host: SelectionHost,
    marker: DisplayMarker,
  ) {
    this.editor = editor
    this.marker = marker
    this.cursor = new Cursor(this, editor, host, this.cursorState)
    // A selection resolves its moves only when somebody needs them (see `needsMoves`).
    if (this.needsMoves()) this.subscribeToMarker()
    marker.onDidDestroy(() => this.markerDidDestroy())
  }

  /** Destroys the selection and its cursor (refused for a peer's selection). */
  destroy(): void {
    this.host.change('selection', 'destroy', () => this.marker.destroy())
  }

  /** Whether this is its owner's most recently added selection. */
  isLastSelection(): boolean {
    return this.host.isLastSelection(this)
  }

  /** True for selections of this editor's user; false for peers' selections, which cannot be changed here. */
  isLocal(): boolean {
    return this.host.local
  }

  /** The cursor at the selection's head. */
  getCursor(): Cursor {
    return this.cursor
  }

  // Events

  /** Calls back after the selected range changed, by an edit or a command. */
  onDidChangeRange(callback: (event: SelectionRangeEvent) => void): Disposable {
    this.subscribeToMarker()
    return this.emitter.on('did-change-range', callback)
  }

  /** Calls back once, when the selection is destroyed. */
  onDidDestroy(callback: () => void): Disposable {
    this.host.retain?.(this)
    return this.emitter.once('did-destroy', callback)
  }

  /** Internal: follows the marker's moves (see `needsMoves`; a local selection stops once they are not needed). */
  subscribeToMarker(): void {
    if (this.markerSubscription === null && !this.destroyed) {
      this.host.retain?.(this)
      this.markerSubscription = this.marker.onDidChange((event) => this.markerDidChange(event))
    }
  }

  // Range

  /** Selects a screen range (converted to the buffer range it shows). */
  setScreenRange(screenRange: RangeLike, options: SetRangeOptions = {}): void {
    this.setBufferRange(this.editor.displayLayer.bufferRangeForScreenRange(Range.fromObject(screenRange, false, 'screenRange')), options)
  }

  /** Selects a buffer range (clipped), unfolding folds at its ends unless `preserveFolds`. */
  setBufferRange(bufferRange: RangeLike, options: SetRangeOptions = {}): void {
    this.host.change('selection', 'change the range of', () => {
      const range = this.editor.buffer.clipRange(Range.fromObject(bufferRange, false, 'bufferRange'))
      const reversed = options.reversed ?? this.isReversed()
      if (!options.preserveFolds) this.host.editing.destroyFoldsContainingBufferPositions([range.start, range.end], true)
      this.modifySelection(() => this.marker.setBufferRange(range, { reversed }))
    })
  }

  /** Rows the selection covers; a selection ending at column 0 does not include that row. */
  getBufferRowRange(): [number, number] {
    const range = this.getBufferRange()
    const start = range.start.row
    let end = range.end.row
    if (range.end.column === 0) end = Math.max(start, end - 1)
    return [start, end]
  }

  // Info

  /** Whether the selection is a bare cursor. */
  isEmpty(): boolean {
    // Equal offsets need no positions; unequal ones may still clip to one position.
    return this.marker.isEmpty() || this.getBufferRange().isEmpty()
  }

  /** Whether the selection lies on one screen row. */
  isSingleScreenLine(): boolean {
    return this.getScreenRange().isSingleLine()
  }

  /** The selected text. */
  getText(): string {
    return this.editor.buffer.getTextInRange(this.getBufferRange())
  }

  /** Whether the selection touches a buffer range. */
  intersectsBufferRange(bufferRange: RangeLike): boolean {
    return this.getBufferRange().intersectsWith(bufferRange)
  }

  /** Whether the selection touches any of the screen rows [startRow, endRow]. */
  intersectsScreenRowRange(startRow: number, endRow: number): boolean {
    return this.getScreenRange().intersectsRowRange(startRow, endRow)
  }

  /** Whether the selection touches a screen row. */
  intersectsScreenRow(screenRow: number): boolean {
    return this.getScreenRange().intersectsRow(screenRow)
  }

  /** Whether two selections touch (or overlap, when `exclusive`). */
  intersectsWith(otherSelection: Selection, exclusive = false): boolean {
    return this.getBufferRange().intersectsWith(otherSelection.getBufferRange(), exclusive)
  }

  // Modifying the selected range

  /** Collapses the selection onto its cursor. */
  clear(_options: { autoscroll?: boolean } = {}): void {
    this.host.change('selection', 'clear', () => {
      this.goalScreenRange = null
      if (!this.retainSelection) this.marker.clearTail()
      this.finalize()
    })
  }

  /** Extends the head to a screen position (by words or lines after a double or triple click). */
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

  /** Extends the head to a buffer position. */
  selectToBufferPosition(position: PointLike): void {
    const point = Point.fromObject(position, false, 'position')
    this.modifySelection(() => this.cursor.setBufferPosition(point))
  }

  /** Selects the whole buffer. */
  selectAll(): void {
    this.setBufferRange(this.editor.buffer.getRange(), { autoscroll: false })
  }

  /** Extends the head by one motion of the table, keeping the tail. */
  selectBy(motion: Motion, count: unknown = 1): void {
    this.modifySelection(() => this.cursor.moveBy(motion, count))
  }

  /** Selects the word under the cursor and returns its range (Atom returns nothing; the seed does). */
  selectWord(options: { wordRegex?: RegExp; includeNonWordCharacters?: boolean } & SetRangeOptions = {}): Range {
    const range = selectWordRange(this.editor.buffer, this.cursor.getBufferPosition(), wordOptionsFor(this.cursor.getNonWordCharacters(), options))
    this.setBufferRange(range, options)
    this.wordwise = true
    this.initialScreenRange = this.getScreenRange()
    return this.getBufferRange()
  }

  /** Extends the selection over the word around its cursor. */
  expandOverWord(_options: { autoscroll?: boolean } = {}): void {
    this.setBufferRange(this.getBufferRange().union(this.cursor.getCurrentWordBufferRange()), { autoscroll: false })
  }

  /** Selects a row with its newline, or with no row every row the selection touches. */
  selectLine(row?: number, options: SetRangeOptions = {}): void {
    if (row !== undefined && row !== null) {
      this.setBufferRange(this.editor.buffer.rangeForRow(row, true), options)
    } else {
      const startRange = this.editor.buffer.rangeForRow(this.marker.getStartBufferPosition().row, false)
      const endRange = this.editor.buffer.rangeForRow(this.marker.getEndBufferPosition().row, true)
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

  /** Replaces the selected text with `text` (auto-indenting as `options` say); returns the inserted range. */
  insertText(text: string, options: InsertTextOptions = {}): Range {
    if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
    return this.write('insertText', options, () => insertTextIntoSelection(this, this.host.editing, text, options))
  }

  /** Deletes the selection, or with none, from the cursor to where one motion of the table goes. */
  deleteBy(motion: Motion, options: WriteOptions = {}, name = 'delete'): void {
    this.write(name, options, () => {
      if (this.isEmpty()) this.selectBy(motion)
      this.deleteSelectedText(options)
    })
  }

  /** From the line start up to the selection start (forward), or through its end (reversed). */
  deleteToBeginningOfLine(options: WriteOptions = {}): void {
    this.write('deleteToBeginningOfLine', options, () => {
      if (this.isEmpty() && this.cursor.isAtBeginningOfLine()) this.selectBy(MOTIONS.moveLeft)
      else this.selectBy(MOTIONS.moveToBeginningOfLine)
      this.deleteSelectedText(options)
    })
  }

  /** Deletes the selection, or with none, to the end of the screen line (the newline at its end). */
  deleteToEndOfLine(options: WriteOptions = {}): void {
    this.write('deleteToEndOfLine', options, () => {
      if (this.isEmpty()) {
        if (this.cursor.isAtEndOfLine()) {
          this.deleteBy(MOTIONS.moveRight, options)
          return
        }
        this.selectBy(MOTIONS.moveToEndOfScreenLine)
      }
      this.deleteSelectedText(options)
    })
  }

  /** Deletes the selected text. */
  deleteSelectedText(options: WriteOptions = {}): void {
    this.write('deleteSelectedText', options, () => {
      const range = this.getBufferRange()
      if (!range.isEmpty()) this.host.editing.setBufferTextInRange(range, '')
      this.cursor.setBufferPosition(range.start)
    })
  }

  /** Deletes every row the selection touches. */
  deleteLine(options: WriteOptions = {}): void {
    this.write('deleteLine', options, () => deleteSelectedLines(this, this.host.editing))
  }

  /** Joins the rows the selection touches (or the next one) with single spaces. */
  joinLines(options: WriteOptions = {}): void {
    this.write('joinLines', options, () => joinSelectedLines(this, this.host.editing))
  }

  /** Removes one level of indentation from every row the selection touches. */
  outdentSelectedRows(options: WriteOptions = {}): void {
    this.write('outdentSelectedRows', options, () => outdentSelectedRows(this, this.host.editing))
  }

  /** Indents every row the selection touches as the language suggests. */
  autoIndentSelectedRows(options: WriteOptions = {}): void {
    this.write('autoIndentSelectedRows', options, () => {
      const [start, end] = this.getBufferRowRange()
      this.host.editing.autoIndentBufferRows(start, end)
    })
  }

  /** Comments or uncomments every row the selection touches. */
  toggleLineComments(options: WriteOptions = {}): void {
    this.write('toggleLineComments', options, () => {
      const [start, end] = this.getBufferRowRange()
      this.host.editing.toggleLineCommentsForBufferRows(start, end)
    })
  }

  /** Cuts the selection, or with none, to the end of the screen line. */
  cutToEndOfLine(maintainClipboard = false, options: WriteOptions = {}): void {
    this.write('cutToEndOfLine', options, () => {
      if (this.isEmpty()) this.selectBy(MOTIONS.moveToEndOfScreenLine)
      this.cut(maintainClipboard, false, options)
    })
  }

  /** Cuts the selection, or with none, to the end of the buffer line. */
  cutToEndOfBufferLine(maintainClipboard = false, options: WriteOptions = {}): void {
    this.write('cutToEndOfBufferLine', options, () => {
      if (this.isEmpty()) this.selectBy(MOTIONS.moveToEndOfLine)
      this.cut(maintainClipboard, false, options)
    })
  }

  /** The third argument is Atom's positional `bypassReadOnly` Boolean, or an options object. */
  cut(maintainClipboard = false, fullLine = false, bypassReadOnly: boolean | WriteOptions = {}): void {
    const options: WriteOptions = typeof bypassReadOnly === 'boolean' ? { bypassReadOnly } : bypassReadOnly
    this.write('cut', options, () => {
      this.copy(maintainClipboard, fullLine)
      this.deleteBy(MOTIONS.moveRight, options)
    })
  }

  /** Copies to the editor's clipboard with Atom's metadata (indentBasis, fullLine, selections). */
  copy(maintainClipboard = false, fullLine = false): void {
    copySelection(this, maintainClipboard, fullLine)
  }

  /** Folds the selected range and puts the cursor after the fold. */
  fold(): void {
    this.host.change('selection', 'fold', () => {
      const range = this.getBufferRange()
      if (range.isEmpty()) return
      this.host.editing.foldBufferRange(range)
      this.cursor.setBufferPosition(range.end)
    })
  }

  /** With an empty selection: auto-indents the row, or inserts a tab; otherwise indents every row. */
  indent(options: WriteOptions & { autoIndent?: boolean } = {}): void {
    this.write('indent', options, () => indentSelection(this, this.host.editing, options))
  }

  /** Adds one level of indentation to every non-empty row the selection touches. */
  indentSelectedRows(options: WriteOptions = {}): void {
    this.write('indentSelectedRows', options, () => {
      const [start, end] = this.getBufferRowRange()
      const buffer = this.editor.buffer
      for (let row = start; row <= end; row++) {
        if (buffer.lineLengthForRow(row) !== 0) this.host.editing.setBufferTextInRange([[row, 0], [row, 0]], this.editor.getTabText())
      }
    })
  }

  // Multiple selections

  /** Adds a selection of the same columns on the next row that has them. */
  addSelectionBelow(): void {
    this.host.change('selection', 'add a selection next to', () => addSelectionVertically(this, this.host.editing, 1))
  }

  /** Adds a selection of the same columns on the previous row that has them. */
  addSelectionAbove(): void {
    this.host.change('selection', 'add a selection next to', () => addSelectionVertically(this, this.host.editing, -1))
  }

  /** Absorbs `otherSelection` (union of ranges and goal ranges), then destroys it. */
  merge(otherSelection: Selection, options: SetRangeOptions = {}): void {
    this.host.change('selection', 'merge', () => this.mergeWith(otherSelection, options))
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

  /** Orders two selections by buffer range: negative, 0 or positive. */
  compare(otherSelection: Selection): number {
    return this.marker.compare(otherSelection.marker)
  }

  /** The range vertical selection additions aim for (the current screen range by default). */
  getGoalScreenRange(): Range {
    return this.goalScreenRange ?? this.getScreenRange()
  }

  /** Sets the range vertical selection additions aim for. */
  setGoalScreenRange(range: RangeLike): void {
    this.host.change('selection', 'set the goal range of', () => {
      this.goalScreenRange = Range.fromObject(range)
    })
  }

  // Internal

  /** Plants a tail, runs `fn` (which moves the head), and keeps the tail where it was. */
  modifySelection(fn: () => void): void {
    // One change: collaboration publishes the final range once, not each step of the change.
    this.host.change('selection', 'change', () => {
      this.retainSelection = true
      try {
        this.marker.plantTail()
        fn()
      } finally {
        this.retainSelection = false
      }
    })
  }

  /** Fixes the tail where the head is, so that the next head move selects. */
  plantTail(): void {
    this.host.change('selection', 'change', () => this.marker.plantTail())
  }

  private write<T>(name: string, options: WriteOptions, fn: () => T): T {
    return this.host.write(name, options, fn)
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
      this.cursorState.goalColumn = null
      const cursorEvent: CursorPositionEvent = {
        oldBufferPosition: oldHeadBufferPosition, oldScreenPosition: oldHeadScreenPosition, textChanged, cursor: this.cursor,
        newBufferPosition: newHeadBufferPosition, newScreenPosition: newHeadScreenPosition,
      }
      this.cursorState.emitter.emit('did-change-position', cursorEvent)
      this.host.cursorMoved(cursorEvent)
    }
    const rangeEvent: SelectionRangeEvent = {
      oldBufferRange: new Range(oldHeadBufferPosition, oldTailBufferPosition),
      oldScreenRange: new Range(oldHeadScreenPosition, oldTailScreenPosition),
      newBufferRange: new Range(newHeadBufferPosition, newTailBufferPosition),
      newScreenRange: new Range(newHeadScreenPosition, newTailScreenPosition),
      selection: this,
    }
    this.emitter.emit('did-change-range', rangeEvent)
    this.host.selectionRangeChanged(rangeEvent)
    if (!this.host.local || this.needsMoves()) return
    this.markerSubscription?.dispose()
    this.markerSubscription = null
  }

  /** Whether moves are needed: a listener here or at the owner, or a goal column to clear when the head moves (typing resolves none otherwise). */
  private needsMoves(): boolean {
    const listened = this.emitter.hasListeners('did-change-range') || this.cursorState.emitter.hasListeners('did-change-position')
    return listened || this.cursorState.goalColumn !== null || this.host.reportsMoves?.() === true
  }

  private markerDidDestroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.markerSubscription?.dispose()
    this.host.selectionDestroyed(this)
    try {
      this.cursorState.emitter.emit('did-destroy')
      this.emitter.emit('did-destroy')
    } finally {
      this.cursorState.emitter.dispose()
      this.emitter.dispose()
    }
  }

  // What a selection answers from its marker unchanged.
  /** The selected range in screen coordinates. */
  getScreenRange(): Range { return this.marker.getScreenRange() }
  /** The selected range in buffer coordinates. */
  getBufferRange(): Range { return this.marker.getBufferRange() }
  /** Where the selection started (the end that stays when the head moves), in screen coordinates. */
  getTailScreenPosition(): Point { return this.marker.getTailScreenPosition() }
  /** Where the selection started, in buffer coordinates. */
  getTailBufferPosition(): Point { return this.marker.getTailBufferPosition() }
  /** The cursor's end of the selection, in screen coordinates. */
  getHeadScreenPosition(): Point { return this.marker.getHeadScreenPosition() }
  /** The cursor's end of the selection, in buffer coordinates. */
  getHeadBufferPosition(): Point { return this.marker.getHeadBufferPosition() }
  /** Whether the head comes before the tail. */
  isReversed(): boolean { return this.marker.isReversed() }

  // Atom's names for selecting and deleting by a motion: each runs `selectBy` or `deleteBy` with its row of the motion table.
  /** Extends the selection's head up `rowCount` screen rows (default 1), keeping the goal column. */
  selectUp(rowCount?: number): void { this.selectBy(MOTIONS.moveUp, rowCount ?? 1) }
  /** Extends the selection's head down `rowCount` screen rows (default 1), keeping the goal column. */
  selectDown(rowCount?: number): void { this.selectBy(MOTIONS.moveDown, rowCount ?? 1) }
  /** Extends the selection's head left `columnCount` characters (default 1), across line ends. */
  selectLeft(columnCount?: number): void { this.selectBy(MOTIONS.moveLeft, columnCount ?? 1) }
  /** Extends the selection's head right `columnCount` characters (default 1), across line ends. */
  selectRight(columnCount?: number): void { this.selectBy(MOTIONS.moveRight, columnCount ?? 1) }
  /** Extends the selection's head to the start of the buffer. */
  selectToTop(): void { this.selectBy(MOTIONS.moveToTop) }
  /** Extends the selection's head to the end of the buffer. */
  selectToBottom(): void { this.selectBy(MOTIONS.moveToBottom) }
  /** Extends the selection's head to column 0 of the buffer line. */
  selectToBeginningOfLine(): void { this.selectBy(MOTIONS.moveToBeginningOfLine) }
  /** Extends the selection's head to the first non-whitespace character of the screen line (toggling with column 0). */
  selectToFirstCharacterOfLine(): void { this.selectBy(MOTIONS.moveToFirstCharacterOfLine) }
  /** Extends the selection's head to the end of the screen line. */
  selectToEndOfLine(): void { this.selectBy(MOTIONS.moveToEndOfScreenLine) }
  /** Extends the selection's head to the end of the buffer line. */
  selectToEndOfBufferLine(): void { this.selectBy(MOTIONS.moveToEndOfLine) }
  /** Extends the selection's head to the beginning of the word (the previous one from its start). */
  selectToBeginningOfWord(): void { this.selectBy(MOTIONS.moveToBeginningOfWord) }
  /** Extends the selection's head to the end of the word (the next one from its end). */
  selectToEndOfWord(): void { this.selectBy(MOTIONS.moveToEndOfWord) }
  /** Extends the selection's head to the beginning of the next word. */
  selectToBeginningOfNextWord(): void { this.selectBy(MOTIONS.moveToBeginningOfNextWord) }
  /** Extends the selection's head to the previous word boundary. */
  selectToPreviousWordBoundary(): void { this.selectBy(MOTIONS.moveToPreviousWordBoundary) }
  /** Extends the selection's head to the next word boundary. */
  selectToNextWordBoundary(): void { this.selectBy(MOTIONS.moveToNextWordBoundary) }
  /** Extends the selection's head to the previous subword boundary (camelCase, snake_case parts). */
  selectToPreviousSubwordBoundary(): void { this.selectBy(MOTIONS.moveToPreviousSubwordBoundary) }
  /** Extends the selection's head to the next subword boundary (camelCase, snake_case parts). */
  selectToNextSubwordBoundary(): void { this.selectBy(MOTIONS.moveToNextSubwordBoundary) }
  /** Extends the selection's head to the start of the next paragraph (after the next blank row). */
  selectToBeginningOfNextParagraph(): void { this.selectBy(MOTIONS.moveToBeginningOfNextParagraph) }
  /** Extends the selection's head to the start of the previous paragraph. */
  selectToBeginningOfPreviousParagraph(): void { this.selectBy(MOTIONS.moveToBeginningOfPreviousParagraph) }
  /** Deletes the selection, or with none, the character before the cursor. */
  backspace(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveLeft, options ?? {}, 'backspace') }
  /** Deletes the selection, or with none, the character after the cursor. */
  delete(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveRight, options ?? {}, 'delete') }
  /** Deletes the selection, or with none, from the cursor to the beginning of its word. */
  deleteToBeginningOfWord(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToBeginningOfWord, options ?? {}, 'deleteToBeginningOfWord') }
  /** Deletes the selection, or with none, from the cursor to the end of its word. */
  deleteToEndOfWord(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToEndOfWord, options ?? {}, 'deleteToEndOfWord') }
  /** Deletes the selection, or with none, from the cursor to the previous word boundary. */
  deleteToPreviousWordBoundary(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToPreviousWordBoundary, options ?? {}, 'deleteToPreviousWordBoundary') }
  /** Deletes the selection, or with none, from the cursor to the next word boundary. */
  deleteToNextWordBoundary(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToNextWordBoundary, options ?? {}, 'deleteToNextWordBoundary') }
  /** Deletes the selection, or with none, from the cursor to the previous subword boundary. */
  deleteToBeginningOfSubword(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToPreviousSubwordBoundary, options ?? {}, 'deleteToBeginningOfSubword') }
  /** Deletes the selection, or with none, from the cursor to the next subword boundary. */
  deleteToEndOfSubword(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToNextSubwordBoundary, options ?? {}, 'deleteToEndOfSubword') }
}
