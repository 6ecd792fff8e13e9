import type * as Y from 'yjs'
import type { Logger } from 'pino'
import type { Author } from './authors-map.ts'
import type { RecordStore } from './records.ts'
import { timeKey, timeKeyBound } from './records.ts'

/** Yjs ids `clock` to `clock + length - 1` of `client`. */
export interface IdRange {
  client: number
  clock: number
  length: number
}

/**
 * One entry of a room's change log: what one author's updates inserted and deleted, by Yjs id.
 * Updates of one author less than COALESCE_MS after its previous one share an entry (whatever
 * others did in between), so typing adds ranges to one entry (and consecutive keystrokes extend
 * one range) rather than entries.
 */
export interface ChangeEntry {
  id: string
  author: Author
  /** When the first and the last update of the entry were applied, ms since the epoch. */
  time: number
  until: number
  inserted: IdRange[]
  deleted: IdRange[]
}

export interface ChangeQuery {
  /** An author id. */
  by?: string
  /** Entries that end at or after `since` and start at or before `until`. */
  since?: number
  until?: number
}

export const COALESCE_MS = 60_000
/** An entry takes no more ranges than this; the next update starts another. */
const MAX_RANGES_PER_ENTRY = 1000
/** Entries are written this long after they change (and when the room unloads). */
const FLUSH_MS = 1000

/** The flush every journal starts with: one settled promise shared by all (it holds nothing). */
const NOTHING_TO_WAIT_FOR: Promise<void> = Promise.resolve()

type StoredEntry = { a: Author; t: number; u: number; i: number[]; d: number[] }

/**
 * A room's change log as this process records it: one entry per author and burst of updates,
 * kept in the room's records (kind `change`) and written behind, at most FLUSH_MS after the
 * update (the update itself is stored before it is relayed; its log entry is not: a crash can
 * lose the last second of entries, never text). In cluster mode each process records the
 * updates of its own connections, and a query reads what every process has written.
 */
export class ChangeJournal {
  /** Per author id, the entry its next update may join (made by the first record: an idle room records nothing). */
  private open: Map<string, ChangeEntry> | null = null
  /** Entries changed since they were last written, by id (made by the first record). */
  private dirty: Map<string, ChangeEntry> | null = null
  private timer: NodeJS.Timeout | null = null
  private flushing: Promise<void> = NOTHING_TO_WAIT_FOR
  private nextSeq = 0

  constructor(
    private readonly room: string,
    private readonly records: RecordStore,
    private readonly processTag: string,
    private readonly logger: Logger,
  ) {}

