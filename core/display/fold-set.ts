import type { TextChange } from '../buffer/text-change.ts'
import { Point } from '../point/point.ts'
import { Range } from '../point/range.ts'
import { OwnFoldAnchors, type FoldAnchors } from './fold-anchors.ts'

/** Offsets <-> positions in the folded text (TextBuffer has these). */
export interface FoldText {
  characterIndexForPosition(position: Point): number
  positionForCharacterIndex(offset: number): Point
  getLength(): number
}

/** A buffer range in plain numbers, so that following an edit allocates nothing. */
export interface FoldSpan {
  startRow: number
  startColumn: number
  endRow: number
  endColumn: number
}

interface FoldRecord extends FoldSpan {
  readonly id: number
  /** Its ends' entries in the anchors; the rows and columns above are their positions, kept in step. */
  startEntry: number
  endEntry: number
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

/** Moves a start after the change's old end (or, for a displayed fold, at it) by the change's extent. */
function shiftStart(fold: FoldSpan, change: TextChange): void {
  if (fold.startRow === change.oldEndRow) fold.startColumn += change.newEndColumn - change.oldEndColumn
  fold.startRow += change.newEndRow - change.oldEndRow
}

function shiftEnd(fold: FoldSpan, change: TextChange): void {
  if (fold.endRow === change.oldEndRow) fold.endColumn += change.newEndColumn - change.oldEndColumn
  fold.endRow += change.newEndRow - change.oldEndRow
}

function rangeOf(fold: FoldSpan): Range {
  return new Range(new Point(fold.startRow, fold.startColumn), new Point(fold.endRow, fold.endColumn))
}

/**
 * Atom's fold markers are exclusive and invalidated on overlap. A fold's start is pushed by text
 * inserted at it (assoc 1), and a deletion of the character after it destroys the fold ('track-after');
 * its end stays before text inserted at it (assoc -1), and a deletion of the character before it
 * destroys the fold ('track-before'). An empty fold (never displayed) moves with text inserted at it
 * and goes only when a deletion spans it ('track-del'), so one at the start or end of a deletion stays.
 * (A fold that is not empty never becomes empty: a deletion that would empty it reaches its start.)
 */
function trackFold(anchors: FoldAnchors, start: number, end: number): { startEntry: number; endEntry: number } {
  if (start === end) return { startEntry: anchors.track(start, 'track-del', 1), endEntry: anchors.track(end, 'track-del', 1) }
  return { startEntry: anchors.track(start, 'track-after', 1), endEntry: anchors.track(end, 'track-before', -1) }
}

/**
 * The folds of a display layer. Their ends are entries of an anchor index (`FoldAnchors`), which maps
 * them through every change by the rules `trackFold` states: text inserted at a fold's start or end
 * stays outside it, an edit strictly inside it keeps it, and an edit that reaches across its start or
 * end destroys it. The set keeps each end's row and column in step with its entry (the entries a change
 * reached are read from the index; the rest only shift with the change) and orders the folds by start.
 * Overlapping folds show as one (`merged`), and the rows that merged folds join make display lines.
 */
export class FoldSet {
  private folds: FoldRecord[] = []
  private readonly byId = new Map<number, FoldRecord>()
  private nextId = 1
  private mergedCache: FoldSpan[] | null = null
  private spansCache: { start: number; end: number }[] | null = null

  /** The folds' entries are kept in a list of the set's own until `moveTo` moves them into an index. */
  constructor(
    private readonly text: FoldText,
    private anchors: FoldAnchors = new OwnFoldAnchors(),
  ) {}

  get size(): number {
    return this.folds.length
  }

  add(range: Range): number {
    const { startEntry, endEntry } = trackFold(this.anchors, this.text.characterIndexForPosition(range.start), this.text.characterIndexForPosition(range.end))
    const fold: FoldRecord = {
      id: this.nextId++,
      startRow: range.start.row,
      startColumn: range.start.column,
      endRow: range.end.row,
      endColumn: range.end.column,
      startEntry,
      endEntry,
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
      this.forget(fold)
      return false
    })
    this.invalidate()
    return ranges
  }

  /** Maps the entries through one event's changes when they are in the set's own list (no index maps them). */
  followOwnAnchors(changes: readonly TextChange[]): void {
    if (this.anchors instanceof OwnFoldAnchors) this.anchors.follow(changes, this.text.getLength())
  }

