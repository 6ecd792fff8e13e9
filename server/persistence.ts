import { mkdirSync } from 'node:fs'
import * as Y from 'yjs'
import * as encoding from 'lib0/encoding'
import { LeveldbPersistence } from 'y-leveldb'
import type { KeyRange, RecordKind, RecordStore, StoredRecord } from './records.ts'

/** One stored update of a room and its position in the room's log. */
export interface StoredUpdate {
  seq: number
  update: Uint8Array
}

/** An update to append to a room's log. */
export interface AppendEntry {
  room: string
  update: Uint8Array
}

/**
 * Where rooms are stored: per room, an append-only log of Yjs updates. The server talks to this
 * interface only (through StoreWriter, which serialises every write), so another backend
 * (PostgreSQL) plugs in by implementing these six calls.
 *
 * Durability: once `append` or `replace` resolves, a process killed at any moment later loses
 * none of it. When any write rejects, the store's state is unknown (a half-written record may
 * sit in a log); the caller reopens it and writes every loaded room's whole state again.
 */
export interface Store {
  /** The room's stored updates in append order (empty for a room never stored). */
  load(room: string): Promise<StoredUpdate[]>
  /** Writes every entry, of any rooms, in one atomic write: all of them are stored or none. */
  append(entries: readonly AppendEntry[]): Promise<void>
  /**
   * Replaces the room's updates with `seq <= upTo` by `updates` (their merge, in order), in one
   * atomic write; later updates stay. `upTo` -1 (nothing stored yet) just appends `updates`.
   */
  replace(room: string, upTo: number, updates: readonly Uint8Array[]): Promise<void>
  /** Moves the update at `seq` out of the room's log into a side area where it stays for inspection. */
  setAside(room: string, seq: number, reason: string): Promise<void>
  /** Closes and opens the store again, so that a failed write leaves nothing half-done behind it. */
  reopen(): Promise<void>
  close(): Promise<void>
}

/** A storage operation that failed; the message says which and why. */
export class StorageError extends Error {
  override name = 'StorageError'
}

type Key = Array<string | number>

interface BatchOperation {
  type: 'put' | 'del'
  key: Key
  value?: Uint8Array
}

interface LevelIterator {
  all(): Promise<Array<[Key, Uint8Array]>>
}

/** The part of abstract-level (under y-leveldb) this store uses. */
interface Level {
  status: string
  open(): Promise<void>
  close(): Promise<void>
  batch(operations: BatchOperation[], options?: { sync?: boolean }): Promise<void>
  iterator(options: { gte: Key; lt: Key; reverse?: boolean; limit?: number; keys?: boolean; values?: boolean }): LevelIterator
}

/** Largest clock y-leveldb's key encoding holds (a big-endian uint32). */
const MAX_SEQ = 2 ** 32 - 1

const updateKey = (room: string, seq: number): Key => ['v1', room, 'update', seq]
const stateVectorKey = (room: string): Key => ['v1_sv', room]
/** Updates set aside because they fail to apply: outside every range y-leveldb reads. */
const asideKey = (room: string, seq: number): Key => ['cotext_aside', room, seq]
const asideReasonKey = (room: string, seq: number): Key => ['cotext_aside_reason', room, seq]
/** A room's records (records.ts): outside every range y-leveldb reads. */
const recordKey = (room: string, kind: RecordKind, key: string | number): Key => ['cotext_records', room, kind, key]

function errorText(error: unknown): string {
  const cause = (error as { cause?: Error }).cause
  return cause?.message ?? (error as Error).message
}

/**
 * LevelDB in one directory, in y-leveldb's layout (`['v1', room, 'update', clock]`), so a data
 * directory written by earlier versions (or by y-leveldb itself) loads as it is. y-leveldb's own
 * operations swallow errors and resolve null and cannot write several rooms in one batch, so this
 * store opens the database through y-leveldb (for its key encoding) and then talks to LevelDB
 * directly. Without `fsync` writes are not synced: a stored update survives the process being
 * killed at any moment (it is in the operating system's page cache), not the machine losing power.
 */
