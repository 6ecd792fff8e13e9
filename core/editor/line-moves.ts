import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { DisplayLayer } from '../display/display-layer.ts'
import { Point } from '../point/point.ts'
import { Range } from '../point/range.ts'
import type { Selection } from '../selection/selection.ts'

/**
 * Atom's line moves (`moveLineUp`, `moveLineDown`, `duplicateLines`) over a buffer and the folds of its
 * display layer. A folded block is one screen line, so lines move around it whole; folds inside the moved
 * lines are destroyed and made again where the lines land.
 */
export interface LineMoveHost {
  readonly buffer: TextBuffer
  readonly displayLayer: DisplayLayer
}

/** Whether the start of `row` is hidden inside a fold (the fold starts before it and reaches it). */
function coveringFolds(layer: DisplayLayer, row: number): Range[] {
  const start = new Point(row, 0)
  return layer
    .foldsIntersectingBufferRange(new Range(start, start))
    .map((fold) => fold.range)
    .filter((range) => range.start.isLessThan(start) && !range.end.isLessThan(start))
}

/** The first buffer row of the screen line that shows the start of `row` (Atom's findBoundaryPrecedingBufferRow). */
export function boundaryPrecedingBufferRow(layer: DisplayLayer, row: number): number {
  for (let folds = coveringFolds(layer, row); folds.length > 0; folds = coveringFolds(layer, row)) {
    row = Math.min(...folds.map((range) => range.start.row))
  }
  return row
}

/** The first buffer row at or after `row` that starts a screen line (Atom's findBoundaryFollowingBufferRow). */
export function boundaryFollowingBufferRow(layer: DisplayLayer, row: number): number {
  for (let folds = coveringFolds(layer, row); folds.length > 0; folds = coveringFolds(layer, row)) {
    row = Math.max(...folds.map((range) => range.end.row)) + 1
  }
  return row
}

/** Selection ranges grouped where one ends on the row the next starts: each group moves as one block. */
function groupRanges(sorted: Range[], touches: (previous: Range, next: Range) => boolean): Range[][] {
  const groups: Range[][] = []
  for (const range of sorted) {
    const group = groups[groups.length - 1]
    if (group && touches(group[group.length - 1]!, range)) group.push(range)
    else groups.push([range])
  }
  return groups
}

/**
 * The whole lines a group of selections moves, from the top one's first row to the bottom one's last (not
 * a last row the selection only reaches at column 0), widened to whole screen lines so a fold moves whole.
 */
function linesToMove(layer: DisplayLayer, top: Range, bottom: Range): Range {
  const { start } = top
  const { end } = bottom
  const endRow = end.row > start.row && end.column === 0 ? end.row - 1 : end.row
  return new Range([boundaryPrecedingBufferRow(layer, start.row), 0], [boundaryFollowingBufferRow(layer, endRow + 1), 0])
}

/** Runs `edit`, which moves the lines of `linesRange` by `delta` rows, and folds them again where they land. */
function moveWithFolds(layer: DisplayLayer, linesRange: Range, delta: number, edit: () => void): void {
  const refolds = layer.destroyFoldsIntersectingBufferRange(linesRange).map((range) => range.translate([delta, 0]))
  edit()
  for (const range of refolds) layer.foldBufferRange(range)
}

/**
 * Moves the lines of every selection up one screen line. Returns the selections' new ranges (in buffer
 * order), or null when nothing can move: a selection on the first row, or the last selection on an empty
 * last row.
 */
