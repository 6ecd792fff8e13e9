import { clipColumn, clipToCluster, type ClipDirection } from '../point/unicode.ts'

export interface AtomicClipSettings {
  readonly tabLength: number
  readonly atomicSoftTabs: boolean
  /** Soft tabs past the wrap column are not atomic (Atom); Infinity when soft wrap is off. */
  readonly wrapColumn: number
}

/**
 * How far a buffer column must move so that it is not inside a grapheme cluster (a surrogate pair, a
 * variation sequence, a base with its combining marks, a ZWJ emoji…) or, with atomic soft
 * tabs, inside one tab stop's worth of leading spaces (Atom's `getClipColumnDelta`): a column that
 * only has spaces before it and up to the next tab stop snaps to a tab stop, by direction; `closest`
 * snaps forward only past the middle of the stop.
 */
export function clipColumnDelta(line: string, column: number, direction: ClipDirection, settings: AtomicClipSettings): number {
  const outOfCluster = clipToCluster(line, column, direction)
  if (outOfCluster !== column) return outOfCluster - column
  if (!settings.atomicSoftTabs || column > settings.wrapColumn) return 0
  for (let c = column; c >= 0; c--) if (line.charCodeAt(c) !== 32) return 0
  const { tabLength } = settings
  const previousStop = column - (column % tabLength)
  if (column === previousStop) return 0
  const nextStop = previousStop + tabLength
  for (let c = column; c < nextStop; c++) if (line.charCodeAt(c) !== 32) return 0
  if (direction === 'backward') return previousStop - column
  if (direction === 'forward') return nextStop - column
  return column - previousStop > tabLength / 2 ? nextStop - column : previousStop - column
}

/** A row longer than `LONG_ROW` is read only around the column being clipped, this far either side. */
const AROUND = 256
export const LONG_ROW = 4 * AROUND

/** Whether `text` has a character other than a space at or before `column`. */
function hasNonSpaceUpTo(text: string, column: number): boolean {
  for (let c = Math.min(column, text.length - 1); c >= 0; c--) if (text.charCodeAt(c) !== 32) return true
  return false
}

/**
 * `clipColumn` (unless `clipFirst` is false: `column` is then a whole column of the row) and then
 * `clipColumnDelta` on a row `length` code units long, read through `read(from, to)`: a long row only
 * around the column, the whole row only when the answer could depend on text further away (a
 * cluster or a run of leading spaces longer than the window).
 */
export function clipRowColumn(
  read: (from: number, to: number) => string,
  length: number,
  column: number,
  direction: ClipDirection,
  settings: AtomicClipSettings,
  clipFirst = true,
): number {
  const target = Number.isNaN(column) || column <= 0 ? 0 : column >= length ? length : Math.floor(column)
  const base = Math.max(0, target - AROUND)
  if (base > 0) {
    const window = read(base, Math.min(length, target + AROUND))
    const local = clipFirst ? clipColumn(window, column - base) : column - base
    const delta = clipColumnDelta(window, local, direction, settings)
    if (Math.abs(delta) < AROUND / 2 && hasNonSpaceUpTo(window, local)) return base + local + delta
  }
  const line = read(0, length)
  const clipped = clipFirst ? clipColumn(line, column) : column
  return clipped + clipColumnDelta(line, clipped, direction, settings)
}