  /** Adds what `transaction` inserted and deleted, by `author`, at `now`. */
  record(author: Author, transaction: Y.Transaction, now = Date.now()): ChangeEntry | null {
    const inserted: IdRange[] = []
    for (const [client, after] of transaction.afterState) {
      const before = transaction.beforeState.get(client) ?? 0
      if (after > before) inserted.push({ client, clock: before, length: after - before })
    }
    const deleted: IdRange[] = []
    for (const [client, items] of transaction.deleteSet.clients) for (const { clock, len } of items) deleted.push({ client, clock, length: len })
    if (inserted.length === 0 && deleted.length === 0) return null
    this.open ??= new Map()
    this.dirty ??= new Map()
    let entry = this.open.get(author.id)
    const joins = entry !== undefined && now - entry.until < COALESCE_MS && entry.inserted.length + entry.deleted.length + inserted.length + deleted.length <= MAX_RANGES_PER_ENTRY
    if (!joins || entry === undefined) {
      entry = { id: timeKey(now, `${this.processTag}-${this.nextSeq++}`), author, time: now, until: now, inserted: [], deleted: [] }
      this.open.set(author.id, entry)
    }
    entry.until = now
    for (const range of inserted) addRange(entry.inserted, range)
    for (const range of deleted) addRange(entry.deleted, range)
    this.dirty.set(entry.id, entry)
    if (this.timer === null) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS)
      this.timer.unref()
    }
    return entry
  }

  /** Writes every changed entry; resolves once they are stored (failures are logged, and retried by the next flush). */
  flush(now = Date.now()): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    if (this.open !== null) for (const [id, entry] of this.open) if (now - entry.until >= COALESCE_MS) this.open.delete(id)
    // Let go of the maps once empty: a room that has gone quiet holds none.
    if (this.open?.size === 0) this.open = null
    const entries = this.dirty === null ? [] : [...this.dirty.values()]
    this.dirty = null
    // Nothing to write: no promise made (a room's load queries the log, which flushes it first).
    if (entries.length === 0) return this.flushing
    this.flushing = this.flushing.then(async () => {
      try {
        await this.records.put(this.room, 'change', entries.map((entry) => ({ key: entry.id, value: encodeEntry(entry) })))
      } catch (error) {
        this.logger.error({ err: error, entries: entries.length }, 'storing change log entries failed; will retry')
        const dirty = (this.dirty ??= new Map())
        for (const entry of entries) if (!dirty.has(entry.id)) dirty.set(entry.id, entry)
      }
    })
    return this.flushing
  }

  /** The room's entries (every process's) that match `query`, oldest first. */
  async query(query: ChangeQuery = {}): Promise<ChangeEntry[]> {
    await this.flush()
    // An entry's key is its start; one that started up to COALESCE_MS before `since` may reach into the window.
    const range = { gte: query.since === undefined ? undefined : timeKeyBound(query.since - COALESCE_MS - FLUSH_MS), lt: query.until === undefined ? undefined : timeKeyBound(query.until + 1) }
    const stored = await this.records.list(this.room, 'change', range)
    const entries: ChangeEntry[] = []
    for (const { key, value } of stored) {
      const entry = decodeEntry(key, value)
      if (entry === null) continue
      if (query.by !== undefined && entry.author.id !== query.by) continue
      if (query.since !== undefined && entry.until < query.since) continue
      if (query.until !== undefined && entry.time > query.until) continue
      entries.push(entry)
    }
    return entries
  }

  /** Stops the timer and writes what is left. */
  close(): Promise<void> {
    this.open?.clear()
    return this.flush()
  }
}

/** Appends `range`, extending the last range when it continues it. */
function addRange(ranges: IdRange[], range: IdRange): void {
  const last = ranges[ranges.length - 1]
  if (last !== undefined && last.client === range.client && last.clock + last.length === range.clock) last.length += range.length
  else ranges.push({ ...range })
}

const flat = (ranges: readonly IdRange[]): number[] => ranges.flatMap(({ client, clock, length }) => [client, clock, length])

function unflat(numbers: unknown): IdRange[] | null {
  if (!Array.isArray(numbers) || numbers.length % 3 !== 0 || !numbers.every((n) => Number.isSafeInteger(n) && n >= 0)) return null
  const ranges: IdRange[] = []
  for (let index = 0; index < numbers.length; index += 3) ranges.push({ client: numbers[index], clock: numbers[index + 1], length: numbers[index + 2] })
  return ranges
}

export function encodeEntry(entry: ChangeEntry): Uint8Array {
  const stored: StoredEntry = { a: entry.author, t: entry.time, u: entry.until, i: flat(entry.inserted), d: flat(entry.deleted) }
  return new TextEncoder().encode(JSON.stringify(stored))
}

/** The entry stored under `key`, or null for a record that is not one. */
export function decodeEntry(key: string, value: Uint8Array): ChangeEntry | null {
  let stored: StoredEntry
  try {
    stored = JSON.parse(new TextDecoder().decode(value)) as StoredEntry
  } catch {
    return null
  }
  const inserted = unflat(stored.i)
  const deleted = unflat(stored.d)
  if (inserted === null || deleted === null || typeof stored.t !== 'number' || typeof stored.u !== 'number' || typeof stored.a?.id !== 'string') return null
  return { id: key, author: stored.a, time: stored.t, until: stored.u, inserted, deleted }
}
