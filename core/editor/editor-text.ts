import type { DisplayMarker, MarkerOptions } from '../anchors/display-marker.ts'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { ChangeSet } from '../buffer/change-set.ts'
import type { ClipOptions, DisplayLayer } from '../display/display-layer.ts'
import type { Disposable } from '../events/disposable.ts'
import { highlightRows, type HighlightSpan } from '../language/highlight.ts'
import { createLanguageMode, type LanguageMode } from '../language/language-mode.ts'
import { isLanguageId, type LanguageId } from '../language/registry.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import type { WriteOptions } from '../selection/host.ts'
import type { Cursor, CursorPositionEvent } from '../selection/cursor.ts'
import type { Selection, SelectionRangeEvent } from '../selection/selection.ts'
import type { EditorEvents, WillInsertTextEvent } from './editor-events.ts'
import { EditorModel } from './editor-model.ts'

/**
 * The second layer of the TextEditor (see editor-model.ts): Atom's editor-level API over the parts, which
 * needs no selections: the text, buffer <-> screen coordinates and screen lines, markers, layout (tabs, soft
 * wrap, folds), the language, the settings of Atom's commands, read-only, and the editor's events.
 */
export class EditorText extends EditorModel {
  // Read-only and the settings of Atom's commands

  /** Makes the editor refuse (or accept again) text changes; null or undefined change nothing. */
  setReadOnly(readOnly: boolean): void {
    if (readOnly == null) return
    const value = Boolean(readOnly)
    if (value === this.readOnly) return
    this.readOnly = value
    this.emitter.emit('did-change-read-only', value)
  }

  /** Whether text changes are refused (`ReadOnlyEditorError`) unless `bypassReadOnly`. */
  isReadOnly(): boolean {
    return this.readOnly
  }

  /** Whether moved lines and new lines are auto-indented. */
  getAutoIndent(): boolean {
    return this.autoIndent
  }

  /** Sets `autoIndent`; null or undefined change nothing. */
  setAutoIndent(autoIndent: boolean | null | undefined): void {
    if (autoIndent != null) this.autoIndent = Boolean(autoIndent)
  }

  /** Whether pasted text is auto-indented. */
  getAutoIndentOnPaste(): boolean {
    return this.autoIndentOnPaste
  }

  /** Sets `autoIndentOnPaste`; null or undefined change nothing. */
  setAutoIndentOnPaste(autoIndentOnPaste: boolean | null | undefined): void {
    if (autoIndentOnPaste != null) this.autoIndentOnPaste = Boolean(autoIndentOnPaste)
  }

  /** How many screen rows `pageUp`/`pageDown` move (the web page sets it from the view's height). */
  getRowsPerPage(): number {
    return this.rowsPerPage
  }

  /** Sets how many screen rows `pageUp`/`pageDown` move (a number >= 1); null or undefined change nothing. */
  setRowsPerPage(rowsPerPage: number | null | undefined): void {
    if (rowsPerPage == null) return
    if (typeof rowsPerPage !== 'number' || !(rowsPerPage >= 1)) throw new TypeError(`rowsPerPage must be a number >= 1; got ${String(rowsPerPage)}`)
    this.rowsPerPage = Math.floor(rowsPerPage)
  }

  /** False when an `onWillInsertText` callback cancelled the insertion. */
  protected willInsertText(text: string): boolean {
    let accepted = true
    this.emitter.emit('will-insert-text', { text, cancel: () => { accepted = false } })
    return accepted
  }

  // Text

  /** The TextBuffer over the Y.Text. */
  getBuffer(): TextBuffer {
    return this.buffer
  }

  /** The DisplayLayer: tabs, soft wrap and folds between buffer and screen. */
  getDisplayLayer(): DisplayLayer {
    return this.displayLayer
  }

  /** The whole text. */
  getText(): string {
    return this.buffer.getText()
  }

  /** The number of buffer rows (at least 1). */
  getLineCount(): number {
    return this.buffer.getLineCount()
  }