export function moveLinesUp({ buffer, displayLayer }: LineMoveHost, selectedRanges: readonly Range[]): Range[] | null {
  const sorted = [...selectedRanges].sort((a, b) => a.compare(b))
  if (sorted.length === 0 || sorted[0]!.start.row === 0) return null
  if (sorted[sorted.length - 1]!.start.row === buffer.getLastRow() && buffer.lineForRow(buffer.getLastRow()) === '') return null
  const newRanges: Range[] = []
  for (const group of groupRanges(sorted, (previous, next) => previous.end.row === next.start.row)) {
    const linesRange = linesToMove(displayLayer, group[0]!, group[group.length - 1]!)
    const precedingRow = boundaryPrecedingBufferRow(displayLayer, linesRange.start.row - 1)
    const delta = linesRange.start.row - precedingRow
    let lines = buffer.getTextInRange(linesRange)
    // The last row has no line ending of its own: it borrows the one of the row above.
    if (!lines.endsWith('\n')) lines += buffer.lineEndingForRow(linesRange.end.row - 2)
    moveWithFolds(displayLayer, linesRange, -delta, () => {
      buffer.delete(linesRange)
      buffer.insert([precedingRow, 0], lines, { normalizeLineEndings: false })
    })
    newRanges.push(...group.map((range) => range.translate([-delta, 0])))
  }
  return newRanges
}

/** Moves the lines of every selection down one screen line; returns the new ranges, bottom one first (as Atom). */
export function moveLinesDown({ buffer, displayLayer }: LineMoveHost, selectedRanges: readonly Range[]): Range[] | null {
  const sorted = [...selectedRanges].sort((a, b) => b.compare(a))
  if (sorted.length === 0) return null
  const newRanges: Range[] = []
  for (const group of groupRanges(sorted, (previous, next) => previous.start.row === next.end.row)) {
    const linesRange = linesToMove(displayLayer, group[group.length - 1]!, group[0]!)
    const followingRow = Math.min(buffer.getLineCount(), boundaryFollowingBufferRow(displayLayer, linesRange.end.row + 1))
    const delta = followingRow - linesRange.end.row
    if (delta <= 0) {
      // The block is already at the bottom: it stays, as in Atom (whose edit there changes nothing).
      newRanges.push(...group)
      continue
    }
    const lines = followingRow - 1 === buffer.getLastRow() ? `\n${buffer.getTextInRange(linesRange)}` : buffer.getTextInRange(linesRange)
    moveWithFolds(displayLayer, linesRange, delta, () => {
      buffer.insert([followingRow, 0], lines, { normalizeLineEndings: false })
      buffer.delete(linesRange)
    })
    newRanges.push(...group.map((range) => range.translate([delta, 0])))
  }
  return newRanges
}

/**
 * Atom's `duplicateLines`: copies the rows of every selection (an empty one: its whole screen line, a fold
 * included; not a last row the selection only reaches at column 0) below themselves, moves the selections onto
 * the copy and folds the copy like the original (the folds inside the copied lines).
 */
export function duplicateSelectedLines({ buffer, displayLayer }: LineMoveHost, selections: readonly Selection[]): void {
  const previousRanges: Range[] = []
  for (let i = selections.length - 1; i >= 0; i--) {
    const lastInGroup = i
    previousRanges[i] = selections[i]!.getBufferRange()
    if (selections[i]!.isEmpty()) {
      const { start } = selections[i]!.getScreenRange()
      selections[i]!.setScreenRange([[start.row, 0], [start.row + 1, 0]], { preserveFolds: true })
    }
    let [startRow, endRow] = selections[i]!.getBufferRowRange()
    endRow++
    while (i > 0) {
      const [previousStart, previousEnd] = selections[i - 1]!.getBufferRowRange()
      if (previousEnd !== startRow) break
      startRow = previousStart
      previousRanges[i - 1] = selections[i - 1]!.getBufferRange()
      i--
    }
    // Only the folds inside the copied lines are copied: not one on the row a selection ends on at column 0,
    // which stays alone (as moveLineUp leaves it), nor one that only touches the lines from above.
    const lines = new Range([startRow, 0], [endRow, 0])
    const folds = displayLayer.foldsIntersectingBufferRange(lines).map((fold) => fold.range).filter((range) => lines.containsRange(range))
    let text = buffer.getTextInRange([[startRow, 0], [endRow, 0]])
    if (endRow > buffer.getLastRow()) text = `\n${text}`
    buffer.insert([endRow, 0], text, { normalizeLineEndings: false })
    const inserted = endRow - startRow
    for (let k = i; k <= lastInGroup; k++) selections[k]!.setBufferRange(previousRanges[k]!.translate([inserted, 0]))
    for (const range of folds) displayLayer.foldBufferRange(range.translate([inserted, 0]))
  }
}
