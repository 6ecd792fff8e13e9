import type { Point } from '../point/point.ts'
import { Range } from '../point/range.ts'

/** One step of a text change, applied in order (each step's positions assume the earlier ones applied). */
export type EditStep = { readonly insert: string; readonly at: Point } | { readonly delete: Range }

export interface SelectionShift {
  readonly steps: EditStep[]
  readonly ranges: Range[]
}

/**
 * Atom's `moveSelectionLeft`: every selection swaps places with the character before it, which moves to
 * the selection's end. Nothing happens unless every selection can move (none starts a line).
 */
export function shiftSelectionsLeft(ranges: readonly Range[], textInRange: (range: Range) => string): SelectionShift | null {
  if (ranges.length === 0 || ranges.some((range) => range.start.column === 0)) return null
  const steps: EditStep[] = []
  for (const range of ranges) {
    const before = new Range(range.start.translate([0, -1]), range.start)
    // Inserting after the selection first keeps `before` where it is; the net change past the selection is nil.
    steps.push({ insert: textInRange(before), at: range.end }, { delete: before })
  }
  return { steps, ranges: ranges.map((range) => range.translate([0, -1])) }
}

/** Atom's `moveSelectionRight`: the character after every selection moves before it; none may end a line. */
export function shiftSelectionsRight(
  ranges: readonly Range[],
  textInRange: (range: Range) => string,
  lineLengthForRow: (row: number) => number,
): SelectionShift | null {
  if (ranges.length === 0 || ranges.some((range) => range.end.column === lineLengthForRow(range.end.row))) return null
  const steps: EditStep[] = []
  for (const range of ranges) {
    const after = new Range(range.end, range.end.translate([0, 1]))
    steps.push({ delete: after }, { insert: textInRange(after), at: range.start })
  }
  return { steps, ranges: ranges.map((range) => range.translate([0, 1])) }
}
