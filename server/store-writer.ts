import type { Logger } from 'pino'
import type { Metrics } from './metrics.ts'
import type { AppendEntry, Store } from './persistence.ts'
import { mergeUpdates } from './relay-merge.ts'

/** A loaded room as recovery sees it: its name, and its whole state (null while it loads). */
export interface RecoverableRoom {
  readonly name: string
  /** Takes the room's whole state and clears its "changed since last stored" flag. */
  takeSnapshot(): Uint8Array | null
  /** True once the room has applied an update that could not be stored. */
  readonly hasUnstored: boolean
}

export interface StoreWriterOptions {
  metrics: Metrics
  logger: Logger
  /** Extra wait before a write, to gather more updates into it; 0 = only what arrives meanwhile. */
  batchMs: number
  /** First wait before reopening a failed store; doubles up to `maxRetryMs`. */
  retryMs?: number
  maxRetryMs?: number
}

type Operation =
  | { kind: 'append'; room: string; update: Uint8Array; resolve: (stored: boolean) => void }
  | { kind: 'replace'; room: string; upTo: number; updates: Uint8Array[]; epoch: number; resolve: (stored: boolean) => void }
  | { kind: 'set-aside'; room: string; seq: number; reason: string; resolve: (stored: boolean) => void }

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The only path to the store, in two lanes. Appends, one write at a time in the order they were
 * asked for: those that queue up during a write (or within `batchMs`) go together in one atomic
 * write, each room's merged into one record (a group commit across rooms); each resolves in
 * that order, which is what keeps relays in order of arrival. Replaces (compactions) and
 * set-asides, one at a time beside them: they wait on the store and touch only clocks that
 * appends no longer use.
 *
 * After any failed write the store is unhealthy: queued and later operations resolve false
 * at once (nothing counts as stored that is not), `onUnhealthy` runs, and the writer reopens
 * the store and writes every loaded room's whole state, retrying with backoff until that
 * succeeds; then it is healthy again and `epoch` has moved on.
 */
export class StoreWriter {
  private queue: Operation[] = []
  private draining = false
  private healthyNow = true
  private recovering: Promise<void> | null = null
  private idleWaiters: Array<() => void> = []
  /** Replaces and set-asides, one after another, beside the appends. */
  private others: Promise<void> = Promise.resolve()
  private othersInFlight = 0
  /** Counts recoveries; a compaction read before one must not replace what recovery wrote. */
  epoch = 0
  /** The rooms recovery writes; the registry sets this. */
  rooms: () => Iterable<RecoverableRoom> = () => []
  /** Called once each time the store turns unhealthy. */
  onUnhealthy: () => void = () => {}

  constructor(
    readonly store: Store,
    private readonly options: StoreWriterOptions,
  ) {}

  get healthy(): boolean {
    return this.healthyNow
  }

  /** Resolves true once `update` is stored, false if it could not be (the store is unhealthy). */
  append(room: string, update: Uint8Array): Promise<boolean> {
    return this.enqueue((resolve) => ({ kind: 'append', room, update, resolve }))
  }

  /** Replaces the room's log up to `upTo` by `updates`, unless a recovery happened since `epoch`. */
  replace(room: string, upTo: number, updates: Uint8Array[], epoch: number): Promise<boolean> {
    return this.enqueue((resolve) => ({ kind: 'replace', room, upTo, updates, epoch, resolve }))
  }

  setAside(room: string, seq: number, reason: string): Promise<boolean> {
    return this.enqueue((resolve) => ({ kind: 'set-aside', room, seq, reason, resolve }))
  }

  /** Resolves once the store is healthy (at once when it is). */
  async whenHealthy(): Promise<void> {
    while (this.recovering !== null) await this.recovering
  }

