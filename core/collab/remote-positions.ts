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
  /** The tracker's entries: head at 2n, tail at 2n + 1; -1 for a free pair. */
  private entries: number[] = []
  private free: number[] = []

  constructor(private readonly tracker: PositionTracker) {}

  /** A new pair at these offsets; its number. */
  add(head: number, tail: number, headFollows = false, tailFollows = false): number {
    const pair = this.free.pop() ?? this.entries.length / 2
    this.place(2 * pair, head, headFollows)
    this.place(2 * pair + 1, tail, tailFollows)
    return pair
  }

  private place(slot: number, offset: number, follows: boolean): void {
    this.entries[slot] = this.tracker.track(offset, undefined, follows ? 1 : -1)
  }

  /** Whether the pair's head (or tail) follows text inserted at it. */
  headFollows(pair: number): boolean {
    return this.tracker.assoc(this.entries[2 * pair]!) > 0
  }

  tailFollows(pair: number): boolean {
    return this.tracker.assoc(this.entries[2 * pair + 1]!) > 0
  }

  remove(pair: number): void {
    this.tracker.untrack(this.entries[2 * pair]!)
    this.tracker.untrack(this.entries[2 * pair + 1]!)
    this.entries[2 * pair] = this.entries[2 * pair + 1] = -1
    this.free.push(pair)
  }

  set(pair: number, head: number, tail: number, headFollows = false, tailFollows = false): void {
    this.moveEnd(2 * pair, head, headFollows)
    this.moveEnd(2 * pair + 1, tail, tailFollows)
  }

  private moveEnd(slot: number, offset: number, follows: boolean): void {
    if ((this.tracker.assoc(this.entries[slot]!) > 0) === follows) return this.tracker.move(this.entries[slot]!, offset)
    // The entry's association is fixed: a position published the other way gets a new entry.
    this.tracker.untrack(this.entries[slot]!)
    this.place(slot, offset, follows)
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
