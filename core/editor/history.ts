import type * as Y from 'yjs'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import { hasPendingTransactions, isIdDeleted, lastChangeTime, type StackItem } from '../buffer/yjs-internals.ts'
import { AFTER, type HistoryMember, UndoHistory } from './undo-history.ts'
import type { PositionTracker } from '../anchors/marker-layer.ts'

/** A selection as offsets: where its tail (anchor) and head are. */
export interface SelectionOffsets {
  anchor: number
  head: number
}

/**
 * The selections an undo step restores, as the characters their ends are bound to, three slots per
 * selection: its shape, then two Yjs IDs (null: outside the text, at its start or end). An endpoint is
 * bound to a neighbouring character that the recorded edit will not delete: a range's start to the
 * character before it, its end to the one after it (the edit replaces what is between). A cursor is
 * bound both ways (backspace deletes the one before, delete the one after) and restores from whichever
 * neighbour is still alive, because undo brings text back as new items. Every step of the history keeps
 * one, so it is flat: relative positions are made from the IDs only when a step is restored.
 */
type AnchoredSelections = (number | Y.ID | null)[]

/** Shapes of an anchored selection: a cursor (the IDs before and after it), or a range (the IDs before its start and after its end). */
const CURSOR = 0
const FORWARD = 1
const REVERSED = 2

export interface HistoryHost {
  readonly buffer: TextBuffer
  /** The editor's one anchor index, which keeps the selections after the latest step through later edits. */
  readonly anchors: PositionTracker
  /** The current selections of the editor, in the order they were added. */
  selectionOffsets(): SelectionOffsets[]
  /** Replace the editor's selections (called after undo/redo). */
  restoreSelections(selections: SelectionOffsets[]): void
}

/**
 * One editor's side of the undo history of its text, which every editor on the same Y.Text in this
 * process shares (`UndoHistory`): undo reverts this Yjs client's changes and never a peer's. Every step
 * remembers the selections of the editor that made it, from before its change and right after it: undo
 * restores the first, redo the second, in that editor. The selections after a change are kept as entries
 * of the editor's anchor index until the next step starts (typing grouped into one step anchors them
 * once): bound to the character before them, a replacement around one sends it to the end of the new text.
 */
export class History implements HistoryMember {
  private readonly shared: UndoHistory
  private pendingBefore: AnchoredSelections | null = null
  /** The latest step, while the selections right after it (in `afterEntries`) are not yet anchored. */
  private pendingAfter: StackItem | null = null
  /**
   * The selections right after the latest step: an anchor entry and a head entry per selection (the same
   * one for a cursor). The entries stay in the index between steps and are moved, not made again.
   */
  private readonly afterEntries: number[] = []
  /** Set when the running change made or extended an undo step. */
  private changedStep = false

  constructor(
    private readonly host: HistoryHost,
    readonly origin: unknown,
  ) {
    this.shared = UndoHistory.join(host.buffer.ytext, this)
  }

  /** The Y.UndoManager behind the shared history (it tracks the origins of this text's editors). */
  get undoManager(): Y.UndoManager {
    return this.shared.undoManager
  }

