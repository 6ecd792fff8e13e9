import * as Y from 'yjs'
import type pg from 'pg'
import type { Logger } from 'pino'
import type { AppendEntry, Store, StoredUpdate } from '../persistence.ts'
import { StorageError } from '../persistence.ts'
import type { KeyRange, RecordStore } from '../records.ts'
import { STREAM_START, compareStreamIds } from './stream-id.ts'

/**
 * Rooms in PostgreSQL. `cotext_rooms` holds one compacted state per room with the id of the
 * last stream entry it includes (cluster mode); `cotext_updates` holds updates appended one by
 * one (a single process on DATABASE_URL without Redis). A room is its snapshot plus its updates;
 * compaction folds the updates, and in cluster mode the stream entries since the snapshot, into
 * a new snapshot in one transaction. `cotext_aside` keeps the stored updates (and stream entries)
 * that fail to apply, out of every room's log, for inspection.
 */

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS cotext_rooms (
    room text PRIMARY KEY,
    state bytea NOT NULL,
    stream_id text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE IF NOT EXISTS cotext_updates (
    id bigserial PRIMARY KEY,
    room text NOT NULL,
    data bytea NOT NULL
  );
  CREATE INDEX IF NOT EXISTS cotext_updates_room ON cotext_updates (room, id);
  CREATE TABLE IF NOT EXISTS cotext_aside (
    id bigserial PRIMARY KEY,
    room text NOT NULL,
    data bytea NOT NULL,
    reason text NOT NULL,
    set_aside_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE IF NOT EXISTS cotext_records (
    room text NOT NULL,
    kind text NOT NULL,
    key text COLLATE "C" NOT NULL,
    value bytea NOT NULL,
    PRIMARY KEY (room, kind, key)
  );
`
/** Several processes start at once; CREATE … IF NOT EXISTS alone can still collide. */
const SCHEMA_LOCK = 0x636f74657874
/** Rows per INSERT of records: 2 parameters each, far below PostgreSQL's 65,535 per statement. */
const RECORDS_PER_INSERT = 1000

/** Where a stored part of a room lives: its snapshot row, or one row of its updates (by id). */
export type PgPart = { table: 'snapshot' } | { table: 'updates'; id: number }

export interface StoredRoom {
  /** The snapshot (if any) first, then the updates in the order they were appended. */
  parts: Array<{ where: PgPart; update: Uint8Array }>
  /** The last stream entry the snapshot includes. */
  streamId: string
}

/**
 * What a compaction adds from outside PostgreSQL: it hands the stream's updates after the stored
 * position to `apply` (a page at a time, so that other work runs in between) and resolves with
 * the id of the last entry it read and how many updates it applied.
 */
export type CollectAfter = (streamId: string, apply: (update: Uint8Array) => void) => Promise<{ streamId: string; updates: number }>

/** Applies updates to a document, skipping (and counting) any that do not apply. */
function applier(doc: Y.Doc, onBad: () => void): (update: Uint8Array) => void {
  return (update) => {
    try {
      Y.applyUpdate(doc, update)
    } catch {
      // One update that does not apply must not keep the room from loading or compacting.
      onBad()
    }
  }
}

export class PgStore {
  /** Failed queries, for /metrics. */
  errors = 0
  /** Stored or streamed updates that did not apply and were left out of a merge. */
  badUpdates = 0
  private readonly countBad = (): void => {
    this.badUpdates += 1
  }

  private constructor(private readonly pool: pg.Pool) {}

  /**
   * Connects to `url` and creates the tables when they are missing. `fsync`: every session
   * commits synchronously (the commit returns once the WAL is on disk), whatever the server's default.
   */
  static async open(url: string, onError: (error: Error) => void, options: { fsync?: boolean } = {}): Promise<PgStore> {
    // Loaded here, not at start: a server on LevelDB never holds PostgreSQL's client in memory (docs/server-scale.md).
    const { Pool } = (await import('pg')).default
    const pool = new Pool({ connectionString: url, max: 4, ...(options.fsync === true ? { options: '-c synchronous_commit=on' } : {}) })
    // An idle client whose server went away emits this; unhandled it would end the process.
    pool.on('error', onError)
    const store = new PgStore(pool)
    await store.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK])
      await client.query(SCHEMA)
    })
    return store
  }

  async load(room: string): Promise<StoredRoom> {
    const snapshot = await this.query<{ state: Buffer; stream_id: string }>('SELECT state, stream_id FROM cotext_rooms WHERE room = $1', [room])
    const updates = await this.query<{ id: string; data: Buffer }>('SELECT id, data FROM cotext_updates WHERE room = $1 ORDER BY id', [room])
    const row = snapshot.rows[0]
    const parts: StoredRoom['parts'] = row === undefined ? [] : [{ where: { table: 'snapshot' }, update: row.state }]
    for (const update of updates.rows) parts.push({ where: { table: 'updates', id: Number(update.id) }, update: update.data })
    return { parts, streamId: row?.stream_id ?? STREAM_START }
  }

  /** Appends every entry as a row of `cotext_updates`, all in one transaction. */
  async append(entries: readonly AppendEntry[]): Promise<void> {
    await this.transaction(async (client) => {
      for (const { room, update } of entries) await client.query('INSERT INTO cotext_updates (room, data) VALUES ($1, $2)', [room, Buffer.from(update)])
    })
  }

  /**
   * Replaces the room's snapshot and its updates with id <= `upTo` by `updates` (new rows after
   * the room's others: Yjs updates apply in any order), in one transaction.
   */
  async replaceUpdates(room: string, upTo: number, updates: readonly Uint8Array[]): Promise<void> {
    await this.transaction(async (client) => {
      if (upTo >= 0) {
        await client.query('DELETE FROM cotext_rooms WHERE room = $1', [room])
        await client.query('DELETE FROM cotext_updates WHERE room = $1 AND id <= $2', [room, upTo])
      }
      for (const update of updates) await client.query('INSERT INTO cotext_updates (room, data) VALUES ($1, $2)', [room, Buffer.from(update)])
    })
  }

  /** Moves a stored part of the room into `cotext_aside` with `reason`, in one transaction. */
  async setAside(room: string, where: PgPart, reason: string): Promise<void> {
    await this.transaction(async (client) => {
      const moved =
        where.table === 'snapshot'
          ? await client.query('DELETE FROM cotext_rooms WHERE room = $1 RETURNING state AS data', [room])
          : await client.query('DELETE FROM cotext_updates WHERE room = $1 AND id = $2 RETURNING data', [room, where.id])
      for (const row of moved.rows as Array<{ data: Buffer }>) await client.query('INSERT INTO cotext_aside (room, data, reason) VALUES ($1, $2, $3)', [room, row.data, reason])
    })
  }

  /** Keeps `data` (a stream entry that fails to apply) in `cotext_aside` with `reason`. */
  async keepAside(room: string, data: Uint8Array, reason: string): Promise<void> {
    await this.query('INSERT INTO cotext_aside (room, data, reason) VALUES ($1, $2, $3)', [room, Buffer.from(data), reason])
  }

  /**
   * Logs, once at start, what a crash of PostgreSQL's machine can lose: a server with `fsync`
   * off can lose committed rooms (and corrupt its data); `synchronous_commit` off loses the last
   * commits (under FSYNC this process's sessions turn it on, see `open`).
   */
  async checkDurability(logger: Logger): Promise<void> {
    let settings: { fsync: string; synchronousCommit: string }
    try {
      const [fsyncRow, commitRow] = await Promise.all([this.query<{ fsync: string }>('SHOW fsync', []), this.query<{ synchronous_commit: string }>('SHOW synchronous_commit', [])])
      settings = { fsync: fsyncRow.rows[0]!.fsync, synchronousCommit: commitRow.rows[0]!.synchronous_commit }
    } catch (error) {
      logger.warn({ err: error }, 'cannot read PostgreSQL\'s durability settings')
      return
    }
    if (settings.fsync === 'off') logger.warn(settings, 'PostgreSQL runs with fsync off: a machine crash can lose or corrupt stored rooms')
    else if (settings.synchronousCommit === 'off') logger.warn(settings, 'PostgreSQL commits asynchronously (synchronous_commit off): a machine crash loses the last commits')
    else logger.info(settings, 'PostgreSQL: a commit is on disk before it returns')
  }

  /** Resolves once PostgreSQL answers; rejects when it does not. */
  async ping(): Promise<void> {
    await this.query('SELECT 1', [])
  }

  /**
   * Replaces the room's snapshot and updates with their merge, plus what `collect` adds after
   * the stored stream position, and records the new position. The row lock makes concurrent
   * compactions of one room take turns, each starting from what the previous one stored.
   */
  async compact(room: string, collect?: CollectAfter): Promise<{ streamId: string; entries: number; written: boolean }> {
    return this.transaction(async (client) => {
      const snapshot = await client.query<{ state: Buffer; stream_id: string }>('SELECT state, stream_id FROM cotext_rooms WHERE room = $1 FOR UPDATE', [room])
      const updates = await client.query<{ id: string; data: Buffer }>('SELECT id, data FROM cotext_updates WHERE room = $1 ORDER BY id', [room])
      const row = snapshot.rows[0]
      const storedId = row?.stream_id ?? STREAM_START
      // Deleted text stays: the change log reverts deletions (see docs/authorship-server.md).
      const doc = new Y.Doc({ gc: false })
      const apply = applier(doc, this.countBad)
      if (row !== undefined) apply(row.state)
      for (const update of updates.rows) apply(update.data)
      const collected = collect === undefined ? { updates: 0, streamId: storedId } : await collect(storedId, apply)
      // Written also when only awareness entries came: the position moves, so the stream can be trimmed.
      if (updates.rows.length === 0 && collected.updates === 0 && collected.streamId === storedId) {
        doc.destroy()
        return { streamId: storedId, entries: 0, written: false }
      }
      const state = Y.encodeStateAsUpdate(doc)
      doc.destroy()
      await client.query(
        `INSERT INTO cotext_rooms (room, state, stream_id) VALUES ($1, $2, $3)
         ON CONFLICT (room) DO UPDATE SET state = EXCLUDED.state, stream_id = EXCLUDED.stream_id, updated_at = now()`,
        [room, Buffer.from(state), collected.streamId],
      )
      const last = updates.rows[updates.rows.length - 1]
      if (last !== undefined) await client.query('DELETE FROM cotext_updates WHERE room = $1 AND id <= $2', [room, last.id])
      return { streamId: collected.streamId, entries: updates.rows.length + collected.updates, written: true }
    })
  }

  /**
   * Stores `state`, the state of a caller's document that holds the stored snapshot and every
   * update up to stream position `streamId`, merged with the stored snapshot: never replaced by
   * it, since after Redis lost entries a document with a later position can lack what an
   * earlier snapshot holds. The stored position becomes the later of the two. Nothing is written
   * when `state` adds nothing and the stored position is already as far; null (nothing written)
   * when the room has updates outside the stream, which only a full compaction folds in.
   */
  async storeSnapshot(room: string, state: Uint8Array, streamId: string): Promise<{ streamId: string; written: boolean } | null> {
    return this.transaction(async (client) => {
      const snapshot = await client.query<{ state: Buffer; stream_id: string }>('SELECT state, stream_id FROM cotext_rooms WHERE room = $1 FOR UPDATE', [room])
      const loose = await client.query('SELECT 1 FROM cotext_updates WHERE room = $1 LIMIT 1', [room])
      if (loose.rows.length > 0) return null
      const row = snapshot.rows[0]
      let merged = state
      let position = streamId
      if (row !== undefined) {
        const doc = new Y.Doc()
        const apply = applier(doc, this.countBad)
        apply(row.state)
        let adds = false
        doc.on('update', () => {
          adds = true
        })
        apply(state)
        merged = adds ? Y.encodeStateAsUpdate(doc) : new Uint8Array(row.state)
        doc.destroy()
        const ahead = compareStreamIds(row.stream_id, streamId) >= 0
        if (ahead) position = row.stream_id
        if (ahead && !adds) return { streamId: row.stream_id, written: false }
      }
      await client.query(
        `INSERT INTO cotext_rooms (room, state, stream_id) VALUES ($1, $2, $3)
         ON CONFLICT (room) DO UPDATE SET state = EXCLUDED.state, stream_id = EXCLUDED.stream_id, updated_at = now()`,
        [room, Buffer.from(merged), position],
      )
      return { streamId: position, written: true }
    })
  }

  /** The rooms' records beside their logs (versions, change log; see records.ts), in `cotext_records`. */
  records(): RecordStore {
    return {
      put: async (room, kind, records) => {
        if (records.length === 0) return
        // One statement per RECORDS_PER_INSERT records, not one per record: a hot room's change log
        // puts hundreds a second. A key given twice keeps its last value, as one upsert after another
        // would (and one statement may not upsert a row twice).
        const latest = [...new Map(records.map(({ key, value }) => [key, value])).entries()]
        await this.transaction(async (client) => {
          for (let start = 0; start < latest.length; start += RECORDS_PER_INSERT) {
            const chunk = latest.slice(start, start + RECORDS_PER_INSERT)
            const rows = chunk.map((_, i) => `($1, $2, $${2 * i + 3}, $${2 * i + 4})`).join(', ')
            const values = chunk.flatMap(([key, value]) => [key, Buffer.from(value)])
            await client.query(`INSERT INTO cotext_records (room, kind, key, value) VALUES ${rows} ON CONFLICT (room, kind, key) DO UPDATE SET value = EXCLUDED.value`, [room, kind, ...values])
          }
        })
      },
      list: async (room, kind, range: KeyRange = {}) => {
        const result = await this.query<{ key: string; value: Buffer }>(
          'SELECT key, value FROM cotext_records WHERE room = $1 AND kind = $2 AND ($3::text IS NULL OR key >= $3) AND ($4::text IS NULL OR key < $4) ORDER BY key',
          [room, kind, range.gte ?? null, range.lt ?? null],
        )
        return result.rows.map((row) => ({ key: row.key, value: new Uint8Array(row.value) }))
      },
      get: async (room, kind, key) => {
        const result = await this.query<{ value: Buffer }>('SELECT value FROM cotext_records WHERE room = $1 AND kind = $2 AND key = $3', [room, kind, key])
        const row = result.rows[0]
        return row === undefined ? null : new Uint8Array(row.value)
      },
      delete: async (room, kind, keys) => {
        if (keys.length > 0) await this.query('DELETE FROM cotext_records WHERE room = $1 AND kind = $2 AND key = ANY($3)', [room, kind, [...keys]])
      },
    }
  }

  async close(): Promise<void> {
    await this.pool.end()
  }

  private async query<Row extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<Row>> {
    try {
      return await this.pool.query<Row>(text, values)
    } catch (error) {
      this.errors += 1
      throw new StorageError(`PostgreSQL: ${(error as Error).message}`)
    }
  }

  private async transaction<T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient
    try {
      client = await this.pool.connect()
    } catch (error) {
      this.errors += 1
      throw new StorageError(`PostgreSQL: ${(error as Error).message}`)
    }
    try {
      await client.query('BEGIN')
      const result = await body(client)
      await client.query('COMMIT')
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      if (!(error instanceof StorageError)) this.errors += 1
      throw error instanceof StorageError ? error : new StorageError(`PostgreSQL: ${(error as Error).message}`)
    } finally {
      client.release()
    }
  }
}

/**
 * A single process storing in PostgreSQL instead of LevelDB (DATABASE_URL without REDIS_URL). A
 * room's log is its snapshot row (sequence number 0, written only by cluster mode) and then its
 * rows in `cotext_updates` (their ids); every write is one transaction, durable once committed.
 */
export class PgLogStore implements Store {
  constructor(readonly pg: PgStore) {}

  async load(room: string): Promise<StoredUpdate[]> {
    const { parts } = await this.pg.load(room)
    return parts.map(({ where, update }) => ({ seq: where.table === 'snapshot' ? 0 : where.id, update }))
  }

  append(entries: readonly AppendEntry[]): Promise<void> {
    return this.pg.append(entries)
  }

  replace(room: string, upTo: number, updates: readonly Uint8Array[]): Promise<void> {
    return this.pg.replaceUpdates(room, upTo, updates)
  }

  setAside(room: string, seq: number, reason: string): Promise<void> {
    return this.pg.setAside(room, seq === 0 ? { table: 'snapshot' } : { table: 'updates', id: seq }, reason)
  }

  /** A pool holds no half-done write: a failed transaction is rolled back. Waits until PostgreSQL answers. */
  reopen(): Promise<void> {
    return this.pg.ping()
  }

  close(): Promise<void> {
    return this.pg.close()
  }
}
