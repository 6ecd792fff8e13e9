import type { Logger } from 'pino'
import type { ClusterMetrics } from './cluster-metrics.ts'
import { roomStreamKey, wakeStreamKey } from './keys.ts'
import { lastRawId, parseEntries } from './stream.ts'
import type { RedisClient, StreamEntry } from './stream.ts'
import { STREAM_START, compareStreamIds, streamIdTime } from './stream-id.ts'

const BLOCK_MS = 5000
const COUNT = 500
const RETRY_MS = 250

interface Subscription {
  room: string
  /** The last entry seen; the next read starts after it. */
  lastId: string
  /** Other processes' entries of one read, in stream order (never empty). */
  deliver(entries: StreamEntry[]): void
}

/**
 * The one blocking reader of a process: a single XREAD over the streams of every room the
 * process has open, resumed after the last entry seen in each. Entries of other processes go
 * to their room, in stream order; the process's own entries only advance the position. A room
 * opened while the read blocks is added by writing to the process's wake stream, which the
 * read also watches, so that it returns and starts again with the new room.
 */
export class StreamReader {
  private readonly subscriptions = new Map<string, Subscription>()
  private wakeId = STREAM_START
  private running: Promise<void> | null = null
  private stopped = false
  private failures = 0

  constructor(
    /** A connection of its own: a blocking command holds it. */
    private readonly blocking: RedisClient,
    /** Any other connection, for the wake-up writes. */
    private readonly commands: RedisClient,
    private readonly processId: string,
    private readonly metrics: ClusterMetrics,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.running ??= this.loop()
  }

  /**
   * Delivers the room's entries after `after` (other processes' only) until `stop` is called, those
   * of one read together; `position` is the last entry read: every entry up to it has been delivered
   * or was this process's.
   */
  follow(room: string, after: string, deliver: (entries: StreamEntry[]) => void): { position(): string; stop(): void } {
    const subscription: Subscription = { room, lastId: after, deliver }
    this.subscriptions.set(roomStreamKey(room), subscription)
    this.wake()
    return {
      position: () => subscription.lastId,
      stop: () => {
        if (this.subscriptions.get(roomStreamKey(room)) === subscription) this.subscriptions.delete(roomStreamKey(room))
      },
    }
  }

  /** Ends the loop; the blocking connection is closed by its owner. */
  async stop(): Promise<void> {
    this.stopped = true
    this.wake()
    await this.running
  }

  private wake(): void {
    this.commands.sendCommand(['XADD', wakeStreamKey(this.processId), 'MAXLEN', '1', '*', 'w', '1']).catch(() => {
      // Redis is away: the read has failed too and starts again with every room once it is back.
    })
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const subscriptions = [...this.subscriptions.entries()]
      const keys = [wakeStreamKey(this.processId), ...subscriptions.map(([key]) => key)]
      const ids = [this.wakeId, ...subscriptions.map(([, subscription]) => subscription.lastId)]
      let raw: unknown
      try {
        raw = await this.blocking.sendCommand(['XREAD', 'COUNT', String(COUNT), 'BLOCK', String(BLOCK_MS), 'STREAMS', ...keys, ...ids])
      } catch (error) {
        if (this.stopped) break
        this.metrics.redisErrors += 1
        if (this.failures++ === 0) this.logger.warn({ err: error }, 'reading room streams failed; retrying until Redis answers')
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
        continue
      }
      if (this.failures > 0) this.logger.info({ failures: this.failures }, 'reading room streams again')
      this.failures = 0
      for (const [key, list] of streamsOf(raw)) {
        const lastId = lastRawId(list)
        if (key === wakeStreamKey(this.processId)) {
          if (lastId !== null) this.wakeId = lastId
          continue
        }
        const subscription = this.subscriptions.get(String(key))
        if (subscription === undefined) continue
        this.dispatch(subscription, parseEntries(list))
        // Past entries that are not ours to parse too, or the next read would return them again.
        if (lastId !== null && compareStreamIds(lastId, subscription.lastId) > 0) subscription.lastId = lastId
      }
    }
  }

  private dispatch(subscription: Subscription, entries: StreamEntry[]): void {
    const others: StreamEntry[] = []
    for (const entry of entries) {
      if (compareStreamIds(entry.id, subscription.lastId) <= 0) continue
      subscription.lastId = entry.id
      if (entry.processId === this.processId) continue
      this.metrics.entriesRead += 1
      this.metrics.streamLagSeconds = Math.max(0, Date.now() - streamIdTime(entry.id)) / 1000
      others.push(entry)
    }
    if (others.length === 0) return
    try {
      subscription.deliver(others)
    } catch (error) {
      // A fault of one room must not stop the other rooms (the room skips a bad entry itself).
      this.logger.error({ room: subscription.room, entries: others.length, err: error }, 'applying stream entries failed; skipped')
    }
  }
}

/** The `[key, entries]` pairs of an XREAD reply: a map under RESP3, a list of pairs under RESP2. */
function streamsOf(raw: unknown): Array<[unknown, unknown]> {
  if (raw === null || typeof raw !== 'object') return []
  if (raw instanceof Map) return [...(raw as Map<unknown, unknown>).entries()]
  if (Array.isArray(raw)) return (raw as unknown[]).filter((pair): pair is [unknown, unknown] => Array.isArray(pair) && pair.length === 2)
  return Object.entries(raw as Record<string, unknown>)
}
