import { mkdirSync } from 'node:fs'
import * as Y from 'yjs'
import { LeveldbPersistence } from 'y-leveldb'

/** Where rooms are stored. The server only ever talks to this interface. */
export interface Persistence {
  /** The room's whole stored state as one update (an empty document's when nothing is stored). */
  load(room: string): Promise<Uint8Array>
  /** Resolves once `update` is written; a process killed after that loses nothing. */
  store(room: string, update: Uint8Array): Promise<void>
  /** Replaces the room's stored updates with their merge. */
  compact(room: string): Promise<void>
  close(): Promise<void>
}

/** A storage operation that failed; the message says which and why. */
export class StorageError extends Error {
  override name = 'StorageError'
}

type Level = { open(): Promise<void>; status: string }

/**
 * LevelDB through y-leveldb, in one directory. y-leveldb runs every operation in a queue and,
 * when one fails, logs it and resolves with null instead of rejecting; those nulls become
 * StorageErrors here so that the rooms can tell a failed write from a stored one.
 */
export class LevelPersistence implements Persistence {
  private constructor(private readonly db: LeveldbPersistence) {}

  /** Opens (creating if needed) the database in `dir`; rejects if another process holds it. */
  static async open(dir: string): Promise<LevelPersistence> {
    mkdirSync(dir, { recursive: true })
    const db = new LeveldbPersistence(dir)
    // level opens lazily and would only report a held lock on the first write; open it now so
    // that a second server on the same DATA_DIR fails at start with the real reason.
    const failure = await db._transact(async (level: Level) => {
      try {
        await level.open()
        return null
      } catch (error) {
        const cause = (error as { cause?: Error }).cause
        return cause?.message ?? (error as Error).message
      }
    })
    if (failure !== null) throw new StorageError(`cannot open LevelDB in ${dir}: ${failure}`)
    return new LevelPersistence(db)
  }

  async load(room: string): Promise<Uint8Array> {
    const doc: Y.Doc | null = await this.db.getYDoc(room)
    if (doc === null) throw new StorageError(`loading room ${JSON.stringify(room)} failed`)
    const state = Y.encodeStateAsUpdate(doc)
    doc.destroy()
    return state
  }

  async store(room: string, update: Uint8Array): Promise<void> {
    const clock: number | null = await this.db.storeUpdate(room, update)
    if (typeof clock !== 'number') throw new StorageError(`storing an update of room ${JSON.stringify(room)} failed`)
  }

  async compact(room: string): Promise<void> {
    // flushDocument resolves with undefined when it worked and null when it failed.
    const result: unknown = await this.db.flushDocument(room)
    if (result === null) throw new StorageError(`compacting room ${JSON.stringify(room)} failed`)
  }

  async close(): Promise<void> {
    await this.db.destroy()
  }
}
