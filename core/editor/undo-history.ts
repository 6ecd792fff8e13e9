import * as Y from 'yjs'
import type { ObservableV2 } from 'lib0/observable'
import { joinNextChange, mergeStackItems, type StackItem } from '../buffer/yjs-internals.ts'

/** What a stack item's meta holds: the selections of the editor that made it, before and after it. */
export const BEFORE = 'cotext.selectionsBefore'
export const AFTER = 'cotext.selectionsAfter'
/** A step's id: Yjs makes a new stack item when it moves a step between stacks; the id goes along. */
const STEP = 'cotext.step'
/** The transaction origin of the editor that made the step: undo restores that editor's selections. */
const MADE_BY = 'cotext.madeBy'

/** One editor taking part in a document's history (its `History`). */
export interface HistoryMember {
  /** The transaction origin of the editor's own edits. */
  readonly origin: unknown
  /** The selections the undo of the change being made will restore (null: it joins the previous step). */
  pendingSelections(): unknown
  /** Its change made or extended an undo step. */
  stepChanged(): void
  /** Anchors the selections after its latest step before any step moves between the stacks. */
  settle(): void
  /** Puts back selections a step's meta kept (the editor made that step). */
  restore(selections: unknown): void
}

interface Checkpoint {
  length: number
  /** The step id of the item below the checkpoint (null: none). */
  top: number | null
}

/**
 * The event on the document through which an editor finds the history of its text. Asking the Y.Doc
 * keeps the registry where the caller put it — the document — rather than in a module-level map.
 */
const FIND = 'cotext:undo-history'
type FindEvents = { [FIND]: (text: Y.Text, answer: (history: UndoHistory) => void) => void }

/**
 * The undo history of one Y.Text shared by every editor on it in this process (one Yjs client), as
 * Atom's panes share their buffer's history: undo in any of them undoes the latest change made through
 * any of them and restores the selections of the editor that made it; peers' changes are never undone.
 * It is one Y.UndoManager tracking each member editor's origin; each step's meta says which editor made
 * it. The history lives as long as one editor uses it.
 */
export class UndoHistory {
  readonly undoManager: Y.UndoManager
  private readonly members = new Map<unknown, HistoryMember>()
  /** The meta of the item an undo or redo is moving to the other stack. */
  private moving: Map<string, unknown> | null = null
  private restoring = false
  private readonly checkpoints = new Map<number, Checkpoint>()
  private nextCheckpointId = 1
  private nextStepId = 1
  private readonly answerFind = (text: Y.Text, answer: (history: UndoHistory) => void): void => {
    if (text === this.text) answer(this)
  }

  /** The history of `text`'s editors in this process: the one already there, or a new one. */
  static join(text: Y.Text, member: HistoryMember): UndoHistory {
    const doc = text.doc
    if (doc === null) throw new Error('UndoHistory: the Y.Text must belong to a Y.Doc')
    let found: UndoHistory | null = null
    events(doc).emit(FIND, [text, (history) => (found = history)])
    const history: UndoHistory = found ?? new UndoHistory(text)
    history.members.set(member.origin, member)
    history.undoManager.addTrackedOrigin(member.origin)
    return history
  }

  private constructor(private readonly text: Y.Text) {
    const um = new Y.UndoManager(text, { trackedOrigins: new Set(), captureTimeout: 0 })
    this.undoManager = um
    events(text.doc!).on(FIND, this.answerFind)
    um.on('stack-item-updated', ({ origin }) => this.members.get(origin)?.stepChanged())
    um.on('stack-item-added', ({ stackItem, origin }) => {
      if (this.moving !== null) {
        for (const key of [BEFORE, AFTER, STEP, MADE_BY]) if (this.moving.has(key)) stackItem.meta.set(key, this.moving.get(key))
        return
      }
      const member = this.members.get(origin)
      if (member === undefined) return
      member.stepChanged()
      if (!stackItem.meta.has(STEP)) stackItem.meta.set(STEP, this.nextStepId++)
      stackItem.meta.set(MADE_BY, origin)
      const before = member.pendingSelections()
      if (!stackItem.meta.has(BEFORE) && before !== null) stackItem.meta.set(BEFORE, before)
    })
    um.on('stack-item-popped', ({ stackItem, type }) => {
      if (this.restoring) return
      const selections = stackItem.meta.get(type === 'undo' ? BEFORE : AFTER)
      const madeBy = this.members.get(stackItem.meta.get(MADE_BY))
      if (selections !== undefined && madeBy !== undefined) madeBy.restore(selections)
    })
  }

  /** An editor leaves (it is destroyed): its steps stay undoable by the others; the last one out ends the history. */
  leave(member: HistoryMember): void {
    if (!this.members.delete(member.origin)) return
    this.undoManager.removeTrackedOrigin(member.origin)
    if (this.members.size > 0) return
    events(this.text.doc!).off(FIND, this.answerFind)
    this.undoManager.destroy()
  }

  /** The undo stack's top step was made by an editor other than `member` (its change must not join it). */
  topMadeByOther(member: HistoryMember): boolean {
    const top = this.undoManager.undoStack[this.undoManager.undoStack.length - 1]
    return top !== undefined && top.meta.has(MADE_BY) && top.meta.get(MADE_BY) !== member.origin
  }

  /** The latest undo step (whose meta records the selections after it). */
  top(): StackItem | undefined {
    return this.undoManager.undoStack[this.undoManager.undoStack.length - 1]
  }

  /** Joins the next change to the latest step, however long ago it was made (Atom's `undo: 'skip'`). */
  joinNext(): void {
    joinNextChange(this.undoManager)
  }

  canUndo(): boolean {
    return this.undoManager.canUndo()
  }

  canRedo(): boolean {
    return this.undoManager.canRedo()
  }

  /** Undo or redo: pops the top item of one stack (Yjs pushes its inverse on the other, with the same meta). */
  step(kind: 'undo' | 'redo'): boolean {
    const um = this.undoManager
    const stack = kind === 'undo' ? um.undoStack : um.redoStack
    if (stack.length === 0) return false
    for (const member of this.members.values()) member.settle()
    this.moving = stack[stack.length - 1]!.meta
    try {
      return (kind === 'undo' ? um.undo() : um.redo()) !== null
    } finally {
      this.moving = null
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
    this.checkpoints.set(id, { length: stack.length, top: stepId(stack[stack.length - 1]) })
    return id
  }

  /** Undoes every change since the checkpoint, leaving nothing to redo; false if it is no longer valid. */
  revertToCheckpoint(id: number): boolean {
    const checkpoint = this.validCheckpoint(id)
    if (checkpoint === null) return false
    const redoLength = this.undoManager.redoStack.length
    const stack = this.undoManager.undoStack
    // Each editor gets back the selections from before its oldest reverted step.
    const oldest = new Map<unknown, unknown>()
    this.restoring = true
    try {
      while (stack.length > checkpoint.length) {
        const meta = stack[stack.length - 1]!.meta
        if (meta.has(BEFORE)) oldest.set(meta.get(MADE_BY), meta.get(BEFORE))
        this.undoManager.undo()
      }
    } finally {
      this.restoring = false
    }
    this.undoManager.redoStack.length = redoLength
    for (const [origin, selections] of oldest) this.members.get(origin)?.restore(selections)
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
}

function events(doc: Y.Doc): ObservableV2<FindEvents> {
  return doc as unknown as ObservableV2<FindEvents>
}

function stepId(item: StackItem | undefined): number | null {
  return item === undefined ? null : ((item.meta.get(STEP) as number | undefined) ?? null)
}
