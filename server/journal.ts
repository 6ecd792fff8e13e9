import { closeSync, constants, fdatasync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { StorageError } from './persistence.ts'
import type { AppendEntry, Store, StoredUpdate } from './persistence.ts'

/** A journal file is switched for the other once it is this long and the other is empty. */
const ROTATE_BYTES = 8 * 1024 * 1024
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
 * their path. Like LevelDB's own log, the journal is in the page cache: it survives the process
 * being killed, not the machine losing power. With `fsync`, an append resolves only once its
 * record is on disk (fdatasync, in the thread pool: the event loop goes on meanwhile, and the
 * appends that queue up behind it go together in the next record), and the inner store is
 * opened with sync writes, so that a file is emptied only once its records are on disk there.
 *
 * Two journal files take turns, so one can be emptied while the other is written. A file is
 * truncated as soon as every record in it is in the inner store. Opening (and reopening after
 * a failure) replays both into the inner store first; Yjs updates apply in any order and
 * twice without harm, so replaying never needs to know what already got there. Reads and
 * every other write wait until the background moves are done, so they see every append.
 */
export class JournaledStore implements Store {
  private readonly files: [JournalFile, JournalFile]
  private active = 0
  private queue: Array<{ entries: readonly AppendEntry[]; file: JournalFile }> = []
  private moving: Promise<void> | null = null
  /** Set when moving into the inner store failed: every later append fails until reopen. */
  private failure: Error | null = null

  private constructor(
    readonly inner: Store,
    dir: string,
    private readonly fsync: boolean,
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
   */
  static async open(inner: Store, dir: string, options: { fsync?: boolean } = {}): Promise<JournaledStore> {
    const store = new JournaledStore(inner, dir, options.fsync === true)
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
    this.moving ??= this.move()
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
    await this.moving?.catch(() => {})
    await this.inner.reopen()
    await this.replay()
    this.failure = null
  }

  async close(): Promise<void> {
    await this.settled().catch(() => {})
    await this.inner.close()
    for (const file of this.files) closeSync(file.fd)
  }

  /** Resolves once every append so far is in the inner store; rejects if moving failed. */
  private async settled(): Promise<void> {
    while (this.moving !== null) await this.moving
    if (this.failure !== null) throw this.failure
  }

  private async move(): Promise<void> {
    try {
      while (this.queue.length > 0 && this.failure === null) {
        const batch = this.queue
        this.queue = []
        try {
          await this.inner.append(batch.flatMap(({ entries }) => entries))
        } catch (error) {
          // The entries stay in the journal; reopening replays them.
          this.failure = error instanceof Error ? error : new StorageError(String(error))
          return
        }
        for (const { file } of batch) file.unflushed -= 1
        try {
          for (const file of this.files) if (file.unflushed === 0 && file.size > 0) this.truncate(file)
        } catch (error) {
          this.failure = new StorageError(`emptying a journal file failed: ${(error as Error).message}`)
          return
        }
      }
    } finally {
      this.moving = null
    }
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
