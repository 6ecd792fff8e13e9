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
 * Grapheme boundaries. Code units below U+0300 (Latin, punctuation, controls) neither extend nor join the
 * character before them, so a column between two of them is a boundary without asking the segmenter: the
 * common case costs two comparisons. Otherwise `Intl.Segmenter` segments a window around the column that
 * starts and ends at such a boundary (or at most WINDOW code units away, enough for any real cluster).
 */

const SIMPLE = 0x300
const WINDOW = 128

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

/** Grapheme cluster boundaries of `text` around `column`, ascending, including the window's ends. */
function boundariesAround(text: string, column: number): number[] {
  let start = column
  while (start > 0 && column - start < WINDOW && !isSimpleBoundary(text, start)) start--
  let end = column
  while (end < text.length && end - column < WINDOW && !isSimpleBoundary(text, end)) end++
  if (segmenter === null) {
    // Without Intl.Segmenter: code points only.
    const result: number[] = []
    for (let c = start; c <= end; c++) if (!splitsSurrogatePair(text, c)) result.push(c)
    return result
  }
  const result: number[] = []
  for (const { index } of segmenter.segment(text.slice(start, end))) result.push(start + index)
  result.push(end)
  return result
}

/** True when `column` lies between two grapheme clusters of `text` (or at either end). */
export function isClusterBoundary(text: string, column: number): boolean {
  if (isSimpleBoundary(text, column)) return true
  return boundariesAround(text, column).includes(column)
}

/** The start of the grapheme cluster that ends at or contains the position before `column`. */
export function previousClusterBoundary(text: string, column: number): number {
  if (column <= 0) return 0
  if (column > text.length) return text.length
  if (isSimpleBoundary(text, column - 1)) return column - 1
  const boundaries = boundariesAround(text, column - 1)
  for (let i = boundaries.length - 1; i >= 0; i--) if (boundaries[i]! < column) return boundaries[i]!
  return Math.max(0, column - 1)
}

/** The end of the grapheme cluster that starts at or contains `column`. */
export function nextClusterBoundary(text: string, column: number): number {
  if (column >= text.length) return text.length
  if (column < 0) return 0
  if (isSimpleBoundary(text, column + 1)) return column + 1
  const boundaries = boundariesAround(text, column + 1)
  for (const boundary of boundaries) if (boundary > column) return boundary
  return Math.min(text.length, column + 1)
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
