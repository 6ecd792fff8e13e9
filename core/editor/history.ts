import * as Y from 'yjs'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { Disposable } from '../events/disposable.ts'
import { hasPendingTransactions, isIdDeleted, joinNextChange, lastChangeTime, mergeStackItems, type StackItem } from '../buffer/yjs-internals.ts'
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

interface Checkpoint {
  length: number
  /** The step id of the item below the checkpoint (null: none). */
  top: number | null
}

const BEFORE = 'cotext.selectionsBefore'
const AFTER = 'cotext.selectionsAfter'
/** A step's id: Yjs makes a new stack item when it moves a step between stacks; the id goes along. */
const STEP = 'cotext.step'

/**
 * Undo/redo over a Y.UndoManager that tracks only this editor's transaction origin, so undo reverts
 * this user's changes and never a peer's. Every stack item remembers the selections from before its
 * change and right after it: undo restores the first, redo the second, and an item moved from one
 * stack to the other keeps both. The selections after a change are kept as offsets mapped through
 * later edits until the next step starts (typing grouped into one step anchors them once).
 */
export class History {
  readonly undoManager: Y.UndoManager
  private pendingBefore: AnchoredSelection[] | null = null
  /** The selections right after the latest step, not yet anchored. */
  private pendingAfter: { item: StackItem; offsets: SelectionOffsets[] } | null = null
  /** The meta of the item an undo or redo is moving to the other stack. */
  private moving: Map<string, unknown> | null = null
  /** Set when the running change made or extended an undo step. */
  private stepChanged = false
  private readonly checkpoints = new Map<number, Checkpoint>()
  private nextCheckpointId = 1
  private nextStepId = 1
  private restoring = false
  private readonly changeHook: Disposable

  constructor(
    private readonly host: HistoryHost,
    origin: unknown,
  ) {
    this.undoManager = new Y.UndoManager(host.buffer.ytext, { trackedOrigins: new Set([origin]), captureTimeout: 0 })
    this.undoManager.on('stack-item-updated', () => {
      this.stepChanged = true
    })
    this.undoManager.on('stack-item-added', ({ stackItem }) => {
      this.stepChanged = true
      if (this.moving !== null) {
        for (const key of [BEFORE, AFTER, STEP]) if (this.moving.has(key)) stackItem.meta.set(key, this.moving.get(key))
        return
      }
      if (!stackItem.meta.has(STEP)) stackItem.meta.set(STEP, this.nextStepId++)
      if (!stackItem.meta.has(BEFORE) && this.pendingBefore !== null) stackItem.meta.set(BEFORE, this.pendingBefore)
    })
    this.undoManager.on('stack-item-popped', ({ stackItem, type }) => {
      const selections = stackItem.meta.get(type === 'undo' ? BEFORE : AFTER) as AnchoredSelection[] | undefined
      if (selections && !this.restoring) this.restore(selections)
    })
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

  destroy(): void {
    this.changeHook.dispose()
    this.undoManager.destroy()
  }

  /**
   * Called before a change: remembers the selections the undo of that change will restore. With a
   * grouping interval, a change that follows the previous one closely joins its undo step.
   */
  willChange(groupingInterval = 0, joinPrevious = false): void {
    const um = this.undoManager
    if (joinPrevious && um.undoStack.length > 0) {
      // Atom's `undo: 'skip'`: the change becomes part of the previous step, however long ago it was
      // (Y.UndoManager joins when the last change is newer than the capture timeout).
      joinNextChange(um)
      this.stepChanged = false
      this.pendingBefore = null
      return
    }
    um.captureTimeout = groupingInterval
    // A change that will join the previous undo step (Y.UndoManager's own test) keeps that step's
    // selections: skip taking them, which is most keystrokes of continuous typing.
    const lastChange = lastChangeTime(um)
    const joins = groupingInterval > 0 && lastChange > 0 && Date.now() - lastChange < groupingInterval && um.undoStack.length > 0
    this.stepChanged = false
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
      this.anchorPendingAfter()
    }
    this.pendingBefore = before
  }

  didChange(): void {
    this.pendingBefore = null
    const um = this.undoManager
    um.captureTimeout = 0
    const top = um.undoStack[um.undoStack.length - 1]
    if (top !== undefined && this.stepChanged) this.pendingAfter = { item: top, offsets: this.host.selectionOffsets() }
  }

