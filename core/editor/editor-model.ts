import * as Y from 'yjs'
import type { Awareness } from 'y-protocols/awareness'
import { TextBuffer, type Schedule } from '../buffer/text-buffer.ts'
import { DisplayLayer, type ClipOptions } from '../display/display-layer.ts'
import { MarkerLayer } from '../anchors/marker-layer.ts'
import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import { defineSubscriptions, delegate } from '../events/delegate.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import type { Selection, SetRangeOptions } from '../selection/selection.ts'
import type { SelectionContext, SelectionEditing, WriteOptions } from '../selection/host.ts'
import { DEFAULT_NON_WORD_CHARACTERS } from '../motions/word.ts'
import { paragraphRowRange } from '../motions/paragraph.ts'
import { createLanguageMode, type LanguageMode } from '../language/language-mode.ts'
import { isLanguageId, type LanguageId } from '../language/registry.ts'
import type { ScopeDescriptor } from '../language/scope-descriptor.ts'
import { cursorColumnOnCommentedBlankRow, toggleLineCommentsEdits } from '../language/comments.ts'
import { highlightRows, type HighlightSpan } from '../language/highlight.ts'
import type { Logger } from '../collab/collaboration.ts'
import { Clipboard } from './clipboard.ts'
import type { EditorEvents } from './editor-events.ts'
import { History } from './history.ts'
import { type MergeRule, OperationScope } from './operation.ts'
import { SelectionList } from './selection-list.ts'
import { buildIndentString, indentLevelForLine } from '../language/indentation.ts'

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
  /** Auto-indent moved lines and new lines (Atom's `autoIndent`); default true. */
  autoIndent?: boolean
  /** Auto-indent pasted text (Atom's `autoIndentOnPaste`); default true. */
  autoIndentOnPaste?: boolean
  /** Screen rows `pageUp`/`pageDown` move; default 1. */
  rowsPerPage?: number
  /** Where warnings go (a peer's malformed awareness state); default `console.warn`. */
  logger?: Logger
  /** The environment's timer for `onDidStopChanging` (see TextBuffer's `schedule`); without one it never fires. */
  schedule?: Schedule
  /** How long changes must pause before `onDidStopChanging`; default 300 ms. */
  stoppedChangingDelay?: number
  /** Milliseconds since the epoch for each change set's `time`; default `Date.now`. */
  clock?: () => number
}

/** Queries the editor answers from its buffer, display layer and marker layer unchanged. */
const BUFFER_QUERIES = ['getText', 'getLineCount', 'isEmpty'] as const
const DISPLAY_QUERIES = [
  'lineTextForScreenRow', 'lineLengthForScreenRow', 'getScreenLineCount', 'getLastScreenRow', 'bufferRowForScreenRow', 'screenRowForBufferRow',
  'getTabLength', 'isFoldedAtBufferRow', 'isFoldedAtScreenRow', 'isSoftWrapped', 'getEditorWidthInChars', 'getSoftWrapHangingIndentLength',
] as const
const MARKER_METHODS = ['markBufferRange', 'markBufferPosition', 'markScreenRange', 'markScreenPosition'] as const
/** `onDidX(callback)`: the editor's events (see editor-events.ts). */
const SUBSCRIPTIONS = {
  onDidChange: 'did-change',
  onDidAddCursor: 'did-add-cursor',
  onDidRemoveCursor: 'did-remove-cursor',
  onDidAddSelection: 'did-add-selection',
  onDidRemoveSelection: 'did-remove-selection',
  onDidChangeCursorPosition: 'did-change-cursor-position',
  onDidChangeSelectionRange: 'did-change-selection-range',
  onDidChangeReadOnly: 'did-change-read-only',
  onDidChangeLanguage: 'did-change-language',
  onDidInsertText: 'did-insert-text',
  /** The callback can `cancel()` the insertion. */
  onWillInsertText: 'will-insert-text',
} as const