  /** Whether the text is empty. */
  isEmpty(): boolean {
    return this.buffer.isEmpty()
  }

  /** Replaces the whole text, as one undo step. */
  setText(text: string, options: WriteOptions = {}): void {
    if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
    this.mutateText('setText', options, () => this.buffer.setText(text))
  }

  /** The text in a buffer range. */
  getTextInBufferRange(range: RangeLike): string {
    return this.buffer.getTextInRange(range)
  }

  /** The text in a buffer range (as `getTextInBufferRange`). */
  getTextInRange(range: RangeLike): string {
    return this.buffer.getTextInRange(range)
  }

  /** Replaces the text in a buffer range, as one undo step; returns the new text's range. */
  setTextInBufferRange(range: RangeLike, text: string, options: WriteOptions & { normalizeLineEndings?: boolean; undo?: 'skip' } = {}): Range {
    if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
    const r = Range.fromObject(range, false, 'range')
    return this.scope.write('setTextInBufferRange', options, () => this.setBufferTextInRange(r, text, options))
  }

  /** The last buffer row. */
  getLastBufferRow(): number {
    return this.buffer.getLastRow()
  }

  /** The position at the end of the text. */
  getEofBufferPosition(): Point {
    return this.buffer.getEndPosition()
  }

  /** The range of a buffer row (with its newline when `includeNewline`). */
  bufferRangeForBufferRow(row: number, options: { includeNewline?: boolean } = {}): Range {
    return this.buffer.rangeForRow(row, options.includeNewline ?? false)
  }

  // Coordinates and screen lines

  /** The screen position that shows a buffer position. */
  screenPositionForBufferPosition(position: PointLike, options?: ClipOptions): Point {
    return this.displayLayer.screenPositionForBufferPosition(Point.fromObject(position, false, 'bufferPosition'), options)
  }

  /** The buffer position a screen position shows. */
  bufferPositionForScreenPosition(position: PointLike, options?: ClipOptions): Point {
    return this.displayLayer.bufferPositionForScreenPosition(Point.fromObject(position, false, 'screenPosition'), options)
  }

  /** The screen range that shows a buffer range. */
  screenRangeForBufferRange(range: RangeLike, options?: ClipOptions): Range {
    return this.displayLayer.screenRangeForBufferRange(Range.fromObject(range, false, 'bufferRange'), options)
  }

  /** The nearest valid screen position (`clipDirection` says which way inside a fold or a wide character). */
  clipScreenPosition(position: PointLike, options?: ClipOptions): Point {
    return this.displayLayer.clipScreenPosition(Point.fromObject(position, false, 'screenPosition'), options)
  }

  /** The range between the nearest valid screen positions of its ends. */
  clipScreenRange(range: RangeLike, options?: ClipOptions): Range {
    const r = Range.fromObject(range, false, 'screenRange')
    return new Range(this.clipScreenPosition(r.start, options), this.clipScreenPosition(r.end, options))
  }

  /** The text of a screen row (tabs expanded, folds and soft wraps applied). */
  lineTextForScreenRow(screenRow: number): string { return this.displayLayer.lineTextForScreenRow(screenRow) }
  /** The length of a screen row's text. */
  lineLengthForScreenRow(screenRow: number): number { return this.displayLayer.lineLengthForScreenRow(screenRow) }
  /** The number of screen rows. */
  getScreenLineCount(): number { return this.displayLayer.getScreenLineCount() }
  /** The last screen row. */
  getLastScreenRow(): number { return this.displayLayer.getLastScreenRow() }
  /** The buffer row a screen row shows (part of). */
  bufferRowForScreenRow(screenRow: number): number { return this.displayLayer.bufferRowForScreenRow(screenRow) }
  /** The first screen row that shows a buffer row. */
  screenRowForBufferRow(bufferRow: number): number { return this.displayLayer.screenRowForBufferRow(bufferRow) }
  /** Whether a fold covers part of a buffer row. */
  isFoldedAtBufferRow(bufferRow: number): boolean { return this.displayLayer.isFoldedAtBufferRow(bufferRow) }
  /** Whether a screen row shows a fold. */
  isFoldedAtScreenRow(screenRow: number): boolean { return this.displayLayer.isFoldedAtScreenRow(screenRow) }
  /** Whether long lines wrap at the editor's width. */
  isSoftWrapped(): boolean { return this.displayLayer.isSoftWrapped() }
  /** The width soft wrap wraps at, in characters. */
  getEditorWidthInChars(): number { return this.displayLayer.getEditorWidthInChars() }
  /** The extra indentation of the rows a soft-wrapped line continues on. */
  getSoftWrapHangingIndentLength(): number { return this.displayLayer.getSoftWrapHangingIndentLength() }

