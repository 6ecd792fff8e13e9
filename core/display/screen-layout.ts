import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { BufferChangeEvent, TextChange } from '../buffer/text-change.ts'
import { Point } from '../point/point.ts'
import type { FoldSet } from './fold-set.ts'
import { buildPieces, layoutDisplayLine, measureDisplayLine, measureEditedRow, measureRow, rewrapEditedLine, type DisplayLine, type LayoutSettings, type LineMeasure, type RowReader } from './layout.ts'
import { RowIndex, UNMEASURED, metaHasTab, metaWidth, packMeta, type RowEntry } from './row-index.ts'
import { ScreenPatch } from './screen-patch.ts'

/** Reads lines one by one, switching to one bulk read when an update touches many rows. */
class LineReader {
  private lines: string[] | null = null
  private reads = 0
  constructor(private readonly buffer: TextBuffer) {}

  get(row: number): string {
    if (this.lines) return this.lines[row] ?? ''
    if (++this.reads > 2048) {
      this.lines = this.buffer.getLines()
      return this.lines[row] ?? ''
    }
    return this.buffer.lineForRow(row) ?? ''
  }
}

const CACHE_LIMIT = 256
/** Rows at least this long keep their wrapped layout through an edit, to re-wrap only around the next one. */
const KEEP_LAYOUT_FROM = 1000
/** Rows longer than this are read around an edit only (the buffer keeps them in pieces). */
const READ_AROUND_FROM = 4096
/**
 * An update laying out at least this many rows without soft wrap or folds leaves them unmeasured: each is one
 * screen row whatever its text, and only its width and tab bit wait until a query or a setting needs them.
 */
const MEASURE_LAZILY_FROM = 1024

/**
 * The screen rows of a buffer under a set of folds and layout settings, kept current incrementally:
 * a row index with one entry per buffer row (screen rows it starts, 0 when a fold hides it; the
 * display line's unwrapped width and tab bit), and the layouts of recently used display lines.
 * Each update re-lays out only the display lines it can affect and answers the screen rows it
 * replaced. The display layer owns the settings and the folds and tells it what changed.
 */
export class ScreenLayout {
  readonly rows = new RowIndex()
  private settings: LayoutSettings = { tabLength: 2, wrapColumn: Infinity, hangingIndent: 0 }
  private readonly cache = new Map<number, DisplayLine>()
  private readonly measure: LineMeasure = { rowCount: 1, width: 0, hasTab: false }
  /** Set while a buffer change is being applied: the index and the buffer's rows may not match yet. */
  private applying = false

  constructor(
    private readonly buffer: TextBuffer,
    private readonly folds: FoldSet,
  ) {}

  /** Takes new settings; the caller then re-lays out what they affect. */
  setSettings(settings: LayoutSettings): void {
    this.settings = settings
    this.clearCache()
  }

  /**
   * A display line of one buffer row, one screen row, no tab, no fold: columns map one to one. An unmeasured
   * row is measured here (its screen rows do not change: it is one, as nothing wraps).
   */
  isPlain(entry: RowEntry): boolean {
    if (entry.count !== 1) return false
    const meta = entry.meta === UNMEASURED ? this.measureNow(entry.row) : entry.meta
    return !metaHasTab(meta) && (this.folds.size === 0 || !this.folds.hasMergedFoldOnRow(entry.row))
  }

  /** The meta of an unmeasured row, measured and kept (UNMEASURED while a buffer change is being applied). */
  private measureNow(row: number): number {
    if (this.applying || this.rows.rowCount !== this.buffer.getLineCount()) return UNMEASURED
    measureRow(row, this.buffer.lineForRow(row) ?? '', this.settings, this.measure)
    if (this.measure.rowCount !== 1) return UNMEASURED
    const meta = packMeta(this.measure.width, this.measure.hasTab)
    this.rows.set(row, 1, meta)
    return meta
  }

  /** Forgets the cached layouts. Every edit does this, and V8's `Map#clear` makes a new table even for an empty map (about 0.3 µs). */
  private clearCache(): void {
    if (this.cache.size > 0) this.cache.clear()
  }

