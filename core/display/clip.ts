import { clipToCluster, type ClipDirection } from '../point/unicode.ts'

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