/**
 * The editor's model, which the TextEditor facade is composed of: the buffer over the Y.Text, the one
 * DisplayLayer every buffer <-> screen conversion goes through, markers, indentation, the language mode,
 * settings, and the parts every command runs through: the operation scope, the undo history and the list
 * of selections (it is their context and editing host). Its public methods are the TextEditor's
 * (forwarded by name, see text-editor.ts); the facade adds cursors, selections, commands and peers.
 */
export class EditorModel implements SelectionContext, SelectionEditing {
  readonly doc: Y.Doc
  readonly buffer: TextBuffer
  readonly displayLayer: DisplayLayer
  readonly markerLayer: MarkerLayer
  readonly emitter = new Emitter<EditorEvents>()
  private softTabs: boolean
  private nonWordCharacters: string
  private languageMode: LanguageMode
  private readOnly: boolean
  private autoIndent: boolean
  private autoIndentOnPaste: boolean
  private rowsPerPage: number
  private readonly clipboard: Clipboard
  readonly history: History
  readonly scope: OperationScope
  readonly selections: SelectionList
  private readonly subscriptions: Disposable[] = []

  constructor(
    options: TextEditorOptions,
    /** The origin of every transaction this editor makes: the facade, as API.md says. */
    origin: object,
    /** After the outermost operation ended (the facade publishes to awareness then). */
    private readonly afterOperation: () => void,
  ) {
    checkOptions(options)
    this.doc = options.doc ?? new Y.Doc()
    const ytext = this.doc.getText(options.textName ?? 'text')
    const { clock, schedule, stoppedChangingDelay } = options
    this.buffer = new TextBuffer({ ytext, origin, clock, schedule, stoppedChangingDelay })
    if (options.text !== undefined && options.text !== '') this.buffer.setText(options.text)
    this.displayLayer = new DisplayLayer(this.buffer, {
      tabLength: options.tabLength ?? 2,
      softWrapped: options.softWrapped ?? false,
      editorWidthInChars: options.editorWidthInChars ?? 80,
      softWrapHangingIndentLength: options.softWrapHangingIndentLength ?? 0,
    })
    this.markerLayer = new MarkerLayer(this.buffer, this.displayLayer)
    this.softTabs = options.softTabs ?? true
    this.nonWordCharacters = options.nonWordCharacters ?? DEFAULT_NON_WORD_CHARACTERS
    this.languageMode = createLanguageMode(options.language ?? 'text', this.buffer)
    this.readOnly = options.readOnly ?? false
    this.autoIndent = options.autoIndent ?? true
    this.autoIndentOnPaste = options.autoIndentOnPaste ?? true
    this.rowsPerPage = options.rowsPerPage ?? 1
    this.clipboard = options.clipboard ?? Clipboard.getDefault()
    this.history = new History(
      { buffer: this.buffer, selectionOffsets: () => this.selections.offsets(), restoreSelections: (offsets) => this.restoreSelections(offsets) },
      origin,
    )
    this.scope = new OperationScope(this.buffer, this.history, this, () => this.readOnly)
    const atStart = () => this.markerLayer.markBufferPosition([0, 0], { invalidate: 'never' })
    this.selections = new SelectionList(this, this, this.scope, this.emitter, atStart)
    this.subscriptions.push(
      this.buffer.onDidChange((event) => {
        this.emitter.emit('did-change', event)
        // An edit made outside the editor's commands (the buffer's, a peer's) may bring cursors together.
        if (!this.scope.isActive()) this.scope.run(() => undefined, 'intersecting')
      }),
    )
  }

