import type * as Y from 'yjs'
import type { Awareness } from 'y-protocols/awareness'
import type { BufferChangeEvent, TextBuffer } from '../buffer/text-buffer.ts'
import { isTransacting } from '../buffer/yjs-internals.ts'
import type { DisplayMarker } from '../anchors/display-marker.ts'
import type { PositionTracker } from '../anchors/marker-layer.ts'
import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import type { Selection } from '../selection/selection.ts'
import type { SelectionContext } from '../selection/host.ts'
import { decodePeerState, relativePositionJSON, type CursorFields, type SelectionJSON, type UserInfo } from './awareness-state.ts'
import { Peer, type PeerHost } from './peer.ts'
import { RemotePositions } from './remote-positions.ts'

/** Where the collaboration layer reports what it ignores (malformed peer states). */
export interface Logger {
  warn(message: string): void
}

/** What the collaboration layer needs from its editor. */
export interface CollaborationHost {
  readonly buffer: TextBuffer
  /** The editor's own selections, in the order they were added. */
  getSelections(): Selection[]
  /** True inside an editor operation: changes are published once, when it ends (`operationEnded`). */
  isBatching(): boolean
  /** The editor's text and settings, which peers' selections read like local ones. */
  readonly context: SelectionContext
  markRemoteOffsets(headOffset: number, tailOffset: number): DisplayMarker
  /** The editor's anchor index, where the peers' positions are kept and mapped with every marker. */
  readonly positionTracker: PositionTracker
  onDidAddSelection(callback: () => void): Disposable
  onDidRemoveSelection(callback: () => void): Disposable
}

export interface CollaborationOptions {
  /** Published as the state's `user`; without it an existing `user` is kept, or a default one written. */
  user?: UserInfo
  logger?: Logger
}

interface CollaborationEvents {
  'did-add-peer': Peer
  'did-remove-peer': Peer
}

interface AwarenessChange {
  added: number[]
  updated: number[]
  removed: number[]
}

/** Colours for users who did not say which they want: distinct, readable on light and dark themes. */
const PALETTE = ['#30bced', '#6eeb83', '#ffbc42', '#ee6352', '#9ac2c9', '#8acb88', '#1be7ff', '#d81b60']

const CONSOLE_LOGGER: Logger = {
  warn(message) {
    ;(globalThis as { console?: { warn(message: string): void } }).console?.warn(message)
  },
}

/**
 * What this editor last published: the selections' offsets, as entries of the editor's anchor index
 * (head, tail per selection; 'track-before', so an entry whose preceding character was deleted is lost:
 * its relative position no longer says where our cursor is), and the array written.
 */
interface Published {
  entries: number[]
  selections: SelectionJSON[]
}

/**
 * Ties an editor to a y-protocols Awareness. Publishes the editor's selections as relative positions
 * (once per editor operation or local transaction, and only when they changed), and keeps a `Peer` for
 * every other client with a state, re-resolving a peer's positions only when that peer publishes
 * new ones: between those, its markers follow every edit like any other marker.
 *
 * Its state is what cannot be derived: the peers, those waiting for text, whether our selections may
 * differ from what we published (`dirty`), what we published, the user we wrote, and whether a peer's
 * change is being applied. Unchanged peer states never reach us (the awareness compares deeply), and
 * whether a transaction is open is the document's to say.
 */
export class Collaboration {
  private readonly logger: Logger
  private readonly emitter = new Emitter<CollaborationEvents>()
  private readonly subscriptions: Disposable[] = []
  private readonly peers = new Map<number, Peer>()
  private readonly pendingPeers = new Set<Peer>()
  /** Every peer's placed selections, as entries of the editor's anchor index. */
  private readonly positions: RemotePositions
  /** What every peer reads from the editor: one object for all of them. */
  private readonly peerHost: PeerHost
  private dirty = true
  private published: Published | null = null
  /** A peer's change is being applied: our selections move exactly as peers expect them to. */
  private applyingRemote = false
  /** The `user` this editor wrote (to remove on destroy), and one still to write with the next publish. */
  private writtenUser: UserInfo | null = null
  private userToWrite: UserInfo | null = null
  private destroyed = false
  private readonly onAwarenessChange = (change: AwarenessChange) => this.awarenessChanged(change)
  private readonly onAfterTransaction = (transaction: Y.Transaction) => this.transactionEnded(transaction)