  // Markers

  /** Marks a buffer position with a marker that follows edits. */
  markBufferPosition(position: PointLike, options?: MarkerOptions): DisplayMarker {
    return this.markerLayer.markBufferPosition(position, options)
  }

  /** Marks the buffer range a screen range shows. */
  markScreenRange(range: RangeLike, options?: MarkerOptions): DisplayMarker {
    return this.markerLayer.markScreenRange(range, options)
  }

  /** Marks the buffer position a screen position shows. */
  markScreenPosition(position: PointLike, options?: MarkerOptions): DisplayMarker {
    return this.markerLayer.markScreenPosition(position, options)
  }

  // Layout and folds (setters given null or undefined change nothing, as Atom's `update` ignores them)

  /** Sets the number of columns a tab stands for (a number >= 1). */
  setTabLength(tabLength: number): void {
    if (tabLength == null) return
    if (typeof tabLength !== 'number' || !(tabLength >= 1)) throw new TypeError(`tabLength must be a number >= 1; got ${String(tabLength)}`)
    this.displayLayer.setTabLength(Math.floor(tabLength))
  }

  /** Turns soft wrap on or off; returns whether it is on. */
  setSoftWrapped(softWrapped: boolean): boolean {
    if (softWrapped == null) return this.isSoftWrapped()
    this.displayLayer.setSoftWrapped(Boolean(softWrapped))
    return this.isSoftWrapped()
  }

  /** Turns soft wrap on when off and off when on; returns whether it is on. */
  toggleSoftWrapped(): boolean {
    return this.setSoftWrapped(!this.isSoftWrapped())
  }

  /** Sets the width soft wrap wraps at, in characters (0 or less is 1, as in Atom). */
  setEditorWidthInChars(width: number): void {
    if (width == null) return
    if (typeof width !== 'number' || Number.isNaN(width)) throw new TypeError(`width must be a number; got ${String(width)}`)
    this.displayLayer.setEditorWidthInChars(width)
  }

  /** Sets the extra indentation of the rows a soft-wrapped line continues on. */
  setSoftWrapHangingIndentLength(length: number): void {
    if (length == null) return
    this.displayLayer.setSoftWrapHangingIndentLength(length)
  }

  /** Unfolds the folds on a buffer row. */
  unfoldBufferRow(bufferRow: number): void {
    this.displayLayer.unfoldBufferRow(bufferRow)
  }

  /** Destroys every fold; returns their ranges. */
  unfoldAll(): Range[] {
    return this.displayLayer.unfoldAll()
  }

  /** Folds every non-empty selection. */
  foldSelectedLines(): void {
    this.scope.run(() => {
      for (const selection of this.getSelections()) selection.fold()
    })
  }

  // Language

  /** Switches the language mode (scopes, comments, indentation rules, highlighting). */
  setLanguage(id: LanguageId): void {
    if (id == null) return
    if (!isLanguageId(id)) throw new TypeError(`unknown language: ${String(id)}`)
    if (id === this.languageMode.id) return
    this.languageMode.destroy()
    this.languageMode = createLanguageMode(id, this.buffer)
    this.emitter.emit('did-change-language', id)
  }

  /** The id of the language mode. */
  getLanguage(): LanguageId {
    return this.languageMode.id
  }

