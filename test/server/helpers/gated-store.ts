import type { AppendEntry, Store, StoredUpdate } from '../../../server/persistence.ts'

type Operation = 'load' | 'append' | 'replace' | 'set-aside' | 'reopen'

/**
 * The real store, with gates a test can close to hold an operation at its start, so that the
 * test can act while a room is loading or a write is in flight. Records every call.
 */
export class GatedStore implements Store {
  readonly calls: Array<{ operation: Operation; room?: string; entries?: readonly AppendEntry[] }> = []
  private readonly gates = new Map<string, { opened: Promise<void>; open: () => void }>()
  private readonly waiters: Array<{ operation: Operation; resolve: () => void }> = []
  /** Makes the next `count` appends throw, as a full disk would. */
  failAppends = 0

  constructor(private readonly inner: Store) {}

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

  private async enter(operation: Operation, room: string | undefined, entries?: readonly AppendEntry[]): Promise<void> {
    this.calls.push({ operation, ...(room === undefined ? {} : { room }), ...(entries === undefined ? {} : { entries }) })
    for (const waiter of this.waiters.filter((entry) => entry.operation === operation)) waiter.resolve()
    await this.gates.get(`${operation} *`)?.opened
    if (room !== undefined) await this.gates.get(`${operation} ${room}`)?.opened
  }

  async load(room: string): Promise<StoredUpdate[]> {
    await this.enter('load', room)
    return this.inner.load(room)
  }

  async append(entries: readonly AppendEntry[]): Promise<void> {
    await this.enter('append', entries.length === 1 ? entries[0]!.room : undefined, entries)
    if (this.failAppends > 0) {
      this.failAppends -= 1
      throw new Error('disk full')
    }
    return this.inner.append(entries)
  }

  async replace(room: string, upTo: number, updates: readonly Uint8Array[]): Promise<void> {
    await this.enter('replace', room)
    return this.inner.replace(room, upTo, updates)
  }

  async setAside(room: string, seq: number, reason: string): Promise<void> {
    await this.enter('set-aside', room)
    return this.inner.setAside(room, seq, reason)
  }

  async reopen(): Promise<void> {
    await this.enter('reopen', undefined)
    return this.inner.reopen()
  }

  close(): Promise<void> {
    this.releaseAll()
    return this.inner.close()
  }
}
