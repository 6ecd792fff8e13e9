/*
 * Everything the engine knows about characters that span more than one UTF-16 code unit: surrogate
 * pairs (never split, anywhere) and grapheme clusters (combining marks, variation selectors, ZWJ emoji,
 * flags, Hangul syllables: characters that render as one). Columns count code units, as Atom's do; a
 * buffer position may sit inside a cluster (Atom keeps an explicit one), but motion, deletion and
 * screen clipping step over whole clusters, as CodeMirror and VS Code do.
 */

/** Which way a position that may not stay where it is moves: the display layer also knows `closest`. */
export type ClipDirection = 'backward' | 'forward' | 'closest'

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/** True when `column` falls between the two halves of a surrogate pair of `text`. */
export function splitsSurrogatePair(text: string, column: number): boolean {
  return column > 0 && column < text.length && isHighSurrogate(text.charCodeAt(column - 1)) && isLowSurrogate(text.charCodeAt(column))
}

/** True when `text` starts with a low surrogate or ends with a high one: half of a pair whose other half is outside it. */
export function hasHalfPairAtEdge(text: string): boolean {
  return text.length > 0 && (isLowSurrogate(text.charCodeAt(0)) || isHighSurrogate(text.charCodeAt(text.length - 1)))
}

/** NaN becomes 0; infinities are kept so that Infinity means "the end", as in Atom. */
export function toFiniteNumber(value: number): number {
  return Number.isNaN(value) ? 0 : value
}

/**
 * Clips a column into a line's content (its first `contentLength` code units, default all) and out of
 * the middle of a surrogate pair in `direction` (`closest` goes back). The one column clip of the engine:
 * the buffer, the motions and the display layer all use it.
 */
export function clipColumn(text: string, column: number, direction: ClipDirection = 'backward', contentLength = text.length): number {
  if (Number.isNaN(column) || column <= 0) return 0
  if (column >= contentLength) return contentLength
  const whole = Math.floor(column)
  if (!splitsSurrogatePair(text, whole)) return whole
  return direction === 'forward' ? whole + 1 : whole - 1
}

/*
 * Grapheme boundaries. Most columns are decided by looking at the two characters around them: a column
 * between two code units below U+0300 (Latin, punctuation, controls) is a boundary, and so is one before
 * any character that does not extend or join (CJK, most emoji, …) unless the character before it joins
 * the next (ZWJ, a regional indicator, a Hangul leading consonant, a prepended mark). Only the rest, a
 * column before a combining mark, a variation selector, an emoji modifier, a Hangul vowel or final,
 * asks `Intl.Segmenter`, over a window around the column that starts and ends at sure boundaries.
 */

const SIMPLE = 0x300
const WINDOW = 64
/** Characters that may attach to the one before them. */
const EXTENDS = /^[\p{M}\u200d\ufe00-\ufe0f\u1160-\u11ff\ud7b0-\ud7ff\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}\u{1f1e6}-\u{1f1ff}]/u
/** Characters that may join the one after them. */
const JOINS = /[\u200d\u1100-\u115f\ua960-\ua97f\u0600-\u0605\u06dd\u070f\u08e2\u0d4e\u{1f1e6}-\u{1f1ff}]$/u

type Segmenter = { segment(text: string): Iterable<{ index: number; segment: string }> }

function createSegmenter(): Segmenter | null {
  const intl = (globalThis as { Intl?: { Segmenter?: new (locale?: string, options?: { granularity: string }) => Segmenter } }).Intl
  return intl?.Segmenter ? new intl.Segmenter(undefined, { granularity: 'grapheme' }) : null
}

// A pure, stateless helper object (no configuration, no caches): sharing it is no module state.
const segmenter = createSegmenter()

function isSimpleBoundary(text: string, column: number): boolean {
  return column <= 0 || column >= text.length || (text.charCodeAt(column - 1) < SIMPLE && text.charCodeAt(column) < SIMPLE)
}

/** True when the column is a boundary without asking the segmenter; false when only it can tell. */
function isSureBoundary(text: string, column: number): boolean {
  if (isSimpleBoundary(text, column)) return true
  if (splitsSurrogatePair(text, column)) return false
  return !EXTENDS.test(text.slice(column, column + 2)) && !JOINS.test(text.slice(Math.max(0, column - 2), column))
}

/** True when `column` lies between two grapheme clusters of `text` (or at either end). */
export function isClusterBoundary(text: string, column: number): boolean {
  if (isSureBoundary(text, column)) return true
  if (splitsSurrogatePair(text, column)) return false
  if (segmenter === null) return true
  let start = column - 1
  while (start > 0 && column - start < WINDOW && !isSureBoundary(text, start)) start--
  let end = column + 1
  while (end < text.length && end - column < WINDOW && !isSureBoundary(text, end)) end++
  for (const { index } of segmenter.segment(text.slice(start, end))) {
    if (start + index === column) return true
    if (start + index > column) return false
  }
  return false
}

/** The start of the grapheme cluster that ends at or contains the position before `column`. */
export function previousClusterBoundary(text: string, column: number): number {
  if (column <= 0) return 0
  if (column > text.length) return text.length
  let boundary = column - 1
  while (boundary > 0 && !isClusterBoundary(text, boundary)) boundary--
  return boundary
}

/** The end of the grapheme cluster that starts at or contains `column`. */
export function nextClusterBoundary(text: string, column: number): number {
  if (column >= text.length) return text.length
  if (column < 0) return 0
  let boundary = column + 1
  while (boundary < text.length && !isClusterBoundary(text, boundary)) boundary++
  return boundary
}

/** `column` moved out of the middle of a grapheme cluster in `direction` (`closest`: the nearer end). */
export function clipToCluster(text: string, column: number, direction: ClipDirection): number {
  if (isClusterBoundary(text, column)) return column
  const before = previousClusterBoundary(text, column)
  const after = nextClusterBoundary(text, column)
  if (direction === 'backward') return before
  if (direction === 'forward') return after
  return column - before <= after - column ? before : after
}
