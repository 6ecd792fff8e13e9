import { closeSync, constants, fdatasync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { StorageError } from './persistence.ts'
import type { AppendEntry, Store, StoredUpdate } from './persistence.ts'

/** A journal file is switched for the other once it is this long and the other is empty. */
const ROTATE_BYTES = 8 * 1024 * 1024
/** How long appends gather in the journal before they move into the inner store together, unless a read or write waits for them. */
const GATHER_MS = 100
const HEADER_BYTES = 8

interface JournalFile {
  path: string
  fd: number
  size: number
  /** Records written to this file whose entries are not yet in the inner store. */
  unflushed: number
}

function encodeRecord(entries: readonly AppendEntry[]): Buffer {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, entries.length)
  for (const { room, update } of entries) {
    encoding.writeVarString(encoder, room)
    encoding.writeVarUint8Array(encoder, update)
  }
  const payload = encoding.toUint8Array(encoder)
  const record = Buffer.allocUnsafe(HEADER_BYTES + payload.length)
  record.writeUInt32LE(payload.length, 0)
  record.writeUInt32LE(crc32(payload), 4)
  record.set(payload, HEADER_BYTES)
  return record
}

/** The entries of every whole, intact record in `bytes`; stops at a torn or damaged one. */
export function decodeJournal(bytes: Uint8Array): AppendEntry[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const entries: AppendEntry[] = []
  let offset = 0
  while (offset + HEADER_BYTES <= buffer.length) {
    const length = buffer.readUInt32LE(offset)
    const payload = buffer.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + length)
    if (payload.length < length || crc32(payload) !== buffer.readUInt32LE(offset + 4)) break
    const decoder = decoding.createDecoder(payload)
    const record: AppendEntry[] = []
    try {
      for (let count = decoding.readVarUint(decoder); count > 0; count--) {
        record.push({ room: decoding.readVarString(decoder), update: decoding.readVarUint8Array(decoder).slice() })
      }
    } catch {
      break
    }
    entries.push(...record)
    offset += HEADER_BYTES + length
  }
  return entries
}

/**
 * Makes appends durable with one synchronous write(2) to a journal file on the event-loop
 * thread, then moves them into the inner store (LevelDB) in the background, batched. A LevelDB
 * write goes through libuv's thread pool and back, which on a busy machine costs two trips
 * through the scheduler per write; relays wait for appends, so the journal keeps that off
 * their path. Appends gather for `gatherMs` before they move (a hot room's 200 appends a second
 * become ten LevelDB batches, not one per append: preparing a batch costs the event loop about
 * the same whatever it holds). Like LevelDB's own log, the journal is in the page cache: it survives the process
 * being killed, not the machine losing power. With `fsync`, an append resolves only once its
 * record is on disk (fdatasync, in the thread pool: the event loop goes on meanwhile, and the
 * appends that queue up behind it go together in the next record), and the inner store is
 * opened with sync writes, so that a file is emptied only once its records are on disk there.
 *
 * Two journal files take turns, so one can be emptied while the other is written. A file is
 * truncated as soon as every record in it is in the inner store. Opening (and reopening after
 * a failure) replays both into the inner store first; Yjs updates apply in any order and
 * twice without harm, so replaying never needs to know what already got there. Reads and
 * every other write wait until every append made before them has moved (and move it at once
 * rather than at the end of the gathering), so they see every earlier append; they do not wait
 * for later ones, so a room that never stops appending never holds them up.
 */
export class JournaledStore implements Store {
  private readonly files: [JournalFile, JournalFile]
  private active = 0
  private queue: Array<{ entries: readonly AppendEntry[]; file: JournalFile }> = []
  /** Records queued for moving so far, and of those, how many the inner store has (counted in order: moves never overlap). */
  private queued = 0
  private moved = 0
  private moving: Promise<void> | null = null
  /** The next move while appends gather. */
  private gathering: ReturnType<typeof setTimeout> | null = null
  /** Reads and writes waiting until the first `upTo` records have moved. */
  private waiters: Array<{ upTo: number; resolve: () => void; reject: (error: Error) => void }> = []
  private closed = false
  /** Set when moving into the inner store failed: every later append fails until reopen. */
  private failure: Error | null = null

