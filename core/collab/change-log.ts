import type * as Y from 'yjs'
import type { ChangeSet, IdRange } from '../buffer/change-set.ts'
import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import { Authors, type ChangeAuthor } from './authors.ts'
import { keepTransactionDeletions, releaseDeleted } from '../buffer/yjs-internals.ts'

/** One change to the text, local or remote, as the log keeps it: IDs, not text. */
export interface ChangeEntry {
  /** Unique in this editor's log ("1", "2", …, in the order changes happened here). */
  readonly id: string
  readonly author: ChangeAuthor
  /** Milliseconds since the epoch, when this editor saw the change. */
  readonly time: number
  readonly origin: 'local' | 'remote'
  /** The Yjs IDs of the text it inserted, as `{client, clock, length}` ranges. */
  readonly insertedIds: readonly IdRange[]
  /** The Yjs IDs of the text it deleted (text that was still there when it did). */
  readonly deletedIds: readonly IdRange[]
  /** False once the change left the revert window: its deleted text may have been collected. */
  readonly revertible: boolean
  /** True for a change this editor made by reverting (`revertChange`, `revertChanges`, undo/redo for everyone). */
  readonly isRevert: boolean
}

/** Which changes `getChanges` returns: times are inclusive bounds; `author` a client ID, a user id or a user name. */
export interface ChangeQuery {
  since?: number
  until?: number
  author?: number | string
}

/**
 * How long the log can revert a change: deleted text is kept from Yjs's garbage collection for the
 * latest `maxChanges` changes, no older than `maxAge` milliseconds, while what they keep stays under
 * `maxKeptChars` characters. A change outside the window can no longer be reverted.
 */
export interface RevertWindow {
  maxChanges: number
  maxAge: number
  maxKeptChars: number
}

export const DEFAULT_REVERT_WINDOW: RevertWindow = { maxChanges: 10_000, maxAge: 24 * 60 * 60 * 1000, maxKeptChars: 1 << 20 }

const LOCAL = 1
const REVERT = 2

/**
 * Every change to the text in the order this editor saw it. Entries are stored column-wise (time,
 * client, flags in typed arrays; the ID range arrays by reference, as the ChangeSet made them), so a
 * change costs about 30 bytes beyond its ranges; `ChangeEntry` objects are made when asked for.
 */
export class ChangeLog {
  private count = 0
  private times = new Float64Array(64)
  private clients = new Uint32Array(64)
  private flags = new Uint8Array(64)
  private inserted: (readonly IdRange[])[] = []
  private deleted: (readonly IdRange[])[] = []
  /** Ranges this log keeps from garbage collection, by entry index (entries in the window only). */
  private readonly kept = new Map<number, IdRange[]>()
  private keptChars = 0
  private readonly keptCharsOf = new Map<number, number>()
  /** The first entry still in the revert window. */
  private windowStart = 0
  private readonly emitter = new Emitter<{ 'did-add-change': ChangeEntry }>()
  /** Deleted text kept in the transaction ending now, for its change set (which comes after Yjs's collection). */
  private pendingKept: { kept: IdRange[]; chars: number } | null = null
  private readonly afterTransaction = (transaction: Y.Transaction): void => this.keepTransaction(transaction)
  private readonly afterCleanup = (): void => this.dropPending()

  constructor(
    private readonly ytext: Y.Text,
    private readonly authors: Authors,
    private readonly window: RevertWindow = DEFAULT_REVERT_WINDOW,
  ) {
    // Yjs collects deleted text right after 'afterTransaction'; change sets are announced after that.
    // The cleanup listener is there only while kept text waits for its change set (`pendingKept`).
    ytext.doc!.on('afterTransaction', this.afterTransaction)
  }

  destroy(): void {
    this.ytext.doc!.off('afterTransaction', this.afterTransaction)
    this.ytext.doc!.off('afterTransactionCleanup', this.afterCleanup)
    this.emitter.dispose()
  }

  /** Before Yjs collects them: keeps the text this transaction deleted, for its change's revert. */
  private keepTransaction(transaction: Y.Transaction): void {
    this.dropPending()
    if (transaction.deleteSet.clients.size === 0) return
    const kept = keepTransactionDeletions(this.ytext, transaction)
    if (kept.kept.length === 0) return
    this.pendingKept = kept
    // After the buffer's listener (registered when the buffer was made), which announces the change set.
    this.ytext.doc!.on('afterTransactionCleanup', this.afterCleanup)
  }