  /** Releases every part; the facade has already let the peers go. */
  destroy(): void {
    this.selections.close()
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

  /** Inside the operation, as it ends: merge what the operation asked and announce added selections. */
  operationEnding(merge: MergeRule | null): void {
    this.selections.settle(merge)
  }

  operationEnded(): void {
    this.afterOperation()
  }

  restoreSelections(offsets: { anchor: number; head: number }[]): void {
    const ranges = offsets.map(({ anchor, head }) => ({
      range: new Range(this.buffer.positionForCharacterIndex(Math.min(anchor, head)), this.buffer.positionForCharacterIndex(Math.max(anchor, head))),
      reversed: head < anchor,
    }))
    this.scope.run(() => {
      const selections = this.getSelections()
      for (const selection of selections.slice(ranges.length)) selection.destroy()
      ranges.forEach(({ range, reversed }, i) => {
        const selection = selections[i]
        if (!selection) this.addSelectionForBufferRange(range, { reversed })
        else if (range.isEmpty()) selection.cursor.setBufferPosition(range.start)
        else selection.setBufferRange(range, { reversed })
      })
    }, 'intersecting')
  }

  /** Runs a text change: refuses on a read-only editor (unless bypassed), one transaction, one undo step. */
  mutateText<T>(name: string, options: WriteOptions, fn: () => T): T {
    return this.scope.write(name, options, fn)
  }

  getSelections(): Selection[] {
    return this.selections.all()
  }

  getClipboard(): Clipboard {
    return this.clipboard
  }

  /** Internal: the buffer edit every selection makes (inside the write's transaction, which `undo: 'skip'` joins to the previous step). */
  setBufferTextInRange(range: RangeLike, text: string, options: { normalizeLineEndings?: boolean; undo?: 'skip' } = {}): Range {
    const bufferOptions: { normalizeLineEndings?: boolean } = {}
    if (options.normalizeLineEndings !== undefined) bufferOptions.normalizeLineEndings = options.normalizeLineEndings
    return this.buffer.setTextInRange(range, text, bufferOptions)
  }

  addSelectionForBufferRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    const bufferRange = this.clipBufferRange(Range.fromObject(range, false, 'bufferRange'))
    if (!options.preserveFolds) this.destroyFoldsContainingBufferPositions([bufferRange.start, bufferRange.end], true)
    const marker = this.markerLayer.markBufferRange(bufferRange, { invalidate: 'never', reversed: options.reversed ?? false })
    return this.selections.add(marker, options)
  }

  addSelectionForScreenRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    return this.addSelectionForBufferRange(this.bufferRangeForScreenRange(range), options)
  }

  // Read-only

  setReadOnly(readOnly: boolean): void {
    if (readOnly == null) return
    const value = Boolean(readOnly)
    if (value === this.readOnly) return
    this.readOnly = value
    this.emitter.emit('did-change-read-only', value)
  }

  isReadOnly(): boolean {
    return this.readOnly
  }

  // Settings of Atom's commands

  getAutoIndent(): boolean {
    return this.autoIndent
  }
  setAutoIndent(autoIndent: boolean | null | undefined): void {
    if (autoIndent != null) this.autoIndent = Boolean(autoIndent)
  }
  getAutoIndentOnPaste(): boolean {
    return this.autoIndentOnPaste
  }
  setAutoIndentOnPaste(autoIndentOnPaste: boolean | null | undefined): void {
    if (autoIndentOnPaste != null) this.autoIndentOnPaste = Boolean(autoIndentOnPaste)
  }
  /** How many screen rows `pageUp`/`pageDown` move (the web page sets it from the view's height). */
  getRowsPerPage(): number {
    return this.rowsPerPage
  }
  setRowsPerPage(rowsPerPage: number | null | undefined): void {
    if (rowsPerPage == null) return
    if (typeof rowsPerPage !== 'number' || !(rowsPerPage >= 1)) throw new TypeError(`rowsPerPage must be a number >= 1; got ${String(rowsPerPage)}`)
    this.rowsPerPage = Math.floor(rowsPerPage)
  }

  /** Internal: false when an `onWillInsertText` callback cancelled the insertion. */
  willInsertText(text: string): boolean {
    let accepted = true
    this.emitter.emit('will-insert-text', { text, cancel: () => { accepted = false } })
    return accepted
  }

  getBuffer(): TextBuffer {
    return this.buffer
  }

  getDisplayLayer(): DisplayLayer {
    return this.displayLayer
  }

  // Text

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
    return this.scope.write('setTextInBufferRange', options, () => this.setBufferTextInRange(r, text, options))
  }

  lineTextForBufferRow(row: number): string {
    return this.buffer.lineForRow(row) ?? ''
  }

  getLastBufferRow(): number {
    return this.buffer.getLastRow()
  }

  getEofBufferPosition(): Point {
    return this.buffer.getEndPosition()
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

  // Markers

  // Indentation (setters given null or undefined change nothing, as Atom's `update` ignores them)

  setTabLength(tabLength: number): void {
    if (tabLength == null) return
    if (typeof tabLength !== 'number' || !(tabLength >= 1)) throw new TypeError(`tabLength must be a number >= 1; got ${String(tabLength)}`)
    this.displayLayer.setTabLength(Math.floor(tabLength))
  }

  getSoftTabs(): boolean {
    return this.softTabs
  }

  setSoftTabs(softTabs: boolean): void {
    if (softTabs == null) return
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
    // Atom keeps a cursor at the end of the last row before an appended block-comment end.
    const endColumn = this.buffer.lineLengthForRow(endRow)
    const appended = edits.find((edit) => edit.row === endRow && edit.startColumn === endColumn && edit.endColumn === endColumn)
    const onBlankRows = this.getSelections().flatMap((selection) => {
      const { row, column } = selection.getHeadBufferPosition()
      const newColumn = selection.isEmpty() ? cursorColumnOnCommentedBlankRow(this.lineTextForBufferRow(row), row, column, edits, tokens) : null
      return newColumn === null ? [] : [{ selection, position: new Point(row, newColumn) }]
    })
    const cursorsAtEnd = appended
      ? this.getSelections().filter((s) => s.isEmpty() && s.getHeadBufferPosition().isEqual([endRow, endColumn]) && !onBlankRows.some((b) => b.selection === s))
      : []
    this.mutateText('toggleLineComments', {}, () => {
      // Bottom-up, so each edit's columns are still those of the text it was computed from.
      const ordered = [...edits].sort((a, b) => b.row - a.row || b.startColumn - a.startColumn)
      for (const edit of ordered) {
        this.buffer.setTextInRange([[edit.row, edit.startColumn], [edit.row, edit.endColumn]], edit.text, { normalizeLineEndings: false })
      }
      for (const selection of cursorsAtEnd) {
        const { row, column } = selection.getHeadBufferPosition()
        selection.cursor.setBufferPosition([row, column - appended!.text.length])
      }
      for (const { selection, position } of onBlankRows) selection.cursor.setBufferPosition(position)
    })
  }

  rowRangeForParagraphAtBufferRow(row: number): Range | undefined {
    const rows = paragraphRowRange(this.buffer, row, (r) => this.languageMode.isRowCommented(r))
    if (!rows) return undefined
    return new Range([rows[0], 0], [rows[1], this.buffer.lineLengthForRow(rows[1])])
  }

  // Folds and layout

  foldBufferRange(range: RangeLike): number {
    return this.displayLayer.foldBufferRange(Range.fromObject(range, false, 'range'))
  }

  unfoldBufferRow(bufferRow: number): void {
    this.displayLayer.unfoldBufferRow(bufferRow)
  }

  /** Destroys every fold; returns their ranges. */
  unfoldAll(): Range[] {
    return this.displayLayer.unfoldAll()
  }

  foldSelectedLines(): void {
    this.scope.run(() => {
      for (const selection of this.getSelections()) selection.fold()
    })
  }

  destroyFoldsContainingBufferPositions(positions: PointLike[], excludeEndpoints: boolean): void {
    this.displayLayer.destroyFoldsContainingBufferPositions(positions, excludeEndpoints)
  }

  setSoftWrapped(softWrapped: boolean): boolean {
    if (softWrapped == null) return this.isSoftWrapped()
    this.displayLayer.setSoftWrapped(Boolean(softWrapped))
    return this.isSoftWrapped()
  }

  toggleSoftWrapped(): boolean {
    return this.setSoftWrapped(!this.isSoftWrapped())
  }

  setEditorWidthInChars(width: number): void {
    if (width == null) return
    if (typeof width !== 'number' || !(width >= 1)) throw new TypeError(`width must be a number >= 1; got ${String(width)}`)
    this.displayLayer.setEditorWidthInChars(Math.floor(width))
  }

  setSoftWrapHangingIndentLength(length: number): void {
    if (length == null) return
    this.displayLayer.setSoftWrapHangingIndentLength(length)
  }

  // Language

  setLanguage(id: LanguageId): void {
    if (id == null) return
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

  /**
   * Syntax highlighting for buffer rows [startRow, endRow] (one array of spans per row, buffer columns,
   * `tok-*` class names) from the language's incremental tree; empty for plain text.
   */
  highlightSpansForBufferRows(startRow: number, endRow: number): HighlightSpan[][] {
    return highlightRows(this.languageMode, this.buffer, startRow, endRow)
  }

  getNonWordCharacters(_position?: PointLike): string {
    return this.nonWordCharacters
  }

  onDidDestroy(callback: () => void): Disposable {
    return this.emitter.once('did-destroy', callback)
  }

  static {
    defineSubscriptions(EditorModel.prototype, (editor) => editor.emitter, SUBSCRIPTIONS)
  }

}

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
  const { autoIndent, autoIndentOnPaste, rowsPerPage } = options
  if (autoIndent !== undefined && typeof autoIndent !== 'boolean') throw new TypeError('options.autoIndent must be a boolean')
  if (autoIndentOnPaste !== undefined && typeof autoIndentOnPaste !== 'boolean') throw new TypeError('options.autoIndentOnPaste must be a boolean')
  if (rowsPerPage !== undefined && !(typeof rowsPerPage === 'number' && rowsPerPage >= 1)) throw new TypeError('options.rowsPerPage must be a number >= 1')
  checkCollaborationOptions(options)
}

