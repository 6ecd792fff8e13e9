import type { PositionTracker } from '../anchors/marker-layer.ts'

/**
 * Every peer's selections as (head, tail) pairs of entries in the editor's one anchor index (the
 * marker layer's), which maps them with every other tracked position: a change costs nothing for the
 * pairs it does not reach, and no marker object (with its selection and cursor) is made per remote
 * selection. Positions are bound to the character before them, as peers publish them, so text
 * inserted at an offset never pushes it (as a remote marker). Pairs are numbered; a removed pair's
 * number is reused.
 */
export class RemotePositions {
  /** The tracker's entries: head at 2n, tail at 2n + 1; -1 for a free pair. */
  private entries: number[] = []
  private free: number[] = []

  constructor(private readonly tracker: PositionTracker) {}

  /** A new pair at these offsets; its number. */
  add(head: number, tail: number): number {
    const pair = this.free.pop() ?? this.entries.length / 2
    this.entries[2 * pair] = this.tracker.track(head)
    this.entries[2 * pair + 1] = this.tracker.track(tail)
    return pair
  }

  remove(pair: number): void {
    this.tracker.untrack(this.entries[2 * pair]!)
    this.tracker.untrack(this.entries[2 * pair + 1]!)
    this.entries[2 * pair] = this.entries[2 * pair + 1] = -1
    this.free.push(pair)
  }

  set(pair: number, head: number, tail: number): void {
    this.tracker.move(this.entries[2 * pair]!, head)
    this.tracker.move(this.entries[2 * pair + 1]!, tail)
  }

  head(pair: number): number {
    return this.tracker.offset(this.entries[2 * pair]!)
  }

  tail(pair: number): number {
    return this.tracker.offset(this.entries[2 * pair + 1]!)
  }

  /** Releases every pair's entries (the collaboration ends; the index stays with the editor). */
  clear(): void {
    for (let pair = 0; 2 * pair < this.entries.length; pair++) if (this.entries[2 * pair]! >= 0) this.remove(pair)
    this.entries = []
    this.free = []
  }
}
