import * as Y from 'yjs'
import type { Logger } from 'pino'
import type { Persistence } from './persistence.ts'
import type { Metrics } from './metrics.ts'

const DEFAULT_RETRY_DELAY_MS = 1000

/**
 * Writes one room's updates to storage in arrival order, one write at a time. An update that
 * arrives in a quiet room is written at once. After a write, the next one starts no sooner than
 * `batchMs` after it started: the updates that arrive meanwhile are merged and written together
 * (a group commit), so a busy room costs a few writes a second rather than one per keystroke.
 * Every `compactAfter` writes the room's stored updates are merged into one.
 */
export class RoomStore {
  private queue: Uint8Array[] = []
  /** How many client updates `queue` holds (a requeued merge stands for several). */
  private queuedUpdates = 0
  /** The drain loop while it runs; it clears this in the same step as it sees the queue empty. */
  private running: Promise<void> | null = null
  private writesSinceCompaction = 0
  private lastWriteStarted = Number.NEGATIVE_INFINITY

  constructor(
    private readonly room: string,
    private readonly persistence: Persistence,
    private readonly options: { compactAfter: number; batchMs: number; metrics: Metrics; logger: Logger; retryDelayMs?: number },
  ) {}

  push(update: Uint8Array): void {
    this.queue.push(update)
    this.queuedUpdates += 1
    this.running ??= this.drain()
  }

  /** Resolves when every update pushed so far is stored. */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running
  }

  private async drain(): Promise<void> {
    const { metrics, logger } = this.options
    try {
      while (this.queue.length > 0) {
        const wait = this.lastWriteStarted + this.options.batchMs - performance.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        const batch = this.queue
        const count = this.queuedUpdates
        this.queue = []
        this.queuedUpdates = 0
        const update = batch.length === 1 ? batch[0]! : Y.mergeUpdates(batch)
        this.lastWriteStarted = performance.now()
        try {
          await this.persistence.store(this.room, update)
        } catch (error) {
          // Keep the updates and retry: they are still in memory, and giving up would lose them.
          metrics.storageErrors += 1
          logger.error({ room: this.room, err: error, updates: count }, 'storing updates failed; retrying')
          this.queue = [update, ...this.queue]
          this.queuedUpdates += count
          await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS))
          continue
        }
        metrics.storageWrites += 1
        metrics.storedUpdates += count
        if (++this.writesSinceCompaction >= this.options.compactAfter) await this.compact()
      }
    } finally {
      // In the same step as the empty-queue check: a push after this starts a new drain.
      this.running = null
    }
  }

  private async compact(): Promise<void> {
    const { metrics, logger } = this.options
    this.writesSinceCompaction = 0
    const started = performance.now()
    try {
      await this.persistence.compact(this.room)
      metrics.compactions += 1
      logger.debug({ room: this.room, ms: Math.round(performance.now() - started) }, 'compacted stored updates')
    } catch (error) {
      // The updates are still stored one by one; the next compaction will try again.
      metrics.storageErrors += 1
      logger.error({ room: this.room, err: error }, 'compacting stored updates failed')
    }
  }
}
