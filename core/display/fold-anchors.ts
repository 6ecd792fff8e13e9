import { ChangeSet, type MapMode } from '../buffer/change-set.ts'
import type { TextChange } from '../buffer/text-change.ts'

/**
 * Where a display layer keeps its folds' ends: entries of an anchor index that maps them through every
 * change before the layer follows it (an editor's `MarkerLayer` implements this; a layer on its own keeps
 * them in `OwnFoldAnchors`). Display's own interface, so that display/ needs nothing from anchors/.
 */
export interface FoldAnchors {
  /** A new entry at `offset`, mapped by its association and mode; its number. */
  track(offset: number, mode: MapMode, assoc: -1 | 1): number
  untrack(entry: number): void
  offset(entry: number): number
  /** Whether a deletion around the entry removed it, as its mode says. */
  isLost(entry: number): boolean
}

/**
 * The folds' entries of a display layer that no editor owns (made on its own, as in the display tests and
 * benchmarks): a short list mapped through each change by `ChangeSet#mapPos`, the rule the editor's
 * anchor index follows too. An editor moves its layer's folds into its one index (`DisplayLayer#useAnchors`).
 */
export class OwnFoldAnchors implements FoldAnchors {
  private offsets: number[] = []
  private assocs: (-1 | 1)[] = []
  private modes: MapMode[] = []
  private lost: boolean[] = []
  private live: boolean[] = []
  private readonly free: number[] = []

  track(offset: number, mode: MapMode, assoc: -1 | 1): number {
    const entry = this.free.pop() ?? this.offsets.length
    this.offsets[entry] = offset
    this.assocs[entry] = assoc
    this.modes[entry] = mode
    this.lost[entry] = false
    this.live[entry] = true
    return entry
  }

  untrack(entry: number): void {
    if (this.live[entry] !== true) throw new RangeError(`OwnFoldAnchors: no entry ${entry}`)
    this.live[entry] = false
    this.free.push(entry)
  }

  offset(entry: number): number {
    return this.offsets[entry]!
  }

  isLost(entry: number): boolean {
    return this.lost[entry] === true
  }

  /** Maps every entry through one event's changes (sequential), the text being `length` long after them. */
  follow(changes: readonly TextChange[], length: number): void {
    if (this.free.length === this.offsets.length) return
    let before = length
    for (const change of changes) before -= change.newLength - change.oldLength
    for (const change of changes) {
      const { startOffset: start, oldLength, newLength } = change
      let set: ChangeSet | null = null
      for (let entry = 0; entry < this.offsets.length; entry++) {
        const offset = this.offsets[entry]!
        // Before the change nothing moves, after it everything shifts: only the entries it reaches need the rule.
        if (!this.live[entry] || offset < start) continue
        if (offset > start + oldLength) {
          this.offsets[entry] = offset + newLength - oldLength
          continue
        }
        set ??= ChangeSet.fromSequential(before, [{ offset: start, deleteLength: oldLength, insertText: change.newText }])
        const assoc = this.assocs[entry]!
        if (!this.lost[entry] && set.mapPos(offset, assoc, this.modes[entry]) === null) this.lost[entry] = true
        this.offsets[entry] = set.mapPos(offset, assoc)!
      }
      before += newLength - oldLength
    }
  }
}
