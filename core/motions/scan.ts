import { splitsSurrogatePair } from '../point/unicode.ts'
import { Point } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import { type LineSource, assertLineSource, clipPoint, lineAt } from './line-source.ts'

/*
 * Regex search over a LineSource with the semantics of Atom's native buffer search (superstring's
 * `findAllInRangeSync`), which every word motion of Atom is built on:
 *
 * - the pattern is always multiline: `^` and `$` match at every line start and end;
 * - a search range that starts mid-line does not let `^` match at its start, and one that ends mid-line
 *   does not let `$` match at its end (the text is cut there: a word straddling the end is cut short);
 * - after an empty match the search moves on one character, or to the next row from a line end, so an
 *   empty row yields exactly one empty match;
 * - no empty match is reported at the end of the range right after a match that ended there.
 *
 * Rows are joined with '\n' whatever the buffer's line endings are. Matching uses JavaScript semantics
 * (so `\s` includes U+00A0 and other Unicode spaces, and `^`/`$` also match around a U+2028 or U+2029
 * inside a row), and a lookbehind or `\b` sees the text before the search start, where Atom's native
 * search sees nothing.
 *
 * Performance: the text is never joined. A search looks at a window of rows from the current row to the
 * next row that has a non-whitespace character, and moves the window on as matches are consumed. This
 * relies on the one assumption the built-in word and subword patterns satisfy: a match that spans
 * several rows has only whitespace on the rows strictly inside it (it crosses line breaks only through
 * `\s`). A custom pattern that crosses lines otherwise may miss matches longer than the window.
 * A window also stops after MAX_WINDOW_ROWS whitespace-only rows: a pattern like the subwords'
 * `\s*[.]+` costs the square of the run's length to fail through it, so a match across a longer run of
 * blank rows is found from a later row than Atom's (only the subword motions are affected).
 */

/** Stands for "the search stops here but the line goes on", so that `$` cannot match before it. */
const LINE_GOES_ON = '\u0000'
const NON_WHITESPACE = /\S/
const MAX_WINDOW_ROWS = 256

/** The private copy used for scanning: global and multiline, keeping the caller's i, s, u and v flags. */
export function scanningRegExp(regex: RegExp): RegExp {
  let flags = 'gm'
  for (const flag of regex.flags) if (flag === 'i' || flag === 's' || flag === 'u' || flag === 'v') flags += flag
  return new RegExp(regex.source, flags)
}

interface Window {
  readonly firstRow: number
  readonly lastRow: number
  readonly text: string
  /** Offset in `text` of each row of the window. */
  readonly rowStarts: readonly number[]
  /** Whether the window reaches the end of the search range. */
  readonly final: boolean
  /** Offset in `text` where the search range ends (the text may go on with LINE_GOES_ON). */
  readonly limit: number
}

/**
 * Rows `firstRow` .. the first row at or after `minLastRow` (and after `firstRow`) that has a
 * non-whitespace character or ends MAX_WINDOW_ROWS rows, stopping at the row where the range ends.
 */
function buildWindow(lines: LineSource, firstRow: number, end: Point, minLastRow: number): Window {
  const parts: string[] = []
  const rowStarts: number[] = []
  let length = 0
  let row = firstRow
  for (; ; row++) {
    const line = lineAt(lines, row)
    rowStarts.push(length)
    if (row === end.row) {
      parts.push(line.slice(0, end.column))
      const text = parts.join('\n')
      const cutShort = end.column < line.length
      return { firstRow, lastRow: row, text: cutShort ? text + LINE_GOES_ON : text, rowStarts, final: true, limit: text.length }
    }
    parts.push(line)
    length += line.length + 1
    if (row > firstRow && row >= minLastRow && (row - firstRow >= MAX_WINDOW_ROWS || NON_WHITESPACE.test(line))) break
  }
  const text = parts.join('\n')
  return { firstRow, lastRow: row, text, rowStarts, final: false, limit: text.length }
}

function pointAt(window: Window, offset: number): Point {
  const starts = window.rowStarts
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (starts[middle]! <= offset) low = middle
    else high = middle - 1
  }
  return new Point(window.firstRow + low, offset - starts[low]!)
}

