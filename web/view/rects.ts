/**
 * Pixel rectangles for a screen range, clipped to the rendered rows: at most three (first row to the
 * right edge, the full-width rows between, last row from the left edge), as Atom draws selections.
 * Pure, so the geometry is testable without a browser.
 */

export interface ScreenPointLike {
  row: number
  column: number
}

export interface ScreenRangeLike {
  start: ScreenPointLike
  end: ScreenPointLike
}

export interface Rect {
  top: number
  left: number
  /** null: up to the right edge of the text area. */
  width: number | null
  height: number
}

export function rectsForScreenRange(
  range: ScreenRangeLike,
  firstRow: number,
  lastRow: number,
  xFor: (row: number, column: number) => number,
  lineHeight: number,
): Rect[] {
  const { start, end } = range
  if (start.row === end.row && start.column === end.column) return []
  if (end.row < firstRow || start.row > lastRow) return []
  const rects: Rect[] = []
  if (start.row === end.row) {
    const left = xFor(start.row, start.column)
    rects.push({ top: start.row * lineHeight, left, width: Math.max(0, xFor(end.row, end.column) - left), height: lineHeight })
    return rects
  }
  if (start.row >= firstRow) {
    rects.push({ top: start.row * lineHeight, left: xFor(start.row, start.column), width: null, height: lineHeight })
  }
  const middleStart = Math.max(start.row + 1, firstRow)
  const middleEnd = Math.min(end.row - 1, lastRow)
  if (middleStart <= middleEnd) {
    rects.push({ top: middleStart * lineHeight, left: 0, width: null, height: (middleEnd - middleStart + 1) * lineHeight })
  }
  if (end.row <= lastRow && end.column > 0) {
    rects.push({ top: end.row * lineHeight, left: 0, width: xFor(end.row, end.column), height: lineHeight })
  }
  return rects
}

/** The rows to render for a scroll position: the visible ones plus `overscan` on each side. */
export function rowWindow(scrollTop: number, viewportHeight: number, lineHeight: number, lastRow: number, overscan: number): { first: number; last: number } {
  const first = Math.max(0, Math.floor(scrollTop / lineHeight) - overscan)
  const last = Math.min(lastRow, Math.ceil((scrollTop + viewportHeight) / lineHeight) + overscan)
  return { first: Math.min(first, Math.max(0, lastRow)), last: Math.max(last, 0) }
}

/**
 * The scroll offset that brings [start, end) into a viewport of `size` at `current`, keeping
 * `margin` pixels clear where the viewport allows; `current` when it is already in view.
 */
export function scrollToShow(current: number, size: number, start: number, end: number, margin: number): number {
  const m = Math.max(0, Math.min(margin, (size - (end - start)) / 2))
  if (start - m < current) return Math.max(0, start - m)
  if (end + m > current + size) return Math.max(0, end + m - size)
  return current
}

/**
 * How many screen rows the changes added (or, negative, removed) entirely above `firstRow`. Each
 * change's `start` counts in the rows after the changes before it, so they are replayed in order.
 */
export function rowsInsertedAbove(changes: readonly { start: number; oldCount: number; newCount: number }[], firstRow: number): number {
  let first = firstRow
  let delta = 0
  for (const { start, oldCount, newCount } of changes) {
    if (start + oldCount > first) continue
    first += newCount - oldCount
    delta += newCount - oldCount
  }
  return delta
}
