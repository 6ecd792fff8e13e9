import type * as Y from 'yjs'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { DisplayMarker } from '../anchors/display-marker.ts'
import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import type { Cursor } from '../selection/cursor.ts'
import { Selection } from '../selection/selection.ts'
import type { SelectionContext } from '../selection/host.ts'
import { PeerSelectionHost } from '../selection/peer-host.ts'
import { isPublishedAs, type DecodedSelection, type DecodedState, type UserInfo } from './awareness-state.ts'
import type { RemotePositions } from './remote-positions.ts'
import { hasArrived, locate } from './locate.ts'

/** What a peer needs from the editor that shows it. */
export interface PeerHost {
  readonly ytext: Y.Text
  readonly buffer: TextBuffer
  /** The editor's text and settings, which peers' selections read like local ones. */
  readonly context: SelectionContext
  /** Every peer's placed selections as offsets, mapped through each change by the collaboration. */
  readonly positions: RemotePositions
  /** A marker for another user's selection (left-bound, never invalidated) at exact offsets. */
  markRemoteOffsets(headOffset: number, tailOffset: number): DisplayMarker
}

interface PeerEvents {
  'did-add-selection': Selection
  'did-remove-selection': Selection
  'did-change-user': UserInfo
  'did-destroy': undefined
}

const NO_USER: UserInfo = Object.freeze({ name: '', color: '' })

/**
 * Another user of the shared text, as their awareness state shows them: real `Cursor` and
 * `Selection` objects in this editor's buffer and screen coordinates. Every query works on them;
 * every method that would move them or edit through them throws, since they belong to the peer.
 */
export class Peer {
  /** The peer's awareness client id (its `Y.Doc` client id). */
  readonly clientId: number
  private currentUser: UserInfo = NO_USER
  /**
   * One slot per published selection, in the peer's order, two elements each: its pair in the shared
   * positions (-1 while it has no place here), then the selection as the awareness state holds it (a
   * later state's selection equal to it is not resolved again: the pair already follows every edit).
   * One array of exactly this length (not two grown by push): it is most of what a peer costs.
   */
  private slots: unknown[] = []
  /** Positions still waiting for their text to arrive, by slot; until then a slot stays where it was. */
  private pending: Map<number, DecodedSelection> | null = null
  /** `Selection` objects made for slots when asked for, kept while the caller holds them... */
  private live: Map<number, WeakRef<Selection>> | null = null
  /** ...or while someone listens to them (or their cursor). */
  private held: Map<number, Selection> | null = null
  /** Made when first needed: most peers of a big session are never listened to one by one. */
  private emitter: Emitter<PeerEvents> | null = null
  private selectionHost: PeerSelectionHost | null = null
  private destroyed = false
  /** The first error a listener threw during an update: rethrown once the update is complete. */
  private listenerError: unknown = null

  /** Internal: peers are made by the editor's collaboration layer. */
  constructor(
    private readonly host: PeerHost,
    clientId: number,
  ) {
    this.clientId = clientId
  }

  /** `{name, color}` as the peer publishes it (empty strings when it publishes none). */
  get user(): UserInfo {
    return this.currentUser
  }

  /** The peer's selections that are placed in this text, in the order the peer added them. */
  getSelections(): Selection[] {
    const selections: Selection[] = []
    for (let slot = 0; slot < this.slotCount; slot++) if (this.pairAt(slot) >= 0) selections.push(this.selectionAt(slot))
    return selections
  }

  getCursors(): Cursor[] {
    return this.getSelections().map((selection) => selection.cursor)
  }

  /** The peer's primary selection: the one y-codemirror.next shows as its cursor. */
  getLastSelection(): Selection | undefined {
    for (let slot = this.slotCount - 1; slot >= 0; slot--) if (this.pairAt(slot) >= 0) return this.selectionAt(slot)
    return undefined
  }

  getLastCursor(): Cursor | undefined {
    return this.getLastSelection()?.cursor
  }

  isDestroyed(): boolean {
    return this.destroyed
  }

  /** Whether some published position waits for text that has not arrived yet. */
  hasPendingPositions(): boolean {
    return this.pending !== null && this.pending.size > 0
  }

