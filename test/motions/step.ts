import type { Point } from '../../core/point/point.ts'
import type { Range } from '../../core/point/range.ts'
import { type LineSource, linesOf } from '../../core/motions/line-source.ts'
import { markPoints, markRanges, parseMarked } from '../helpers/marked-text.ts'

export type Motion = (lines: LineSource, position: Point) => Point

function single(marked: string): { text: string; cursor: Point } {
  const { text, cursors } = parseMarked(marked)
  if (cursors.length !== 1) throw new Error(`expected exactly one cursor in ${JSON.stringify(marked)}, found ${cursors.length}`)
  return { text, cursor: cursors[0]! }
}

/** Applies `motion` once to the single cursor of `marked`; returns the text marked at the destination. */
export function step(marked: string, motion: Motion): string {
  const { text, cursor } = single(marked)
  return markPoints(text, [motion(linesOf(text), cursor)])
}

/**
 * Applies `motion` from the cursor until it stops moving (or 200 times) and marks every stop, including
 * the start: `stops('|foo bar', nextWordBoundary)` is `'|foo| |bar|'`.
 */
export function stops(marked: string, motion: Motion): string {
  const { text, cursor } = single(marked)
  const lines = linesOf(text)
  const visited = [cursor]
  let position = cursor
  for (let i = 0; i < 200; i++) {
    const next = motion(lines, position)
    if (next.isEqual(position)) break
    visited.push(next)
    position = next
  }
  return markPoints(text, visited)
}

/** Marks the range a range-valued function returns for the single cursor of `marked`. */
export function rangeAt(marked: string, fn: (lines: LineSource, position: Point) => Range): string {
  const { text, cursor } = single(marked)
  return markRanges(text, [fn(linesOf(text), cursor)])
}

/** Calls `fn` at the single cursor of `marked`. */
export function at<T>(marked: string, fn: (lines: LineSource, position: Point) => T): T {
  const { text, cursor } = single(marked)
  return fn(linesOf(text), cursor)
}
