import type * as Y from 'yjs'
import { captureTransactionUpdate } from '../../core/index.ts'

/** Updates at least this big (bytes; for a transaction, characters inserted) are handed on in a later task. */
export const BIG_UPDATE = 64 * 1024

type UpdateListener = (update: Uint8Array, origin: unknown) => void

/** One listener's place: the updates waiting for it, in order, each written when first asked for. */
interface Relay {
  readonly listener: UpdateListener
  readonly ignores: (origin: unknown) => boolean
  readonly queue: [() => Uint8Array, unknown][]
  scheduled: boolean
}

/**
 * Runs providers' `doc.on('update')` listeners after the task that made a big update rather than inside it,
 * and writes a big transaction's update there too. Yjs calls update listeners synchronously at the end of the
 * transaction, having first written the update (for a 2 MB paste, UTF-8 encoding 2 MB), so the paste's task
 * would also hold that encoding, y-websocket's send to the server and to other tabs (copying the update twice,
 * then a structured clone) and y-indexeddb's write.
 *
 * Yjs writes an update only while the doc has an 'update' listener. This relay listens to each transaction's
 * end ('afterTransactionCleanup', just before Yjs would write): for a small one (a keystroke) it keeps its
 * 'update' listener on, and Yjs's update goes to the listeners at once; for one that inserted BIG_UPDATE
 * characters or more it takes that listener off for this transaction, captures the update
 * (`captureTransactionUpdate`: the same bytes, written later from copies of the structs) and writes it once, in
 * a task of its own, for every listener that wants it. Once one update waits for a listener, every later one
 * waits behind it, so each listener sees them all in order; only the time of the call changes, never the bytes.
 */
export class DeferredUpdates {
  private readonly relays = new Map<UpdateListener, Relay>()
  private listening = false
  private readonly onUpdate = (update: Uint8Array, origin: unknown): void => {
    for (const relay of this.relays.values()) {
      if (relay.ignores(origin)) continue
      if (relay.queue.length === 0 && update.byteLength < BIG_UPDATE) relay.listener(update, origin)
      else this.enqueue(relay, () => update, origin)
    }
  }
  private readonly onTransactionEnd = (transaction: Y.Transaction): void => {
    if (this.relays.size === 0) return
    if (insertedLength(transaction) < BIG_UPDATE) {
      this.listen(true)
      return
    }
    this.listen(false)
    // A big update no listener wants (a room's first sync, before IndexedDB is opened) is not even captured.
    const origin = transaction.origin
    const takers = [...this.relays.values()].filter((relay) => !relay.ignores(origin))
    if (takers.length === 0) return
    const write = captureTransactionUpdate(transaction)
    if (write === null) return
    this.schedule(() => void write())
    for (const relay of takers) this.enqueue(relay, write, origin)
  }

  /** `schedule` runs a callback in a later task (the page: after the next frame is painted). */
  constructor(
    private readonly doc: Y.Doc,
    private readonly schedule: (callback: () => void) => void,
  ) {
    doc.on('afterTransactionCleanup', this.onTransactionEnd)
  }

  /**
   * Takes `listener` off `doc`'s updates and hands it every update from now on through this. `ignores(origin)`
   * says which updates the listener does nothing with (a provider's own): they are not handed to it, and
   * not written for it.
   */
  relay(listener: UpdateListener, ignores: (origin: unknown) => boolean = () => false): void {
    this.doc.off('update', listener)
    this.relays.set(listener, { listener, ignores, queue: [], scheduled: false })
    this.listen(true)
  }

  /** Stops handing updates to `listener`: those waiting for it are handed on first when `flush` is true, else dropped. */
  stop(listener: UpdateListener, flush: boolean): void {
    const relay = this.relays.get(listener)
    if (relay === undefined) return
    if (flush) this.flushRelay(relay)
    this.relays.delete(listener)
    if (this.relays.size === 0) this.listen(false)
  }

  /** Whether some update waits to be handed on. */
  isPending(): boolean {
    for (const relay of this.relays.values()) if (relay.queue.length > 0) return true
    return false
  }

  /** Hands on every waiting update now, in order. */
  flush(): void {
    for (const relay of this.relays.values()) this.flushRelay(relay)
  }

  /** Stops relaying; waiting updates are handed on first when `flush` is true, else dropped. */
  dispose(flush: boolean): void {
    for (const listener of [...this.relays.keys()]) this.stop(listener, flush)
    this.doc.off('afterTransactionCleanup', this.onTransactionEnd)
  }

  private listen(on: boolean): void {
    if (on === this.listening) return
    this.listening = on
    if (on) this.doc.on('update', this.onUpdate)
    else this.doc.off('update', this.onUpdate)
  }

  private enqueue(relay: Relay, write: () => Uint8Array, origin: unknown): void {
    relay.queue.push([write, origin])
    if (relay.scheduled) return
    relay.scheduled = true
    this.schedule(() => {
      relay.scheduled = false
      this.flushRelay(relay)
    })
  }

  private flushRelay(relay: Relay): void {
    while (relay.queue.length > 0 && this.relays.get(relay.listener) === relay) {
      const [write, origin] = relay.queue.shift()!
      relay.listener(write(), origin)
    }
  }
}

/** How many characters (items' lengths) a transaction inserted, over all clients. */
function insertedLength(transaction: Y.Transaction): number {
  let length = 0
  for (const [client, clock] of transaction.afterState) length += clock - (transaction.beforeState.get(client) ?? 0)
  return length
}
