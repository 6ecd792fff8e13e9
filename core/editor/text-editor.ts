import { Disposable } from '../events/disposable.ts'
import { Collaboration, type CollaborationHost, type CollaborationOptions } from '../collab/collaboration.ts'
import type { Peer } from '../collab/peer.ts'
import { Authorship, type AuthorshipRun, type TextDiff } from '../collab/authorship.ts'
import type { ChangeEntry, ChangeQuery } from '../collab/change-log.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import type { WriteOptions } from '../selection/host.ts'
import { AtomCommands } from './atom-commands.ts'
import type { TextEditorOptions } from './editor-model.ts'
import { scanWithArguments, type ScanIterator, type ScanOptions } from '../buffer/scan.ts'
import { FindQuery, type FindOptions } from './find-query.ts'

export type { TextEditorOptions } from './editor-model.ts'

/**
 * Atom's TextEditor over a Y.Text. The text lives in the Y.Text (every edit is a transaction with the editor
 * as origin). The class is the last of a chain of layers, each in its own file and each method written there
 * with its doc comment: `EditorModel` (the parts; what selections read and edit through) → `EditorText`
 * (text, coordinates, layout, language, settings, events) → `EditorSelections` (cursors, selections,
 * motions) → `EditorEditing` (text changes at every selection, history) → `AtomCommands` (line moves,
 * folds by syntax, paging) → `TextEditor` (lifecycle and peers). Every command runs in the one operation
 * scope (`operation.ts`), which checks read-only, makes one undo step, merges the selections
 * (`selection-list.ts`) and publishes once.
 */
export class TextEditor extends AtomCommands {
  private destroyed = false
  /** Set when the editor was given an awareness: publishes our selections, shows the peers'. */
  private readonly collaboration: Collaboration | null = null

  /** A new editor over `options.doc` (or a fresh Y.Doc) with one cursor at [0, 0]; see `TextEditorOptions`. */
  constructor(options: TextEditorOptions = {}) {
    super(options)
    this.addCursorAtBufferPosition([0, 0])
    if (options.awareness) {
      const collaborationOptions: CollaborationOptions = {}
      if (options.user) collaborationOptions.user = options.user
      if (options.logger) collaborationOptions.logger = options.logger
      this.collaboration = new Collaboration(this.collaborationHost(), options.awareness, collaborationOptions)
    }
    this.authorship = this.createAuthorship(options)
  }

  /** Releases the editor: peers leave, our awareness fields are cleared, every part is disposed. Idempotent. */
  override destroy(): void {
    if (this.destroyed) return
    // First, while selections still exist: peers leave and our awareness fields are cleared.
    this.collaboration?.destroy()
    this.authorship.destroy()
    this.destroyed = true
    super.destroy()
  }

  /** Whether `destroy` was called. */
  isDestroyed(): boolean {
    return this.destroyed
  }

  /** @internal After the outermost operation: our selections are published to awareness, once. */
  override operationEnded(): void {
    this.collaboration?.operationEnded()
  }

  // Collaboration

  /** Every other awareness client with a state (none without an awareness). */
  getPeers(): Peer[] {
    return this.collaboration?.getPeers() ?? []
  }

  /** Calls back when a peer appears (another awareness client with a state). */
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
      context: this,
      getSelections: () => this.selections.all(),
      isBatching: () => this.scope.isActive(),
      markRemoteOffsets: (head, tail) => this.markerLayer.markOffsets(head, tail, { remote: true, invalidate: 'never' }),
      positionTracker: this.markerLayer,
      onDidAddSelection: (callback) => this.onDidAddSelection(callback),
      onDidRemoveSelection: (callback) => this.onDidRemoveSelection(callback),
    }
  }

  // Find and replace (Atom's scan API; the search itself is core/buffer/scan.ts, live results find-query.ts)

  /**
   * Calls `iterator` with each match of `regex` in the buffer (Atom's `TextEditor#scan`); replacements
   * made by the iterator are one transaction and one undo step. Throws ScanTooSlowError, having changed
   * nothing, when finding the matches takes longer than `options.timeLimit` (default 250 ms).
   */
  scan(regex: RegExp, optionsOrIterator: ScanOptions | ScanIterator, iterator?: ScanIterator): void {
    this.scanInBufferRange(regex, this.buffer.getRange(), optionsOrIterator, iterator)
  }

  /** `scan` within `range` (buffer coordinates). */
  scanInBufferRange(regex: RegExp, range: RangeLike, optionsOrIterator: ScanOptions | ScanIterator, iterator?: ScanIterator): void {
    scanWithArguments(this.buffer, regex, range, optionsOrIterator, iterator, false, (fn) => this.transact(fn))
  }

  /** `scanInBufferRange` from the last match to the first. */
  backwardsScanInBufferRange(regex: RegExp, range: RangeLike, optionsOrIterator: ScanOptions | ScanIterator, iterator?: ScanIterator): void {
    scanWithArguments(this.buffer, regex, range, optionsOrIterator, iterator, true, (fn) => this.transact(fn))
  }

  /**
   * Live find results for `options` (pattern, regex, caseSensitive, wholeWord, inSelection), kept current
   * through everyone's edits; throws InvalidPatternError for a bad regex. Dispose the query when done.
   */
  createFindQuery(options: FindOptions): FindQuery {
    return new FindQuery({
      buffer: this.buffer,
      transact: (fn) => this.transact(fn),
      getSelectedBufferRange: () => this.getSelectedBufferRange(),
      setSelectedBufferRanges: (ranges) => this.setSelectedBufferRanges(ranges),
    }, options)
  }

  // Who wrote what, undo by choice: the change log, authorship, selective revert (core/collab/authorship.ts)

  /** Undoes this process's latest change to the text (shared by its editors); with `scope: 'everyone'`, the document's latest change, whoever made it. */
  override undo(options: WriteOptions & { scope?: 'mine' | 'everyone' } = {}): boolean {
    return options.scope === 'everyone' ? this.undoEveryone(options) : super.undo(options)
  }

  /** Redoes this editor's last undone change; with `scope: 'everyone'`, takes back the last undo of everyone's. */
  override redo(options: WriteOptions & { scope?: 'mine' | 'everyone' } = {}): boolean {
    return options.scope === 'everyone' ? this.redoEveryone(options) : super.redo(options)
  }

  /** Follows every transaction from the editor's creation: log, authorship index, reverts. */
  private readonly authorship: Authorship

  private createAuthorship(options: TextEditorOptions): Authorship {
    return new Authorship({
      buffer: this.buffer,
      awareness: options.awareness ?? null,
      run: (fn) => this.scope.run(fn, 'intersecting'),
      restoreSelections: (selections) => this.restoreSelections(selections),
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
