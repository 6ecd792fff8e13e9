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
import type { Cursor, CursorPositionEvent } from '../selection/cursor.ts'
import type { Selection, SelectionRangeEvent } from '../selection/selection.ts'
import type { WriteOptions } from '../selection/host.ts'
import { DEFAULT_NON_WORD_CHARACTERS } from '../motions/word.ts'
import { paragraphRowRange } from '../motions/paragraph.ts'
import { createLanguageMode, type LanguageMode } from '../language/language-mode.ts'
import { isLanguageId, type LanguageId } from '../language/registry.ts'
import type { ScopeDescriptor } from '../language/scope-descriptor.ts'
import { cursorColumnOnCommentedBlankRow, toggleLineCommentsEdits } from '../language/comments.ts'
import { highlightRows, type HighlightSpan } from '../language/highlight.ts'
import type { Logger } from '../collab/collaboration.ts'
import { Clipboard } from './clipboard.ts'
import { EditorCommands } from './commands.ts'
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
}

export interface EditorEvents {
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
  'will-insert-text': { text: string; cancel(): void }
  'did-destroy': undefined
}

/**
 * The text-and-layout half of the TextEditor: the buffer over the Y.Text, the one DisplayLayer every
 * buffer <-> screen conversion goes through, markers, indentation and the language mode. The
 * TextEditor subclass adds selections, commands, history and events.
 */
export abstract class EditorModel extends EditorCommands {
  readonly doc: Y.Doc
  readonly buffer: TextBuffer
  readonly displayLayer: DisplayLayer
  readonly markerLayer: MarkerLayer
  protected readonly emitter = new Emitter<EditorEvents>()
  protected softTabs: boolean
  protected nonWordCharacters: string
  protected languageMode: LanguageMode

  constructor(options: TextEditorOptions) {
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
    this.softTabs = options.softTabs ?? true
    this.nonWordCharacters = options.nonWordCharacters ?? DEFAULT_NON_WORD_CHARACTERS
    this.languageMode = createLanguageMode(options.language ?? 'text', this.buffer)
  }

  /** Runs a text change: refuses on a read-only editor (unless bypassed), one transaction, one undo step. */
  abstract mutateText<T>(name: string, options: WriteOptions, fn: () => T): T
  abstract getSelections(): Selection[]
  abstract setBufferTextInRange(range: RangeLike, text: string, options?: { normalizeLineEndings?: boolean; undo?: 'skip' }): Range
  /** Runs `fn` as one batch of selection changes (collaboration publishes once, at the end). */
  abstract batch<T>(fn: () => T): T

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

  foldBufferRow(bufferRow: number): void {
    this.displayLayer.foldBufferRow(bufferRow)
  }

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

  isFoldedAtBufferRow(bufferRow: number): boolean {
    return this.displayLayer.isFoldedAtBufferRow(bufferRow)
  }

  isFoldedAtScreenRow(screenRow: number): boolean {
    return this.displayLayer.isFoldedAtScreenRow(screenRow)
  }

  foldSelectedLines(): void {
    this.batch(() => {
      for (const selection of this.getSelections()) selection.fold()
    })
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
