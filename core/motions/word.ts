import { Point, type PointLike } from '../point/point.ts'
import { Range } from '../point/range.ts'
import {
  type LineSource,
  assertLineSource,
  clipPoint,
  endOfText,
  lineAt,
  previousNonBlankRow,
  textBetween,
} from './line-source.ts'
import { DEFAULT_NON_WORD_CHARACTERS, subwordRegExp, wordRegExp } from './regexps.ts'
import { findInRange, matchesInRange, scanInRange } from './scan.ts'

export { DEFAULT_NON_WORD_CHARACTERS, subwordRegExp, wordRegExp } from './regexps.ts'

/*
 * Atom's word motions (`Cursor#get*WordBufferPosition` and friends), as pure functions of the lines and
 * a position. Each one runs Atom's regex search (see scan.ts) over the same range as Atom does and reads
 * the matches with Atom's rules, so the quirks are Atom's too:
 * - an empty or whitespace-only row is a word (the `^[\t ]*$` alternative), so motions stop on it;
 * - at a line end `isInsideWord` is true, so `beginningOfNextWord` first jumps to the end of the first
 *   word below and then to the start of the word after it;
 * - `nextWordBoundary` stays put on an empty row (the empty match there is its answer).
 */

/**
 * Options of the word functions, as Atom's. Without `wordRegex`, the pattern is
 * `wordRegExp(nonWordCharacters)`, and where Atom passes its options on, with `includeNonWordCharacters`.
 */
export interface WordOptions {
  /** What a word is; replaces the pattern built from `nonWordCharacters`. */
  wordRegex?: RegExp
  /** Default `DEFAULT_NON_WORD_CHARACTERS`. */
  nonWordCharacters?: string
  /** Whether runs of non-word characters count as words (default true); ignored when `wordRegex` is given. */
  includeNonWordCharacters?: boolean
  /** `beginningOfCurrentWord`: whether the start of the previous word may be returned (default true). */
  allowPrevious?: boolean
  /** `endOfCurrentWord`: whether the end of a word on a later row may be returned (default true). */
  allowNext?: boolean
}

interface Prepared {
  position: Point
  options: WordOptions
  nonWordCharacters: string
}

function prepare(lines: LineSource, position: PointLike, options: WordOptions | undefined): Prepared {
  assertLineSource(lines)
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(`options must be an object; got ${options === null ? 'null' : typeof options}`)
  }
  const opts = options ?? {}
  if (opts.wordRegex !== undefined && !(opts.wordRegex instanceof RegExp)) {
    throw new TypeError(`options.wordRegex must be a RegExp; got ${typeof opts.wordRegex}`)
  }
  const nonWordCharacters = opts.nonWordCharacters ?? DEFAULT_NON_WORD_CHARACTERS
  if (typeof nonWordCharacters !== 'string') {
    throw new TypeError(`options.nonWordCharacters must be a string; got ${typeof nonWordCharacters}`)
  }
  return { position: clipPoint(lines, position), options: opts, nonWordCharacters }
}

/** The pattern Atom uses where it calls `this.wordRegExp()` without options. */
function plainWordRegex({ options, nonWordCharacters }: Prepared): RegExp {
  return options.wordRegex ?? wordRegExp(nonWordCharacters)
}

/** The pattern Atom uses where it calls `this.wordRegExp(options)`. */
function optionWordRegex({ options, nonWordCharacters }: Prepared): RegExp {
  return options.wordRegex ?? wordRegExp(nonWordCharacters, { includeNonWordCharacters: options.includeNonWordCharacters })
}

function assertNonWordCharacters(nonWordCharacters: unknown): asserts nonWordCharacters is string {
  if (typeof nonWordCharacters !== 'string') {
    throw new TypeError(`nonWordCharacters must be a string; got ${typeof nonWordCharacters}`)
  }
}

/**
 * Atom's `getPreviousWordBoundaryBufferPosition`: the last match between the previous non-blank row and
 * the position decides. A match on an earlier row gives the start of the position's row (unless the
 * position is already at column 0); a match ending before the position gives its end; otherwise its start.
 */