  /**
   * Kept text whose transaction announced no change (the text ended as it began) is let go. The log
   * listens to cleanups only while such text waits, not on every transaction (typing deletes nothing).
   */
  private dropPending(): void {
    const pending = this.pendingKept
    if (pending === null) return
    this.pendingKept = null
    this.ytext.doc!.off('afterTransactionCleanup', this.afterCleanup)
    releaseDeleted(this.ytext, pending.kept)
  }

  /** Records `change` (called once per transaction that changed the text). */
  add(change: ChangeSet, isRevert = false): void {
    const index = this.count
    if (index === this.times.length) this.grow()
    this.times[index] = change.time
    this.clients[index] = change.author
    this.flags[index] = (change.origin === 'local' ? LOCAL : 0) | (isRevert ? REVERT : 0)
    this.inserted.push(change.insertedIds)
    this.deleted.push(change.deletedIds)
    this.count++
    const pending = this.pendingKept
    if (pending !== null) {
      this.pendingKept = null
      this.ytext.doc!.off('afterTransactionCleanup', this.afterCleanup)
      this.kept.set(index, pending.kept)
      this.keptCharsOf.set(index, pending.chars)
      this.keptChars += pending.chars
    }
    this.trimWindow(change.time)
    // Entries are objects only for those who ask: typing with nobody listening allocates none.
    if (this.emitter.hasListeners('did-add-change')) this.emitter.emit('did-add-change', this.entry(index))
  }

  get size(): number {
    return this.count
  }

  /** The entry with `id`, or null. */
  get(id: string): ChangeEntry | null {
    const index = Number(id) - 1
    return Number.isInteger(index) && index >= 0 && index < this.count && String(index + 1) === id ? this.entry(index) : null
  }

  /** The latest entry, or null. */
  last(): ChangeEntry | null {
    return this.count === 0 ? null : this.entry(this.count - 1)
  }

  /** The entry at `index` (0 = the oldest). */
  entry(index: number): ChangeEntry {
    return {
      id: String(index + 1),
      author: this.authors.author(this.clients[index]!),
      time: this.times[index]!,
      origin: (this.flags[index]! & LOCAL) !== 0 ? 'local' : 'remote',
      insertedIds: this.inserted[index]!,
      deletedIds: this.deleted[index]!,
      revertible: index >= this.windowStart,
      isRevert: (this.flags[index]! & REVERT) !== 0,
    }
  }

  /** Changes matching `query`, oldest first. */
  query({ since = -Infinity, until = Infinity, author }: ChangeQuery = {}): ChangeEntry[] {
    const out: ChangeEntry[] = []
    // Times are non-decreasing unless the clock went back: search from the first change at or after `since`.
    for (let i = this.firstAtOrAfter(since); i < this.count; i++) {
      const time = this.times[i]!
      if (time < since || time > until) continue
      if (author !== undefined && !Authors.matches(this.authors.author(this.clients[i]!), author)) continue
      out.push(this.entry(i))
    }
    return out
  }

  /** The latest change that inserted the character with ID (client, clock), or null (older than the log). */
  insertedBy(client: number, clock: number): ChangeEntry | null {
    for (let i = this.count - 1; i >= 0; i--) {
      for (const range of this.inserted[i]!) {
        if (range.client === client && range.clock <= clock && clock < range.clock + range.length) return this.entry(i)
      }
    }
    return null
  }

  onDidAddChange(callback: (entry: ChangeEntry) => void): Disposable {
    return this.emitter.on('did-add-change', callback)
  }

  private firstAtOrAfter(time: number): number {
    let lo = 0
    let hi = this.count
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.times[mid]! < time) lo = mid + 1
      else hi = mid
    }
    // A clock that went back may have put an earlier time after a later one: step back over equal-or-later neighbours is not needed for monotonic clocks.
    return Math.max(0, lo - 1)
  }

  /** Moves the window's start past changes it no longer covers and lets their deleted text go. */
  private trimWindow(now: number): void {
    const { maxChanges, maxAge, maxKeptChars } = this.window
    while (
      this.windowStart < this.count &&
      (this.count - this.windowStart > maxChanges || this.times[this.windowStart]! < now - maxAge || this.keptChars > maxKeptChars)
    ) {
      const index = this.windowStart++
      const kept = this.kept.get(index)
      if (kept !== undefined) {
        this.kept.delete(index)
        this.keptChars -= this.keptCharsOf.get(index) ?? 0
        this.keptCharsOf.delete(index)
        releaseDeleted(this.ytext, kept)
      }
    }
  }

  private grow(): void {
    const size = this.times.length * 2
    const times = new Float64Array(size)
    times.set(this.times)
    this.times = times
    const clients = new Uint32Array(size)
    clients.set(this.clients)
    this.clients = clients
    const flags = new Uint8Array(size)
    flags.set(this.flags)
    this.flags = flags
  }
}
