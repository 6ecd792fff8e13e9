import { Disposable } from '../events/disposable.ts'
import { Collaboration, type CollaborationHost, type CollaborationOptions } from '../collab/collaboration.ts'
import type { Peer } from '../collab/peer.ts'
import { AtomCommands } from './atom-commands.ts'
import type { TextEditorOptions } from './editor-model.ts'
import type { RangeLike } from '../point/range.ts'
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
  }

  /** Releases the editor: peers leave, our awareness fields are cleared, every part is disposed. Idempotent. */
  override destroy(): void {
    if (this.destroyed) return
    // First, while selections still exist: peers leave and our awareness fields are cleared.
    this.collaboration?.destroy()
    this.destroyed = true
    super.destroy()
  }

  /** Whether `destroy` was called. */
  isDestroyed(): boolean {
    return this.destroyed
  }

  /** @internal After the outermost operation: our selections are published to awareness, once. */
  override operationEnded(): void {
    this.collaboration?.flush()
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
      onDidChangeCursorPosition: (callback) => this.onDidChangeCursorPosition(callback),
      onDidChangeSelectionRange: (callback) => this.onDidChangeSelectionRange(callback),
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
}
