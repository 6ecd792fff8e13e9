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

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
    await this.redis.sendCommand(['DEL', heartbeatKey(this.processId), wakeStreamKey(this.processId)]).catch(() => {})
  }
}
