import type * as Y from 'yjs'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { DisplayMarker } from '../anchors/display-marker.ts'
import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import type { Cursor } from '../selection/cursor.ts'
import { Selection } from '../selection/selection.ts'
import type { SelectionContext } from '../selection/host.ts'
import { PeerSelectionHost } from '../selection/peer-host.ts'
import type { DecodedSelection, DecodedState, UserInfo } from './awareness-state.ts'
import { hasArrived, locate } from './locate.ts'

/** What a peer needs from the editor that shows it. */
export interface PeerHost {
  readonly ytext: Y.Text
  readonly buffer: TextBuffer
  /** The editor's text and settings, which peers' selections read like local ones. */
  readonly context: SelectionContext
  /** A marker for another user's selection (left-bound, never invalidated) at exact offsets. */
  markRemoteOffsets(headOffset: number, tailOffset: number): DisplayMarker
}

/**
 * One published selection of the peer. `key` is its published JSON: an unchanged key is never
 * resolved again (the marker already follows every edit). `target` is a position still waiting for
 * its text to arrive; until then the selection, if any, stays where it was.
 */
interface Slot {
  key: string
  target: DecodedSelection | null
  selection: Selection | null
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
  private slots: Slot[] = []
  private readonly emitter = new Emitter<PeerEvents>()
  private readonly selectionHost: PeerSelectionHost
  private destroyed = false
  /** The first error a listener threw during an update: rethrown once the update is complete. */
  private listenerError: unknown = null

  /** Internal: peers are made by the editor's collaboration layer. */
  constructor(
    private readonly host: PeerHost,
    clientId: number,
  ) {
    this.clientId = clientId
    const peer = this
    this.selectionHost = new PeerSelectionHost({
      get name() {
        return peer.currentUser.name
      },
      getLastSelection: () => this.getLastSelection(),
    })
  }

  /** `{name, color}` as the peer publishes it (empty strings when it publishes none). */
  get user(): UserInfo {
    return this.currentUser
  }

  /** The peer's selections that are placed in this text, in the order the peer added them. */
  getSelections(): Selection[] {
    const selections: Selection[] = []
    for (const slot of this.slots) if (slot.selection !== null && !slot.selection.destroyed) selections.push(slot.selection)
    return selections
  }

  getCursors(): Cursor[] {
    return this.getSelections().map((selection) => selection.cursor)
  }

  /** The peer's primary selection: the one y-codemirror.next shows as its cursor. */
  getLastSelection(): Selection | undefined {
    for (let i = this.slots.length - 1; i >= 0; i--) {
      const selection = this.slots[i]!.selection
      if (selection !== null && !selection.destroyed) return selection
    }
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
    return this.slots.some((slot) => slot.target !== null)
  }

  // Events

  onDidAddSelection(callback: (selection: Selection) => void): Disposable {
    return this.emitter.on('did-add-selection', callback)
  }

  onDidRemoveSelection(callback: (selection: Selection) => void): Disposable {
    return this.emitter.on('did-remove-selection', callback)
  }

  onDidChangeUser(callback: (user: UserInfo) => void): Disposable {
    return this.emitter.on('did-change-user', callback)
  }

  /** Fires once, when the peer leaves (after its selections fired theirs). */
  onDidDestroy(callback: () => void): Disposable {
    return this.emitter.once('did-destroy', callback)
  }

  // Internal: driven by Collaboration

  /**
   * Applies a newly published state: selections whose JSON is unchanged are left alone; changed ones
   * are resolved and moved in place (one `textChanged: false` event if they really moved); extra
   * ones are added or removed.
   */
  update(state: DecodedState): void {
    const user = state.user ?? NO_USER
    if (user.name !== this.currentUser.name || user.color !== this.currentUser.color) {
      this.currentUser = Object.freeze({ name: user.name, color: user.color })
      this.guard(() => this.emitter.emit('did-change-user', this.currentUser))
    }
    const published = state.selections
    const removed = this.slots.splice(published.length)
    for (const slot of removed) this.removeSelection(slot)
    published.forEach((selection, i) => {
      let slot = this.slots[i]
      if (slot === undefined) this.slots.push((slot = { key: '', target: null, selection: null }))
      if (slot.key === selection.key) return
      slot.key = selection.key
      slot.target = selection
      this.place(slot)
    })
    this.rethrowListenerError()
  }

  /** Places positions whose text has arrived since; true while some are still pending. */
  retryPending(): boolean {
    const doc = this.host.ytext.doc!
    let pending = false
    for (const slot of this.slots) {
      const target = slot.target
      if (target === null) continue
      if (hasArrived(target.anchor, doc) && hasArrived(target.head, doc)) this.place(slot)
      pending ||= slot.target !== null
    }
    this.rethrowListenerError()
    return pending
  }

  /** The peer left: its cursors and selections fire onDidDestroy, then the peer does. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    const slots = this.slots
    this.slots = []
    try {
      for (const slot of slots) this.removeSelection(slot)
      this.guard(() => this.emitter.emit('did-destroy'))
    } finally {
      this.emitter.dispose()
    }
    this.rethrowListenerError()
  }

  private place(slot: Slot): void {
    const target = slot.target!
    const buffer = this.host.buffer
    const anchor = locate(target.anchor, buffer)
    const head = target.collapsed ? anchor : locate(target.head, buffer)
    if (anchor === 'pending' || head === 'pending') return
    slot.target = null
    if (anchor === 'foreign' || head === 'foreign') {
      // The peer's selection is in another text now: it has no place in this one.
      this.removeSelection(slot)
      return
    }
    // (Its marker is reachable through `Cursor#getMarker`: if someone destroyed it, make a new one.)
    if (slot.selection !== null && !slot.selection.destroyed) {
      slot.selection.marker.setOffsets(head, anchor)
      return
    }
    const selection = new Selection(this.host.context, this.selectionHost, this.host.markRemoteOffsets(head, anchor))
    slot.selection = selection
    this.guard(() => this.emitter.emit('did-add-selection', selection))
  }

  private removeSelection(slot: Slot): void {
    const selection = slot.selection
    if (selection === null) return
    slot.selection = null
    // A throwing onDidDestroy listener does not keep the selection alive.
    this.guard(() => selection.marker.destroy())
    this.guard(() => this.emitter.emit('did-remove-selection', selection))
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
