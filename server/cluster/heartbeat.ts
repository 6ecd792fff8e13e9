import type { Logger } from 'pino'
import type { ClusterMetrics } from './cluster-metrics.ts'
import { heartbeatKey, wakeStreamKey } from './keys.ts'
import type { RedisClient } from './stream.ts'

/**
 * A process's sign of life: a key it sets every `intervalMs` with an expiry of `ttlMs`. When the
 * process dies the key expires, and the others drop the presence of the clients it served.
 */
export class Heartbeat {
  private timer: NodeJS.Timeout | null = null
  /** Per process found without a heartbeat: when Redis first answered so. */
  private readonly missingSince = new Map<string, number>()

  constructor(
    private readonly redis: RedisClient,
    private readonly processId: string,
    private readonly options: { intervalMs: number; ttlMs: number; metrics: ClusterMetrics; logger: Logger },
  ) {}

  async start(): Promise<void> {
    await this.beat()
    this.timer = setInterval(() => void this.beat(), this.options.intervalMs)
    this.timer.unref()
  }

  async beat(): Promise<void> {
    try {
      await this.redis.sendCommand(['SET', heartbeatKey(this.processId), String(Date.now()), 'PX', String(this.options.ttlMs)])
      // The process's wake stream goes with it when it dies (a no-op while it does not exist).
      await this.redis.sendCommand(['PEXPIRE', wakeStreamKey(this.processId), String(this.options.ttlMs)])
    } catch (error) {
      this.options.metrics.redisErrors += 1
      this.options.logger.debug({ err: error }, 'heartbeat failed')
    }
  }

  /** Which of `processIds` still have a heartbeat; rejects when Redis does not answer. */
  async alive(processIds: readonly string[]): Promise<Set<string>> {
    const replies = await Promise.all(processIds.map((id) => this.redis.sendCommand(['EXISTS', heartbeatKey(id)])))
    return new Set(processIds.filter((_id, index) => Number(replies[index]) === 1))
  }

  /**
   * Which of `processIds` are dead: Redis answered, twice at least a heartbeat interval apart,
   * that their heartbeat is missing. One answer is not enough: after a pause longer than the
   * expiry, or a restart without data, Redis answers before live processes have beaten again
   * (each beats at once when it reconnects, and every interval). Rejects when Redis does not answer.
   */
  async dead(processIds: readonly string[]): Promise<Set<string>> {
    const alive = await this.alive(processIds)
    const now = performance.now()
    const dead = new Set<string>()
    for (const id of processIds) {
      const since = this.missingSince.get(id)
      if (alive.has(id)) this.missingSince.delete(id)
      else if (since === undefined) this.missingSince.set(id, now)
      else if (now - since >= this.options.intervalMs) dead.add(id)
    }
    for (const id of this.missingSince.keys()) if (!processIds.includes(id)) this.missingSince.delete(id)
    return dead
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
    await this.redis.sendCommand(['DEL', heartbeatKey(this.processId), wakeStreamKey(this.processId)]).catch(() => {})
  }
}
