// y-leveldb 0.2 ships typings but its package.json "exports" does not point at them, so
// TypeScript cannot find them; this declares the part of its API the server uses.
declare module 'y-leveldb' {
  import type { Doc } from 'yjs'

  export class LeveldbPersistence {
    constructor(location: string, options?: { Level?: unknown; levelOptions?: object })
    /** Runs `f` in y-leveldb's operation queue; resolves with null when `f` throws. */
    _transact<T>(f: (db: never) => Promise<T>): Promise<T | null>
    /** Resolves null when the read fails. */
    getYDoc(docName: string): Promise<Doc | null>
    /** Resolves with the stored update's clock, or null when the write fails. */
    storeUpdate(docName: string, update: Uint8Array): Promise<number | null>
    /** Resolves undefined when done, null when it fails. */
    flushDocument(docName: string): Promise<void | null>
    destroy(): Promise<void>
  }
}
