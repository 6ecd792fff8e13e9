/**
 * The sorted, non-overlapping matches of a live find query as start and end offsets, with the shift of
 * the matches after an edit kept pending: every match from index `pendingFrom` on is `pendingDelta` further
 * than stored. A new shift settles only the matches between the pending index and its own, so typing at
 * one place costs O(1) per keystroke however many matches follow, instead of rewriting them all.
 */
export class MatchOffsets {
  private starts: number[] = []
  private ends: number[] = []
  private pendingFrom = 0
  private pendingDelta = 0

  get length(): number {
    return this.starts.length
  }

  start(i: number): number {
    return this.starts[i]! + (i >= this.pendingFrom ? this.pendingDelta : 0)
  }

  end(i: number): number {
    return this.ends[i]! + (i >= this.pendingFrom ? this.pendingDelta : 0)
  }

  /** Moves match `i` (its new start and end). */
  set(i: number, start: number, end: number): void {
    const delta = i >= this.pendingFrom ? this.pendingDelta : 0
    this.starts[i] = start - delta
    this.ends[i] = end - delta
  }

  /** Appends a match after the last one. */
  push(start: number, end: number): void {
    this.starts.push(0)
    this.ends.push(0)
    this.set(this.starts.length - 1, start, end)
  }

  /** Shifts every match from index `from` on by `delta`. */
  shiftFrom(from: number, delta: number): void {
    if (delta === 0 || from >= this.starts.length) return
    if (this.pendingDelta === 0) {
      this.pendingFrom = from
      this.pendingDelta = delta
    } else if (from >= this.pendingFrom) {
      this.settle(this.pendingFrom, from, this.pendingDelta)
      this.pendingFrom = from
      this.pendingDelta += delta
    } else {
      this.settle(from, this.pendingFrom, delta)
      this.pendingDelta += delta
    }
  }

  /** The first index whose start is >= `offset`. */
  firstStartingAtOrAfter(offset: number): number {
    return this.lowerBound(this.starts, offset)
  }

  /** The first index whose end is >= `offset` (ends are sorted too: matches do not overlap). */
  firstEndingAtOrAfter(offset: number): number {
    return this.lowerBound(this.ends, offset)
  }

  /** Replaces matches [from, to) by the given ones (sorted, fitting between their neighbours). */
  splice(from: number, to: number, starts: readonly number[], ends: readonly number[]): void {
    // Settle the pending shift over the replaced matches, so it starts after them.
    if (this.pendingDelta !== 0 && this.pendingFrom < to) {
      this.settle(this.pendingFrom, to, this.pendingDelta)
      this.pendingFrom = to
    }
    this.starts.splice(from, to - from, ...starts)
    this.ends.splice(from, to - from, ...ends)
    if (this.pendingFrom >= to) this.pendingFrom += starts.length - (to - from)
    this.dropPendingPastEnd()
  }

  /** Keeps the first `length` matches. */
  truncate(length: number): void {
    if (length >= this.starts.length) return
    this.starts.length = length
    this.ends.length = length
    this.dropPendingPastEnd()
  }

  /** Replaces every match at once (the ranges a many-region update rebuilt). */
  reset(starts: number[], ends: number[]): void {
    this.starts = starts
    this.ends = ends
    this.pendingFrom = 0
    this.pendingDelta = 0
  }

  private settle(from: number, to: number, delta: number): void {
    for (let i = from; i < to; i++) {
      this.starts[i]! += delta
      this.ends[i]! += delta
    }
  }

  private dropPendingPastEnd(): void {
    if (this.pendingFrom >= this.starts.length) {
      this.pendingFrom = 0
      this.pendingDelta = 0
    }
  }

  private lowerBound(stored: readonly number[], offset: number): number {
    // Stored values are sorted on each side of the pending index; compare the real ones.
    let lo = 0
    let hi = stored.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const value = stored[mid]! + (mid >= this.pendingFrom ? this.pendingDelta : 0)
      if (value < offset) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
