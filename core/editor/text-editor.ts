import * as Y from 'yjs'
import type { Awareness } from 'y-protocols/awareness'
import { TextBuffer, type BufferChangeEvent } from '../buffer/text-buffer.ts'
import { DisplayLayer, type ClipOptions } from '../display/display-layer.ts'
import { MarkerLayer } from '../anchors/marker-layer.ts'
import type { DisplayMarker, MarkerOptions } from '../anchors/display-marker.ts'
import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import { Cursor, type CursorPositionEvent } from '../selection/cursor.ts'
import { Selection, type SelectionOwner, type SelectionRangeEvent, type SetRangeOptions } from '../selection/selection.ts'
import type { InsertTextOptions } from '../selection/selection-editing.ts'
import type { CursorHost, WriteOptions } from '../selection/host.ts'
import { DEFAULT_NON_WORD_CHARACTERS } from '../motions/word.ts'
import { paragraphRowRange } from '../motions/paragraph.ts'
import { createLanguageMode, type LanguageMode } from '../language/language-mode.ts'
import { isLanguageId, type LanguageId } from '../language/registry.ts'
import type { ScopeDescriptor } from '../language/scope-descriptor.ts'
import { toggleLineCommentsEdits } from '../language/comments.ts'
import { Clipboard } from './clipboard.ts'
import { EditorCommands } from './commands.ts'
import { ReadOnlyEditorError } from './errors.ts'
import { History, type SelectionOffsets } from './history.ts'
import { buildIndentString, indentLevelForLine } from './indentation.ts'

export interface TextEditorOptions {
  text?: string
  doc?: Y.Doc
  textName?: string
  awareness?: Awareness
  user?: { name: string; color: string }
  readOnly?: boolean
  softWrapped?: boolean
  editorWidthInChars?: number
  softWrapHangingIndentLength?: number
  tabLength?: number
  softTabs?: boolean
  nonWordCharacters?: string
  clipboard?: Clipboard
  language?: LanguageId
}

interface EditorEvents {
  'did-change': BufferChangeEvent
  'did-add-cursor': Cursor
  'did-remove-cursor': Cursor
  'did-add-selection': Selection
  'did-remove-selection': Selection
  'did-change-cursor-position': CursorPositionEvent
  'did-change-selection-range': SelectionRangeEvent
  'did-change-read-only': boolean
  'did-change-language': LanguageId
  'did-insert-text': { text: string; range: Range }
  'did-destroy': undefined
}

const LOCAL: SelectionOwner = { local: true, name: '' }

/**
 * Atom's TextEditor over a Y.Text. The text lives in the Y.Text (every edit is a transaction with
 * the editor as origin); this facade owns the local selections and routes every buffer <-> screen
 * conversion through one DisplayLayer. Algorithms live in their own modules.
 */
export class TextEditor extends EditorCommands implements CursorHost {
  readonly doc: Y.Doc
  readonly buffer: TextBuffer
  readonly displayLayer: DisplayLayer
  readonly markerLayer: MarkerLayer
  private readonly history: History
  private readonly emitter = new Emitter<EditorEvents>()
  private readonly subscriptions: Disposable[] = []
  private selections: Selection[] = []
  private announced = new WeakSet<Selection>()
  private readOnly: boolean
  private softTabs: boolean
  private nonWordCharacters: string
  private clipboard: Clipboard
  private languageMode: LanguageMode
  private writeDepth = 0
  private transactDepth = 0
  private suppressMerging = false
  private destroyed = false

  constructor(options: TextEditorOptions = {}) {
    super()
    checkOptions(options)
    this.doc = options.doc ?? new Y.Doc()
    const ytext = this.doc.getText(options.textName ?? 'text')
    this.buffer = new TextBuffer({ ytext, origin: this })
    if (options.text !== undefined && options.text !== '') this.buffer.setText(options.text)
    this.displayLayer = new DisplayLayer(this.buffer, {
      tabLength: options.tabLength ?? 2,
      softWrapped: options.softWrapped ?? false,
      editorWidthInChars: options.editorWidthInChars ?? 80,
      softWrapHangingIndentLength: options.softWrapHangingIndentLength ?? 0,
    })
    this.markerLayer = new MarkerLayer(this.buffer, this.displayLayer)
    this.readOnly = options.readOnly ?? false
    this.softTabs = options.softTabs ?? true
    this.nonWordCharacters = options.nonWordCharacters ?? DEFAULT_NON_WORD_CHARACTERS
    this.clipboard = options.clipboard ?? Clipboard.getDefault()
    this.languageMode = createLanguageMode(options.language ?? 'text', this.buffer)
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
  }

