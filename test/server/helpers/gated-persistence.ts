import type { Persistence } from '../../../server/persistence.ts'

type Operation = 'load' | 'store' | 'compact'

/**
 * The real persistence, with gates a test can close to hold an operation at its start, so that
 * the test can act while a room is loading or a write is in flight. Records every call.
 */
export class GatedPersistence implements Persistence {
  readonly calls: Array<{ operation: Operation; room: string; update?: Uint8Array }> = []
  private readonly gates = new Map<string, { opened: Promise<void>; open: () => void }>()
  private readonly waiters: Array<{ operation: Operation; resolve: () => void }> = []
  /** Makes the next `count` stores throw, as a full disk would. */
  failStores = 0

  constructor(private readonly inner: Persistence) {}

  /** Holds every `operation` (on `room`, or on any room) from now until the returned function is called. */
  hold(operation: Operation, room = '*'): () => void {
    let open!: () => void
    const opened = new Promise<void>((resolve) => (open = resolve))
    const key = `${operation} ${room}`
    this.gates.set(key, { opened, open })
    return () => {
      this.gates.delete(key)
      open()
    }
  }

  /** Opens every gate, so that nothing stays held when a test ends early. */
  releaseAll(): void {
    for (const gate of this.gates.values()) gate.open()
    this.gates.clear()
  }

  /** Resolves once `operation` has been called (now or before). */
  called(operation: Operation): Promise<void> {
    if (this.calls.some((call) => call.operation === operation)) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push({ operation, resolve }))
  }

  private async enter(operation: Operation, room: string, update?: Uint8Array): Promise<void> {
    this.calls.push(update === undefined ? { operation, room } : { operation, room, update })
    for (const waiter of this.waiters.filter((entry) => entry.operation === operation)) waiter.resolve()
    await this.gates.get(`${operation} *`)?.opened
    await this.gates.get(`${operation} ${room}`)?.opened
  }

  async load(room: string): Promise<Uint8Array> {
    await this.enter('load', room)
    return this.inner.load(room)
  }

  async store(room: string, update: Uint8Array): Promise<void> {
    await this.enter('store', room, update)
    if (this.failStores > 0) {
      this.failStores -= 1
      throw new Error('disk full')
    }
    return this.inner.store(room, update)
  }

  async compact(room: string): Promise<void> {
    await this.enter('compact', room)
    return this.inner.compact(room)
  }

  close(): Promise<void> {
    this.releaseAll()
    return this.inner.close()
  }
}