  // Events

  onDidAddSelection(callback: (selection: Selection) => void): Disposable {
    return this.events().on('did-add-selection', callback)
  }

  onDidRemoveSelection(callback: (selection: Selection) => void): Disposable {
    return this.events().on('did-remove-selection', callback)
  }

  onDidChangeUser(callback: (user: UserInfo) => void): Disposable {
    return this.events().on('did-change-user', callback)
  }

  /** Fires once, when the peer leaves (after its selections fired theirs). */
  onDidDestroy(callback: () => void): Disposable {
    return this.events().once('did-destroy', callback)
  }

  // Internal: driven by Collaboration

  /**
   * Applies a newly published state: selections equal to the ones published before are left alone;
   * changed ones are resolved and moved in place (one `textChanged: false` event if they really
   * moved); extra ones are added or removed.
   */
  update(state: DecodedState): void {
    const user = state.user ?? NO_USER
    if (user.name !== this.currentUser.name || user.color !== this.currentUser.color) {
      this.currentUser = Object.freeze({ name: user.name, color: user.color })
      this.guard(() => this.emitter?.emit('did-change-user', this.currentUser))
    }
    const published = state.selections
    for (let slot = published.length; slot < this.slotCount; slot++) this.removeSelection(slot)
    if (published.length !== this.slotCount) this.resize(published.length)
    published.forEach((selection, slot) => {
      const unchanged = isPublishedAs(selection, this.slots[2 * slot + 1])
      this.slots[2 * slot + 1] = selection.source
      if (!unchanged) this.place(slot, selection)
    })
    this.rethrowListenerError()
  }

  /** Places positions whose text has arrived since; true while some are still pending. */
  retryPending(): boolean {
    const pending = this.pending
    if (pending === null) return false
    const doc = this.host.ytext.doc!
    for (const [slot, target] of [...pending]) {
      if (hasArrived(target.anchor, doc) && hasArrived(target.head, doc)) this.place(slot, target)
    }
    this.rethrowListenerError()
    return pending.size > 0
  }

  /** The peer left: its cursors and selections fire onDidDestroy, then the peer does. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    try {
      for (let slot = 0; slot < this.slotCount; slot++) this.removeSelection(slot)
      this.slots = []
      this.pending = null
      this.guard(() => this.emitter?.emit('did-destroy'))
    } finally {
      this.events().dispose()
    }
    this.rethrowListenerError()
  }

  private place(slot: number, target: DecodedSelection): void {
    const buffer = this.host.buffer
    const anchor = locate(target.anchor, buffer)
    const head = target.collapsed ? anchor : locate(target.head, buffer)
    if (anchor === 'pending' || head === 'pending') {
      ;(this.pending ??= new Map()).set(slot, target)
      return
    }
    this.pending?.delete(slot)
    if (anchor === 'foreign' || head === 'foreign') {
      // The peer's selection is in another text now: it has no place in this one.
      this.removeSelection(slot)
      return
    }
    const positions = this.host.positions
    const clampedHead = clamp(head, buffer)
    const clampedAnchor = clamp(anchor, buffer)
    const headFollows = (target.collapsed ? target.anchor : target.head).assoc >= 0
    const anchorFollows = target.anchor.assoc >= 0
    const pair = this.pairAt(slot)
    if (pair >= 0) {
      positions.set(pair, clampedHead, clampedAnchor, headFollows, anchorFollows)
      const live = this.liveAt(slot)
      if (live !== undefined) {
        live.marker.headFollows = headFollows
        live.marker.tailFollows = anchorFollows
        live.marker.setOffsets(clampedHead, clampedAnchor)
      }
      return
    }
    this.slots[2 * slot] = positions.add(clampedHead, clampedAnchor, headFollows, anchorFollows)
    if (this.emitter?.hasListeners('did-add-selection')) {
      const selection = this.selectionAt(slot)
      this.guard(() => this.emitter?.emit('did-add-selection', selection))
    }
  }

  private removeSelection(slot: number): void {
    const pair = this.pairAt(slot)
    this.pending?.delete(slot)
    if (pair < 0) return
    const selection = this.emitter?.hasListeners('did-remove-selection') ? this.selectionAt(slot) : this.liveAt(slot)
    this.slots[2 * slot] = -1
    this.host.positions.remove(pair)
    this.live?.delete(slot)
    this.held?.delete(slot)
    if (selection === undefined) return
    // A throwing onDidDestroy listener does not keep the selection alive.
    this.guard(() => selection.marker.destroy())
    this.guard(() => this.emitter?.emit('did-remove-selection', selection))
  }

  /** The slot's `Selection`: the one somebody still holds, or a new one at the slot's offsets. */
  private selectionAt(slot: number): Selection {
    const existing = this.liveAt(slot)
    if (existing !== undefined) return existing
    const pair = this.pairAt(slot)
    const positions = this.host.positions
    const marker = this.host.markRemoteOffsets(positions.head(pair), positions.tail(pair))
    marker.headFollows = positions.headFollows(pair)
    marker.tailFollows = positions.tailFollows(pair)
    const selection = new Selection(this.host.context, this.selectionHost ??= this.makeSelectionHost(), marker)
    ;(this.live ??= new Map()).set(slot, new WeakRef(selection))
    // (Its marker is reachable through `Cursor#getMarker`: if someone destroys it, the slot has no
    // place until the peer publishes a new one.)
    marker.onDidDestroy(() => this.markerDestroyed(slot, pair))
    return selection
  }