function checkCollaborationOptions({ awareness, user, logger, doc }: TextEditorOptions): void {
  if (awareness !== undefined) {
    if (awareness === null || typeof awareness !== 'object' || typeof awareness.getStates !== 'function' || typeof awareness.setLocalState !== 'function') {
      throw new TypeError('options.awareness must be a y-protocols Awareness')
    }
    if (doc !== undefined && awareness.doc !== doc) throw new TypeError('options.awareness must belong to options.doc')
    if (doc === undefined) throw new TypeError('options.awareness needs options.doc, the document it belongs to')
  }
  if (user !== undefined && (user === null || typeof user !== 'object' || typeof user.name !== 'string' || typeof user.color !== 'string')) {
    throw new TypeError('options.user must be {name: string, color: string}')
  }
  if (logger !== undefined && (logger === null || typeof logger.warn !== 'function')) throw new TypeError('options.logger must have a warn(message) method')
}

type Subscriptions = { [K in keyof typeof SUBSCRIPTIONS]: (callback: (event: EditorEvents[(typeof SUBSCRIPTIONS)[K]]) => void) => Disposable }

export interface EditorModel
  extends Pick<TextBuffer, (typeof BUFFER_QUERIES)[number]>,
    Pick<DisplayLayer, (typeof DISPLAY_QUERIES)[number]>,
    Pick<MarkerLayer, (typeof MARKER_METHODS)[number]>,
    Subscriptions {}
delegate(EditorModel.prototype, (editor) => editor.buffer, BUFFER_QUERIES)
delegate(EditorModel.prototype, (editor) => editor.displayLayer, DISPLAY_QUERIES)
delegate(EditorModel.prototype, (editor) => editor.markerLayer, MARKER_METHODS)
