import type * as Y from 'yjs'
import type { DisplayMarker } from '../anchors/display-marker.ts'
import type { ClipOptions } from '../display/display-layer.ts'
import { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import { Cursor, type CursorPositionEvent } from '../selection/cursor.ts'
import { Selection, type SelectionOwner, type SelectionRangeEvent, type SetRangeOptions } from '../selection/selection.ts'
import type { InsertTextOptions } from '../selection/selection-editing.ts'
import type { CursorHost, WriteOptions } from '../selection/host.ts'
import { Clipboard } from './clipboard.ts'
import { AtomCommands } from './atom-commands.ts'
import type { TextEditorOptions } from './editor-model.ts'
import { ReadOnlyEditorError } from './errors.ts'
import { History, type SelectionOffsets } from './history.ts'
import { Collaboration, type CollaborationOptions } from '../collab/collaboration.ts'
import type { Peer } from '../collab/peer.ts'

export type { TextEditorOptions } from './editor-model.ts'

const LOCAL: SelectionOwner = { local: true, name: '' }

/**
 * Atom's TextEditor over a Y.Text. The text lives in the Y.Text (every edit is a transaction with
 * the editor as origin); this class owns the local selections, applies commands to all of them and
 * merges what coincides, keeps the undo history and emits the events. Algorithms live elsewhere.
 */
export class TextEditor extends AtomCommands implements CursorHost {
  private readonly history: History
  private readonly subscriptions: Disposable[] = []
  private selections: Selection[] = []
  private announced = new WeakSet<Selection>()
  private readOnly: boolean
  private clipboard: Clipboard
  private writeDepth = 0
  private transactDepth = 0
  private suppressMerging = false
  private destroyed = false
  /** Set when the editor was given an awareness: publishes our selections, shows the peers'. */
  private readonly collaboration: Collaboration | null = null
  /** Depth of nested operations on selections; collaboration publishes when the outermost ends. */
  private batchDepth = 0

  constructor(options: TextEditorOptions = {}) {
    super(options)
    this.readOnly = options.readOnly ?? false
    this.clipboard = options.clipboard ?? Clipboard.getDefault()
    this.history = new History(
      {
        buffer: this.buffer,
        selectionOffsets: () => this.selections.map((s) => ({ anchor: s.marker.tailOffset, head: s.marker.headOffset })),
        restoreSelections: (offsets) => this.restoreSelections(offsets),
      },
      this,
    )
    this.subscriptions.push(this.buffer.onDidChange((event) => this.emitter.emit('did-change', event)))
    this.addCursorAtBufferPosition([0, 0])
    if (options.awareness) {
      const collaborationOptions: CollaborationOptions = {}
      if (options.user) collaborationOptions.user = options.user
      if (options.logger) collaborationOptions.logger = options.logger
      this.collaboration = new Collaboration(this, options.awareness, collaborationOptions)
    }
  }

  destroy(): void {
    if (this.destroyed) return
    // First, while selections still exist: peers leave and our awareness fields are cleared.
    this.collaboration?.destroy()
    this.destroyed = true
    for (const selection of [...this.selections]) selection.marker.destroy()
    for (const subscription of this.subscriptions) subscription.dispose()
    this.history.destroy()
    this.markerLayer.destroy()
    this.displayLayer.destroy()
    this.languageMode.destroy()
    this.buffer.destroy()
    try {
      this.emitter.emit('did-destroy')
    } finally {
      this.emitter.dispose()
    }
  }

  isDestroyed(): boolean {
    return this.destroyed
  }

  // Cursors

  getCursors(): Cursor[] {
    return this.selections.map((selection) => selection.cursor)
  }

  getLastCursor(): Cursor | undefined {
    return this.getLastSelection()?.cursor
  }

  getCursorsOrderedByBufferPosition(): Cursor[] {
    return this.getCursors().sort((a, b) => a.compare(b))
  }

  hasMultipleCursors(): boolean {
    return this.selections.length > 1
  }

  /** Adds a cursor; where one already is, the two merge and the existing cursor is returned. */
  addCursorAtBufferPosition(position: PointLike, _options: { autoscroll?: boolean } = {}): Cursor {
    const point = this.clipBufferPosition(Point.fromObject(position, false, 'bufferPosition'))
    return this.addSelection(this.markerLayer.markBufferPosition(point, { invalidate: 'never' })).cursor
  }

  addCursorAtScreenPosition(position: PointLike, options: { autoscroll?: boolean } = {}): Cursor {
    return this.addCursorAtBufferPosition(this.bufferPositionForScreenPosition(position), options)
  }

  getCursorBufferPosition(): Point {
    return this.getLastCursor()!.getBufferPosition()
  }

  getCursorBufferPositions(): Point[] {
    return this.getCursors().map((cursor) => cursor.getBufferPosition())
  }

  getCursorScreenPosition(): Point {
    return this.getLastCursor()!.getScreenPosition()
  }

  getCursorScreenPositions(): Point[] {
    return this.getCursors().map((cursor) => cursor.getScreenPosition())
  }

  /** Moves every cursor there (they then merge into one), as Atom does. */
  setCursorBufferPosition(position: PointLike, options: { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(position, false, 'bufferPosition')
    this.moveCursors((cursor) => cursor.setBufferPosition(point, options))
  }

  setCursorScreenPosition(position: PointLike, options: ClipOptions & { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(position, false, 'screenPosition')
    this.moveCursors((cursor) => cursor.setScreenPosition(point, options))
  }

  // Selections

  getSelections(): Selection[] {
    return [...this.selections]
  }

  getLastSelection(): Selection | undefined {
    return this.selections[this.selections.length - 1]
  }

  getSelectionsOrderedByBufferPosition(): Selection[] {
    return [...this.selections].sort((a, b) => a.compare(b))
  }

  getSelectedText(): string {
    return this.getLastSelection()!.getText()
  }

  getSelectedBufferRange(): Range {
    return this.getLastSelection()!.getBufferRange()
  }

  getSelectedBufferRanges(): Range[] {
    return this.selections.map((selection) => selection.getBufferRange())
  }

  getSelectedScreenRange(): Range {
    return this.getLastSelection()!.getScreenRange()
  }

  getSelectedScreenRanges(): Range[] {
    return this.selections.map((selection) => selection.getScreenRange())
  }

  setSelectedBufferRange(range: RangeLike, options: SetRangeOptions = {}): void {
    this.setSelectedBufferRanges([range], options)
  }

  setSelectedBufferRanges(ranges: RangeLike[], options: SetRangeOptions = {}): void {
    if (!Array.isArray(ranges) || ranges.length === 0) throw new TypeError('ranges must be a non-empty array of ranges')
    const bufferRanges = ranges.map((range, i) => Range.fromObject(range, false, `ranges[${i}]`))
    this.batch(() => {
      const selections = this.getSelections()
      for (const selection of selections.slice(bufferRanges.length)) selection.destroy()
      this.mergeIntersectingSelections(options, () => {
        bufferRanges.forEach((range, i) => {
          const selection = selections[i]
          if (selection) selection.setBufferRange(range, options)
          else this.addSelectionForBufferRange(range, options)
        })
      })
    })
  }

  setSelectedScreenRange(range: RangeLike, options: SetRangeOptions = {}): void {
    this.setSelectedBufferRange(this.bufferRangeForScreenRange(range), options)
  }

  setSelectedScreenRanges(ranges: RangeLike[], options: SetRangeOptions = {}): void {
    if (!Array.isArray(ranges) || ranges.length === 0) throw new TypeError('ranges must be a non-empty array of ranges')
    this.setSelectedBufferRanges(ranges.map((range) => this.bufferRangeForScreenRange(range)), options)
  }

  addSelectionForBufferRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    const bufferRange = this.clipBufferRange(Range.fromObject(range, false, 'bufferRange'))
    if (!options.preserveFolds) this.destroyFoldsContainingBufferPositions([bufferRange.start, bufferRange.end], true)
    const marker = this.markerLayer.markBufferRange(bufferRange, { invalidate: 'never', reversed: options.reversed ?? false })
    return this.addSelection(marker, options)
  }

  addSelectionForScreenRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    return this.addSelectionForBufferRange(this.bufferRangeForScreenRange(range), options)
  }

  selectToBufferPosition(position: PointLike): void {
    const last = this.getLastSelection()!
    last.selectToBufferPosition(position)
    this.mergeIntersectingSelections({ reversed: last.isReversed() })
  }

  selectToScreenPosition(position: PointLike, options: { suppressSelectionMerge?: boolean } = {}): void {
    const last = this.getLastSelection()!
    last.selectToScreenPosition(position)
    if (!options.suppressSelectionMerge) this.mergeIntersectingSelections({ reversed: last.isReversed() })
  }

  /** Keeps only the first-added selection; true if others were removed. */
  consolidateSelections(): boolean {
    const selections = this.getSelections()
    if (selections.length <= 1) return false
    this.batch(() => {
      for (const selection of selections.slice(1)) selection.destroy()
    })
    return true
  }

  clearSelections(options: { autoscroll?: boolean } = {}): void {
    this.batch(() => {
      this.consolidateSelections()
      this.getLastSelection()!.clear(options)
    })
  }

  splitSelectionsIntoLines(): void {
    this.mergeIntersectingSelections({}, () => {
      for (const selection of this.getSelections()) {
        const range = selection.getBufferRange()
        if (range.isSingleLine()) continue
        const { start, end } = range
        this.addSelectionForBufferRange([start, [start.row, Infinity]])
        for (let row = start.row + 1; row < end.row; row++) this.addSelectionForBufferRange([[row, 0], [row, Infinity]])
        if (end.column !== 0) this.addSelectionForBufferRange([[end.row, 0], end])
        selection.destroy()
      }
    })
  }

  // Editing

  insertText(text: string, options: InsertTextOptions & { groupUndo?: boolean } = {}): Range[] | false {
    if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
    this.ensureWritable('insertText', options)
    if (!this.willInsertText(text)) return false
    const selectionOptions: InsertTextOptions = { autoIndentNewline: this.autoIndent, autoDecreaseIndent: this.autoIndent, ...options }
    return this.mutateSelectedText(
      'insertText',
      options,
      (selection) => {
        const range = selection.insertText(text, selectionOptions)
        this.emitter.emit('did-insert-text', { text, range })
        return range
      },
      options.groupUndo ? 300 : 0,
    )
  }

  copySelectedText(): void {
    // Selecting lines to copy them and restoring the ranges after is no change worth publishing.
    this.batch(() => this.copySelections())
  }

  private copySelections(): void {
    let maintainClipboard = false
    for (const selection of this.getSelectionsOrderedByBufferPosition()) {
      if (selection.isEmpty()) {
        const previous = selection.getBufferRange()
        selection.selectLine()
        selection.copy(maintainClipboard, true)
        selection.setBufferRange(previous)
      } else {
        selection.copy(maintainClipboard, false)
      }
      maintainClipboard = true
    }
  }

  pasteText(options: InsertTextOptions = {}): false | void {
    this.ensureWritable('pasteText', options)
    const { text: clipboardText, metadata = {} } = this.clipboard.readWithMetadata()
    if (!this.willInsertText(clipboardText)) return false
    const count = this.selections.length
    this.mutateSelectedText('pasteText', options, (selection, index) => {
      const entry = metadata.selections && metadata.selections.length === count ? metadata.selections[index]! : null
      const text = entry ? entry.text : clipboardText
      const indentBasis = entry ? entry.indentBasis : metadata.indentBasis
      const fullLine = entry ? entry.fullLine : metadata.fullLine
      const insertOptions: InsertTextOptions = { autoIndent: this.autoIndentOnPaste, ...options }
      insertOptions.indentBasis = indentBasis != null && (text.includes('\n') || !selection.cursor.hasPrecedingCharactersOnLine()) ? indentBasis : null
      let range: Range
      if (fullLine && selection.isEmpty()) {
        const oldPosition = selection.getBufferRange().start
        selection.setBufferRange([[oldPosition.row, 0], [oldPosition.row, 0]])
        range = selection.insertText(text, insertOptions)
        const newPosition = oldPosition.translate([1, 0])
        selection.setBufferRange([newPosition, newPosition])
      } else {
        range = selection.insertText(text, insertOptions)
      }
      this.emitter.emit('did-insert-text', { text, range })
    })
  }

  /** Merging the selections on one row and deleting are one change to publish. */
  override deleteLine(options: WriteOptions = {}): void {
    this.batch(() => super.deleteLine(options))
  }

  getClipboard(): Clipboard {
    return this.clipboard
  }

  // History

  undo(options: WriteOptions = {}): boolean {
    this.ensureWritable('undo', options)
    return this.batch(() => this.history.undo())
  }

  redo(options: WriteOptions = {}): boolean {
    this.ensureWritable('redo', options)
    return this.batch(() => this.history.redo())
  }

  /** Runs `fn` as one Yjs transaction and one undo step; `groupingInterval` joins a close previous step. */
  transact<T>(groupingIntervalOrFn: number | (() => T), maybeFn?: () => T): T {
    const fn = typeof groupingIntervalOrFn === 'function' ? groupingIntervalOrFn : maybeFn
    const groupingInterval = typeof groupingIntervalOrFn === 'number' ? groupingIntervalOrFn : 0
    if (typeof fn !== 'function') throw new TypeError('transact needs a function')
    if (this.transactDepth > 0) return fn()
    return this.batch(() => {
      this.transactDepth++
      this.history.willChange(groupingInterval)
      try {
        return this.buffer.transact(fn)
      } finally {
        this.history.didChange()
        this.transactDepth--
      }
    })
  }

  createCheckpoint(): number {
    return this.history.createCheckpoint()
  }

  revertToCheckpoint(checkpoint: number): boolean {
    return this.batch(() => this.history.revertToCheckpoint(checkpoint))
  }

  groupChangesSinceCheckpoint(checkpoint: number): boolean {
    return this.history.groupChangesSinceCheckpoint(checkpoint)
  }

  /** The Y.UndoManager behind undo/redo (it tracks only this editor's origin). */
  getUndoManager(): Y.UndoManager {
    return this.history.undoManager
  }

  // Read-only

  setReadOnly(readOnly: boolean): void {
    const value = Boolean(readOnly)
    if (value === this.readOnly) return
    this.readOnly = value
    this.emitter.emit('did-change-read-only', value)
  }

  isReadOnly(): boolean {
    return this.readOnly
  }

  // Collaboration

  /** Every other awareness client with a state (none without an awareness). */
  getPeers(): Peer[] {
    return this.collaboration?.getPeers() ?? []
  }
  onDidAddPeer(callback: (peer: Peer) => void): Disposable {
    return this.collaboration?.onDidAddPeer(callback) ?? new Disposable()
  }
  /** Fires after the peer's cursors, selections and the peer itself fired `onDidDestroy`. */
  onDidRemovePeer(callback: (peer: Peer) => void): Disposable {
    return this.collaboration?.onDidRemovePeer(callback) ?? new Disposable()
  }

  /** Runs `fn` as one batch of selection changes: collaboration publishes once, when the outermost ends. */
  batch<T>(fn: () => T): T {
    this.batchDepth++
    try {
      return fn()
    } finally {
      this.batchDepth--
      if (this.batchDepth === 0) this.collaboration?.flush()
    }
  }

  isBatching(): boolean {
    return this.batchDepth > 0
  }

  // Internal: CursorHost and the collaboration layer

  cursorMoved(event: CursorPositionEvent): void {
    this.emitter.emit('did-change-cursor-position', event)
  }

  selectionRangeChanged(event: SelectionRangeEvent): void {
    this.emitter.emit('did-change-selection-range', event)
  }

  /** Internal: a marker for a peer's selection at exact offsets; edits at its ends never push it. */
  markRemoteOffsets(headOffset: number, tailOffset: number): DisplayMarker {
    return this.markerLayer.markOffsets(headOffset, tailOffset, { remote: true, invalidate: 'never' })
  }

  /** Internal: a selection owned by someone else, resolved in this editor's coordinates. */
  createRemoteSelection(marker: DisplayMarker, owner: SelectionOwner): Selection {
    const cursor = new Cursor(this, marker)
    return new Selection(this, cursor, marker, owner)
  }

  removeSelection(selection: Selection): void {
    const index = this.selections.indexOf(selection)
    if (index === -1) return
    this.selections.splice(index, 1)
    if (this.announced.has(selection) && !this.destroyed) {
      this.emitter.emit('did-remove-cursor', selection.cursor)
      this.emitter.emit('did-remove-selection', selection)
    }
  }

  mutateText<T>(name: string, options: WriteOptions, fn: () => T): T {
    this.ensureWritable(name, options)
    this.writeDepth++
    try {
      return this.transact(fn)
    } finally {
      this.writeDepth--
    }
  }

  setBufferTextInRange(range: RangeLike, text: string, options: { normalizeLineEndings?: boolean; undo?: 'skip' } = {}): Range {
    const bufferOptions: { normalizeLineEndings?: boolean; origin?: unknown } = {}
    if (options.normalizeLineEndings !== undefined) bufferOptions.normalizeLineEndings = options.normalizeLineEndings
    // An origin the undo manager does not track keeps the change out of the history.
    if (options.undo === 'skip' && this.transactDepth === 0) bufferOptions.origin = UNTRACKED
    return this.buffer.setTextInRange(range, text, bufferOptions)
  }

  protected ensureWritable(name: string, options: WriteOptions): void {
    if (this.readOnly && !options.bypassReadOnly && this.writeDepth === 0) throw new ReadOnlyEditorError(name)
  }

  protected moveCursors(fn: (cursor: Cursor) => void): void {
    this.batch(() => {
      for (const cursor of this.getCursors()) fn(cursor)
      this.mergeCursors()
    })
  }

  protected expandSelectionsForward(fn: (selection: Selection) => void): void {
    this.mergeIntersectingSelections({}, () => this.getSelections().forEach(fn))
  }

  protected expandSelectionsBackward(fn: (selection: Selection) => void): void {
    this.mergeIntersectingSelections({ reversed: true }, () => this.getSelections().forEach(fn))
  }

  protected mutateSelectedText<T>(name: string, options: WriteOptions, fn: (selection: Selection, index: number) => T, groupingInterval = 0): T[] {
    this.ensureWritable(name, options)
    let result: T[] = []
    this.mergeIntersectingSelections({}, () => {
      this.writeDepth++
      try {
        result = this.transact(groupingInterval, () => this.getSelectionsOrderedByBufferPosition().map(fn))
      } finally {
        this.writeDepth--
      }
    })
    return result
  }

  protected mergeSelectionsOnSameRows(): void {
    this.mergeSelections({}, undefined, (previous, current) => {
      const range = current.getScreenRange()
      return previous.intersectsScreenRowRange(range.start.row, range.end.row)
    })
  }

  /** Merges selections that intersect; non-empty ones that only touch stay apart. */
  private mergeIntersectingSelections(options: SetRangeOptions, fn?: () => void): void {
    this.mergeSelections(options, fn, (previous, current) => {
      const exclusive = !current.isEmpty() && !previous.isEmpty()
      return previous.intersectsWith(current, exclusive)
    })
  }

  private mergeSelections(options: SetRangeOptions, fn: (() => void) | undefined, shouldMerge: (a: Selection, b: Selection) => boolean): void {
    if (this.suppressMerging) {
      fn?.()
      return
    }
    // Every command that changes selections runs through here: one batch, one publish.
    this.batch(() => this.mergeSelectionsNow(options, fn, shouldMerge))
  }

  private mergeSelectionsNow(options: SetRangeOptions, fn: (() => void) | undefined, shouldMerge: (a: Selection, b: Selection) => boolean): void {
    this.suppressMerging = true
    try {
      fn?.()
    } finally {
      this.suppressMerging = false
    }
    const ordered = this.getSelectionsOrderedByBufferPosition()
    let last = ordered.shift()
    for (const selection of ordered) {
      if (last && shouldMerge(last, selection)) last.merge(selection, options)
      else last = selection
    }
  }

  /** Cursors at one position merge; the earliest added survives. */
  private mergeCursors(): void {
    const seen = new Set<string>()
    for (const cursor of this.getCursors()) {
      const key = cursor.getBufferPosition().toString()
      if (seen.has(key)) cursor.destroy()
      else seen.add(key)
    }
  }

  private addSelection(marker: DisplayMarker, options: SetRangeOptions = {}): Selection {
    return this.batch(() => this.addAndMergeSelection(marker, options))
  }

  private addAndMergeSelection(marker: DisplayMarker, options: SetRangeOptions): Selection {
    const cursor = new Cursor(this, marker)
    const selection = new Selection(this, cursor, marker, LOCAL)
    this.selections.push(selection)
    const range = selection.getBufferRange()
    this.mergeIntersectingSelections(options)
    if (selection.destroyed) {
      return this.selections.find((s) => s.intersectsBufferRange(range)) ?? this.getLastSelection()!
    }
    this.announced.add(selection)
    this.emitter.emit('did-add-cursor', cursor)
    this.emitter.emit('did-add-selection', selection)
    return selection
  }

  private restoreSelections(offsets: SelectionOffsets[]): void {
    this.batch(() => this.restoreSelectionRanges(offsets))
  }

  private restoreSelectionRanges(offsets: SelectionOffsets[]): void {
    const ranges = offsets.map(({ anchor, head }) => ({
      range: new Range(this.buffer.positionForCharacterIndex(Math.min(anchor, head)), this.buffer.positionForCharacterIndex(Math.max(anchor, head))),
      reversed: head < anchor,
    }))
    const selections = this.getSelections()
    for (const selection of selections.slice(ranges.length)) selection.destroy()
    this.mergeIntersectingSelections({}, () => {
      ranges.forEach(({ range, reversed }, i) => {
        const selection = selections[i]
        if (selection) {
          if (range.isEmpty()) selection.cursor.setBufferPosition(range.start)
          else selection.setBufferRange(range, { reversed })
        } else {
          this.addSelectionForBufferRange(range, { reversed })
        }
      })
    })
  }
}

const UNTRACKED = Symbol('cotext.untracked-edit')
