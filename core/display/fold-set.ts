import { Point } from '../point/point.ts'
import { Range } from '../point/range.ts'

/** A buffer range in plain numbers, so that shifting folds through an edit allocates nothing. */
export interface FoldSpan {
  startRow: number
  startColumn: number
  endRow: number
  endColumn: number
}

interface FoldRecord extends FoldSpan {
  readonly id: number
}

/** One fold as callers see it. */
export interface Fold {
  readonly id: number
  readonly range: Range
}

function compare(rowA: number, columnA: number, rowB: number, columnB: number): number {
  return rowA === rowB ? columnA - columnB : rowA - rowB
}

/** Atom orders markers by start, then the longer first; ids break ties so the order is total. */
function compareFolds(a: FoldRecord, b: FoldRecord): number {
  return compare(a.startRow, a.startColumn, b.startRow, b.startColumn) || compare(b.endRow, b.endColumn, a.endRow, a.endColumn) || a.id - b.id
}

/** Moves a position at or after the end of a change by the change's extent. */
function shiftStart(fold: FoldSpan, oldEnd: Point, newEnd: Point): void {
  if (fold.startRow === oldEnd.row) fold.startColumn += newEnd.column - oldEnd.column
  fold.startRow += newEnd.row - oldEnd.row
}

function shiftEnd(fold: FoldSpan, oldEnd: Point, newEnd: Point): void {
  if (fold.endRow === oldEnd.row) fold.endColumn += newEnd.column - oldEnd.column
  fold.endRow += newEnd.row - oldEnd.row
}

function rangeOf(fold: FoldSpan): Range {
  return new Range(new Point(fold.startRow, fold.startColumn), new Point(fold.endRow, fold.endColumn))
}

/**
 * The folds of a display layer, kept in buffer coordinates through every edit as Atom's fold markers
 * are (exclusive, invalidated on overlap): text inserted at a fold's start or end stays outside it, an
 * edit strictly inside it keeps it, and an edit that reaches across its start or end destroys it.
 * Overlapping folds show as one (`merged`), and the rows that merged folds join make display lines.
 */
export class FoldSet {
  private folds: FoldRecord[] = []
  private readonly byId = new Map<number, FoldRecord>()
  private nextId = 1
  private mergedCache: FoldSpan[] | null = null
  private spansCache: { start: number; end: number }[] | null = null

  get size(): number {
    return this.folds.length
  }