  private get slotCount(): number {
    return this.slots.length >> 1
  }

  /** The slot's pair in the shared positions; -1 while it has no place here. */
  private pairAt(slot: number): number {
    return this.slots[2 * slot] as number
  }

  /** Keeps the first `count` slots (the others were removed), new ones empty, in an array of exactly that size. */
  private resize(count: number): void {
    const slots = new Array<unknown>(2 * count)
    for (let slot = 0; slot < count; slot++) {
      const kept = slot < this.slotCount
      slots[2 * slot] = kept ? this.slots[2 * slot] : -1
      slots[2 * slot + 1] = kept ? this.slots[2 * slot + 1] : null
    }
    this.slots = slots
  }

  private events(): Emitter<PeerEvents> {
    if (this.emitter === null) {
      this.emitter = new Emitter()
      // A peer that left takes no more listeners.
      if (this.destroyed) this.emitter.dispose()
    }
    return this.emitter
  }

  private makeSelectionHost(): PeerSelectionHost {
    const peer = this
    return new PeerSelectionHost({
      get name() {
        return peer.currentUser.name
      },
      getLastSelection: () => this.getLastSelection(),
      retain: (selection) => this.retain(selection),
    })
  }

  private markerDestroyed(slot: number, pair: number): void {
    if (this.pairAt(slot) !== pair) return
    this.slots[2 * slot] = -1
    this.host.positions.remove(pair)
    this.live?.delete(slot)
    this.held?.delete(slot)
  }

  /** The slot's `Selection` if one is alive (not collected, its marker not destroyed by someone). */
  private liveAt(slot: number): Selection | undefined {
    const selection = this.held?.get(slot) ?? this.live?.get(slot)?.deref()
    if (selection === undefined) this.live?.delete(slot)
    return selection
  }

  /** Someone listens to one of our selections (or its cursor): keep it until it leaves. */
  private retain(selection: Selection): void {
    if (this.live === null) return
    for (const [slot, ref] of this.live) {
      if (ref.deref() === selection) (this.held ??= new Map()).set(slot, selection)
    }
  }

  /** Runs listeners without letting one that fails stop the update half way. */
  private guard(notify: () => void): void {
    try {
      notify()
    } catch (error) {
      this.listenerError ??= error
    }
  }

  private rethrowListenerError(): void {
    const error = this.listenerError
    if (error === null) return
    this.listenerError = null
    throw error
  }
}

/** An offset forced into the text, as a marker would keep it. */
function clamp(offset: number, buffer: TextBuffer): number {
  return Math.max(0, Math.min(buffer.getLength(), Math.floor(offset)))
}
