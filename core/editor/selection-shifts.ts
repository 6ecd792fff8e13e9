import { Range } from '../point/range.ts'
import type { Change } from './change-list.ts'

export interface SelectionShift {
  /** The change list: every selection's character moved, computed from the text before any moves. */
  readonly changes: Change[]
  readonly ranges: Range[]
}

/**
 * Atom's `moveSelectionLeft`: every selection swaps places with the character before it, which moves to
 * the selection's end. Nothing happens unless every selection can move (none starts a line).
 */
export function shiftSelectionsLeft(ranges: readonly Range[], textInRange: (range: Range) => string): SelectionShift | null {
  if (ranges.length === 0 || ranges.some((range) => range.start.column === 0)) return null
  const changes = ranges.flatMap((range) => {
    const before = new Range(range.start.translate([0, -1]), range.start)
    return [{ range: before, text: '' }, { range: new Range(range.end, range.end), text: textInRange(before) }]
  })
  return { changes, ranges: ranges.map((range) => range.translate([0, -1])) }
}

/** Atom's `moveSelectionRight`: the character after every selection moves before it; none may end a line. */
export function shiftSelectionsRight(
  ranges: readonly Range[],
  textInRange: (range: Range) => string,
  lineLengthForRow: (row: number) => number,
): SelectionShift | null {
  if (ranges.length === 0 || ranges.some((range) => range.end.column === lineLengthForRow(range.end.row))) return null
  const changes = ranges.flatMap((range) => {
    const after = new Range(range.end, range.end.translate([0, 1]))
    return [{ range: new Range(range.start, range.start), text: textInRange(after) }, { range: after, text: '' }]
  })
  return { changes, ranges: ranges.map((range) => range.translate([0, 1])) }
}