  add(range: Range): number {
    const fold: FoldRecord = {
      id: this.nextId++,
      startRow: range.start.row,
      startColumn: range.start.column,
      endRow: range.end.row,
      endColumn: range.end.column,
    }
    let lo = 0
    let hi = this.folds.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (compareFolds(this.folds[mid]!, fold) < 0) lo = mid + 1
      else hi = mid
    }
    this.folds.splice(lo, 0, fold)
    this.byId.set(fold.id, fold)
    this.invalidate()
    return fold.id
  }

  get(id: number): Range | undefined {
    const fold = this.byId.get(id)
    return fold ? rangeOf(fold) : undefined
  }

  has(id: number): boolean {
    return this.byId.has(id)
  }

  /** Removes the folds with these ids; returns their ranges. */
  remove(ids: Iterable<number>): Range[] {
    const doomed = new Set<number>()
    for (const id of ids) if (this.byId.has(id)) doomed.add(id)
    if (doomed.size === 0) return []
    const ranges: Range[] = []
    this.folds = this.folds.filter((fold) => {
      if (!doomed.has(fold.id)) return true
      ranges.push(rangeOf(fold))
      this.byId.delete(fold.id)
      return false
    })
    this.invalidate()
    return ranges
  }

  all(): Fold[] {
    return this.folds.map((fold) => ({ id: fold.id, range: rangeOf(fold) }))
  }

  /** Folds sharing at least a point with [start, end] (touching counts), in order. */
  intersecting(start: Point, end: Point): Fold[] {
    const out: Fold[] = []
    for (const fold of this.folds) {
      if (compare(fold.startRow, fold.startColumn, end.row, end.column) > 0) break
      if (compare(fold.endRow, fold.endColumn, start.row, start.column) >= 0) out.push({ id: fold.id, range: rangeOf(fold) })
    }
    return out
  }

  /** Folds containing `position`, endpoints included unless `exclusive`. */
  containing(position: Point, exclusive: boolean): Fold[] {
    const out: Fold[] = []
    for (const fold of this.folds) {
      const fromStart = compare(position.row, position.column, fold.startRow, fold.startColumn)
      if (fromStart < 0) break
      const toEnd = compare(position.row, position.column, fold.endRow, fold.endColumn)
      if (exclusive ? fromStart > 0 && toEnd < 0 : toEnd <= 0) out.push({ id: fold.id, range: rangeOf(fold) })
    }
    return out
  }

  /** True when some fold contains the whole of [start, end]. */
  anyContains(start: Point, end: Point): boolean {
    for (const fold of this.folds) {
      if (compare(fold.startRow, fold.startColumn, start.row, start.column) > 0) break
      if (compare(fold.endRow, fold.endColumn, end.row, end.column) >= 0) return true
    }
    return false
  }

  /**
   * Moves every fold through one replacement of [start, oldEnd] by text ending at newEnd (all in the
   * coordinates just before it), destroying the folds whose start or end it overlaps. Returns the
   * destroyed folds' old ranges.
   */
  applyChange(start: Point, oldEnd: Point, newEnd: Point): Range[] {
    if (this.folds.length === 0) return []
    const a = start
    const isInsertion = a.row === oldEnd.row && a.column === oldEnd.column
    if (isInsertion && a.row === newEnd.row && a.column === newEnd.column) return []
    const destroyed: Range[] = []
    let kept = 0
    const folds = this.folds
    // A change that adds or removes no line break moves nothing on rows after it: the folds starting
    // there (sorted by start) stay as they are.
    const sameRows = a.row === oldEnd.row && oldEnd.row === newEnd.row
    let untouched = folds.length
    for (let i = 0; i < folds.length; i++) {
      const fold = folds[i]!
      if (sameRows && fold.startRow > a.row) {
        untouched = i
        break
      }
      // Most folds end before the change and stay as they are.
      if (fold.endRow < a.row || (fold.endRow === a.row && fold.endColumn < a.column)) {
        folds[kept++] = fold
        continue
      }
      const startVsA = compare(fold.startRow, fold.startColumn, a.row, a.column)
      const endVsA = compare(fold.endRow, fold.endColumn, a.row, a.column)
      const startVsEnd = compare(fold.startRow, fold.startColumn, oldEnd.row, oldEnd.column)
      const endVsEnd = compare(fold.endRow, fold.endColumn, oldEnd.row, oldEnd.column)
      const isEmpty = fold.startRow === fold.endRow && fold.startColumn === fold.endColumn
      // An empty fold (never displayed) at the start of a deletion stays where it is, as in Atom.
      const overlaps = isEmpty
        ? startVsA > 0 && startVsEnd < 0
        : (startVsA >= 0 && startVsEnd < 0) || (endVsA > 0 && endVsEnd <= 0)
      if (!isInsertion && overlaps) {
        destroyed.push(rangeOf(fold))
        this.byId.delete(fold.id)
        continue
      }
      // Exclusive: text inserted at the start goes before the fold, at the end after it.
      if (startVsEnd >= 0) shiftStart(fold, oldEnd, newEnd)
      if (endVsEnd > 0 || (isEmpty && startVsEnd >= 0)) shiftEnd(fold, oldEnd, newEnd)
      folds[kept++] = fold
    }
    const touched = kept
    for (let i = untouched; i < folds.length; i++) folds[kept++] = folds[i]!
    this.folds.length = kept
    // The untouched folds were in order already: check the moved ones and the seam after them.
    for (let i = 1; i <= touched && i < kept; i++) {
      if (compareFolds(this.folds[i - 1]!, this.folds[i]!) > 0) {
        this.folds.sort(compareFolds)
        break
      }
    }
    if (destroyed.length > 0 || !this.mergedCache) {
      this.invalidate()
      return destroyed
    }
    // No fold was destroyed, so the displayed folds keep their shape (the mapping keeps the order of
    // starts and of ends): move them the same way instead of merging again on every keystroke.
    for (const fold of this.mergedCache) {
      if (sameRows && fold.startRow > a.row) break
      if (compare(fold.startRow, fold.startColumn, oldEnd.row, oldEnd.column) >= 0) shiftStart(fold, oldEnd, newEnd)
      if (compare(fold.endRow, fold.endColumn, oldEnd.row, oldEnd.column) > 0) shiftEnd(fold, oldEnd, newEnd)
    }
    // Rows only join into display lines differently when the change adds or removes line breaks.
    if (a.row !== oldEnd.row || a.row !== newEnd.row) this.spansCache = null
    return destroyed
  }

  /**
   * Moves every fold end into the text with `clip` (and re-sorts): for after a change whose extents
   * did not describe the text (see DisplayLayer's fallback).
   */
  clipAll(clip: (row: number, column: number) => { row: number; column: number }): void {
    for (const fold of this.folds) {
      const start = clip(fold.startRow, fold.startColumn)
      const end = clip(fold.endRow, fold.endColumn)
      fold.startRow = start.row
      fold.startColumn = start.column
      fold.endRow = end.row
      fold.endColumn = end.column
    }
    this.folds.sort(compareFolds)
    this.invalidate()
  }

  /** The folds as displayed: overlapping ones joined, empty ones dropped, in order. */
  merged(): readonly FoldSpan[] {
    if (this.mergedCache) return this.mergedCache
    const out: FoldSpan[] = []
    const folds = this.folds
    for (let i = 0; i < folds.length; i++) {
      const first = folds[i]!
      let endRow = first.endRow
      let endColumn = first.endColumn
      while (i + 1 < folds.length) {
        const next = folds[i + 1]!
        if (compare(next.startRow, next.startColumn, endRow, endColumn) >= 0) break
        if (compare(next.endRow, next.endColumn, endRow, endColumn) > 0) {
          endRow = next.endRow
          endColumn = next.endColumn
        }
        i++
      }
      if (compare(first.startRow, first.startColumn, endRow, endColumn) < 0) {
        out.push({ startRow: first.startRow, startColumn: first.startColumn, endRow, endColumn })
      }
    }
    this.mergedCache = out
    return out
  }

  /** The merged fold that strictly contains (row, column), if any. */
  mergedStrictlyContaining(row: number, column: number): FoldSpan | null {
    const merged = this.merged()
    let lo = 0
    let hi = merged.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const fold = merged[mid]!
      if (compare(fold.startRow, fold.startColumn, row, column) < 0) {
        found = mid
        lo = mid + 1
      } else {
        hi = mid - 1
      }
    }
    if (found < 0) return null
    const fold = merged[found]!
    return compare(row, column, fold.endRow, fold.endColumn) < 0 ? fold : null
  }

  /** Merged folds starting on rows [startRow, endRow], in order. */
  mergedStartingInRows(startRow: number, endRow: number): FoldSpan[] {
    const merged = this.merged()
    const out: FoldSpan[] = []
    for (let i = this.firstMergedFromRow(startRow); i < merged.length && merged[i]!.startRow <= endRow; i++) out.push(merged[i]!)
    return out
  }

  /** True when a displayed fold starts on `row`. */
  hasMergedFoldOnRow(row: number): boolean {
    const merged = this.merged()
    const i = this.firstMergedFromRow(row)
    return i < merged.length && merged[i]!.startRow === row
  }

  private firstMergedFromRow(row: number): number {
    const merged = this.merged()
    let lo = 0
    let hi = merged.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (merged[mid]!.startRow < row) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** The rows of the display line holding `row`: folds join the rows from their start to their end. */
  displayLineRows(row: number): [number, number] {
    const spans = this.spans()
    let lo = 0
    let hi = spans.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const span = spans[mid]!
      if (row < span.start) hi = mid - 1
      else if (row > span.end) lo = mid + 1
      else return [span.start, span.end]
    }
    return [row, row]
  }

  private spans(): { start: number; end: number }[] {
    if (this.spansCache) return this.spansCache
    const out: { start: number; end: number }[] = []
    let current: { start: number; end: number } | null = null
    for (const fold of this.merged()) {
      if (current && fold.startRow <= current.end) {
        current.end = Math.max(current.end, fold.endRow)
      } else {
        if (current && current.end > current.start) out.push(current)
        current = { start: fold.startRow, end: fold.endRow }
      }
    }
    if (current && current.end > current.start) out.push(current)
    this.spansCache = out
    return out
  }

  private invalidate(): void {
    this.mergedCache = null
    this.spansCache = null
  }
}
