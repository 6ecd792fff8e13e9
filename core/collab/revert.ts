import type * as Y from 'yjs'
import type { ChangeSet, IdRange } from '../buffer/change-set.ts'
import type { ChangeEntry, ChangeLog, ChangeQuery } from './change-log.ts'
import { IdReverter } from '../buffer/yjs-internals.ts'

/** What revert needs from the editor. */
export interface RevertHost {
  readonly ytext: Y.Text
  readonly log: ChangeLog
  /** Runs `fn` as one editor operation (read-only check done by the caller; one publish). */
  run<T>(fn: () => T): T
  /** Places the editor's selections (offsets), as undo does. */
  restoreSelections(selections: { anchor: number; head: number }[]): void
}

/**
 * Selective undo over the change log: revert any change or all of one author's in a window, and
 * undo/redo "everyone's" latest change. Each is one Yjs transaction (Y.UndoManager's own undo over the
 * chosen IDs, see IdReverter), lands in the log as a local change, and selects what it restored (or
 * puts a cursor where it removed text), as undo restores selections.
 */
export class Reverts {
  private readonly reverter: IdReverter
  /** Indices (entry id - 1) of changes that undo-everyone reverted and no redo brought back. */
  private readonly undone = new Set<number>()
  /** Changes made by undo/redo everyone (never themselves undone by it). */
  private readonly machinery = new Set<number>()
  /** Undo-everyone steps that redo can take back: the reverted change and its revert. */
  private redoStack: { target: number; revert: number }[] = []
  /** The change set of the revert running now (to place the selections). */
  private lastRevertSet: ChangeSet | null = null

  constructor(private readonly host: RevertHost) {
    this.reverter = new IdReverter(host.ytext)
  }

  destroy(): void {
    this.reverter.destroy()
  }

  /** Whether `change` was made by a revert of this editor. */
  isRevert(change: ChangeSet): boolean {
    return change.transactionOrigin === this.reverter.origin
  }

  /** Called for every change set the log records: notes reverts, and forgets redo after a new local change. */
  noteChange(change: ChangeSet): void {
    if (change.transactionOrigin === this.reverter.origin) {
      this.lastRevertSet = change
      return
    }
    if (change.origin === 'local' && this.redoStack.length > 0) this.redoStack = []
  }

  /** Reverts one change (an entry or its id); returns the new change, or null when nothing was left to revert. */
  revertChange(idOrChange: string | ChangeEntry): ChangeEntry | null {
    const id = typeof idOrChange === 'string' ? idOrChange : idOrChange?.id
    const entry = typeof id === 'string' ? this.host.log.get(id) : null
    if (entry === null) throw new Error(`revertChange: no change ${JSON.stringify(id)} in this editor's log`)
    this.assertRevertible([entry])
    return this.revertIds(entry.insertedIds, entry.deletedIds)
  }

  /** Reverts every change of `author` between `since` and `until` as one change; null when there was none to revert. */
  revertChanges(query: ChangeQuery & { author: number | string }): ChangeEntry | null {
    if (query === null || typeof query !== 'object' || (typeof query.author !== 'number' && typeof query.author !== 'string')) {
      throw new TypeError('revertChanges needs {author, since?, until?} with author a client ID, user id or name')
    }
    const entries = this.host.log.query(query)
    if (entries.length === 0) return null
    this.assertRevertible(entries)
    const inserted: IdRange[] = []
    const deleted: IdRange[] = []
    for (const entry of entries) {
      inserted.push(...entry.insertedIds)
      deleted.push(...entry.deletedIds)
    }
    return this.revertIds(inserted, deleted)
  }

  /** Reverts the latest change in the document that undo-everyone has not reverted; false when there is none. */
  undoEveryone(): boolean {
    const log = this.host.log
    for (let index = log.size - 1; index >= 0; index--) {
      if (this.machinery.has(index) || this.undone.has(index)) continue
      const entry = log.entry(index)
      if (!entry.revertible) return false
      const revert = this.revertIds(entry.insertedIds, entry.deletedIds)
      if (revert === null) {
        // Nothing left of it (others reverted or overwrote it): it counts as undone; try the one before.
        this.undone.add(index)
        continue
      }
      const revertIndex = Number(revert.id) - 1
      this.machinery.add(revertIndex)
      this.undone.add(index)
      this.redoStack.push({ target: index, revert: revertIndex })
      return true
    }
    return false
  }

  /** Takes back the latest undo-everyone; false when there is none to take back. */
  redoEveryone(): boolean {
    const step = this.redoStack.pop()
    if (step === undefined) return false
    const revert = this.host.log.entry(step.revert)
    const redo = this.revertIds(revert.insertedIds, revert.deletedIds)
    this.undone.delete(step.target)
    if (redo !== null) this.machinery.add(Number(redo.id) - 1)
    return redo !== null
  }

  canRedoEveryone(): boolean {
    return this.redoStack.length > 0
  }

  private assertRevertible(entries: ChangeEntry[]): void {
    const old = entries.find((entry) => !entry.revertible)
    if (old) throw new Error(`Change ${old.id} can no longer be reverted: it is older than the revert window (its deleted text may have been collected)`)
  }

  private revertIds(insertedIds: readonly IdRange[], deletedIds: readonly IdRange[]): ChangeEntry | null {
    const log = this.host.log
    const before = log.size
    this.lastRevertSet = null
    this.host.run(() => {
      if (!this.reverter.revert(insertedIds, deletedIds)) return
      const set = this.lastRevertSet
      if (set === null) return
      const selections: { anchor: number; head: number }[] = []
      set.iterChanges((_fromA, _toA, fromB, toB) => selections.push({ anchor: fromB, head: toB }))
      if (selections.length > 0) this.host.restoreSelections(selections)
    })
    this.lastRevertSet = null
    return log.size > before ? log.entry(log.size - 1) : null
  }
}
