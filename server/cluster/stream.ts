import type { createClient } from 'redis'
import { compactionLeaseKey, roomStreamKey } from './keys.ts'
import { STREAM_START } from './stream-id.ts'

export type RedisClient = ReturnType<typeof createClient>

/** What an entry holds: a document update, or an awareness update (y-protocols encoding). */
export type EntryKind = 'update' | 'awareness'

export interface StreamEntry {
  id: string
  /** The process that appended it: a reader skips its own. */
  processId: string
  kind: EntryKind
  data: Uint8Array
}

const KIND_CODES: Record<EntryKind, string> = { update: 'u', awareness: 'a' }
/** Entries per XRANGE: small enough that applying a page never holds the event loop for long. */
const PAGE = 200

/**
 * Parses the raw RESP2 reply for a list of entries (`[[id, [field, value, …]], …]`). Entries
 * without our fields (written by something else) are skipped rather than trusted.
 */
export function parseEntries(raw: unknown): StreamEntry[] {
  const entries: StreamEntry[] = []
  if (!Array.isArray(raw)) return entries
  for (const item of raw as unknown[]) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || !Array.isArray(item[1])) continue
    const fields = new Map<string, string>()
    const flat = item[1] as unknown[]
    for (let index = 0; index + 1 < flat.length; index += 2) fields.set(String(flat[index]), String(flat[index + 1]))
    const code = fields.get('t')
    const kind = code === 'u' ? 'update' : code === 'a' ? 'awareness' : null
    const processId = fields.get('p')
    const data = fields.get('d')
    if (kind === null || processId === undefined || data === undefined) continue
    entries.push({ id: item[0], processId, kind, data: new Uint8Array(Buffer.from(data, 'base64')) })
  }
  return entries
}

/** The id of the last entry in a raw reply, whether or not it is one of ours. */
export function lastRawId(raw: unknown): string | null {
  if (!Array.isArray(raw) || raw.length === 0) return null
  const last = raw[raw.length - 1] as unknown
  return Array.isArray(last) && typeof last[0] === 'string' ? last[0] : null
}

/**
 * The room streams as one process sees them. Data travels base64-encoded: the client's commands
 * and replies are strings, and an update is rarely big enough for the third more to matter.
 */
export class RoomStreams {
  constructor(
    private readonly redis: RedisClient,
    readonly processId: string,
  ) {}

  /** Appends one entry to the room's stream and resolves with its id once Redis has it. */
  async append(room: string, kind: EntryKind, data: Uint8Array): Promise<string> {
    return String(await this.redis.sendCommand(this.xadd(room, kind, data)))
  }

  /**
   * Appends one update entry per item, to each item's room, in one MULTI/EXEC (all or none), and
   * resolves with their ids in the same order.
   */
  async appendAll(items: ReadonlyArray<{ room: string; update: Uint8Array }>): Promise<string[]> {
    if (items.length === 1) return [await this.append(items[0]!.room, 'update', items[0]!.update)]
    const multi = this.redis.multi()
    for (const { room, update } of items) multi.addCommand(this.xadd(room, 'update', update))
    const replies = await multi.exec()
    return replies.map((reply) => String(reply))
  }

  /** The entry with id `id` (none when it is gone). */
  async readRange(room: string, id: string): Promise<StreamEntry[]> {
    return parseEntries(await this.redis.sendCommand(['XRANGE', roomStreamKey(room), id, id]))
  }

  /** Removes one entry (set aside elsewhere) from the room's stream. */
  async remove(room: string, id: string): Promise<void> {
    await this.redis.sendCommand(['XDEL', roomStreamKey(room), id])
  }

  private xadd(room: string, kind: EntryKind, data: Uint8Array): string[] {
    return ['XADD', roomStreamKey(room), '*', 'p', this.processId, 't', KIND_CODES[kind], 'd', Buffer.from(data).toString('base64')]
  }

  /**
   * Hands every entry after `after` (exclusive) to `onPage`, a page at a time, oldest first, and
   * resolves with the id of the last entry read (`after` when there is none).
   */
  async readPages(room: string, after: string, onPage: (entries: StreamEntry[]) => void): Promise<string> {
    let cursor = after
    for (;;) {
      const raw = await this.redis.sendCommand(['XRANGE', roomStreamKey(room), `(${cursor}`, '+', 'COUNT', String(PAGE)])
      onPage(parseEntries(raw))
      const last = lastRawId(raw)
      if (last === null || (Array.isArray(raw) && raw.length < PAGE)) return last ?? cursor
      cursor = last
    }
  }

  /** Every entry after `after` (exclusive), oldest first. */
  async readAfter(room: string, after: string = STREAM_START): Promise<StreamEntry[]> {
    const entries: StreamEntry[] = []
    await this.readPages(room, after, (page) => entries.push(...page))
    return entries
  }

  /** Drops the entries older than `minId`; they must already be in PostgreSQL. */
  async trimBefore(room: string, minId: string): Promise<number> {
    return Number(await this.redis.sendCommand(['XTRIM', roomStreamKey(room), 'MINID', minId]))
  }

  /** Takes the room's compaction lease for `ttlMs` if nobody holds it; true when taken. */
  async takeLease(room: string, ttlMs: number): Promise<boolean> {
    const reply = await this.redis.sendCommand(['SET', compactionLeaseKey(room), this.processId, 'NX', 'PX', String(ttlMs)])
    return String(reply) === 'OK'
  }

  /** Gives the lease back, only if this process still holds it (it may have expired and moved on). */
  async releaseLease(room: string): Promise<void> {
    const script = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end"
    await this.redis.sendCommand(['EVAL', script, '1', compactionLeaseKey(room), this.processId])
  }
}