  /** Moves the folds' entries into `anchors` (an editor's one index), which maps them from now on. */
  moveTo(anchors: FoldAnchors): void {
    for (const fold of this.folds) {
      const start = this.anchors.offset(fold.startEntry)
      const end = this.anchors.offset(fold.endEntry)
      this.anchors.untrack(fold.startEntry)
      this.anchors.untrack(fold.endEntry)
      Object.assign(fold, trackFold(anchors, start, end))
    }
    this.anchors = anchors
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
   * Follows the changes of one buffer event, once the anchors have mapped the folds' entries through
   * all of them: drops the folds whose entries a deletion removed, and brings the others' rows and
   * columns in step, change by change from their extents. An end a change reached is where the index
   * put it, as no later change reaches it again, unless one starts right where the previous one's new
   * text ends: then every fold from the first change on is read from its entries.
   */
  applyChanges(changes: readonly TextChange[]): void {
    if (this.folds.length === 0 || changes.length === 0) return
    for (let i = 1; i < changes.length; i++) {
      if (changes[i]!.startOffset === changes[i - 1]!.startOffset + changes[i - 1]!.newLength) {
        this.reread(changes[0]!.startRow, changes[0]!.startColumn)
        return
      }
    }
    for (const change of changes) this.follow(change)
  }

  /**
   * Reads every fold's position from its entries (dropping the lost ones): for after a change whose
   * extents did not describe the text (see ScreenLayout's fallback).
   */
  rereadAll(): void {
    if (this.folds.length > 0) this.reread(0, 0)
  }

  private follow(change: TextChange): void {
    const { startRow, startColumn, oldEndRow, oldEndColumn, newEndRow } = change
    if (change.oldLength === 0 && change.newLength === 0) return
    let destroyed = false
    let kept = 0
    const folds = this.folds
    // A change that adds or removes no line break moves nothing on rows after it: the folds starting
    // there (sorted by start) stay as they are.
    const sameRows = startRow === oldEndRow && oldEndRow === newEndRow
    let untouched = folds.length
    for (let i = 0; i < folds.length; i++) {
      const fold = folds[i]!
      if (sameRows && fold.startRow > startRow) {
        untouched = i
        break
      }
      // Most folds end before the change and stay as they are.
      if (fold.endRow < startRow || (fold.endRow === startRow && fold.endColumn < startColumn)) {
        folds[kept++] = fold
        continue
      }
      if (this.anchors.isLost(fold.startEntry) || this.anchors.isLost(fold.endEntry)) {
        this.forget(fold)
        destroyed = true
        continue
      }
      // An end after the change's old end shifts with it; one inside goes where the index put it: the
      // start or the end of the new text.
      if (compare(fold.startRow, fold.startColumn, oldEndRow, oldEndColumn) > 0) shiftStart(fold, change)
      else if (compare(fold.startRow, fold.startColumn, startRow, startColumn) >= 0) this.placeStart(fold, change)
      if (compare(fold.endRow, fold.endColumn, oldEndRow, oldEndColumn) > 0) shiftEnd(fold, change)
      else this.placeEnd(fold, change)
      folds[kept++] = fold
    }
    const touched = kept
    for (let i = untouched; i < folds.length; i++) folds[kept++] = folds[i]!
    folds.length = kept
    // The untouched folds were in order already: check the moved ones and the seam after them.
    for (let i = 1; i <= touched && i < kept; i++) {
      if (compareFolds(folds[i - 1]!, folds[i]!) > 0) {
        folds.sort(compareFolds)
        break
      }
    }
    if (destroyed || !this.mergedCache) {
      this.invalidate()
      return
    }
    // No fold was destroyed, so the displayed folds keep their shape (the mapping keeps the order of
    // starts and of ends): their ends are ends of folds, and move as those did.
    for (const fold of this.mergedCache) {
      if (sameRows && fold.startRow > startRow) break
      if (compare(fold.startRow, fold.startColumn, oldEndRow, oldEndColumn) >= 0) shiftStart(fold, change)
      if (compare(fold.endRow, fold.endColumn, oldEndRow, oldEndColumn) > 0) shiftEnd(fold, change)
    }
    // Rows only join into display lines differently when the change adds or removes line breaks.
    if (!sameRows) this.spansCache = null
  }

  /** A start the change reached (in [start, old end]): at the start of the new text or at its end. */
  private placeStart(fold: FoldRecord, change: TextChange): void {
    const atEnd = this.anchors.offset(fold.startEntry) !== change.startOffset
    fold.startRow = atEnd ? change.newEndRow : change.startRow
    fold.startColumn = atEnd ? change.newEndColumn : change.startColumn
  }

  private placeEnd(fold: FoldRecord, change: TextChange): void {
    const atEnd = this.anchors.offset(fold.endEntry) !== change.startOffset
    fold.endRow = atEnd ? change.newEndRow : change.startRow
    fold.endColumn = atEnd ? change.newEndColumn : change.startColumn
  }

  /** Reads the positions of the folds that end at or after (row, column) from their entries. */
  private reread(row: number, column: number): void {
    let kept = 0
    for (const fold of this.folds) {
      if (compare(fold.endRow, fold.endColumn, row, column) < 0) {
        this.folds[kept++] = fold
        continue
      }
      if (this.anchors.isLost(fold.startEntry) || this.anchors.isLost(fold.endEntry)) {
        this.forget(fold)
        continue
      }
      const start = this.text.positionForCharacterIndex(this.anchors.offset(fold.startEntry))
      const end = this.text.positionForCharacterIndex(this.anchors.offset(fold.endEntry))
      fold.startRow = start.row
      fold.startColumn = start.column
      fold.endRow = end.row
      fold.endColumn = end.column
      this.folds[kept++] = fold
    }
    this.folds.length = kept
    this.folds.sort(compareFolds)
    this.invalidate()
  }

  private forget(fold: FoldRecord): void {
    this.anchors.untrack(fold.startEntry)
    this.anchors.untrack(fold.endEntry)
    this.byId.delete(fold.id)
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
