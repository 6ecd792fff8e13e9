import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { WriteOptions } from '../selection/host.ts'
import { ReadOnlyEditorError } from './errors.ts'
import type { History } from './history.ts'

/** Which selections merge when an operation ends (Atom merges after every command that moves them). */
export type MergeRule = 'cursors' | 'intersecting' | 'intersecting-reversed'

/** What happens when the outermost operation ends: merge as asked and announce survivors, then publish once. */
export interface OperationEnd {
  /** Still inside the operation: changes made here (merging) join it. */
  operationEnding(merge: MergeRule | null): void
  /** After it: publish. */
  operationEnded(): void
}

/**
 * The one scope every editor command runs in. Nested operations join the outermost one, which owns the
 * read-only check, the Yjs transaction with its undo step, the merge of selections and the single
 * awareness publish. It replaces the separate "inside an outer operation" flags the editor had.
 */
export class OperationScope {
  private depth = 0
  /** The read-only check passed (or was bypassed) for the running write. */
  private writable = false
  /** A Yjs transaction (and undo step) is open. */
  private transacting = false
  private merge: MergeRule | null = null

  constructor(
    private readonly buffer: TextBuffer,
    private readonly history: History,
    private readonly end: OperationEnd,
    private readonly isReadOnly: () => boolean,
  ) {}

  /** True inside an operation: changes are merged and published when the outermost one ends. */
  isActive(): boolean {
    return this.depth > 0
  }

  isTransacting(): boolean {
    return this.transacting
  }

  /** Runs `fn` as (part of) one operation; `merge` says which selections merge when the outermost ends. */
  run<T>(fn: () => T, merge: MergeRule | null = null): T {
    // The outermost request wins: an inner command's merge is part of the outer one's.
    if (merge !== null && this.merge === null) this.merge = merge
    this.depth++
    let failed = true
    try {
      const result = fn()
      failed = false
      return result
    } finally {
      if (this.depth > 1) this.depth--
      else this.finish(failed)
    }
  }

  private finish(failed: boolean): void {
    try {
      // After a throw, nothing is merged; what did change is still published, and the error goes through.
      if (!failed) this.end.operationEnding(this.merge)
    } finally {
      this.merge = null
      this.depth = 0
      this.end.operationEnded()
    }
  }

  /** Throws `ReadOnlyEditorError` on a read-only editor unless bypassed or already inside a write. */
  checkWritable(name: string, options: WriteOptions): void {
    if (this.isReadOnly() && !options.bypassReadOnly && !this.writable) throw new ReadOnlyEditorError(name)
  }

  /**
   * A text change: read-only check, then one transaction and one undo step (joining an open one). Text
   * changes can bring selections together, so they merge intersecting ones unless told otherwise.
   */
  write<T>(name: string, options: WriteOptions & { undo?: 'skip' }, fn: () => T, merge: MergeRule = 'intersecting', groupingInterval = 0): T {
    this.checkWritable(name, options)
    if (this.writable) return this.transact(fn, merge, groupingInterval, options.undo === 'skip')
    this.writable = true
    try {
      return this.transact(fn, merge, groupingInterval, options.undo === 'skip')
    } finally {
      this.writable = false
    }
  }

  /**
   * One Yjs transaction and one undo step; `groupingInterval` joins a close previous step, and
   * `joinPrevious` (Atom's `undo: 'skip'`) joins the previous step whenever it was made.
   */
  transact<T>(fn: () => T, merge: MergeRule | null = null, groupingInterval = 0, joinPrevious = false): T {
    if (this.transacting) return this.run(fn, merge)
    return this.run(() => {
      this.transacting = true
      this.history.willChange(groupingInterval, joinPrevious)
      try {
        return this.buffer.transact(fn)
      } finally {
        this.history.didChange()
        this.transacting = false
      }
    }, merge)
  }
}
