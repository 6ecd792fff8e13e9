import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import { epochKey } from './keys.ts'
import type { RedisClient } from './stream.ts'

/**
 * Whether the Redis this process talks to may have lost what it held: a mark made of Redis's
 * `run_id` (new at every start of redis-server, and another server's after a failover) and the
 * value of `cotext:epoch`, a random key the first process to look sets (gone after FLUSHALL or
 * a start without data). Any restart may have dropped appended entries (the last second of an
 * AOF under `appendfsync everysec`, everything under `appendonly no`), so a changed mark means
 * "append again what you hold".
 */
export class RedisEpoch {
  private mark: string | null = null

  constructor(private readonly redis: RedisClient) {}

  /** Reads the mark; true when it differs from the last one read (never on the first read). Rejects when Redis does not answer. */
  async changed(): Promise<boolean> {
    const runId = await this.runId()
    await this.redis.sendCommand(['SET', epochKey(), randomUUID(), 'NX'])
    const epoch = String(await this.redis.sendCommand(['GET', epochKey()]))
    const mark = `${runId}/${epoch}`
    const changed = this.mark !== null && this.mark !== mark
    this.mark = mark
    return changed
  }

  private async runId(): Promise<string> {
    try {
      const info = String(await this.redis.sendCommand(['INFO', 'server']))
      return /run_id:(\w+)/.exec(info)?.[1] ?? ''
    } catch {
      // INFO may be disabled (some managed Redis services): the epoch key alone tells a restart
      // without data, not a restart that kept part of it.
      return ''
    }
  }
}

/** Redis's persistence settings, as far as CONFIG GET shows them (null: not shown). */
export interface RedisPersistence {
  appendonly: string | null
  appendfsync: string | null
  maxmemoryPolicy: string | null
}

export async function readRedisPersistence(redis: RedisClient): Promise<RedisPersistence> {
  const get = async (name: string): Promise<string | null> => {
    try {
      const reply = (await redis.sendCommand(['CONFIG', 'GET', name])) as unknown
      // A list of pairs under RESP2, a map (a Map or a plain object, by client version) under RESP3.
      const values = reply instanceof Map ? [...(reply as Map<unknown, unknown>).values()] : Array.isArray(reply) ? (reply as unknown[]).slice(1) : reply !== null && typeof reply === 'object' ? Object.values(reply) : []
      return values.length > 0 ? String(values[0]) : null
    } catch {
      return null // CONFIG is often renamed or refused on managed Redis.
    }
  }
  return { appendonly: await get('appendonly'), appendfsync: await get('appendfsync'), maxmemoryPolicy: await get('maxmemory-policy') }
}

/**
 * Logs what a Redis crash can lose under `settings`, once at start. `fsync`: the server promises
 * that what it relays survives a machine crash, which needs `appendonly yes` with
 * `appendfsync always` (Redis 7.0 has no WAITAOF).
 */
export function warnAboutRedisPersistence(settings: RedisPersistence, fsync: boolean, logger: Logger): void {
  const { appendonly, appendfsync, maxmemoryPolicy } = settings
  if (appendonly === null) {
    logger.warn('cannot read Redis\'s persistence settings (CONFIG GET refused): make sure it runs with appendonly yes' + (fsync ? ' and appendfsync always' : ''))
    return
  }
  if (maxmemoryPolicy !== null && maxmemoryPolicy !== 'noeviction') {
    logger.warn({ maxmemoryPolicy }, 'Redis may evict keys (maxmemory-policy is not noeviction): room streams can disappear; set maxmemory-policy noeviction')
  }
  if (appendonly !== 'yes') {
    logger.warn({ appendonly, appendfsync }, 'Redis runs with appendonly no: a Redis crash or restart loses every appended entry since its last save; processes append their open rooms again, but edits of rooms no process holds open and not yet in PostgreSQL are lost. Run Redis with appendonly yes' + (fsync ? ' and appendfsync always' : ''))
  } else if (appendfsync !== 'always') {
    const loss = appendfsync === 'no' ? 'up to about 30 s' : 'up to about 1 s'
    if (fsync) logger.warn({ appendonly, appendfsync }, `FSYNC is on but Redis runs with appendfsync ${String(appendfsync)}: a machine crash under Redis loses ${loss} of acknowledged appends. Set appendfsync always`)
    else logger.info({ appendonly, appendfsync }, `Redis: a process crash loses nothing; a machine crash under Redis loses ${loss} of appends`)
  } else {
    logger.info({ appendonly, appendfsync }, 'Redis: every append is on disk before it is acknowledged')
  }
}