  constructor(
    private readonly host: CollaborationHost,
    readonly awareness: Awareness,
    options: CollaborationOptions = {},
  ) {
    this.logger = options.logger ?? CONSOLE_LOGGER
    this.positions = new RemotePositions(host.positionTracker)
    this.peerHost = {
      ytext: host.buffer.ytext,
      buffer: host.buffer,
      context: host.context,
      positions: this.positions,
      markRemoteOffsets: (head, tail) => host.markRemoteOffsets(head, tail),
    }
    this.subscriptions.push(
      // Adding or removing a selection (a merge after a peer's edit too) is news peers cannot infer.
      host.onDidAddSelection(() => this.markDirty()),
      host.onDidRemoveSelection(() => this.markDirty()),
      host.buffer.addChangeHook('collaboration', (event) => this.changeApplied(event)),
      // The markers' stage comes before ours: it has reported our selections' moves for this change.
      host.buffer.addAfterChangeHook('collaboration', () => {
        this.applyingRemote = false
      }),
    )
    host.buffer.doc.on('afterTransaction', this.onAfterTransaction)
    awareness.on('change', this.onAwarenessChange)
    this.chooseUser(options.user)
    this.flush()
    for (const clientId of [...awareness.getStates().keys()]) this.syncClient(clientId)
  }

  /** Every other client with a state, in the order they appeared. */
  getPeers(): Peer[] {
    return [...this.peers.values()]
  }

  getPeer(clientId: number): Peer | undefined {
    return this.peers.get(clientId)
  }

  onDidAddPeer(callback: (peer: Peer) => void): Disposable {
    return this.emitter.on('did-add-peer', callback)
  }

  onDidRemovePeer(callback: (peer: Peer) => void): Disposable {
    return this.emitter.on('did-remove-peer', callback)
  }

  /**
   * The editor's outermost operation ended: every change of our selections runs in one, so this is when
   * they may have moved (unless a peer's change moved them: peers map our published positions alike).
   * Publishing compares offsets first, so an operation that moved nothing sends nothing.
   */
  operationEnded(): void {
    if (!this.applyingRemote) this.dirty = true
    this.flush()
  }

  /** Publishes the selections if they changed and no operation or transaction is still running. */
  flush(): void {
    if (!this.dirty || this.destroyed || isTransacting(this.host.buffer.doc) || this.host.isBatching()) return
    this.dirty = false
    try {
      this.publish()
    } catch (error) {
      // An awareness listener (a provider) failed: the edit that led here must still succeed.
      this.warn(`could not publish the local selections: ${String(error)}`)
    }
  }

  /** Removes every peer, clears the fields this editor published and releases every subscription. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    for (const subscription of this.subscriptions) subscription.dispose()
    this.host.buffer.doc.off('afterTransaction', this.onAfterTransaction)
    this.awareness.off('change', this.onAwarenessChange)
    try {
      for (const peer of [...this.peers.values()]) this.removePeer(peer)
      this.positions.clear()
      for (const entry of this.published?.entries ?? []) this.host.positionTracker.untrack(entry)
      this.published = null
    } finally {
      this.clearLocalFields()
      this.emitter.dispose()
    }
  }

  // Publishing

  private markDirty(): void {
    this.dirty = true
    this.flush()
  }

  /**
   * Writes the cursor fields when they differ from what was published: compared as offsets first (no
   * relative position is made for an unchanged state), then set in one awareness update, which the
   * awareness encodes once for its listeners.
   */
  private publish(): void {
    const state = this.awareness.getLocalState()
    // A null local state means the app took this client offline: publish again when it returns.
    if (state === null) return
    const selections = this.host.getSelections()
    const offsets: number[] = []
    for (const { marker } of selections) offsets.push(marker.headOffset, marker.tailOffset)
    const user = this.userToWrite
    const published = this.published
    if (published !== null && user === null && state.selections === published.selections && this.isPublished(offsets, published.entries)) return
    const fields = this.cursorFields(offsets)
    this.published = { entries: this.track(offsets, published?.entries ?? []), selections: fields.selections }
    this.userToWrite = null
    this.awareness.setLocalState(user === null ? { ...state, ...fields } : { ...state, user, ...fields })
  }

  /** Whether the published entries are where `offsets` are (and none was lost). */
  private isPublished(offsets: readonly number[], entries: readonly number[]): boolean {
    if (offsets.length !== entries.length) return false
    const tracker = this.host.positionTracker
    for (let i = 0; i < offsets.length; i++) if (tracker.isLost(entries[i]!) || tracker.offset(entries[i]!) !== offsets[i]) return false
    return true
  }

  /** The published entries moved to `offsets` (reusing `entries`, adding or releasing the difference). */
  private track(offsets: readonly number[], entries: number[]): number[] {
    const tracker = this.host.positionTracker
    for (let i = offsets.length; i < entries.length; i++) tracker.untrack(entries[i]!)
    entries.length = Math.min(entries.length, offsets.length)
    for (let i = 0; i < offsets.length; i++) {
      if (i < entries.length) tracker.move(entries[i]!, offsets[i]!)
      else entries.push(tracker.track(offsets[i]!, 'track-before'))
    }
    return entries
  }

  private cursorFields(offsets: number[]): CursorFields {
    const buffer = this.host.buffer
    // Bound to the character before (assoc -1), so text a peer types at our cursor never pushes it.
    const position = (offset: number) => relativePositionJSON(buffer.relativePositionForOffset(offset, -1))
    const selections: SelectionJSON[] = []
    for (let i = 0; i < offsets.length; i += 2) {
      const head = position(offsets[i]!)
      selections.push({ anchor: offsets[i + 1] === offsets[i] ? head : position(offsets[i + 1]!), head })
    }
    return { cursor: selections[selections.length - 1] ?? null, selections }
  }

