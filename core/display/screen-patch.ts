/**
 * A run of screen rows that a layout change replaced: `oldCount` rows at `start` became `newCount`
 * rows. In a list, `start` is in the coordinates after the earlier entries were applied, so a view
 * replays the list in order.
 */
export interface ScreenChange {
  readonly start: number
  readonly oldCount: number
  readonly newCount: number
}

interface Hunk {
  start: number
  oldCount: number
  newCount: number
}

/**
 * Composes the row splices of one update (an edit's changes, a fold, a setting) into ordered,
 * non-touching spans, so listeners get one event per update however many steps built it.
 */
export class ScreenPatch {
  private readonly hunks: Hunk[] = []

  /** Records that `oldCount` rows at `start` (current coordinates) became `newCount` rows. */
  splice(start: number, oldCount: number, newCount: number): void {
    if (oldCount === 0 && newCount === 0) return
    const hunks = this.hunks
    const end = start + oldCount
    // Hunks are sorted and apart, so their ends increase: find the first one reaching `start`.
    let first = 0
    let high = hunks.length
    while (first < high) {
      const mid = (first + high) >> 1
      if (hunks[mid]!.start + hunks[mid]!.newCount < start) first = mid + 1
      else high = mid
    }
    let last = first
    let mergedStart = start
    let mergedEnd = end
    let oldTotal = 0
    let covered = 0
    while (last < hunks.length && hunks[last]!.start <= end) {
      const hunk = hunks[last]!
      mergedStart = Math.min(mergedStart, hunk.start)
      mergedEnd = Math.max(mergedEnd, hunk.start + hunk.newCount)
      oldTotal += hunk.oldCount
      covered += hunk.newCount
      last++
    }
    const delta = newCount - oldCount
    for (let i = last; i < hunks.length; i++) hunks[i]!.start += delta
    // Rows of the merged span that no earlier hunk produced are unchanged rows: they were old rows too.
    const merged: Hunk = {
      start: mergedStart,
      oldCount: oldTotal + (mergedEnd - mergedStart - covered),
      newCount: mergedEnd - mergedStart + delta,
    }
    // Rows inserted and then removed again (typing a line break and deleting it) leave nothing to report.
    if (merged.oldCount === 0 && merged.newCount === 0) hunks.splice(first, last - first)
    else hunks.splice(first, last - first, merged)
  }

  isEmpty(): boolean {
    return this.hunks.length === 0
  }

  /** Replays this patch's changes, in order, into `target` (as `changes()` would, without copying them). */
  spliceInto(target: ScreenPatch): void {
    for (const { start, oldCount, newCount } of this.hunks) target.splice(start, oldCount, newCount)
  }

  changes(): ScreenChange[] {
    return this.hunks.map(({ start, oldCount, newCount }) => ({ start, oldCount, newCount }))
  }
}