/** The offset after the character at `offset`, keeping surrogate pairs whole. */
function nextCharacterOffset(text: string, offset: number): number {
  return splitsSurrogatePair(text, offset + 1) ? offset + 2 : offset + 1
}

function normalizeArguments(lines: LineSource, regex: RegExp, range: RangeLike): { start: Point; end: Point } {
  assertLineSource(lines)
  if (!(regex instanceof RegExp)) throw new TypeError(`regex must be a RegExp; got ${typeof regex}`)
  const { start, end } = Range.fromObject(range, false, 'range')
  return { start: clipPoint(lines, start), end: clipPoint(lines, end) }
}

/**
 * Every match of `regex` in `range`, in order, produced lazily so that a caller can stop early
 * (Atom's `TextBuffer#findAllInRangeSync`). The range is clipped to the text first; bad arguments
 * throw at the call, not at the first `next()`.
 */
export function matchesInRange(lines: LineSource, regex: RegExp, range: RangeLike): Generator<Range, void, undefined> {
  const { start, end } = normalizeArguments(lines, regex, range)
  return scan(lines, scanningRegExp(regex), start, end)
}

function* scan(lines: LineSource, pattern: RegExp, start: Point, end: Point): Generator<Range, void, undefined> {
  let position = start
  let previousEnd: Point | null = null
  let minLastRow = position.row + 1
  for (;;) {
    const window = buildWindow(lines, position.row, end, minLastRow)
    const lastRowStart = window.rowStarts[window.rowStarts.length - 1]!
    let index = position.column
    let extend = false
    while (index <= window.limit) {
      pattern.lastIndex = index
      const match = pattern.exec(window.text)
      if (match === null || match.index > window.limit) break
      const matchStart = match.index
      let matchEnd = matchStart + match[0].length
      if (window.final) {
        // A match that only consumed LINE_GOES_ON is not in the range; one running into it is cut short.
        if (matchStart === window.limit && matchEnd > matchStart) break
        matchEnd = Math.min(matchEnd, window.limit)
      } else if (matchStart >= lastRowStart) {
        break // decided again with the rows below in view
      } else if (matchEnd === window.text.length) {
        extend = true // it may go on past the window
        break
      }
      const startPoint = pointAt(window, matchStart)
      const endPoint = pointAt(window, matchEnd)
      if (matchStart === matchEnd && previousEnd !== null && previousEnd.isEqual(end) && startPoint.isEqual(end)) return
      yield new Range(startPoint, endPoint)
      previousEnd = endPoint
      index = matchEnd > matchStart ? matchEnd : nextCharacterOffset(window.text, matchStart)
    }
    if (window.final) return
    if (extend) {
      position = pointAt(window, index)
      minLastRow = window.lastRow + (window.lastRow - window.firstRow) + 1
    } else {
      position = pointAt(window, Math.max(index, lastRowStart))
      minLastRow = position.row + 1
    }
  }
}

/** All matches of `regex` in `range` (Atom's `TextBuffer#findAllInRangeSync`). */
export function findAllInRange(lines: LineSource, regex: RegExp, range: RangeLike): Range[] {
  return Array.from(matchesInRange(lines, regex, range))
}

/** The first match of `regex` in `range`, or null (Atom's `TextBuffer#findInRangeSync`). */
export function findInRange(lines: LineSource, regex: RegExp, range: RangeLike): Range | null {
  for (const match of matchesInRange(lines, regex, range)) return match
  return null
}

/**
 * The matches that Atom's `scanInBufferRange` reports: those of `matchesInRange`, except a match that
 * starts at the end of a range ending mid-row or at a row end (Atom skips it unless the range ends at
 * column 0).
 */
export function scanInRange(lines: LineSource, regex: RegExp, range: RangeLike): Generator<Range, void, undefined> {
  const { start, end } = normalizeArguments(lines, regex, range)
  return skipMatchAtEnd(scan(lines, scanningRegExp(regex), start, end), end)
}

function* skipMatchAtEnd(matches: Generator<Range, void, undefined>, end: Point): Generator<Range, void, undefined> {
  for (const match of matches) {
    if (match.start.isEqual(end) && end.column > 0) continue
    yield match
  }
}