export class LevelStore implements Store {
  /** The next free clock of every room this process has read or written. */
  private readonly nextSeq = new Map<string, number>()

  private constructor(
    private readonly dir: string,
    private readonly db: Level,
    private readonly sync: boolean,
  ) {}

  /**
   * Opens (creating if needed) the database in `dir`; rejects if another process holds it.
   * `fsync`: every write is on disk before it resolves (LevelDB's sync writes).
   */
  static async open(dir: string, options: { fsync?: boolean } = {}): Promise<LevelStore> {
    mkdirSync(dir, { recursive: true })
    const db = await new LeveldbPersistence(dir)._transact(async (level: Level) => level)
    if (db === null) throw new StorageError(`cannot open LevelDB in ${dir}`)
    try {
      // level opens lazily and would only report a held lock on the first write.
      await db.open()
    } catch (error) {
      throw new StorageError(`cannot open LevelDB in ${dir}: ${errorText(error)}`)
    }
    return new LevelStore(dir, db, options.fsync === true)
  }

  async load(room: string): Promise<StoredUpdate[]> {
    const entries = await this.db.iterator({ gte: updateKey(room, 0), lt: updateKey(room, MAX_SEQ) }).all()
    const updates = entries.map(([key, value]) => ({ seq: key[3] as number, update: value }))
    // Never lower it: a read that started before an append finished would hand out its clock again.
    const next = updates.length === 0 ? 0 : updates[updates.length - 1]!.seq + 1
    this.nextSeq.set(room, Math.max(next, this.nextSeq.get(room) ?? 0))
    return updates
  }

  async append(entries: readonly AppendEntry[]): Promise<void> {
    for (const { room } of entries) await this.seqAfterLast(room)
    // From here to the write nothing awaits: clocks are taken in one step, so a replace or load
    // running meanwhile cannot hand them out again.
    const operations: BatchOperation[] = []
    for (const { room, update } of entries) {
      const seq = this.takeSeq(room)
      if (seq === 0) operations.push({ type: 'put', key: stateVectorKey(room), value: this.stateVectorRecord(update) })
      operations.push({ type: 'put', key: updateKey(room, seq), value: update })
    }
    await this.write(operations)
  }

  async replace(room: string, upTo: number, updates: readonly Uint8Array[]): Promise<void> {
    if (upTo < 0) return this.append(updates.map((update) => ({ room, update })))
    const keys = await this.db.iterator({ gte: updateKey(room, 0), lt: updateKey(room, Math.min(upTo + 1, MAX_SEQ)), values: false }).all()
    const seqs = keys.map(([key]) => key[3] as number)
    // The merge takes the highest clocks of the range it replaces, so it is read back before
    // every update appended after it; when there are more parts than replaced clocks, the
    // rest go after the room's last update (Yjs updates apply in any order).
    const slots = seqs.slice(Math.max(0, seqs.length - updates.length))
    const operations: BatchOperation[] = seqs.slice(0, seqs.length - slots.length).map((seq) => ({ type: 'del', key: updateKey(room, seq) }))
    await this.seqAfterLast(room)
    updates.forEach((update, index) => {
      const seq = slots[index] ?? this.takeSeq(room)
      operations.push({ type: 'put', key: updateKey(room, seq), value: update })
    })
    if (operations.length === 0) return
    if (updates.length > 0) operations.push({ type: 'put', key: stateVectorKey(room), value: this.stateVectorRecord(updates[0]!) })
    await this.write(operations)
  }

  async setAside(room: string, seq: number, reason: string): Promise<void> {
    const [entry] = await this.db.iterator({ gte: updateKey(room, seq), lt: updateKey(room, seq + 1) }).all()
    if (entry === undefined) return
    await this.write([
      { type: 'put', key: asideKey(room, seq), value: entry[1] },
      { type: 'put', key: asideReasonKey(room, seq), value: new TextEncoder().encode(reason) },
      { type: 'del', key: updateKey(room, seq) },
    ])
  }

