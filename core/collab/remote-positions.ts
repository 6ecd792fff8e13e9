import type { PositionTracker } from '../anchors/marker-layer.ts'

/**
 * Every peer's selections as (head, tail) pairs of entries in the editor's one anchor index (the
 * marker layer's), which maps them with every other tracked position: a change costs nothing for the
 * pairs it does not reach, and no marker object (with its selection and cursor) is made per remote
 * selection. A position is bound to the character before it, as Cotext publishes them, so text
 * inserted at its offset does not push it; one a peer published bound to the character after it (Yjs
 * `assoc >= 0`, as y-codemirror.next does, and its end-of-text position) moves with that text, as
 * Yjs would resolve it. Pairs are numbered; a removed pair's number is reused.
 */
export class RemotePositions {
  /**
   * The tracker's entries: pair n's head at 2n, its tail at 2n + 1. A free pair has -1 for its head
   * and the next free pair (or -1) for its tail, so that freed pairs cost no other array.
   */
  private ends = new Int32Array(32)
  private pairs = 0
  private freePair = -1

  constructor(private readonly tracker: PositionTracker) {}

  /** A new pair at these offsets; its number (the last one removed, if any). */
  add(head: number, tail: number, headFollows = false, tailFollows = false): number {
    let pair = this.freePair
    if (pair >= 0) {
      this.freePair = this.ends[2 * pair + 1]!
    } else {
      pair = this.pairs++
      if (2 * this.pairs > this.ends.length) {
        // Grown by half, as the anchor index's arrays are.
        const ends = new Int32Array(Math.ceil(this.ends.length * 1.5) & ~1)
        ends.set(this.ends)
        this.ends = ends
      }
    }
    this.place(2 * pair, head, headFollows)
    this.place(2 * pair + 1, tail, tailFollows)
    return pair
  }

  private place(slot: number, offset: number, follows: boolean): void {
    this.ends[slot] = this.tracker.track(offset, undefined, follows ? 1 : -1)
  }

  /** Whether the pair's head (or tail) follows text inserted at it. */
  headFollows(pair: number): boolean {
    return this.tracker.assoc(this.ends[2 * pair]!) > 0
  }

  tailFollows(pair: number): boolean {
    return this.tracker.assoc(this.ends[2 * pair + 1]!) > 0
  }

  remove(pair: number): void {
    this.tracker.untrack(this.ends[2 * pair]!)
    this.tracker.untrack(this.ends[2 * pair + 1]!)
    this.ends[2 * pair] = -1
    this.ends[2 * pair + 1] = this.freePair
    this.freePair = pair
  }

  set(pair: number, head: number, tail: number, headFollows = false, tailFollows = false): void {
    this.moveEnd(2 * pair, head, headFollows)
    this.moveEnd(2 * pair + 1, tail, tailFollows)
  }

  private moveEnd(slot: number, offset: number, follows: boolean): void {
    if ((this.tracker.assoc(this.ends[slot]!) > 0) === follows) return this.tracker.move(this.ends[slot]!, offset)
    // The entry's association is fixed: a position published the other way gets a new entry.
    this.tracker.untrack(this.ends[slot]!)
    this.place(slot, offset, follows)
  }

  head(pair: number): number {
    return this.tracker.offset(this.ends[2 * pair]!)
  }

  tail(pair: number): number {
    return this.tracker.offset(this.ends[2 * pair + 1]!)
  }

  /** Releases every pair's entries (the collaboration ends; the index stays with the editor). */
  clear(): void {
    for (let pair = 0; pair < this.pairs; pair++) if (this.ends[2 * pair]! >= 0) this.remove(pair)
    this.ends = new Int32Array(32)
    this.pairs = 0
    this.freePair = -1
  }
}
