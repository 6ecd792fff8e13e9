import * as Y from 'yjs'
import type { Awareness } from 'y-protocols/awareness'
import { TextBuffer, type Schedule } from '../buffer/text-buffer.ts'
import { DisplayLayer, type ClipOptions } from '../display/display-layer.ts'
import { MarkerLayer } from '../anchors/marker-layer.ts'
import type { DisplayMarker, MarkerOptions } from '../anchors/display-marker.ts'
import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
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
import type { Logger } from '../collab/collaboration.ts'
import { Clipboard } from './clipboard.ts'
import type { EditorEvents } from './editor-events.ts'
import { History } from './history.ts'
import { type MergeRule, OperationScope } from './operation.ts'
import { SelectionList } from './selection-list.ts'
import { buildIndentString, indentLevelForLine } from '../language/indentation.ts'

export interface TextEditorOptions {
  text?: string
  /** The Y.Doc the text lives in. */
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

/**
 * The first layer of the TextEditor (`EditorModel` → `EditorText` → `EditorSelections` → `EditorEditing` →
 * `AtomCommands` → `TextEditor`, each in its own file): the parts an editor is made of — the buffer over the
 * Y.Text, the one DisplayLayer every buffer <-> screen conversion goes through, markers, the language mode,
 * settings, and the parts every command runs through: the operation scope, the undo history and the list of
 * selections. It is what the selections read and edit through (their `SelectionContext` and
 * `SelectionEditing`): indentation, comments, paragraphs, folds, scopes.
 */
export class EditorModel implements SelectionContext, SelectionEditing {
  /** The Y.Doc the text lives in. */
  readonly doc: Y.Doc
  /** The TextBuffer over the Y.Text (as `getBuffer()`). */
  readonly buffer: TextBuffer
  /** The DisplayLayer: tabs, soft wrap and folds between buffer and screen (as `getDisplayLayer()`). */
  readonly displayLayer: DisplayLayer
  /** The markers of this editor, selections' included. */
  readonly markerLayer: MarkerLayer
  protected readonly emitter = new Emitter<EditorEvents>()
  private softTabs: boolean
  private nonWordCharacters: string
  protected languageMode: LanguageMode
  protected readOnly: boolean
  protected autoIndent: boolean
  protected autoIndentOnPaste: boolean
  protected rowsPerPage: number
  private readonly clipboard: Clipboard
  protected readonly history: History
  protected readonly scope: OperationScope
  protected readonly selections: SelectionList
  private readonly subscriptions: Disposable[] = []