  /** Resolves once every operation asked for so far has finished. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  private isIdle(): boolean {
    return !this.draining && this.queue.length === 0 && this.othersInFlight === 0
  }

  private notifyIdle(): void {
    if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve()
  }

  private enqueue(make: (resolve: (stored: boolean) => void) => Operation): Promise<boolean> {
    if (!this.healthyNow) return Promise.resolve(false)
    return new Promise((resolve) => {
      this.queue.push(make(resolve))
      if (!this.draining) {
        this.draining = true
        void this.drain()
      }
    })
  }

  private async drain(): Promise<void> {
    // Let the rest of this event-loop turn (every frame already read) join the first write.
    await (this.options.batchMs > 0 ? sleep(this.options.batchMs) : new Promise((resolve) => setImmediate(resolve)))
    while (this.queue.length > 0 && this.healthyNow) {
      const first = this.queue[0]!
      if (first.kind === 'append') {
        let end = 1
        while (end < this.queue.length && this.queue[end]!.kind === 'append') end += 1
        await this.writeAppends(this.queue.splice(0, end) as Array<Extract<Operation, { kind: 'append' }>>)
      } else {
        this.queue.shift()
        // A compaction or set-aside waits for the store itself; appends must not wait behind it.
        // It touches only clocks the room's appends no longer use, so either order gives the same log.
        this.othersInFlight += 1
        this.others = this.others
          .then(() => this.writeOther(first))
          .finally(() => {
            this.othersInFlight -= 1
            this.notifyIdle()
          })
      }
      if (this.options.batchMs > 0 && this.queue.length > 0) await sleep(this.options.batchMs)
    }
    for (const operation of this.queue.splice(0)) operation.resolve(false)
    this.draining = false
    this.notifyIdle()
  }

  private async writeAppends(operations: Array<Extract<Operation, { kind: 'append' }>>): Promise<void> {
    const { metrics } = this.options
    const byRoom = new Map<string, Uint8Array[]>()
    for (const { room, update } of operations) {
      const updates = byRoom.get(room)
      if (updates === undefined) byRoom.set(room, [update])
      else updates.push(update)
    }
    // Merged by copying when the updates come from different Yjs clients (relay-merge.ts): Y.mergeUpdates rebuilds every struct.
    const entries: AppendEntry[] = [...byRoom].map(([room, updates]) => ({ room, update: updates.length === 1 ? updates[0]! : mergeUpdates(updates) }))
    try {
      await this.store.append(entries)
    } catch (error) {
      for (const operation of operations) operation.resolve(false)
      this.fail(error, { operation: 'append', rooms: byRoom.size, updates: operations.length })
      return
    }
    metrics.storageWrites += 1
    metrics.storedUpdates += operations.length
    for (const operation of operations) operation.resolve(true)
  }

  private async writeOther(operation: Exclude<Operation, { kind: 'append' }>): Promise<void> {
    if (!this.healthyNow || (operation.kind === 'replace' && operation.epoch !== this.epoch)) return operation.resolve(false)
    try {
      if (operation.kind === 'replace') await this.store.replace(operation.room, operation.upTo, operation.updates)
      else await this.store.setAside(operation.room, operation.seq, operation.reason)
    } catch (error) {
      operation.resolve(false)
      this.fail(error, { operation: operation.kind, room: operation.room })
      return
    }
    operation.resolve(true)
  }

  private fail(error: unknown, context: Record<string, unknown>): void {
    const { metrics, logger } = this.options
    metrics.storageErrors += 1
    if (!this.healthyNow) {
      logger.error({ err: error, ...context }, 'storage write failed while recovering')
      return
    }
    logger.error({ err: error, ...context }, 'storage write failed: closing every room\'s connections until the store is reopened and every room written again')
    this.healthyNow = false
    metrics.storageHealthy = 0
    this.recovering = this.recover()
    this.onUnhealthy()
  }

  private async recover(): Promise<void> {
    const { metrics, logger } = this.options
    let delay = this.options.retryMs ?? 200
    await this.others
    for (let attempt = 1; ; attempt++) {
      await sleep(delay)
      try {
        await this.store.reopen()
        // Repeat until a whole pass finds nothing new: rooms keep applying what their
        // connections sent before they were closed.
        let pass = 0
        for (;;) {
          const rooms = [...this.rooms()].filter((room) => pass === 0 || room.hasUnstored)
          if (rooms.length === 0) break
          for (const room of rooms) {
            const state = room.takeSnapshot()
            if (state !== null) await this.store.replace(room.name, Number.MAX_SAFE_INTEGER, [state])
          }
          pass += 1
        }
      } catch (error) {
        metrics.storageErrors += 1
        logger.error({ err: error, attempt, retryInMs: delay * 2 }, 'store still failing')
        delay = Math.min(delay * 2, this.options.maxRetryMs ?? 5000)
        continue
      }
      this.epoch += 1
      this.healthyNow = true
      this.recovering = null
      metrics.storageHealthy = 1
      metrics.storageRecoveries += 1
      logger.warn({ attempt }, 'store reopened and every loaded room written again: serving')
      return
    }
  }
}
