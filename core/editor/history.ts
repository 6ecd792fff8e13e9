import type * as Y from 'yjs'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { Disposable } from '../events/disposable.ts'
import { hasPendingTransactions, isIdDeleted, lastChangeTime, type StackItem } from '../buffer/yjs-internals.ts'
import { AFTER, type HistoryMember, UndoHistory } from './undo-history.ts'
import { mapOffset } from '../anchors/offset-mapping.ts'

/** A selection as offsets: where its tail (anchor) and head are. */
export interface SelectionOffsets {
  anchor: number
  head: number
}

/**
 * An endpoint bound to a neighbouring character that the recorded edit will not delete: a selection's
 * start to the character before it, its end to the one after it (the edit replaces what is between).
 * A cursor is bound both ways (backspace deletes the one before, delete the one after) and restores
 * from whichever neighbour is still alive, because undo brings text back as new items.
 */
interface AnchoredPoint {
  before?: Y.RelativePosition
  after?: Y.RelativePosition
}

interface AnchoredSelection {
  anchor: AnchoredPoint
  head: AnchoredPoint
}

export interface HistoryHost {
  readonly buffer: TextBuffer
  /** The current selections of the editor, in the order they were added. */
  selectionOffsets(): SelectionOffsets[]
  /** Replace the editor's selections (called after undo/redo). */
  restoreSelections(selections: SelectionOffsets[]): void
}

/**
 * One editor's side of the undo history of its text, which every editor on the same Y.Text in this
 * process shares (`UndoHistory`): undo reverts this Yjs client's changes and never a peer's. Every step
 * remembers the selections of the editor that made it, from before its change and right after it: undo
 * restores the first, redo the second, in that editor. The selections after a change are kept as offsets
 * mapped through later edits until the next step starts (typing grouped into one step anchors them once).
 */
export class History implements HistoryMember {
  private readonly shared: UndoHistory
  private pendingBefore: AnchoredSelection[] | null = null
  /** The selections right after the latest step, not yet anchored. */
  private pendingAfter: { item: StackItem; offsets: SelectionOffsets[] } | null = null
  /** Set when the running change made or extended an undo step. */
  private changedStep = false
  private readonly changeHook: Disposable

  constructor(
    private readonly host: HistoryHost,
    readonly origin: unknown,
  ) {
    this.shared = UndoHistory.join(host.buffer.ytext, this)
    this.changeHook = host.buffer.addChangeHook('history', ({ changes }) => {
      const offsets = this.pendingAfter?.offsets
      if (!offsets) return
      for (const { startOffset, oldLength, newLength } of changes) {
        for (const selection of offsets) {
          selection.anchor = mapOffset(selection.anchor, startOffset, oldLength, newLength, false)
          selection.head = mapOffset(selection.head, startOffset, oldLength, newLength, false)
        }
      }
    })
  }

  /** The Y.UndoManager behind the shared history (it tracks the origins of this text's editors). */
  get undoManager(): Y.UndoManager {
    return this.shared.undoManager
  }

  destroy(): void {
    this.changeHook.dispose()
    this.shared.leave(this)
  }

  /**
   * Called before a change: remembers the selections the undo of that change will restore. With a
   * grouping interval, a change that follows the previous one closely joins its undo step — unless
   * another editor made that step.
   */
  willChange(groupingInterval = 0, joinPrevious = false): void {
    const um = this.undoManager
    if (joinPrevious && um.undoStack.length > 0) {
      // Atom's `undo: 'skip'`: the change becomes part of the previous step, however long ago it was
      // (Y.UndoManager joins when the last change is newer than the capture timeout).
      this.shared.joinNext()
      this.changedStep = false
      this.pendingBefore = null
      return
    }
    if (this.shared.topMadeByOther(this)) this.shared.stopGrouping()
    um.captureTimeout = groupingInterval
    // A change that will join the previous undo step (Y.UndoManager's own test) keeps that step's
    // selections: skip taking them, which is most keystrokes of continuous typing.
    const lastChange = lastChangeTime(um)
    const joins = groupingInterval > 0 && lastChange > 0 && Date.now() - lastChange < groupingInterval && um.undoStack.length > 0
    this.changedStep = false
    if (joins) {
      this.pendingBefore = null
      return
    }
    // Usually nothing moved since the last step ended: its "after" is this step's "before", anchored once.
    const current = this.host.selectionOffsets()
    const unchanged = this.pendingAfter !== null && sameOffsets(this.pendingAfter.offsets, current)
    const before = this.anchor(current)
    if (unchanged) {
      this.pendingAfter!.item.meta.set(AFTER, before)
      this.pendingAfter = null
    } else {
      this.settle()
    }
    this.pendingBefore = before
  }