  /** The given user; without one, the `user` already in the local state, or else a default one. */
  private chooseUser(user: UserInfo | undefined): void {
    if (user === undefined && isUser(this.awareness.getLocalState()?.user)) return
    const chosen = user ?? { name: 'Anonymous', color: PALETTE[this.awareness.clientID % PALETTE.length]! }
    this.writtenUser = { name: chosen.name, color: chosen.color }
    // Written with the first cursor fields, so that joining is one awareness update.
    this.userToWrite = this.writtenUser
  }

  private clearLocalFields(): void {
    const state = this.awareness.getLocalState()
    if (state === null) return
    const { cursor: _cursor, selections: _selections, ...rest } = state
    if (this.writtenUser !== null && sameUser(rest.user, this.writtenUser)) delete rest.user
    this.awareness.setLocalState(rest)
  }

  /**
   * The published offsets and the peers' positions are entries of the anchor index, which the markers'
   * stage has mapped through the change. A change that deletes or rewrites the character before a
   * published position (a deletion, or a change the buffer widens over a '\r\n' pair or a surrogate
   * pair) leaves our cursor where its position no longer resolves: the entry is lost, so the next
   * flush publishes again.
   */
  private changeApplied({ local }: BufferChangeEvent): void {
    this.applyingRemote = !local
    const entries = this.published?.entries
    if (entries === undefined || this.dirty) return
    const tracker = this.host.positionTracker
    for (const entry of entries) if (tracker.isLost(entry)) this.dirty = true
  }

  private transactionEnded(transaction: Y.Transaction): void {
    try {
      if (transaction.local) {
        // Someone edited the text here (not necessarily through the editor): our cursors may have
        // moved in a way peers cannot infer from our old positions.
        const changedTypes: ReadonlyMap<unknown, unknown> = transaction.changed
        if (changedTypes.has(this.host.buffer.ytext)) this.dirty = true
      } else if (this.pendingPeers.size > 0) {
        this.retryPending()
      }
    } finally {
      this.flush()
    }
  }

  // Peers

  private awarenessChanged({ added, updated, removed }: AwarenessChange): void {
    for (const clientId of [...added, ...updated, ...removed]) {
      try {
        if (clientId === this.awareness.clientID) this.checkLocalState()
        else this.syncClient(clientId)
      } catch (error) {
        this.warn(`error while applying the awareness state of client ${clientId}: ${String(error)}`)
      }
    }
  }

  /** Someone replaced or cleared our local state (e.g. set it to `{}`): publish the cursors again. */
  private checkLocalState(): void {
    const state = this.awareness.getLocalState()
    if (state === null || state.selections === this.published?.selections) return
    if (this.writtenUser !== null && !isUser(state.user)) this.userToWrite = this.writtenUser
    this.markDirty()
  }

  private syncClient(clientId: number): void {
    if (clientId === this.awareness.clientID) return
    const state = this.awareness.getStates().get(clientId)
    if (state == null) {
      const peer = this.peers.get(clientId)
      if (peer) this.removePeer(peer)
      return
    }
    const decoded = decodePeerState(state)
    if (!decoded.ok) {
      this.warn(`ignoring the awareness state of client ${clientId}: ${decoded.reason}`)
      return
    }
    let peer = this.peers.get(clientId)
    const isNew = peer === undefined
    if (peer === undefined) {
      peer = new Peer(this.peerHost, clientId)
      this.peers.set(clientId, peer)
    }
    peer.update(decoded.state)
    if (peer.hasPendingPositions()) this.pendingPeers.add(peer)
    else this.pendingPeers.delete(peer)
    if (isNew) this.emitter.emit('did-add-peer', peer)
  }

  private retryPending(): void {
    for (const peer of [...this.pendingPeers]) {
      try {
        if (!peer.retryPending()) this.pendingPeers.delete(peer)
      } catch (error) {
        this.pendingPeers.delete(peer)
        this.warn(`could not place the selections of client ${peer.clientId}: ${String(error)}`)
      }
    }
  }

  private removePeer(peer: Peer): void {
    this.peers.delete(peer.clientId)
    this.pendingPeers.delete(peer)
    try {
      peer.destroy()
    } finally {
      this.emitter.emit('did-remove-peer', peer)
    }
  }

  private warn(message: string): void {
    try {
      this.logger.warn(`Cotext collaboration: ${message}`)
    } catch {
      // A failing logger must not break the awareness handler either.
    }
  }
}

function isUser(value: unknown): value is UserInfo {
  return value !== null && typeof value === 'object' && typeof (value as UserInfo).name === 'string' && typeof (value as UserInfo).color === 'string'
}

function sameUser(value: unknown, user: UserInfo): boolean {
  return isUser(value) && value.name === user.name && value.color === user.color
}