  private constructor(
    readonly inner: Store,
    dir: string,
    private readonly fsync: boolean,
    private readonly gatherMs: number,
  ) {
    this.files = [0, 1].map((index) => {
      const path = join(dir, `cotext-journal-${index}`)
      // Not O_APPEND: every write goes to an explicit offset, the end of the last whole record.
      return { path, fd: openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644), size: 0, unflushed: 0 }
    }) as [JournalFile, JournalFile]
    if (fsync) {
      // The files' directory entries too, once: fdatasync covers a file's data, not its name.
      const dirFd = openSync(dir, constants.O_RDONLY)
      try {
        fsyncSync(dirFd)
      } finally {
        closeSync(dirFd)
      }
    }
  }

  /**
   * Wraps `inner` with the journal files in `dir`, replaying whatever they hold into it.
   * `fsync`: appends resolve once on disk (`inner` must then write synchronously too).
   * `gatherMs`: how long appends gather before they move into `inner` (0: they move as they come).
   */
  static async open(inner: Store, dir: string, options: { fsync?: boolean; gatherMs?: number } = {}): Promise<JournaledStore> {
    const store = new JournaledStore(inner, dir, options.fsync === true, options.gatherMs ?? GATHER_MS)
    await store.replay()
    return store
  }

  async append(entries: readonly AppendEntry[]): Promise<void> {
    if (this.failure !== null) throw this.failure
    const file = this.files[this.active]!
    const record = encodeRecord(entries)
    try {
      for (let written = 0; written < record.length; ) written += writeSync(file.fd, record, written, record.length - written, file.size + written)
    } catch (error) {
      // Cut off whatever part of the record got written, so the file ends on a whole record.
      try {
        ftruncateSync(file.fd, file.size)
      } catch {
        // Reopening replays up to the torn record and empties the file.
      }
      throw new StorageError(`writing the journal ${file.path} failed: ${(error as Error).message}`)
    }
    file.size += record.length
    // Counted at once: a file with records not yet moved is never emptied under them.
    file.unflushed += 1
    if (this.fsync) {
      try {
        await new Promise<void>((resolve, reject) => fdatasync(file.fd, (error) => (error === null ? resolve() : reject(error))))
      } catch (error) {
        // The record stays in the file (replayed on reopen, harmlessly if it was whole).
        throw new StorageError(`syncing the journal ${file.path} failed: ${(error as Error).message}`)
      }
    }
    this.queue.push({ entries, file })
    this.queued += 1
    this.scheduleMove()
    const other = this.files[1 - this.active]!
    if (file.size > ROTATE_BYTES && other.unflushed === 0) this.active = 1 - this.active
  }

  async load(room: string): Promise<StoredUpdate[]> {
    await this.settled()
    return this.inner.load(room)
  }

  async replace(room: string, upTo: number, updates: readonly Uint8Array[]): Promise<void> {
    await this.settled()
    return this.inner.replace(room, upTo, updates)
  }

  async setAside(room: string, seq: number, reason: string): Promise<void> {
    await this.settled()
    return this.inner.setAside(room, seq, reason)
  }

  async reopen(): Promise<void> {
    this.stopGathering()
    await this.moving?.catch(() => {})
    await this.inner.reopen()
    await this.replay()
    this.failure = null
    // Every record queued so far was in the files just replayed.
    this.moved = this.queued
    this.release()
  }

  async close(): Promise<void> {
    await this.settled().catch(() => {})
    this.closed = true
    this.stopGathering()
    await this.inner.close()
    for (const file of this.files) closeSync(file.fd)
  }

  /** Resolves once every append so far is in the inner store (moving them now); rejects if moving failed. */
  private settled(): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure)
    const upTo = this.queued
    if (this.moved >= upTo) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.waiters.push({ upTo, resolve, reject })
      this.scheduleMove()
    })
  }

  /** Starts a move now when someone waits for one, else once appends have gathered. */
  private scheduleMove(): void {
    if (this.moving !== null || this.queue.length === 0 || this.failure !== null || this.closed) return
    if (this.waiters.length === 0 && this.gatherMs > 0) {
      if (this.gathering === null) {
        this.gathering = setTimeout(this.startMove, this.gatherMs)
        // Whatever gathers is in the journal already: a process may end before it moves.
        this.gathering.unref()
      }
      return
    }
    this.startMove()
  }

  private readonly startMove = (): void => {
    this.stopGathering()
    if (this.moving !== null || this.queue.length === 0 || this.failure !== null) return
    this.moving = this.move().finally(() => {
      this.moving = null
      this.scheduleMove()
    })
  }

  private stopGathering(): void {
    if (this.gathering !== null) clearTimeout(this.gathering)
    this.gathering = null
  }

  /** Moves everything queued now into the inner store, as one write. */
  private async move(): Promise<void> {
    const batch = this.queue
    this.queue = []
    try {
      await this.inner.append(batch.flatMap(({ entries }) => entries))
    } catch (error) {
      // The entries stay in the journal; reopening replays them.
      this.fail(error instanceof Error ? error : new StorageError(String(error)))
      return
    }
    this.moved += batch.length
    for (const { file } of batch) file.unflushed -= 1
    try {
      for (const file of this.files) if (file.unflushed === 0 && file.size > 0) this.truncate(file)
    } catch (error) {
      this.fail(new StorageError(`emptying a journal file failed: ${(error as Error).message}`))
      return
    }
    this.release()
  }

  /** Resolves the waiters whose records have all moved. */
  private release(): void {
    const waiting = this.waiters
    this.waiters = []
    for (const waiter of waiting) {
      if (waiter.upTo <= this.moved) waiter.resolve()
      else this.waiters.push(waiter)
    }
  }

  private fail(error: Error): void {
    this.failure = error
    for (const waiter of this.waiters.splice(0)) waiter.reject(error)
  }

  private truncate(file: JournalFile): void {
    ftruncateSync(file.fd, 0)
    file.size = 0
  }

  /** Moves every record in both files into the inner store, then empties the files. */
  private async replay(): Promise<void> {
    this.queue = []
    for (const file of this.files) {
      const entries = decodeJournal(readFileSync(file.path))
      for (let start = 0; start < entries.length; start += 1000) await this.inner.append(entries.slice(start, start + 1000))
    }
    for (const file of this.files) {
      this.truncate(file)
      file.unflushed = 0
    }
    this.active = 0
  }
}