  destroy(): void {
    if (this.destroyed) return
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

  getBuffer(): TextBuffer {
    return this.buffer
  }

  getDisplayLayer(): DisplayLayer {
    return this.displayLayer
  }

  // Text

  getText(): string {
    return this.buffer.getText()
  }

  setText(text: string, options: WriteOptions = {}): void {
    if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
    this.mutateText('setText', options, () => this.buffer.setText(text))
  }

  getTextInBufferRange(range: RangeLike): string {
    return this.buffer.getTextInRange(range)
  }

  getTextInRange(range: RangeLike): string {
    return this.buffer.getTextInRange(range)
  }

  setTextInBufferRange(range: RangeLike, text: string, options: WriteOptions & { normalizeLineEndings?: boolean; undo?: 'skip' } = {}): Range {
    if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
    const r = Range.fromObject(range, false, 'range')
    return this.mutateText('setTextInBufferRange', options, () => this.setBufferTextInRange(r, text, options))
  }

  lineTextForBufferRow(row: number): string {
    return this.buffer.lineForRow(row) ?? ''
  }

  lineTextForScreenRow(screenRow: number): string {
    return this.displayLayer.lineTextForScreenRow(screenRow)
  }

  lineLengthForScreenRow(screenRow: number): number {
    return this.displayLayer.lineLengthForScreenRow(screenRow)
  }

  getLineCount(): number {
    return this.buffer.getLineCount()
  }

  getScreenLineCount(): number {
    return this.displayLayer.getScreenLineCount()
  }

  getLastBufferRow(): number {
    return this.buffer.getLastRow()
  }

  getLastScreenRow(): number {
    return this.displayLayer.getLastScreenRow()
  }

  getEofBufferPosition(): Point {
    return this.buffer.getEndPosition()
  }

  isEmpty(): boolean {
    return this.buffer.isEmpty()
  }

  bufferRangeForBufferRow(row: number, options: { includeNewline?: boolean } = {}): Range {
    return this.buffer.rangeForRow(row, options.includeNewline ?? false)
  }

  // Coordinates

  screenPositionForBufferPosition(position: PointLike, options?: ClipOptions): Point {
    return this.displayLayer.screenPositionForBufferPosition(Point.fromObject(position, false, 'bufferPosition'), options)
  }

  bufferPositionForScreenPosition(position: PointLike, options?: ClipOptions): Point {
    return this.displayLayer.bufferPositionForScreenPosition(Point.fromObject(position, false, 'screenPosition'), options)
  }

  screenRangeForBufferRange(range: RangeLike, options?: ClipOptions): Range {
    return this.displayLayer.screenRangeForBufferRange(Range.fromObject(range, false, 'bufferRange'), options)
  }

  bufferRangeForScreenRange(range: RangeLike, options?: ClipOptions): Range {
    return this.displayLayer.bufferRangeForScreenRange(Range.fromObject(range, false, 'screenRange'), options)
  }

  clipBufferPosition(position: PointLike): Point {
    return this.buffer.clipPosition(position)
  }

  clipBufferRange(range: RangeLike): Range {
    return this.buffer.clipRange(range)
  }

  clipScreenPosition(position: PointLike, options?: ClipOptions): Point {
    return this.displayLayer.clipScreenPosition(Point.fromObject(position, false, 'screenPosition'), options)
  }

  clipScreenRange(range: RangeLike, options?: ClipOptions): Range {
    const r = Range.fromObject(range, false, 'screenRange')
    return new Range(this.clipScreenPosition(r.start, options), this.clipScreenPosition(r.end, options))
  }

  bufferRowForScreenRow(screenRow: number): number {
    return this.displayLayer.bufferRowForScreenRow(screenRow)
  }

  screenRowForBufferRow(bufferRow: number): number {
    return this.displayLayer.screenRowForBufferRow(bufferRow)
  }

  // Markers

  markBufferRange(range: RangeLike, options?: MarkerOptions): DisplayMarker {
    return this.markerLayer.markBufferRange(range, options)
  }

  markBufferPosition(position: PointLike, options?: MarkerOptions): DisplayMarker {
    return this.markerLayer.markBufferPosition(position, options)
  }

  markScreenRange(range: RangeLike, options?: MarkerOptions): DisplayMarker {
    return this.markerLayer.markScreenRange(range, options)
  }

  markScreenPosition(position: PointLike, options?: MarkerOptions): DisplayMarker {
    return this.markerLayer.markScreenPosition(position, options)
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
    const selections = this.getSelections()
    for (const selection of selections.slice(bufferRanges.length)) selection.destroy()
    this.mergeIntersectingSelections(options, () => {
      bufferRanges.forEach((range, i) => {
        const selection = selections[i]
        if (selection) selection.setBufferRange(range, options)
        else this.addSelectionForBufferRange(range, options)
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
    for (const selection of selections.slice(1)) selection.destroy()
    return true
  }

  clearSelections(options: { autoscroll?: boolean } = {}): void {
    this.consolidateSelections()
    this.getLastSelection()!.clear(options)
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

  insertText(text: string, options: InsertTextOptions & { groupUndo?: boolean } = {}): Range[] {
    if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
    const selectionOptions: InsertTextOptions = { autoIndentNewline: true, autoDecreaseIndent: true, ...options }
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

  pasteText(options: InsertTextOptions = {}): void {
    this.ensureWritable('pasteText', options)
    const { text: clipboardText, metadata = {} } = this.clipboard.readWithMetadata()
    const count = this.selections.length
    this.mutateSelectedText('pasteText', options, (selection, index) => {
      const entry = metadata.selections && metadata.selections.length === count ? metadata.selections[index]! : null
      const text = entry ? entry.text : clipboardText
      const indentBasis = entry ? entry.indentBasis : metadata.indentBasis
      const fullLine = entry ? entry.fullLine : metadata.fullLine
      const insertOptions: InsertTextOptions = { ...options }
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

  getClipboard(): Clipboard {
    return this.clipboard
  }

  // Indentation

  getTabLength(): number {
    return this.displayLayer.getTabLength()
  }

  setTabLength(tabLength: number): void {
    if (typeof tabLength !== 'number' || !(tabLength >= 1)) throw new TypeError(`tabLength must be a number >= 1; got ${String(tabLength)}`)
    this.displayLayer.setTabLength(Math.floor(tabLength))
  }

  getSoftTabs(): boolean {
    return this.softTabs
  }

  setSoftTabs(softTabs: boolean): void {
    this.softTabs = Boolean(softTabs)
  }

  getTabText(): string {
    return this.buildIndentString(1)
  }

  indentLevelForLine(line: string): number {
    return indentLevelForLine(line, this.getTabLength())
  }

  indentationForBufferRow(row: number): number {
    return this.indentLevelForLine(this.lineTextForBufferRow(row))
  }

  buildIndentString(level: number, column = 0): string {
    return buildIndentString(level, this.getTabLength(), this.softTabs, column)
  }

  setIndentationForBufferRow(row: number, level: number, options: { preserveLeadingWhitespace?: boolean } = {}): void {
    const line = this.lineTextForBufferRow(row)
    const endColumn = options.preserveLeadingWhitespace ? 0 : /^\s*/.exec(line)![0].length
    this.mutateText('setIndentationForBufferRow', {}, () =>
      this.buffer.setTextInRange([[row, 0], [row, endColumn]], this.buildIndentString(level)),
    )
  }

  suggestedIndentForBufferRow(row: number, options: { skipBlankLines?: boolean } = {}): number {
    return this.languageMode.suggestedIndentForBufferRow(row, { tabLength: this.getTabLength(), ...options })
  }

  suggestedIndentForLineAtBufferRow(row: number, line: string): number {
    return this.languageMode.suggestedIndentForLineAtBufferRow(row, line, { tabLength: this.getTabLength() })
  }

  autoIndentBufferRow(row: number, options: { preserveLeadingWhitespace?: boolean; skipBlankLines?: boolean } = {}): void {
    const level = this.suggestedIndentForBufferRow(row, options.skipBlankLines === undefined ? {} : { skipBlankLines: options.skipBlankLines })
    this.setIndentationForBufferRow(row, level, options)
  }

  autoIndentBufferRows(startRow: number, endRow: number): void {
    for (let row = startRow; row <= endRow; row++) this.autoIndentBufferRow(row)
  }

  autoDecreaseIndentForBufferRow(row: number): void {
    const level = this.languageMode.suggestedIndentForEditedBufferRow(row, { tabLength: this.getTabLength() })
    if (level !== undefined) this.setIndentationForBufferRow(row, level)
  }

  toggleLineCommentsForBufferRows(startRow: number, endRow: number): void {
    const tokens = this.languageMode.commentStringsForPosition([startRow, 0])
    const edits = toggleLineCommentsEdits((row) => this.lineTextForBufferRow(row), startRow, endRow, tokens, {
      tabLength: this.getTabLength(),
      softTabs: this.softTabs,
    })
    if (edits.length === 0) return
    this.mutateText('toggleLineComments', {}, () => {
      // Bottom-up, so each edit's columns are still those of the text it was computed from.
      const ordered = [...edits].sort((a, b) => b.row - a.row || b.startColumn - a.startColumn)
      for (const edit of ordered) {
        this.buffer.setTextInRange([[edit.row, edit.startColumn], [edit.row, edit.endColumn]], edit.text, { normalizeLineEndings: false })
      }
    })
  }

  rowRangeForParagraphAtBufferRow(row: number): Range | undefined {
    const rows = paragraphRowRange(this.buffer, row, (r) => this.languageMode.isRowCommented(r))
    if (!rows) return undefined
    return new Range([rows[0], 0], [rows[1], this.buffer.lineLengthForRow(rows[1])])
  }

  // Folds and layout

  foldBufferRow(bufferRow: number): void {
    this.displayLayer.foldBufferRow(bufferRow)
  }

  foldBufferRange(range: RangeLike): number {
    return this.displayLayer.foldBufferRange(Range.fromObject(range, false, 'range'))
  }

  unfoldBufferRow(bufferRow: number): void {
    this.displayLayer.unfoldBufferRow(bufferRow)
  }

  unfoldAll(): void {
    this.displayLayer.unfoldAll()
  }

  isFoldedAtBufferRow(bufferRow: number): boolean {
    return this.displayLayer.isFoldedAtBufferRow(bufferRow)
  }

  isFoldedAtScreenRow(screenRow: number): boolean {
    return this.displayLayer.isFoldedAtScreenRow(screenRow)
  }

  foldSelectedLines(): void {
    for (const selection of this.getSelections()) selection.fold()
  }

  destroyFoldsContainingBufferPositions(positions: PointLike[], excludeEndpoints: boolean): void {
    this.displayLayer.destroyFoldsContainingBufferPositions(positions, excludeEndpoints)
  }

  setSoftWrapped(softWrapped: boolean): boolean {
    this.displayLayer.setSoftWrapped(Boolean(softWrapped))
    return this.isSoftWrapped()
  }

  isSoftWrapped(): boolean {
    return this.displayLayer.isSoftWrapped()
  }

  toggleSoftWrapped(): boolean {
    return this.setSoftWrapped(!this.isSoftWrapped())
  }

  setEditorWidthInChars(width: number): void {
    if (typeof width !== 'number' || !(width >= 1)) throw new TypeError(`width must be a number >= 1; got ${String(width)}`)
    this.displayLayer.setEditorWidthInChars(Math.floor(width))
  }

  getEditorWidthInChars(): number {
    return this.displayLayer.getEditorWidthInChars()
  }

  setSoftWrapHangingIndentLength(length: number): void {
    this.displayLayer.setSoftWrapHangingIndentLength(length)
  }

  getSoftWrapHangingIndentLength(): number {
    return this.displayLayer.getSoftWrapHangingIndentLength()
  }

  // History

  undo(options: WriteOptions = {}): boolean {
    this.ensureWritable('undo', options)
    return this.history.undo()
  }

  redo(options: WriteOptions = {}): boolean {
    this.ensureWritable('redo', options)
    return this.history.redo()
  }

  /** Runs `fn` as one Yjs transaction and one undo step; `groupingInterval` joins a close previous step. */
  transact<T>(groupingIntervalOrFn: number | (() => T), maybeFn?: () => T): T {
    const fn = typeof groupingIntervalOrFn === 'function' ? groupingIntervalOrFn : maybeFn
    const groupingInterval = typeof groupingIntervalOrFn === 'number' ? groupingIntervalOrFn : 0
    if (typeof fn !== 'function') throw new TypeError('transact needs a function')
    if (this.transactDepth > 0) return fn()
    this.transactDepth++
    this.history.willChange(groupingInterval)
    try {
      return this.buffer.transact(fn)
    } finally {
      this.history.didChange()
      this.transactDepth--
    }
  }

  createCheckpoint(): number {
    return this.history.createCheckpoint()
  }

  revertToCheckpoint(checkpoint: number): boolean {
    return this.history.revertToCheckpoint(checkpoint)
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

  // Language

  setLanguage(id: LanguageId): void {
    if (!isLanguageId(id)) throw new TypeError(`unknown language: ${String(id)}`)
    if (id === this.languageMode.id) return
    this.languageMode.destroy()
    this.languageMode = createLanguageMode(id, this.buffer)
    this.emitter.emit('did-change-language', id)
  }

  getLanguage(): LanguageId {
    return this.languageMode.id
  }

  getLanguageMode(): LanguageMode {
    return this.languageMode
  }

  scopeDescriptorForBufferPosition(position: PointLike): ScopeDescriptor {
    return this.languageMode.scopeDescriptorForPosition(this.clipBufferPosition(position))
  }

  syntaxTreeScopeDescriptorForBufferPosition(position: PointLike): ScopeDescriptor {
    return this.languageMode.syntaxTreeScopeDescriptorForPosition(this.clipBufferPosition(position))
  }

  getNonWordCharacters(_position?: PointLike): string {
    return this.nonWordCharacters
  }

  // Events

  onDidChange(callback: (event: BufferChangeEvent) => void): Disposable {
    return this.emitter.on('did-change', callback)
  }
  onDidAddCursor(callback: (cursor: Cursor) => void): Disposable {
    return this.emitter.on('did-add-cursor', callback)
  }
  onDidRemoveCursor(callback: (cursor: Cursor) => void): Disposable {
    return this.emitter.on('did-remove-cursor', callback)
  }
  onDidAddSelection(callback: (selection: Selection) => void): Disposable {
    return this.emitter.on('did-add-selection', callback)
  }
  onDidRemoveSelection(callback: (selection: Selection) => void): Disposable {
    return this.emitter.on('did-remove-selection', callback)
  }
  onDidChangeCursorPosition(callback: (event: CursorPositionEvent) => void): Disposable {
    return this.emitter.on('did-change-cursor-position', callback)
  }
  onDidChangeSelectionRange(callback: (event: SelectionRangeEvent) => void): Disposable {
    return this.emitter.on('did-change-selection-range', callback)
  }
  onDidChangeReadOnly(callback: (readOnly: boolean) => void): Disposable {
    return this.emitter.on('did-change-read-only', callback)
  }
  onDidChangeLanguage(callback: (id: LanguageId) => void): Disposable {
    return this.emitter.on('did-change-language', callback)
  }
  onDidInsertText(callback: (event: { text: string; range: Range }) => void): Disposable {
    return this.emitter.on('did-insert-text', callback)
  }
  onDidDestroy(callback: () => void): Disposable {
    return this.emitter.once('did-destroy', callback)
  }

  // Internal: CursorHost and the collaboration layer

  cursorMoved(event: CursorPositionEvent): void {
    this.emitter.emit('did-change-cursor-position', event)
  }

  selectionRangeChanged(event: SelectionRangeEvent): void {
    this.emitter.emit('did-change-selection-range', event)
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
    for (const cursor of this.getCursors()) fn(cursor)
    this.mergeCursors()
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

function checkOptions(options: TextEditorOptions): void {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object')
  if (options.text !== undefined && typeof options.text !== 'string') throw new TypeError('options.text must be a string')
  if (options.doc !== undefined && !(options.doc instanceof Y.Doc)) throw new TypeError('options.doc must be a Y.Doc')
  if (options.textName !== undefined && typeof options.textName !== 'string') throw new TypeError('options.textName must be a string')
  if (options.tabLength !== undefined && !(typeof options.tabLength === 'number' && options.tabLength >= 1)) {
    throw new TypeError('options.tabLength must be a number >= 1')
  }
  if (options.editorWidthInChars !== undefined && !(typeof options.editorWidthInChars === 'number' && options.editorWidthInChars >= 1)) {
    throw new TypeError('options.editorWidthInChars must be a number >= 1')
  }
  if (options.nonWordCharacters !== undefined && typeof options.nonWordCharacters !== 'string') {
    throw new TypeError('options.nonWordCharacters must be a string')
  }
  if (options.clipboard !== undefined && !(options.clipboard instanceof Clipboard)) throw new TypeError('options.clipboard must be a Clipboard')
  if (options.language !== undefined && !isLanguageId(options.language)) throw new TypeError(`options.language: unknown language ${String(options.language)}`)
}
