import type * as Y from 'yjs'
import type { ClipOptions } from '../display/display-layer.ts'
import { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import type { Cursor } from '../selection/cursor.ts'
import type { Selection, SetRangeOptions } from '../selection/selection.ts'
import type { InsertTextOptions } from '../selection/selection-editing.ts'
import type { WriteOptions } from '../selection/host.ts'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { DisplayLayer } from '../display/display-layer.ts'
import type { MarkerLayer } from '../anchors/marker-layer.ts'
import type { Emitter } from '../events/emitter.ts'
import { delegate } from '../events/delegate.ts'
import { EditorModel, type TextEditorOptions } from './editor-model.ts'
import { ATOM_COMMANDS, AtomCommands } from './atom-commands.ts'
import type { EditorEvents } from './editor-events.ts'
import type { History } from './history.ts'
import type { OperationScope } from './operation.ts'
import type { SelectionList } from './selection-list.ts'
import { type CommandTarget, type EachSelectionMethods, type EditorMotionMethods, defineEditorCommands } from './commands.ts'
import { Collaboration, type CollaborationHost, type CollaborationOptions } from '../collab/collaboration.ts'
import type { Peer } from '../collab/peer.ts'
import { Authorship, type AuthorshipRun, type TextDiff } from '../collab/authorship.ts'
import type { ChangeEntry, ChangeQuery } from '../collab/change-log.ts'

export type { TextEditorOptions } from './editor-model.ts'

/** The model's methods that are not the TextEditor's API. */
const INTERNAL = new Set<string>(['constructor', 'destroy', 'operationEnding', 'operationEnded', 'restoreSelections', 'setBufferTextInRange', 'willInsertText'])

/**
 * Atom's TextEditor over a Y.Text: a thin facade. The text lives in the Y.Text (every edit is a
 * transaction with the editor as origin); commands come from two tables (`commands.ts`) or are short
 * methods here, and every one runs in the one operation scope (`operation.ts`), which checks read-only,
 * makes one undo step, merges the selections (`selection-list.ts`) and publishes once.
 */
export class TextEditor {
  readonly doc: Y.Doc
  readonly buffer: TextBuffer
  readonly displayLayer: DisplayLayer
  readonly markerLayer: MarkerLayer
  /** The model this facade is composed of: text, layout, settings, scope, history, selections. */
  private readonly model: EditorModel
  /** Atom's commands beyond the tables: line moves, folds by syntax, paging, queries. */
  private readonly commands: AtomCommands
  private readonly scope: OperationScope
  private readonly selections: SelectionList
  private readonly history: History
  private readonly emitter: Emitter<EditorEvents>
  private destroyed = false
  /** Set when the editor was given an awareness: publishes our selections, shows the peers'. */
  private readonly collaboration: Collaboration | null = null

  constructor(options: TextEditorOptions = {}) {
    this.model = new EditorModel(options, this, () => this.collaboration?.flush())
    ;({ doc: this.doc, buffer: this.buffer, displayLayer: this.displayLayer, markerLayer: this.markerLayer } = this.model)
    ;({ scope: this.scope, selections: this.selections, history: this.history, emitter: this.emitter } = this.model)
    this.commands = new AtomCommands(this, this.model)
    this.addCursorAtBufferPosition([0, 0])
    if (options.awareness) {
      const collaborationOptions: CollaborationOptions = {}
      if (options.user) collaborationOptions.user = options.user
      if (options.logger) collaborationOptions.logger = options.logger
      this.collaboration = new Collaboration(this.collaborationHost(), options.awareness, collaborationOptions)
    }
    this.authorship = this.createAuthorship(options)
  }

  destroy(): void {
    if (this.destroyed) return
    // First, while selections still exist: peers leave and our awareness fields are cleared.
    this.collaboration?.destroy()
    this.authorship.destroy()
    this.destroyed = true
    this.model.destroy()
  }

  isDestroyed(): boolean {
    return this.destroyed
  }

  // Cursors

  getCursors(): Cursor[] {
    return this.selections.all().map((selection) => selection.cursor)
  }

  getLastCursor(): Cursor {
    return this.selections.last().cursor
  }

  getCursorsOrderedByBufferPosition(): Cursor[] {
    return this.getCursors().sort((a, b) => a.compare(b))
  }

  hasMultipleCursors(): boolean {
    return this.selections.count() > 1
  }

  /** Adds a cursor; where one already is, the two merge and the existing cursor is returned. */
  addCursorAtBufferPosition(position: PointLike, _options: { autoscroll?: boolean } = {}): Cursor {
    const point = this.clipBufferPosition(Point.fromObject(position, false, 'bufferPosition'))
    return this.selections.add(this.markerLayer.markBufferPosition(point, { invalidate: 'never' })).cursor
  }

  addCursorAtScreenPosition(position: PointLike, options: { autoscroll?: boolean } = {}): Cursor {
    return this.addCursorAtBufferPosition(this.bufferPositionForScreenPosition(position), options)
  }

  getCursorBufferPosition(): Point {
    return this.getLastCursor().getBufferPosition()
  }

  getCursorBufferPositions(): Point[] {
    return this.getCursors().map((cursor) => cursor.getBufferPosition())
  }

  getCursorScreenPosition(): Point {
    return this.getLastCursor().getScreenPosition()
  }

  getCursorScreenPositions(): Point[] {
    return this.getCursors().map((cursor) => cursor.getScreenPosition())
  }

  /** Moves every cursor there (they then merge into one), as Atom does. */
  setCursorBufferPosition(position: PointLike, options: { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(position, false, 'bufferPosition')
    this.selections.each('cursors', (s) => s.cursor.setBufferPosition(point, options))
  }

  setCursorScreenPosition(position: PointLike, options: ClipOptions & { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(position, false, 'screenPosition')
    this.selections.each('cursors', (s) => s.cursor.setScreenPosition(point, options))
  }

  // Selections

  getLastSelection(): Selection {
    return this.selections.last()
  }

  getSelectionsOrderedByBufferPosition(): Selection[] {
    return this.selections.ordered()
  }

  getSelectedText(): string {
    return this.getLastSelection().getText()
  }

  getSelectedBufferRange(): Range {
    return this.getLastSelection().getBufferRange()
  }

  getSelectedBufferRanges(): Range[] {
    return this.selections.all().map((selection) => selection.getBufferRange())
  }

  getSelectedScreenRange(): Range {
    return this.getLastSelection().getScreenRange()
  }

  getSelectedScreenRanges(): Range[] {
    return this.selections.all().map((selection) => selection.getScreenRange())
  }

  setSelectedBufferRange(range: RangeLike, options: SetRangeOptions = {}): void {
    this.setSelectedBufferRanges([range], options)
  }

  setSelectedBufferRanges(ranges: RangeLike[], options: SetRangeOptions = {}): void {
    if (!Array.isArray(ranges) || ranges.length === 0) throw new TypeError('ranges must be a non-empty array of ranges')
    const bufferRanges = ranges.map((range, i) => Range.fromObject(range, false, `ranges[${i}]`))
    this.scope.run(() => {
      const selections = this.getSelections()
      for (const selection of selections.slice(bufferRanges.length)) selection.destroy()
      bufferRanges.forEach((range, i) => {
        const selection = selections[i]
        if (selection) selection.setBufferRange(range, options)
        else this.addSelectionForBufferRange(range, options)
      })
    }, options.reversed ? 'intersecting-reversed' : 'intersecting')
  }

  setSelectedScreenRange(range: RangeLike, options: SetRangeOptions = {}): void {
    this.setSelectedBufferRange(this.bufferRangeForScreenRange(range), options)
  }

  setSelectedScreenRanges(ranges: RangeLike[], options: SetRangeOptions = {}): void {
    if (!Array.isArray(ranges) || ranges.length === 0) throw new TypeError('ranges must be a non-empty array of ranges')
    this.setSelectedBufferRanges(ranges.map((range) => this.bufferRangeForScreenRange(range)), options)
  }

  selectToBufferPosition(position: PointLike): void {
    const last = this.getLastSelection()
    this.scope.run(() => {
      last.selectToBufferPosition(position)
      this.selections.merge(last.isReversed() ? 'intersecting-reversed' : 'intersecting')
    })
  }

  selectToScreenPosition(position: PointLike, options: { suppressSelectionMerge?: boolean } = {}): void {
    const last = this.getLastSelection()
    this.scope.run(() => {
      last.selectToScreenPosition(position)
      if (!options.suppressSelectionMerge) this.selections.merge(last.isReversed() ? 'intersecting-reversed' : 'intersecting')
    })
  }

  /** Selects the word under every cursor; returns the selected ranges. */
  selectWord(options: SetRangeOptions & { wordRegex?: RegExp; includeNonWordCharacters?: boolean } = {}): Range[] {
    const ranges: Range[] = []
    this.selections.each('intersecting', (selection) => ranges.push(selection.selectWord(options)))
    return ranges
  }

  selectLine(row?: number, options?: SetRangeOptions): void {
    this.selections.each('intersecting', (selection) => selection.selectLine(row, options))
  }

  /** Keeps only the first-added selection; true if others were removed. */
  consolidateSelections(): boolean {
    const selections = this.getSelections()
    if (selections.length <= 1) return false
    this.scope.run(() => {
      for (const selection of selections.slice(1)) selection.destroy()
    })
    return true
  }

  clearSelections(options: { autoscroll?: boolean } = {}): void {
    this.scope.run(() => {
      this.consolidateSelections()
      this.getLastSelection().clear(options)
    })
  }

  splitSelectionsIntoLines(): void {
    this.scope.run(() => {
      for (const selection of this.getSelections()) {
        const range = selection.getBufferRange()
        if (range.isSingleLine()) continue
        const { start, end } = range
        this.addSelectionForBufferRange([start, [start.row, Infinity]])
        for (let row = start.row + 1; row < end.row; row++) this.addSelectionForBufferRange([[row, 0], [row, Infinity]])
        if (end.column !== 0) this.addSelectionForBufferRange([[end.row, 0], end])
        selection.destroy()
      }
    }, 'intersecting')
  }

  // Editing

  /** False when an `onWillInsertText` callback cancelled the insertion. */
  insertText(text: string, options: InsertTextOptions & { groupUndo?: boolean } = {}): Range[] | false {
    if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
    this.scope.checkWritable('insertText', options)
    if (!this.model.willInsertText(text)) return false
    const autoIndent = this.model.getAutoIndent()
    const selectionOptions: InsertTextOptions = { autoIndentNewline: autoIndent, autoDecreaseIndent: autoIndent, ...options }
    const insert = () =>
      this.selections.ordered().map((selection) => {
        const range = selection.insertText(text, selectionOptions)
        this.emitter.emit('did-insert-text', { text, range })
        return range
      })
    return this.scope.write('insertText', options, insert, 'intersecting', options.groupUndo ? 300 : 0)
  }

  insertNewline(options: InsertTextOptions = {}): Range[] | false {
    return this.insertText('\n', options)
  }

  copySelectedText(): void {
    // Selecting lines to copy them and restoring the ranges after is no change worth publishing.
    this.scope.run(() => this.copySelections())
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
    this.scope.checkWritable('pasteText', options)
    const { text: clipboardText, metadata = {} } = this.model.getClipboard().readWithMetadata()
    if (!this.model.willInsertText(clipboardText)) return false
    const count = this.selections.count()
    const paste = (selection: Selection, index: number) => {
      const entry = metadata.selections && metadata.selections.length === count ? metadata.selections[index]! : null
      const text = entry ? entry.text : clipboardText
      const indentBasis = entry ? entry.indentBasis : metadata.indentBasis
      const fullLine = entry ? entry.fullLine : metadata.fullLine
      const insertOptions: InsertTextOptions = { autoIndent: this.model.getAutoIndentOnPaste(), ...options }
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
    }
    this.scope.write('pasteText', options, () => this.selections.ordered().forEach(paste), 'intersecting')
  }

  /** Merges the selections on one screen row first, then deletes every selection's lines. */
  deleteLine(options: WriteOptions = {}): void {
    this.scope.write('deleteLine', options, () => {
      this.selections.merge('same-rows')
      for (const selection of this.selections.ordered()) selection.deleteLine(options)
    }, 'intersecting')
  }

  cutToEndOfLine(options: WriteOptions = {}): void {
    this.cutEach('cutToEndOfLine', options, (selection, maintain) => selection.cutToEndOfLine(maintain, options))
  }

  cutToEndOfBufferLine(options: WriteOptions = {}): void {
    this.cutEach('cutToEndOfBufferLine', options, (selection, maintain) => selection.cutToEndOfBufferLine(maintain, options))
  }

  cutSelectedText(options: WriteOptions = {}): void {
    this.cutEach('cutSelectedText', options, (selection, maintain) => {
      if (!selection.isEmpty()) return selection.cut(maintain, false, options)
      selection.selectLine()
      selection.cut(maintain, true, options)
    })
  }

  private cutEach(name: string, options: WriteOptions, cut: (selection: Selection, maintainClipboard: boolean) => void): void {
    this.scope.write(name, options, () => this.selections.ordered().forEach((selection, i) => cut(selection, i > 0)), 'intersecting')
  }

  // History

  /** Undoes this editor's last change; with `scope: 'everyone'`, the document's latest change, whoever made it. */
  undo(options: WriteOptions & { scope?: 'mine' | 'everyone' } = {}): boolean {
    if (options.scope === 'everyone') return this.undoEveryone(options)
    this.scope.checkWritable('undo', options)
    return this.scope.run(() => this.history.undo())
  }

  /** Redoes this editor's last undone change; with `scope: 'everyone'`, the last undo of everyone's. */
  redo(options: WriteOptions & { scope?: 'mine' | 'everyone' } = {}): boolean {
    if (options.scope === 'everyone') return this.redoEveryone(options)
    this.scope.checkWritable('redo', options)
    return this.scope.run(() => this.history.redo())
  }

  /** Runs `fn` as one Yjs transaction and one undo step; `groupingInterval` joins a close previous step. */
  transact<T>(groupingIntervalOrFn: number | (() => T), maybeFn?: () => T): T {
    const fn = typeof groupingIntervalOrFn === 'function' ? groupingIntervalOrFn : maybeFn
    const groupingInterval = typeof groupingIntervalOrFn === 'number' ? groupingIntervalOrFn : 0
    if (typeof fn !== 'function') throw new TypeError('transact needs a function')
    return this.scope.transact(fn, null, groupingInterval)
  }

  createCheckpoint(): number {
    return this.history.createCheckpoint()
  }

  revertToCheckpoint(checkpoint: number): boolean {
    return this.scope.run(() => this.history.revertToCheckpoint(checkpoint))
  }

  groupChangesSinceCheckpoint(checkpoint: number): boolean {
    return this.history.groupChangesSinceCheckpoint(checkpoint)
  }

  /** The Y.UndoManager behind undo/redo (it tracks only this editor's origin). */
  getUndoManager(): Y.UndoManager {
    return this.history.undoManager
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

  // Internal

  private collaborationHost(): CollaborationHost {
    return {
      buffer: this.buffer,
      context: this.model,
      getSelections: () => this.selections.all(),
      isBatching: () => this.scope.isActive(),
      markRemoteOffsets: (head, tail) => this.markerLayer.markOffsets(head, tail, { remote: true, invalidate: 'never' }),
      onDidChangeCursorPosition: (callback) => this.onDidChangeCursorPosition(callback),
      onDidChangeSelectionRange: (callback) => this.onDidChangeSelectionRange(callback),
      onDidAddSelection: (callback) => this.onDidAddSelection(callback),
      onDidRemoveSelection: (callback) => this.onDidRemoveSelection(callback),
    }
  }

  static {
    const own = (name: string) => INTERNAL.has(name) || Object.hasOwn(TextEditor.prototype, name)
    delegate(TextEditor.prototype, (editor) => editor.model, Object.getOwnPropertyNames(EditorModel.prototype).filter((name) => !own(name)))
    delegate(TextEditor.prototype, (editor) => editor.commands, ATOM_COMMANDS)
  }

  /** Internal: what the generated commands run on. */
  commandTarget(): CommandTarget {
    return { selections: this.selections, scope: this.scope, editing: this.model }
  }

  // Who wrote what, undo by choice: the change log, authorship, selective revert (core/collab/authorship.ts)

  /** Follows every transaction from the editor's creation: log, authorship index, reverts. */
  private readonly authorship: Authorship

  private createAuthorship(options: TextEditorOptions): Authorship {
    return new Authorship({
      buffer: this.buffer,
      awareness: options.awareness ?? null,
      run: (fn) => this.scope.run(fn, 'intersecting'),
      restoreSelections: (selections) => this.model.restoreSelections(selections),
    })
  }

  /**
   * Every change to the text since this editor was made, local or remote, oldest first: `{id, author:
   * {clientID, user, attested}, time, origin, insertedIds, deletedIds, revertible}`. `since`/`until`
   * bound the time (inclusive, ms since the epoch); `author` is a client ID, a user id or a user name.
   */
  getChanges(query: ChangeQuery = {}): ChangeEntry[] {
    return this.authorship.getChanges(query)
  }

  /** Calls back with each change as it is added to the log (once per transaction that changed the text). */
  onDidAddChange(callback: (change: ChangeEntry) => void): Disposable {
    return this.authorship.onDidAddChange(callback)
  }

  /** Fires when the server's attested bindings or a peer's user changed: authorship may read differently. */
  onDidChangeAuthors(callback: () => void): Disposable {
    return this.authorship.onDidChangeAuthors(callback)
  }

  /**
   * Who wrote the text in `range` (default: all of it): runs `[{range, from, to, author}]` covering it
   * in order. The author of a character is the client that inserted it, mapped to a user through the
   * server's attested bindings (`attested: true`) or that client's awareness `user`.
   */
  getAuthorship(range?: RangeLike): AuthorshipRun[] {
    if (range === undefined) return this.authorship.authorship(0, this.buffer.getLength())
    const clipped = this.buffer.clipRange(Range.fromObject(range, false, 'range'))
    return this.authorship.authorship(this.buffer.characterIndexForPosition(clipped.start), this.buffer.characterIndexForPosition(clipped.end))
  }

  /** The logged change that inserted the character at `position` (who and when), or null when it predates the log. */
  getChangeAtBufferPosition(position: PointLike): ChangeEntry | null {
    const point = this.buffer.clipPosition(Point.fromObject(position, false, 'position'))
    return this.authorship.changeThatInserted(this.buffer.characterIndexForPosition(point))
  }

  /**
   * Reverts one change of the log (anyone's, even with later changes on top): the text it inserted goes,
   * the text it deleted comes back; text others inserted inside stays and text others deleted stays
   * deleted. One transaction, in the log; selects what came back. Returns the new change (revert it
   * to redo), or null when nothing was left to revert. Throws for an unknown change or one that left
   * the revert window.
   */
  revertChange(idOrChange: string | ChangeEntry, options: WriteOptions = {}): ChangeEntry | null {
    this.scope.checkWritable('revertChange', options)
    return this.authorship.revertChange(idOrChange)
  }

  /** Reverts every change of `author` between `since` and `until` as one change (see `revertChange`). */
  revertChanges(query: ChangeQuery & { author: number | string }, options: WriteOptions = {}): ChangeEntry | null {
    this.scope.checkWritable('revertChanges', options)
    return this.authorship.revertChanges(query)
  }

  /** `undo({scope: 'everyone'})`: reverts the document's latest change not yet undone this way. */
  undoEveryone(options: WriteOptions = {}): boolean {
    this.scope.checkWritable('undo', options)
    return this.authorship.undoEveryone()
  }

  /** `redo({scope: 'everyone'})`: takes back the latest `undoEveryone`. */
  redoEveryone(options: WriteOptions = {}): boolean {
    this.scope.checkWritable('redo', options)
    return this.authorship.redoEveryone()
  }

  /** What changed since `state` (a `Y.encodeStateAsUpdate` of this document earlier): inserted ranges and deleted text, with authors. */
  diffFrom(state: Uint8Array): TextDiff {
    return this.authorship.diffFrom(state)
  }


}

/** The model's members that are not the TextEditor's API. */
type ModelInternals = 'doc' | 'buffer' | 'displayLayer' | 'markerLayer' | 'emitter' | 'history' | 'scope' | 'selections' | 'destroy'
type ModelMethodsAsOwn = 'operationEnding' | 'operationEnded' | 'restoreSelections' | 'setBufferTextInRange' | 'willInsertText'

// The facade: the model's methods under their own names, Atom's further commands (atom-commands.ts), then the
// commands generated from the motion table and the table of per-selection commands.
export interface TextEditor
  extends Omit<EditorModel, ModelInternals | ModelMethodsAsOwn>,
    Pick<AtomCommands, (typeof ATOM_COMMANDS)[number]>,
    EditorMotionMethods,
    EachSelectionMethods {}
defineEditorCommands(TextEditor.prototype, (editor: TextEditor) => editor.commandTarget())