export function previousWordBoundary(lines: LineSource, position: PointLike, options?: WordOptions): Point {
  const prepared = prepare(lines, position, options)
  const current = prepared.position
  const startRow = previousNonBlankRow(lines, current.row) ?? 0
  let last: Range | null = null
  for (const match of matchesInRange(lines, plainWordRegex(prepared), [[startRow, 0], current])) last = match
  if (last === null) return current
  const onEarlierRow = last.start.row < current.row && current.column > 0
  return clipPoint(lines, onEarlierRow ? new Point(current.row, 0) : current.isGreaterThan(last.end) ? last.end : last.start, 'backward')
}

/**
 * Atom's `getNextWordBoundaryBufferPosition`: the first match from the position on decides. A match on a
 * later row gives the start of that row; one starting after the position gives its start; otherwise its end.
 */
export function nextWordBoundary(lines: LineSource, position: PointLike, options?: WordOptions): Point {
  const prepared = prepare(lines, position, options)
  const current = prepared.position
  const match = findInRange(lines, plainWordRegex(prepared), [current, endOfText(lines)])
  if (match === null) return current
  if (match.start.row > current.row) return clipPoint(lines, new Point(match.start.row, 0), 'forward')
  return clipPoint(lines, current.isLessThan(match.start) ? match.start : match.end, 'forward')
}

/**
 * Atom's `getBeginningOfCurrentWordBufferPosition`: the start of the last word that starts before the
 * position, searching from the start of the row above. With `allowPrevious: false` only a word on the
 * position's row that reaches the position counts. Falls back to (0, 0), or to the position itself
 * when `allowPrevious` is false.
 */
export function beginningOfCurrentWord(lines: LineSource, position: PointLike, options?: WordOptions): Point {
  const prepared = prepare(lines, position, options)
  const current = prepared.position
  const allowPrevious = prepared.options.allowPrevious !== false
  const scanStart = new Point(allowPrevious ? current.row - 1 : current.row, 0)
  let result: Point | null = null
  for (const match of matchesInRange(lines, optionWordRegex(prepared), [scanStart, current])) {
    if (current.isLessThanOrEqual(match.start)) break
    if (allowPrevious || current.isLessThanOrEqual(match.end)) result = match.start
  }
  if (result === null) return allowPrevious ? Point.ZERO : current
  return clipPoint(lines, result, 'backward')
}

/**
 * Atom's `getEndOfCurrentWordBufferPosition`: the end of the first word that ends after the position,
 * searching up to the start of the row two below. With `allowNext: false` only a word on the position's
 * row that contains the position counts. Falls back to the end of the text, or to the position itself
 * when `allowNext` is false.
 */
export function endOfCurrentWord(lines: LineSource, position: PointLike, options?: WordOptions): Point {
  const prepared = prepare(lines, position, options)
  const current = prepared.position
  const allowNext = prepared.options.allowNext !== false
  const scanEnd = allowNext ? new Point(current.row + 2, 0) : new Point(current.row, Infinity)
  for (const match of matchesInRange(lines, optionWordRegex(prepared), [current, scanEnd])) {
    if (current.isLessThan(match.start) && !allowNext) break
    if (current.isLessThan(match.end)) return clipPoint(lines, match.end, 'forward')
  }
  return allowNext ? endOfText(lines) : current
}

/**
 * Atom's `Cursor#isInsideWord`: whether the word pattern matches right at the position, looking at the
 * rest of the row only. True at the end of a row and before trailing whitespace.
 */
export function isInsideWord(lines: LineSource, position: PointLike, options?: WordOptions): boolean {
  const prepared = prepare(lines, position, options)
  const { row, column } = prepared.position
  // String#search ignores and restores lastIndex, so the caller's RegExp is left as it was.
  return lineAt(lines, row).slice(column).search(plainWordRegex(prepared)) === 0
}

/**
 * Atom's `getBeginningOfNextWordBufferPosition`: from the end of the current word (or from the position
 * when it is not inside a word), the start of the next match; the position itself when there is none.
 */
export function beginningOfNextWord(lines: LineSource, position: PointLike, options?: WordOptions): Point {
  const prepared = prepare(lines, position, options)
  const current = prepared.position
  const start = isInsideWord(lines, current, prepared.options) ? endOfCurrentWord(lines, current, prepared.options) : current
  for (const match of scanInRange(lines, plainWordRegex(prepared), [start, endOfText(lines)])) {
    return clipPoint(lines, match.start, 'forward')
  }
  return current
}