  constructor(options: TextEditorOptions) {
    checkOptions(options)
    /** The origin of every transaction this editor makes: the editor itself, as API.md says. */
    const origin = this
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
    // Folds are entries of the markers' one anchor index, which maps them before the layout follows a change.
    this.displayLayer.useAnchors(this.markerLayer)
    this.softTabs = options.softTabs ?? true
    this.nonWordCharacters = options.nonWordCharacters ?? DEFAULT_NON_WORD_CHARACTERS
    this.languageMode = createLanguageMode(options.language ?? 'text', this.buffer)
    this.readOnly = options.readOnly ?? false
    this.autoIndent = options.autoIndent ?? true
    this.autoIndentOnPaste = options.autoIndentOnPaste ?? true
    this.rowsPerPage = options.rowsPerPage ?? 1
    this.clipboard = options.clipboard ?? Clipboard.getDefault()
    this.history = new History(
      {
        buffer: this.buffer,
        anchors: this.markerLayer,
        selectionOffsets: () => this.selections.offsets(),
        restoreSelections: (offsets) => this.restoreSelections(offsets),
      },
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

  // Operation hooks (the operation scope calls them) and what the selections run their edits through

  /** @internal Inside the operation, as it ends: merge what the operation asked and announce added selections. */
  operationEnding(merge: MergeRule | null): void {
    this.selections.settle(merge)
  }

  /** @internal After the outermost operation ended: the TextEditor publishes its selections to awareness then. */
  operationEnded(): void {}

  /** Puts the selections back where an undo step recorded them (offsets of anchor and head). */
  protected restoreSelections(offsets: { anchor: number; head: number }[]): void {
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

  /** Every local selection, in the order added. */
  getSelections(): Selection[] {
    return this.selections.all()
  }

  /** The clipboard copy, cut and paste use. */
  getClipboard(): Clipboard {
    return this.clipboard
  }

  /** @internal The buffer edit every selection makes (inside the write's transaction, which `undo: 'skip'` joins to the previous step). */
  setBufferTextInRange(range: RangeLike, text: string, options: { normalizeLineEndings?: boolean; undo?: 'skip' } = {}): Range {
    const bufferOptions: { normalizeLineEndings?: boolean } = {}
    if (options.normalizeLineEndings !== undefined) bufferOptions.normalizeLineEndings = options.normalizeLineEndings
    return this.buffer.setTextInRange(range, text, bufferOptions)
  }

  /** Adds a selection of a buffer range (unfolding folds at its ends unless `preserveFolds`); one that meets another merges with it. */
  addSelectionForBufferRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    const bufferRange = this.clipBufferRange(Range.fromObject(range, false, 'bufferRange'))
    if (!options.preserveFolds) this.destroyFoldsContainingBufferPositions([bufferRange.start, bufferRange.end], true)
    const marker = this.markerLayer.markBufferRange(bufferRange, { invalidate: 'never', reversed: options.reversed ?? false })
    return this.selections.add(marker, options)
  }

  /** Adds a selection of a screen range (see `addSelectionForBufferRange`). */
  addSelectionForScreenRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    return this.addSelectionForBufferRange(this.bufferRangeForScreenRange(range), options)
  }

  /** Marks a buffer range with a marker that follows edits (see `DisplayMarker`). */
  markBufferRange(range: RangeLike, options?: MarkerOptions): DisplayMarker {
    return this.markerLayer.markBufferRange(range, options)
  }

  // Reads every selection makes

  /** The text of a buffer row, without its line ending (empty beyond the last row). */
  lineTextForBufferRow(row: number): string {
    return this.buffer.lineForRow(row) ?? ''
  }

  /** The nearest valid buffer position. */
  clipBufferPosition(position: PointLike): Point {
    return this.buffer.clipPosition(position)
  }

  /** The range between the nearest valid buffer positions of its ends. */
  clipBufferRange(range: RangeLike): Range {
    return this.buffer.clipRange(range)
  }

  /** The buffer range a screen range shows. */
  bufferRangeForScreenRange(range: RangeLike, options?: ClipOptions): Range {
    return this.displayLayer.bufferRangeForScreenRange(Range.fromObject(range, false, 'screenRange'), options)
  }

  /** The characters that end a word (at a position: the same everywhere for now). */
  getNonWordCharacters(_position?: PointLike): string {
    return this.nonWordCharacters
  }

  // Indentation (setters given null or undefined change nothing, as Atom's `update` ignores them)

  /** The number of columns a tab stands for (the display layer's). */
  getTabLength(): number {
    return this.displayLayer.getTabLength()
  }

  /** Whether indentation is spaces (true) or tabs. */
  getSoftTabs(): boolean {
    return this.softTabs
  }

  /** Indents with spaces (true) or tabs from now on. */
  setSoftTabs(softTabs: boolean): void {
    if (softTabs == null) return
    this.softTabs = Boolean(softTabs)
  }

  /** The text of one level of indentation. */
  getTabText(): string {
    return this.buildIndentString(1)
  }

  /** The indentation level of a line of text (tabs and spaces, by the tab length). */
  indentLevelForLine(line: string): number {
    return indentLevelForLine(line, this.getTabLength())
  }

  /** The indentation level of a buffer row. */
  indentationForBufferRow(row: number): number {
    return this.indentLevelForLine(this.lineTextForBufferRow(row))
  }

  /** The whitespace of `level` levels of indentation (tabs or spaces), starting at `column`. */
  buildIndentString(level: number, column = 0): string {
    return buildIndentString(level, this.getTabLength(), this.softTabs, column)
  }

  /** Replaces a row's leading whitespace with `level` levels of indentation. */
  setIndentationForBufferRow(row: number, level: number, options: { preserveLeadingWhitespace?: boolean } = {}): void {
    const line = this.lineTextForBufferRow(row)
    const endColumn = options.preserveLeadingWhitespace ? 0 : /^\s*/.exec(line)![0].length
    this.mutateText('setIndentationForBufferRow', {}, () =>
      this.buffer.setTextInRange([[row, 0], [row, endColumn]], this.buildIndentString(level)),
    )
  }

  /** The indentation level the language suggests for a row. */
  suggestedIndentForBufferRow(row: number, options: { skipBlankLines?: boolean } = {}): number {
    return this.languageMode.suggestedIndentForBufferRow(row, { tabLength: this.getTabLength(), ...options })
  }

  /** The indentation level the language suggests for `line` placed at `row`. */
  suggestedIndentForLineAtBufferRow(row: number, line: string): number {
    return this.languageMode.suggestedIndentForLineAtBufferRow(row, line, { tabLength: this.getTabLength() })
  }

  /** Indents a row as the language suggests. */
  autoIndentBufferRow(row: number, options: { preserveLeadingWhitespace?: boolean; skipBlankLines?: boolean } = {}): void {
    const level = this.suggestedIndentForBufferRow(row, options.skipBlankLines === undefined ? {} : { skipBlankLines: options.skipBlankLines })
    this.setIndentationForBufferRow(row, level, options)
  }

  /** Indents the rows [startRow, endRow] as the language suggests. */
  autoIndentBufferRows(startRow: number, endRow: number): void {
    for (let row = startRow; row <= endRow; row++) this.autoIndentBufferRow(row)
  }

  /** Outdents a row that the language says closes a block (a typed `}`), if it does. */
  autoDecreaseIndentForBufferRow(row: number): void {
    const level = this.languageMode.suggestedIndentForEditedBufferRow(row, { tabLength: this.getTabLength() })
    if (level !== undefined) this.setIndentationForBufferRow(row, level)
  }

  /** Comments the rows [startRow, endRow] with the language's comment tokens, or uncomments them when all are commented. */
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

  /** The range of the paragraph (rows between blank or differently commented rows) around a row, if any. */
  rowRangeForParagraphAtBufferRow(row: number): Range | undefined {
    const rows = paragraphRowRange(this.buffer, row, (r) => this.languageMode.isRowCommented(r))
    if (!rows) return undefined
    return new Range([rows[0], 0], [rows[1], this.buffer.lineLengthForRow(rows[1])])
  }

  // Folds and scopes

  /** Folds a buffer range into one screen line; returns the fold's id. */
  foldBufferRange(range: RangeLike): number {
    return this.displayLayer.foldBufferRange(Range.fromObject(range, false, 'range'))
  }

  /** Unfolds every fold containing one of the positions (endpoints excluded when `excludeEndpoints`). */
  destroyFoldsContainingBufferPositions(positions: PointLike[], excludeEndpoints: boolean): void {
    this.displayLayer.destroyFoldsContainingBufferPositions(positions, excludeEndpoints)
  }

  /** The language scopes at a buffer position (Atom's TextMate-style names). */
  scopeDescriptorForBufferPosition(position: PointLike): ScopeDescriptor {
    return this.languageMode.scopeDescriptorForPosition(this.clipBufferPosition(position))
  }

  /** The syntax tree's node types at a buffer position, outermost first. */
  syntaxTreeScopeDescriptorForBufferPosition(position: PointLike): ScopeDescriptor {
    return this.languageMode.syntaxTreeScopeDescriptorForPosition(this.clipBufferPosition(position))
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
  if (options.editorWidthInChars !== undefined && !(typeof options.editorWidthInChars === 'number' && options.editorWidthInChars < Infinity)) {
    throw new TypeError('options.editorWidthInChars must be a finite number (0 or less wraps at 1)')
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