  /** The layout of the display line that `ownerRow` starts (cached until the next change). */
  displayLine(ownerRow: number): DisplayLine {
    let line = this.cache.get(ownerRow)
    if (!line) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear()
      const [first, last] = this.folds.displayLineRows(ownerRow)
      const folds = this.folds.size === 0 ? [] : this.folds.mergedStartingInRows(first, last)
      line = layoutDisplayLine(buildPieces(first, (row) => this.buffer.lineForRow(row) ?? '', folds), this.settings)
      this.cache.set(ownerRow, line)
    }
    return line
  }

  layOutEverything(): void {
    this.clearCache()
    if (this.measuresLazily(this.buffer.getLineCount())) {
      const count = this.buffer.getLineCount()
      this.rows.reset(new Array<number>(count).fill(1), new Array<number>(count).fill(UNMEASURED))
      return
    }
    const lines = this.buffer.getLines()
    const counts: number[] = new Array(lines.length)
    const metas: number[] = new Array(lines.length)
    const lineAt = (row: number): string => lines[row] ?? ''
    const measure = this.measure
    for (let row = 0; row < lines.length; ) {
      const last = this.measureDisplayLine(row, lineAt)
      counts[row] = measure.rowCount
      metas[row] = packMeta(measure.width, measure.hasTab)
      for (let hidden = row + 1; hidden <= last; hidden++) {
        counts[hidden] = 0
        metas[hidden] = 0
      }
      row = last + 1
    }
    this.rows.reset(counts, metas)
  }

  /** Re-lays out the display lines holding rows of these (inclusive) row ranges, after a fold change. */
  relayOutRowRanges(ranges: [number, number][]): ScreenPatch {
    this.clearCache()
    const patch = new ScreenPatch()
    const reader = new LineReader(this.buffer)
    this.relayOutRanges(ranges, patch, (row) => reader.get(row))
    return patch
  }

  /**
   * Re-lays out the display lines whose entry `matches`, visiting only the parts of the index that
   * `mayMatch` admits (after a setting change: only rows with tabs, or wider than a width).
   */
  relayOutWhere(mayMatch: (maxWidth: number, anyTab: boolean) => boolean, matches: (meta: number) => boolean): ScreenPatch {
    this.clearCache()
    const patch = new ScreenPatch()
    const reader = new LineReader(this.buffer)
    const lineAt = (row: number): string => reader.get(row)
    const measure = this.measure
    this.rows.update(mayMatch, (row, count, meta, screenStart) => {
      if (count === 0 || !matches(meta)) return undefined
      this.measureDisplayLine(row, lineAt)
      const measured = packMeta(measure.width, measure.hasTab)
      // A row not measured before is shown again only when the setting concerns what it turns out to hold.
      if (meta !== UNMEASURED || measure.rowCount !== count || matches(measured)) patch.splice(screenStart, count, measure.rowCount)
      return { count: measure.rowCount, meta: measured }
    })
    return patch
  }

  /** Follows one buffer change event: moves the folds and re-lays out the rows it touched. */
  applyBufferChange(event: BufferChangeEvent): ScreenPatch {
    this.applying = true
    try {
      return this.followBufferChange(event)
    } finally {
      this.applying = false
    }
  }

  private followBufferChange(event: BufferChangeEvent): ScreenPatch {
    const changes = event.changes
    // Without folds no row is hidden in another's display line (only a fold gives a row no screen row).
    const noFolds = this.folds.size === 0
    this.folds.followOwnAnchors(changes)
    if (this.editsOwnRows(changes, noFolds)) {
      // Typing, at one cursor or several: each row is re-measured alone. A wrapped row's layout from
      // before the edit (read before the cache is cleared) lets it re-wrap only around the edit.
      // Whether a fold joined something to each row is read before the folds follow the changes.
      const patch = new ScreenPatch()
      if (changes.length === 1) {
        const before = this.cache.get(changes[0]!.startRow)
        this.clearCache()
        const folded = this.folds.size > 0 && this.folds.hasMergedFoldOnRow(changes[0]!.startRow)
        this.folds.applyChanges(changes)
        this.relayOutEditedRow(changes[0]!, before, folded, patch)
        return patch
      }
      const befores = changes.map((change) => this.cache.get(change.startRow))
      this.clearCache()
      const folded = changes.map((change) => this.folds.size > 0 && this.folds.hasMergedFoldOnRow(change.startRow))
      this.folds.applyChanges(changes)
      for (let i = 0; i < changes.length; i++) this.relayOutEditedRow(changes[i]!, befores[i], folded[i]!, patch)
      return patch
    }
    this.clearCache()
    const oldScreenCount = this.rows.screenCount
    const patch = new ScreenPatch()
    let dirty: [number, number][] = []
    let consistent = true
    for (const change of event.changes) {
      const startRow = change.start.row
      const oldEndRow = startRow + change.oldExtent.row
      if (oldEndRow >= this.rows.rowCount) {
        consistent = false
        break
      }
      const first = this.rows.ownerRow(startRow)
      const last = this.rows.displayLineEnd(oldEndRow)
      const delta = change.newExtent.row - change.oldExtent.row
      let settled = false
      if (delta !== 0) {
        // The changed display lines become one-row placeholders until they are laid out below; many rows
        // that are left unmeasured anyway are unmeasured placeholders, laid out as they stand.
        const rowCount = last - first + 1 + delta
        settled = this.measuresLazily(rowCount)
        const screenStart = this.rows.screenStart(first)
        const oldCount = this.rows.screenStart(last + 1) - screenStart
        this.rows.splice(first, last + 1, new Array<number>(rowCount).fill(1), new Array<number>(rowCount).fill(settled ? UNMEASURED : 0))
        patch.splice(screenStart, oldCount, rowCount)
      }
      dirty = settled ? shiftDirtyRanges(dirty, first, last, delta) : addDirtyRange(dirty, first, last, delta)
    }
    if (consistent) this.folds.applyChanges(event.changes)
    if (!consistent || this.rows.rowCount !== this.buffer.getLineCount()) {
      // The changes' extents did not add up to the buffer's rows: TextBuffer reports a '\r' and a
      // '\n' that an edit joins into one line ending (or splits) as if they stayed apart. Lay
      // everything out again, with the folds where their entries are, rather than show a wrong screen.
      this.folds.rereadAll()
      this.layOutEverything()
      const full = new ScreenPatch()
      full.splice(0, oldScreenCount, this.rows.screenCount)
      return full
    }
    const reader = new LineReader(this.buffer)
    this.relayOutRanges(dirty, patch, (row) => reader.get(row))
    return patch
  }

  /**
   * Whether every change is typing in a row of its own: within one row that is a display line of its
   * own and stays one, each on a later row than the one before (so each row, read now, is as that
   * change left it).
   */
  private editsOwnRows(changes: readonly TextChange[], noFolds: boolean): boolean {
    const rowCount = this.rows.rowCount
    if (changes.length === 0 || rowCount !== this.buffer.getLineCount()) return false
    let previous = -1
    for (const change of changes) {
      const row = change.startRow
      if (row <= previous || change.oldEndRow !== row || change.newEndRow !== row || row >= rowCount) return false
      if (!noFolds && (this.rows.count(row) === 0 || (row + 1 < rowCount && this.rows.count(row + 1) === 0))) return false
      previous = row
    }
    return true
  }

  /** Typing (see `editsOwnRows`): re-measures the change's row alone, into `patch`. */
  private relayOutEditedRow(change: TextChange, before: DisplayLine | undefined, folded: boolean, patch: ScreenPatch): void {
    const row = change.startRow
    const entry = this.rows.lookup(row)
    // The entry measures the row alone unless a fold joined something to it before this change (`folded`).
    const measuredAlone = entry.meta !== UNMEASURED && !folded
    if (this.folds.size > 0) {
      const [first, last] = this.folds.displayLineRows(row)
      if (first !== row || last !== row || this.folds.hasMergedFoldOnRow(row)) {
        // A fold on this row: lay the row out the general way (the folds have moved already).
        this.relayOutRows(row, row, patch, (r) => this.buffer.lineForRow(r) ?? '')
        return
      }
    }
    const measure = this.measure
    const { tabLength, wrapColumn } = this.settings
    const start = change.startColumn
    const end = start + change.newText.length
    // A long row is read around the edit only: measuring the edit needs the code units at its
    // edges, unless tabs are involved (their widths depend on the text back to the tab before).
    const length = this.buffer.lineLengthForRow(row)
    const around = length > READ_AROUND_FROM && !metaHasTab(entry.meta) && !change.newText.includes('\t')
    const read = this.rowReader(row)
    const line = around ? null : this.buffer.lineForRow(row) ?? ''
    const base = Math.max(0, start - 1)
    const edited =
      measuredAlone &&
      (line === null
        ? measureEditedRow(read(base, Math.min(length, end + 1)), metaWidth(entry.meta), false, start - base, change.oldText, change.newText, tabLength, measure)
        : measureEditedRow(line, metaWidth(entry.meta), metaHasTab(entry.meta), start, change.oldText, change.newText, tabLength, measure))
    // A row that fits the wrap column is one screen row. A wider one is wrapped again around the edit
    // when its layout from before is at hand; else from its start, keeping the layout when the row is
    // long, so that the next keystroke finds it.
    if (edited && measure.width <= wrapColumn) measure.rowCount = 1
    else {
      const rewrapped = edited && before ? rewrapEditedLine(before, read, length, row, start, start + change.oldText.length, end, measure, this.settings) : null
      if (rewrapped) this.cache.set(row, rewrapped)
      else if (line === null || line.length >= KEEP_LAYOUT_FROM) {
        const layout = this.displayLine(row)
        measure.rowCount = layout.rows.length
        measure.width = layout.width
        measure.hasTab = layout.hasTab
      }
      else measureRow(row, line, this.settings, measure)
    }
    this.rows.set(row, measure.rowCount, packMeta(measure.width, measure.hasTab))
    patch.splice(entry.screenStart, entry.count, measure.rowCount)
  }

  /**
   * Reads buffer row `row` between two columns, code unit by code unit (no clipping): the whole row
   * through `lineForRow`, a part of it through the buffer's offsets (a long row is not joined for it).
   */
  rowReader(row: number): RowReader {
    let rowStart = -1
    return (from, to) => {
      if (from === 0 && to >= this.buffer.lineLengthForRow(row)) return this.buffer.lineForRow(row) ?? ''
      if (rowStart < 0) rowStart = this.buffer.characterIndexForPosition(new Point(row, 0))
      return this.buffer.getTextBetweenOffsets(rowStart + from, rowStart + to)
    }
  }

  /** A buffer row longer than `longerThan`: its text between two columns (clamped into it) and its length; null for a shorter row. */
  partOfLongRow(row: number, from: number, to: number, longerThan: number): { from: number; text: string; length: number } | null {
    const length = this.buffer.lineLengthForRow(row)
    if (length <= longerThan) return null
    const start = Math.max(0, Math.min(from, length))
    return { from: start, text: this.rowReader(row)(start, Math.max(start, Math.min(to, length))), length }
  }

  /**
   * Measures the display line starting at `startRow` into `this.measure` (rows, width, tab) without
   * keeping its layout; returns its last buffer row.
   */
  private measureDisplayLine(startRow: number, lineAt: (row: number) => string): number {
    if (this.folds.size > 0) {
      const [first, last] = this.folds.displayLineRows(startRow)
      if (last > first || this.folds.hasMergedFoldOnRow(first)) {
        measureDisplayLine(buildPieces(first, lineAt, this.folds.mergedStartingInRows(first, last)), this.settings, this.measure)
        return last
      }
    }
    measureRow(startRow, lineAt(startRow), this.settings, this.measure)
    return startRow
  }

  /**
   * Re-lays out buffer rows [startRow, endRow], widened to whole display lines under both the index
   * (how they were shown) and the folds (how they are shown now); records the replaced screen rows.
   * Returns the last row it laid out.
   */
  private relayOutRows(startRow: number, endRow: number, patch: ScreenPatch, lineAt: (row: number) => string): number {
    let start = startRow
    let end = endRow
    for (;;) {
      const widerStart = Math.min(this.folds.displayLineRows(start)[0], this.rows.ownerRow(start))
      const widerEnd = Math.max(this.folds.displayLineRows(end)[1], this.rows.displayLineEnd(end))
      if (widerStart === start && widerEnd === end) break
      start = widerStart
      end = widerEnd
    }
    const screenStart = this.rows.screenStart(start)
    const oldCount = this.rows.screenStart(end + 1) - screenStart
    if (this.measuresLazily(end - start + 1)) {
      const rowCount = end - start + 1
      this.rows.splice(start, end + 1, new Array<number>(rowCount).fill(1), new Array<number>(rowCount).fill(UNMEASURED))
      patch.splice(screenStart, oldCount, rowCount)
      return end
    }
    const counts: number[] = []
    const metas: number[] = []
    let newCount = 0
    const measure = this.measure
    for (let row = start; row <= end; ) {
      const last = this.measureDisplayLine(row, lineAt)
      counts.push(measure.rowCount)
      metas.push(packMeta(measure.width, measure.hasTab))
      newCount += measure.rowCount
      for (let hidden = row + 1; hidden <= last; hidden++) {
        counts.push(0)
        metas.push(0)
      }
      row = last + 1
    }
    this.rows.splice(start, end + 1, counts, metas)
    patch.splice(screenStart, oldCount, newCount)
    return end
  }

  /** Whether `rowCount` rows are left unmeasured: many of them, nothing wraps, and no fold joins rows. */
  private measuresLazily(rowCount: number): boolean {
    return rowCount >= MEASURE_LAZILY_FROM && this.settings.wrapColumn === Infinity && this.folds.size === 0
  }

  /** Re-lays out row ranges in order, skipping rows an earlier range already covered. */
  private relayOutRanges(ranges: [number, number][], patch: ScreenPatch, lineAt: (row: number) => string): void {
    ranges.sort((a, b) => a[0] - b[0])
    let done = -1
    const lastRow = this.rows.rowCount - 1
    for (const [from, to] of ranges) {
      const start = Math.max(from, done + 1)
      const end = Math.min(to, lastRow)
      if (start > end) continue
      done = this.relayOutRows(start, end, patch, lineAt)
    }
  }
}

/**
 * The dirty ranges of earlier changes after a change that replaced rows [first, last] by rows needing no layout:
 * the ranges after it shifted; when one overlaps it, the change's rows join the dirty ranges after all.
 */
function shiftDirtyRanges(dirty: [number, number][], first: number, last: number, delta: number): [number, number][] {
  if (dirty.some((range) => range[1] >= first && range[0] <= last)) return addDirtyRange(dirty, first, last, delta)
  return dirty.map((range) => (range[0] > last ? [range[0] + delta, range[1] + delta] : range))
}

/**
 * Adds the rows [first, last] that a change replaced (now [first, last + delta]) to the dirty ranges
 * of earlier changes, shifting the ranges after it and absorbing the ones it overlaps.
 */
function addDirtyRange(dirty: [number, number][], first: number, last: number, delta: number): [number, number][] {
  let lo = first
  let hi = last + delta
  const next: [number, number][] = []
  for (const range of dirty) {
    if (range[1] < first) next.push(range)
    else if (range[0] > last) next.push([range[0] + delta, range[1] + delta])
    else {
      lo = Math.min(lo, range[0])
      hi = Math.max(hi, Math.max(range[1], last) + delta)
    }
  }
  next.push([lo, hi])
  return next
}