  /** The language mode: scopes, comment tokens, indentation rules, syntax folds. */
  getLanguageMode(): LanguageMode {
    return this.languageMode
  }

  /**
   * Syntax highlighting for buffer rows [startRow, endRow] (one array of spans per row, buffer columns,
   * `tok-*` class names) from the language's incremental tree; empty for plain text.
   */
  highlightSpansForBufferRows(startRow: number, endRow: number): HighlightSpan[][] {
    return highlightRows(this.languageMode, this.buffer, startRow, endRow)
  }

  // Events

  /** Calls back after every change of the text, local or remote (old and new range and text). */
  onDidChange(callback: (event: EditorEvents['did-change']) => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  /**
   * Atom's `onDidChangeText`: once per transaction on the text that changed it, local or remote, with
   * every replacement it made as one `ChangeSet` (origin, author, time, inserted and deleted Yjs IDs).
   * It runs when the transaction is over: the buffer, the markers and the undo history are current.
   */
  onDidChangeText(callback: (change: ChangeSet) => void): Disposable {
    return this.buffer.onDidChangeText(callback)
  }

  /**
   * Atom's `onDidStopChanging`: once changes pause for `stoppedChangingDelay` ms (default 300), one call
   * with every change since the last one composed into one `ChangeSet`. `core/` keeps no timer: it waits
   * on the `schedule` option (the page passes one built on `setTimeout`); without one it never fires.
   */
  onDidStopChanging(callback: (changes: ChangeSet) => void): Disposable {
    return this.buffer.onDidStopChanging(callback)
  }

  /** Calls back after a cursor was added (and survived the merge that ends the command). */
  onDidAddCursor(callback: (cursor: Cursor) => void): Disposable { return this.emitter.on('did-add-cursor', callback) }
  /** Calls back after a cursor was removed (merged, destroyed, or its selection cleared away). */
  onDidRemoveCursor(callback: (cursor: Cursor) => void): Disposable { return this.emitter.on('did-remove-cursor', callback) }
  /** Calls back after a selection was added (and survived the merge that ends the command). */
  onDidAddSelection(callback: (selection: Selection) => void): Disposable { return this.emitter.on('did-add-selection', callback) }
  /** Calls back after a selection was removed. */
  onDidRemoveSelection(callback: (selection: Selection) => void): Disposable { return this.emitter.on('did-remove-selection', callback) }
  /** Calls back after a cursor moved, by a command or by an edit (`textChanged`). */
  onDidChangeCursorPosition(callback: (event: CursorPositionEvent) => void): Disposable {
    const subscription = this.emitter.on('did-change-cursor-position', callback)
    this.selections.followMoves()
    return subscription
  }
  /** Calls back after a selection's range changed. */
  onDidChangeSelectionRange(callback: (event: SelectionRangeEvent) => void): Disposable {
    const subscription = this.emitter.on('did-change-selection-range', callback)
    this.selections.followMoves()
    return subscription
  }
  /** Calls back after `setReadOnly` changed the read-only state. */
  onDidChangeReadOnly(callback: (readOnly: boolean) => void): Disposable { return this.emitter.on('did-change-read-only', callback) }
  /** Calls back after `setLanguage` changed the language. */
  onDidChangeLanguage(callback: (language: LanguageId) => void): Disposable { return this.emitter.on('did-change-language', callback) }
  /** Calls back after `insertText` or `pasteText` inserted text at a selection (once per selection). */
  onDidInsertText(callback: (event: { text: string; range: Range }) => void): Disposable { return this.emitter.on('did-insert-text', callback) }
  /** Calls back before `insertText` or `pasteText` inserts: the callback can `cancel()` the insertion. */
  onWillInsertText(callback: (event: WillInsertTextEvent) => void): Disposable { return this.emitter.on('will-insert-text', callback) }

  /** Calls back once, when the editor is destroyed. */
  onDidDestroy(callback: () => void): Disposable {
    return this.emitter.once('did-destroy', callback)
  }
}
