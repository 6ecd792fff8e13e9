import type * as Y from 'yjs'

/** Updates at least this big (bytes) are handed on in a later task: a paste, not a keystroke. */
export const BIG_UPDATE = 64 * 1024

type UpdateListener = (update: Uint8Array, origin: unknown) => void

/**
 * Runs a provider's `doc.on('update')` listener after the task that made a big update rather than inside it.
 * Yjs calls update listeners synchronously at the end of the transaction, so a 2 MB paste would also wait for
 * y-websocket's send to the server and to other tabs (copying the update twice, then a structured clone) and for
 * y-indexeddb's write. Small updates (keystrokes) still go at once; once one update waits, every later one
 * waits behind it, so the listener sees them all in order. Only the time of the call changes, never its content.
 */
export class DeferredUpdates {
  private readonly queue: [Uint8Array, unknown][] = []
  private scheduled = false
  private disposed = false
  private readonly relay = (update: Uint8Array, origin: unknown): void => {
    if (this.queue.length === 0 && update.byteLength < BIG_UPDATE) {
      this.listener(update, origin)
      return
    }
    this.queue.push([update, origin])
    if (this.scheduled) return
    this.scheduled = true
    this.schedule(() => {
      this.scheduled = false
      this.flush()
    })
  }

  /**
   * Takes `listener` off `doc`'s updates and calls it through this instead. `schedule` runs a callback in a
   * later task (the page's `setTimeout(callback, 0)`).
   */
  constructor(
    private readonly doc: Y.Doc,
    private readonly listener: UpdateListener,
    private readonly schedule: (callback: () => void) => void,
  ) {
    doc.off('update', listener)
    doc.on('update', this.relay)
  }

  /** Whether some update waits to be handed on. */
  isPending(): boolean {
    return this.queue.length > 0
  }

  /** Hands on every waiting update now, in order. */
  flush(): void {
    while (this.queue.length > 0 && !this.disposed) {
      const [update, origin] = this.queue.shift()!
      this.listener(update, origin)
    }
  }

  /** Stops relaying; waiting updates are handed on first when `flush` is true, else dropped. */
  dispose(flush: boolean): void {
    if (this.disposed) return
    if (flush) this.flush()
    this.disposed = true
    this.queue.length = 0
    this.doc.off('update', this.relay)
  }
}