  didChange(): void {
    this.pendingBefore = null
    this.undoManager.captureTimeout = 0
    const top = this.shared.top()
    if (top !== undefined && this.changedStep) this.pendingAfter = { item: top, offsets: this.host.selectionOffsets() }
  }

  /** @internal (HistoryMember) */
  pendingSelections(): AnchoredSelection[] | null {
    return this.pendingBefore
  }

  /** @internal (HistoryMember) */
  stepChanged(): void {
    this.changedStep = true
  }

  canUndo(): boolean {
    return this.shared.canUndo()
  }

  canRedo(): boolean {
    return this.shared.canRedo()
  }

  undo(): boolean {
    return this.step('undo')
  }

  redo(): boolean {
    return this.step('redo')
  }

  private step(kind: 'undo' | 'redo'): boolean {
    if (hasPendingTransactions(this.host.buffer.doc)) return this.stepAfterTransaction(kind)
    return this.shared.step(kind)
  }

  /**
   * Undo or redo asked inside a transaction (an `onDidChange` listener of the change being made, as in
   * Atom, or an `onDidChangeText` listener while Yjs finishes it): Y.UndoManager records that change only
   * when the transaction ends, so the step runs then — once Yjs has finished every pending transaction,
   * so that the step's own transaction is cleaned up while Y.UndoManager still knows it is undoing.
   */
  private stepAfterTransaction(kind: 'undo' | 'redo'): boolean {
    const doc = this.host.buffer.doc
    const run = (): void => {
      doc.off('afterAllTransactions', run)
      this.step(kind)
      // The step is not a change of the running operation: it leaves that operation's "after" alone.
      this.changedStep = false
    }
    doc.on('afterAllTransactions', run)
    return true
  }

  clear(): void {
    this.shared.clear()
  }

  /** Makes the next change start a new undo step. */
  stopGrouping(): void {
    this.shared.stopGrouping()
  }

  createCheckpoint(): number {
    return this.shared.createCheckpoint()
  }

  /** Undoes every change since the checkpoint, leaving nothing to redo; false if it is no longer valid. */
  revertToCheckpoint(id: number): boolean {
    return this.shared.revertToCheckpoint(id)
  }

  /** Folds every change since the checkpoint into one undo step; false if it is no longer valid. */
  groupChangesSinceCheckpoint(id: number): boolean {
    return this.shared.groupChangesSinceCheckpoint(id)
  }

  /** @internal (HistoryMember) Anchors the selections after this editor's latest step. */
  settle(): void {
    const pending = this.pendingAfter
    if (pending === null) return
    this.pendingAfter = null
    pending.item.meta.set(AFTER, this.anchor(pending.offsets))
  }

  private anchor(offsets: SelectionOffsets[]): AnchoredSelection[] {
    const buffer = this.host.buffer
    return offsets.map(({ anchor, head }) => {
      if (anchor === head) {
        const point = { before: buffer.relativePositionForOffset(anchor, -1), after: buffer.relativePositionForOffset(anchor, 0) }
        return { anchor: point, head: point }
      }
      const start: AnchoredPoint = { before: buffer.relativePositionForOffset(Math.min(anchor, head), -1) }
      const end: AnchoredPoint = { after: buffer.relativePositionForOffset(Math.max(anchor, head), 0) }
      return anchor < head ? { anchor: start, head: end } : { anchor: end, head: start }
    })
  }

  /** @internal (HistoryMember) */
  restore(selections: AnchoredSelection[]): void {
    const resolve = ({ before, after }: AnchoredPoint): number | null => {
      const beforeAlive = before !== undefined && (before.item === null || !isIdDeleted(this.host.buffer.doc, before.item))
      const position = beforeAlive || after === undefined ? before : after
      return position === undefined ? null : this.host.buffer.offsetForRelativePosition(position)
    }
    const offsets: SelectionOffsets[] = []
    for (const selection of selections) {
      const anchor = resolve(selection.anchor)
      const head = resolve(selection.head)
      if (anchor !== null && head !== null) offsets.push({ anchor, head })
    }
    if (offsets.length > 0) this.host.restoreSelections(offsets)
  }
}

function sameOffsets(a: SelectionOffsets[], b: SelectionOffsets[]): boolean {
  return a.length === b.length && a.every((s, i) => s.anchor === b[i]!.anchor && s.head === b[i]!.head)
}