  /**
   * The rooms' records beside their logs (versions, change log; see records.ts), in this database.
   * y-leveldb's key encoding puts a string's length before it, so keys are sorted here, not by LevelDB.
   */
  records(): RecordStore {
    const all = async (room: string, kind: RecordKind): Promise<StoredRecord[]> => {
      // A number sorts after every string in y-leveldb's key encoding.
      const entries = await this.db.iterator({ gte: recordKey(room, kind, ''), lt: recordKey(room, kind, MAX_SEQ) }).all()
      return entries.map(([key, value]) => ({ key: key[3] as string, value })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    }
    return {
      put: (room, kind, records) => this.write(records.map(({ key, value }) => ({ type: 'put', key: recordKey(room, kind, key), value }))),
      list: async (room, kind, range: KeyRange = {}) =>
        (await all(room, kind)).filter(({ key }) => (range.gte === undefined || key >= range.gte) && (range.lt === undefined || key < range.lt)),
      get: async (room, kind, key) => {
        const [entry] = await this.db.iterator({ gte: recordKey(room, kind, key), lt: [...recordKey(room, kind, key), 0], limit: 1 }).all()
        return entry === undefined ? null : entry[1]
      },
      delete: (room, kind, keys) => this.write(keys.map((key) => ({ type: 'del', key: recordKey(room, kind, key) }))),
    }
  }

  /** The updates set aside for `room` (for tests and operators), by clock. */
  async setAsideUpdates(room: string): Promise<StoredUpdate[]> {
    const entries = await this.db.iterator({ gte: asideKey(room, 0), lt: asideKey(room, MAX_SEQ) }).all()
    return entries.map(([key, value]) => ({ seq: key[2] as number, update: value }))
  }

  async reopen(): Promise<void> {
    try {
      if (this.db.status === 'open') await this.db.close()
      await this.db.open()
    } catch (error) {
      throw new StorageError(`cannot reopen LevelDB in ${this.dir}: ${errorText(error)}`)
    }
  }

  async close(): Promise<void> {
    if (this.db.status === 'open') await this.db.close()
  }

  private async write(operations: BatchOperation[]): Promise<void> {
    try {
      const batch = operations.map((operation) => (operation.value === undefined ? operation : { ...operation, value: Buffer.from(operation.value.buffer, operation.value.byteOffset, operation.value.byteLength) }))
      await this.db.batch(batch, { sync: this.sync })
    } catch (error) {
      throw new StorageError(`writing to LevelDB in ${this.dir} failed: ${errorText(error)}`)
    }
  }

  /** Makes sure the room's next free clock is known (reading the last one stored if not). */
  private async seqAfterLast(room: string): Promise<void> {
    if (this.nextSeq.has(room)) return
    const [last] = await this.db.iterator({ gte: updateKey(room, 0), lt: updateKey(room, MAX_SEQ), reverse: true, limit: 1, values: false }).all()
    const next = last === undefined ? 0 : (last[0][3] as number) + 1
    this.nextSeq.set(room, Math.max(next, this.nextSeq.get(room) ?? 0))
  }

  /** Hands out the room's next free clock (known: see seqAfterLast); a failed write leaves a gap, which is harmless. */
  private takeSeq(room: string): number {
    const seq = this.nextSeq.get(room)!
    if (seq >= MAX_SEQ) throw new StorageError(`room ${JSON.stringify(room)} has no free update key left`)
    this.nextSeq.set(room, seq + 1)
    return seq
  }

  /** y-leveldb's per-room index record (clock, state vector), which lists the stored rooms. */
  private stateVectorRecord(update: Uint8Array): Uint8Array {
    const encoder = encoding.createEncoder()
    encoding.writeVarUint(encoder, 0)
    let stateVector: Uint8Array
    try {
      stateVector = Y.encodeStateVectorFromUpdate(update)
    } catch {
      // Only the room's listing depends on it; y-leveldb recomputes a stale one when asked.
      stateVector = Y.encodeStateVector(new Y.Doc())
    }
    encoding.writeVarUint8Array(encoder, stateVector)
    return encoding.toUint8Array(encoder)
  }
}