/**
 * Atom's `getCurrentWordBufferRange`: the first match on the position's row that touches the position
 * (starts at or before it and ends at or after it), or an empty range at the position.
 */
export function currentWordRange(lines: LineSource, position: PointLike, options?: WordOptions): Range {
  const prepared = prepare(lines, position, options)
  const current = prepared.position
  const rowRange = new Range([current.row, 0], [current.row, Infinity])
  for (const match of matchesInRange(lines, optionWordRegex(prepared), rowRange)) {
    if (match.start.column > current.column) break
    if (match.end.column >= current.column) {
      return new Range(clipPoint(lines, match.start, 'backward'), clipPoint(lines, match.end, 'forward'))
    }
  }
  return new Range(current, current)
}

/**
 * Atom's `getCurrentWordPrefix`: the text from `beginningOfCurrentWord` to the position. Rows are joined
 * with '\n'; read the buffer itself when the real line endings matter.
 */
export function currentWordPrefix(lines: LineSource, position: PointLike, options?: WordOptions): string {
  const prepared = prepare(lines, position, options)
  return textBetween(lines, beginningOfCurrentWord(lines, prepared.position, prepared.options), prepared.position)
}

/**
 * Atom's `Cursor#isSurroundedByWhitespace`: the characters on both sides, clipped to the row, are all
 * whitespace. At a row's start or end only the one character inside the row is looked at.
 */
export function isSurroundedByWhitespace(lines: LineSource, position: PointLike): boolean {
  assertLineSource(lines)
  const { row, column } = clipPoint(lines, position)
  const line = lineAt(lines, row)
  return /^\s+$/.test(line.slice(Math.max(0, column - 1), column + 1))
}

/**
 * Atom's `Cursor#isBetweenWordAndNonWord`: not at a row's start or end, neither neighbour is whitespace,
 * and exactly one of them is a non-word character.
 */
export function isBetweenWordAndNonWord(
  lines: LineSource,
  position: PointLike,
  nonWordCharacters: string = DEFAULT_NON_WORD_CHARACTERS,
): boolean {
  assertLineSource(lines)
  assertNonWordCharacters(nonWordCharacters)
  const { row, column } = clipPoint(lines, position)
  const line = lineAt(lines, row)
  if (column === 0 || column === line.length) return false
  const before = line[column - 1]!
  const after = line[column]!
  if (/\s/.test(before) || /\s/.test(after)) return false
  return nonWordCharacters.includes(before) !== nonWordCharacters.includes(after)
}

/**
 * Atom's `Selection#selectWord` range: whitespace around the position selects the run of blanks; between
 * a word and a non-word character only words count; otherwise `currentWordRange`.
 */
export function selectWordRange(lines: LineSource, position: PointLike, options?: WordOptions): Range {
  const prepared = prepare(lines, position, options)
  const current = prepared.position
  const wordOptions: WordOptions = { ...prepared.options }
  if (isSurroundedByWhitespace(lines, current)) wordOptions.wordRegex = /[\t ]*/
  if (isBetweenWordAndNonWord(lines, current, prepared.nonWordCharacters)) wordOptions.includeNonWordCharacters = false
  return currentWordRange(lines, current, wordOptions)
}

/** Atom's `moveToPreviousSubwordBoundary`: `previousWordBoundary` with the backwards subword pattern. */
export function previousSubwordBoundary(
  lines: LineSource,
  position: PointLike,
  nonWordCharacters: string = DEFAULT_NON_WORD_CHARACTERS,
): Point {
  assertNonWordCharacters(nonWordCharacters)
  return previousWordBoundary(lines, position, { wordRegex: subwordRegExp(nonWordCharacters, { backwards: true }) })
}

/** Atom's `moveToNextSubwordBoundary`: `nextWordBoundary` with the forward subword pattern. */
export function nextSubwordBoundary(
  lines: LineSource,
  position: PointLike,
  nonWordCharacters: string = DEFAULT_NON_WORD_CHARACTERS,
): Point {
  assertNonWordCharacters(nonWordCharacters)
  return nextWordBoundary(lines, position, { wordRegex: subwordRegExp(nonWordCharacters) })
}