  destroy(): void {
    this.releaseAfter(0)
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
    const unchanged = this.pendingAfter !== null && this.afterIs(current)
    const before = this.anchor(current)
    if (unchanged) {
      this.pendingAfter!.meta.set(AFTER, before)
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
    if (top !== undefined && this.changedStep) this.holdAfter(top, this.host.selectionOffsets())
  }

  /**
   * Keeps `selections` as the selections after `step`, in the entries of the last step (moved) or new
   * ones. A cursor (an empty selection) holds one entry as both its anchor and head.
   */
  private holdAfter(step: StackItem, selections: SelectionOffsets[]): void {
    const anchors = this.host.anchors
    const entries = this.afterEntries
    this.releaseAfter(selections.length)
    for (let i = 0; i < selections.length; i++) {
      const { anchor, head } = selections[i]!
      if (2 * i === entries.length) {
        const first = anchors.track(anchor)
        entries.push(first, anchor === head ? first : anchors.track(head))
        continue
      }
      const first = entries[2 * i]!
      const second = entries[2 * i + 1]!
      anchors.move(first, anchor)
      if (anchor === head) {
        if (second !== first) anchors.untrack(second)
        entries[2 * i + 1] = first
      } else if (second === first) {
        entries[2 * i + 1] = anchors.track(head)
      } else {
        anchors.move(second, head)
      }
    }
    this.pendingAfter = step
  }

  /** Lets go of the entries of the selections after the first `kept`. */
  private releaseAfter(kept: number): void {
    const entries = this.afterEntries
    while (entries.length > 2 * kept) {
      const second = entries.pop()!
      const first = entries.pop()!
      this.host.anchors.untrack(first)
      if (second !== first) this.host.anchors.untrack(second)
    }
  }

  /** Whether the selections after the latest step are still `selections`. */
  private afterIs(selections: SelectionOffsets[]): boolean {
    const anchors = this.host.anchors
    const entries = this.afterEntries
    if (entries.length !== 2 * selections.length) return false
    return selections.every(({ anchor, head }, i) => anchors.offset(entries[2 * i]!) === anchor && anchors.offset(entries[2 * i + 1]!) === head)
  }

  /** @internal (tests) The selections after the latest step while they wait to be anchored; null once anchored. */
  pendingAfterSelections(): SelectionOffsets[] | null {
    return this.pendingAfter === null ? null : this.afterOffsets()
  }

  /** The selections after the latest step, where later edits have moved them. */
  private afterOffsets(): SelectionOffsets[] {
    const anchors = this.host.anchors
    const out: SelectionOffsets[] = []
    for (let i = 0; i < this.afterEntries.length; i += 2) out.push({ anchor: anchors.offset(this.afterEntries[i]!), head: anchors.offset(this.afterEntries[i + 1]!) })
    return out
  }

  /** @internal (HistoryMember) */
  pendingSelections(): AnchoredSelections | null {
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
    pending.meta.set(AFTER, this.anchor(this.afterOffsets()))
  }

  private anchor(offsets: SelectionOffsets[]): AnchoredSelections {
    const buffer = this.host.buffer
    const anchored: AnchoredSelections = []
    for (const { anchor, head } of offsets) {
      if (anchor === head) anchored.push(CURSOR, buffer.idForOffset(anchor, -1), buffer.idForOffset(anchor, 0))
      else anchored.push(anchor < head ? FORWARD : REVERSED, buffer.idForOffset(Math.min(anchor, head), -1), buffer.idForOffset(Math.max(anchor, head), 0))
    }
    return anchored
  }

  /** @internal (HistoryMember) */
  restore(selections: AnchoredSelections): void {
    const buffer = this.host.buffer
    const resolve = (id: Y.ID | null, assoc: number): number | null => buffer.offsetForRelativePosition(buffer.relativePositionForId(id, assoc))
    const offsets: SelectionOffsets[] = []
    for (let i = 0; i < selections.length; i += 3) {
      const shape = selections[i] as number
      const first = selections[i + 1] as Y.ID | null
      const second = selections[i + 2] as Y.ID | null
      let anchor: number | null
      let head: number | null
      if (shape === CURSOR) {
        // The character before the cursor if it is still there (or the cursor was at the start), else the one after.
        anchor = head = first === null || !isIdDeleted(buffer.doc, first) ? resolve(first, -1) : resolve(second, 0)
      } else {
        const start = resolve(first, -1)
        const end = resolve(second, 0)
        anchor = shape === FORWARD ? start : end
        head = shape === FORWARD ? end : start
      }
      if (anchor !== null && head !== null) offsets.push({ anchor, head })
    }
    if (offsets.length > 0) this.host.restoreSelections(offsets)
  }
}