  canUndo(): boolean {
    return this.undoManager.canUndo()
  }

  canRedo(): boolean {
    return this.undoManager.canRedo()
  }

  undo(): boolean {
    return this.step('undo')
  }

  redo(): boolean {
    return this.step('redo')
  }

  /** Undo and redo: pop the top item of one stack (Yjs pushes its inverse on the other, with the same selections). */
  private step(kind: 'undo' | 'redo'): boolean {
    const um = this.undoManager
    if (hasPendingTransactions(this.host.buffer.doc)) return this.stepAfterTransaction(kind)
    const stack = kind === 'undo' ? um.undoStack : um.redoStack
    if (stack.length === 0) return false
    this.anchorPendingAfter()
    this.moving = stack[stack.length - 1]!.meta
    try {
      return (kind === 'undo' ? um.undo() : um.redo()) !== null
    } finally {
      this.moving = null
    }
  }

  /**
   * Undo or redo asked inside a transaction (an `onDidChange` listener of the change being made, as in
   * Atom, or an `onDidChangeText` listener while Yjs finishes it): Y.UndoManager records that change only when the transaction ends, so the step runs then —
   * once Yjs has finished every pending transaction, so that the step's own transaction is cleaned up
   * while Y.UndoManager still knows it is undoing.
   */
  private stepAfterTransaction(kind: 'undo' | 'redo'): boolean {
    const doc = this.host.buffer.doc
    const run = (): void => {
      doc.off('afterAllTransactions', run)
      this.step(kind)
      // The step is not a change of the running operation: it leaves that operation's "after" alone.
      this.stepChanged = false
    }
    doc.on('afterAllTransactions', run)
    return true
  }

  clear(): void {
    this.undoManager.clear()
    this.checkpoints.clear()
  }

  /** Makes the next change start a new undo step. */
  stopGrouping(): void {
    this.undoManager.stopCapturing()
  }

  createCheckpoint(): number {
    this.undoManager.stopCapturing()
    const stack = this.undoManager.undoStack
    const id = this.nextCheckpointId++
    this.checkpoints.set(id, { length: stack.length, top: stepId(stack[stack.length - 1]) })
    return id
  }

  /** Undoes every change since the checkpoint, leaving nothing to redo; false if it is no longer valid. */
  revertToCheckpoint(id: number): boolean {
    const checkpoint = this.validCheckpoint(id)
    if (checkpoint === null) return false
    const redoLength = this.undoManager.redoStack.length
    const stack = this.undoManager.undoStack
    let oldest: AnchoredSelection[] | undefined
    this.restoring = true
    try {
      while (stack.length > checkpoint.length) {
        oldest = stack[stack.length - 1]!.meta.get(BEFORE) ?? oldest
        this.undoManager.undo()
      }
    } finally {
      this.restoring = false
    }
    this.undoManager.redoStack.length = redoLength
    if (oldest) this.restore(oldest)
    return true
  }

  /** Folds every change since the checkpoint into one undo step; false if it is no longer valid. */
  groupChangesSinceCheckpoint(id: number): boolean {
    const checkpoint = this.validCheckpoint(id)
    if (checkpoint === null) return false
    const stack = this.undoManager.undoStack
    const items = stack.slice(checkpoint.length)
    if (items.length <= 1) return true
    const [first, ...rest] = items
    mergeStackItems(first!, rest)
    stack.length = checkpoint.length + 1
    return true
  }

  private validCheckpoint(id: number): Checkpoint | null {
    const checkpoint = this.checkpoints.get(id)
    if (!checkpoint) return null
    const stack = this.undoManager.undoStack
    if (stack.length < checkpoint.length) return null
    if (stepId(stack[checkpoint.length - 1]) !== checkpoint.top) return null
    return checkpoint
  }

  private anchorPendingAfter(): void {
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

  private restore(selections: AnchoredSelection[]): void {
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

function stepId(item: StackItem | undefined): number | null {
  return item === undefined ? null : ((item.meta.get(STEP) as number | undefined) ?? null)
}

function sameOffsets(a: SelectionOffsets[], b: SelectionOffsets[]): boolean {
  return a.length === b.length && a.every((s, i) => s.anchor === b[i]!.anchor && s.head === b[i]!.head)
}
