import * as Y from 'yjs'
import type { TextBuffer } from '../buffer/text-buffer.ts'

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
  top: unknown
}

const BEFORE = 'cotext.selectionsBefore'

/**
 * Undo/redo over a Y.UndoManager that tracks only this editor's transaction origin, so undo reverts
 * this user's changes and never a peer's. Every stack item remembers the selections from before its
 * change; popping it restores them.
 */
export class History {
  readonly undoManager: Y.UndoManager
  private pendingBefore: AnchoredSelection[] | null = null
  private readonly checkpoints = new Map<number, Checkpoint>()
  private nextCheckpointId = 1
  private restoring = false

  constructor(
    private readonly host: HistoryHost,
    origin: unknown,
  ) {
    this.undoManager = new Y.UndoManager(host.buffer.ytext, { trackedOrigins: new Set([origin]), captureTimeout: 0 })
    this.undoManager.on('stack-item-added', ({ stackItem }) => {
      if (!stackItem.meta.has(BEFORE) && this.pendingBefore !== null) stackItem.meta.set(BEFORE, this.pendingBefore)
    })
    this.undoManager.on('stack-item-popped', ({ stackItem }) => {
      const before = stackItem.meta.get(BEFORE) as AnchoredSelection[] | undefined
      if (before && !this.restoring) this.restore(before)
    })
  }

  destroy(): void {
    this.undoManager.destroy()
  }

  /**
   * Called before a change: remembers the selections the undo of that change will restore. With a
   * grouping interval, a change that follows the previous one closely joins its undo step.
   */
  willChange(groupingInterval = 0): void {
    const um = this.undoManager
    um.captureTimeout = groupingInterval
    // A change that will join the previous undo step (Y.UndoManager's own test) keeps that step's
    // selections: skip taking them, which is most keystrokes of continuous typing.
    const joins = groupingInterval > 0 && um.lastChange > 0 && Date.now() - um.lastChange < groupingInterval && um.undoStack.length > 0
    this.pendingBefore = joins ? null : this.snapshot()
  }

  didChange(): void {
    this.pendingBefore = null
    this.undoManager.captureTimeout = 0
  }

  canUndo(): boolean {
    return this.undoManager.canUndo()
  }

  canRedo(): boolean {
    return this.undoManager.canRedo()
  }

  undo(): boolean {
    if (!this.undoManager.canUndo()) return false
    this.pendingBefore = this.snapshot()
    try {
      return this.undoManager.undo() !== null
    } finally {
      this.pendingBefore = null
    }
  }

  redo(): boolean {
    if (!this.undoManager.canRedo()) return false
    this.pendingBefore = this.snapshot()
    try {
      return this.undoManager.redo() !== null
    } finally {
      this.pendingBefore = null
    }
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
    this.checkpoints.set(id, { length: stack.length, top: stack[stack.length - 1] ?? null })
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
    first!.insertions = Y.mergeDeleteSets([first!.insertions, ...rest.map((item) => item.insertions)])
    first!.deletions = Y.mergeDeleteSets([first!.deletions, ...rest.map((item) => item.deletions)])
    stack.length = checkpoint.length + 1
    return true
  }

  private validCheckpoint(id: number): Checkpoint | null {
    const checkpoint = this.checkpoints.get(id)
    if (!checkpoint) return null
    const stack = this.undoManager.undoStack
    if (stack.length < checkpoint.length) return null
    if ((stack[checkpoint.length - 1] ?? null) !== checkpoint.top) return null
    return checkpoint
  }

  private snapshot(): AnchoredSelection[] {
    const buffer = this.host.buffer
    return this.host.selectionOffsets().map(({ anchor, head }) => {
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
      const beforeAlive = before !== undefined && (before.item === null || !isDeletedItem(this.host.buffer.doc, before.item))
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

function isDeletedItem(doc: Y.Doc, id: Y.ID): boolean {
  const structs = doc.store.clients.get(id.client)
  if (!structs) return true
  const last = structs[structs.length - 1]
  if (!last || last.id.clock + last.length <= id.clock) return true
  return structs[Y.findIndexSS(structs, id.clock)]!.deleted
}
