import { Point, type PointLike } from '../../core/point/point.ts'
import { Range, type RangeLike } from '../../core/point/range.ts'

/*
 * Marked-up text for short, readable tests:
 *
 *   'foo |bar'            a cursor at (0, 4)
 *   'one\n«two\nthr»ee'   a range from (1, 0) to (2, 3)
 *   'a \| b'              a literal '|' (in a TS string literal: 'a \\| b')
 *
 * `|` marks a cursor, `«` and `»` the start and end of a range, and a backslash before any of these
 * four characters makes it literal. A backslash before anything else is itself literal, so regex-like
 * text such as '\d' needs no escaping. Ranges cannot nest or overlap; a cursor may sit inside one.
 * Rows end at '\n', '\r\n' or '\r', as in TextBuffer; columns count UTF-16 code units.
 * Other marker characters can be passed in when the text needs the defaults.
 */

export interface Markers {
  cursor: string
  rangeStart: string
  rangeEnd: string
  escape: string
}

export const DEFAULT_MARKERS: Readonly<Markers> = Object.freeze({ cursor: '|', rangeStart: '«', rangeEnd: '»', escape: '\\' })

export interface MarkedText {
  text: string
  cursors: Point[]
  ranges: Range[]
}

function resolveMarkers(overrides: Partial<Markers>): Markers {
  const markers = { ...DEFAULT_MARKERS, ...overrides }
  const values = [markers.cursor, markers.rangeStart, markers.rangeEnd, markers.escape]
  for (const value of values) {
    if (typeof value !== 'string' || value.length !== 1) throw new TypeError(`markers must be single UTF-16 characters; got ${JSON.stringify(value)}`)
  }
  if (new Set(values).size !== values.length) throw new TypeError('markers must be four different characters')
  return markers
}

/** Tracks the (row, column) of the next character of a text as characters are appended. */
class PositionTracker {
  row = 0
  column = 0
  /** The last character was '\r': a '\n' now would complete the same line ending. */
  afterCarriageReturn = false

  advance(character: string): void {
    if (character === '\r') {
      this.row++
      this.column = 0
      this.afterCarriageReturn = true
    } else if (character === '\n') {
      if (!this.afterCarriageReturn) {
        this.row++
        this.column = 0
      }
      this.afterCarriageReturn = false
    } else {
      this.column++
      this.afterCarriageReturn = false
    }
  }

  point(): Point {
    return new Point(this.row, this.column)
  }
}

/** Strips the markers from `marked`, returning the text and the marked cursors and ranges in order. */
export function parseMarked(marked: string, markerOverrides: Partial<Markers> = {}): MarkedText {
  if (typeof marked !== 'string') throw new TypeError(`marked must be a string; got ${typeof marked}`)
  const markers = resolveMarkers(markerOverrides)
  const special = new Set([markers.cursor, markers.rangeStart, markers.rangeEnd, markers.escape])
  const position = new PositionTracker()
  const cursors: Point[] = []
  const ranges: Range[] = []
  let text = ''
  let openRange: Point | null = null
  let markedAfterCarriageReturn = false

  const append = (character: string) => {
    if (character === '\n' && markedAfterCarriageReturn && position.afterCarriageReturn) {
      throw new SyntaxError(`a marker at ${position.point().toString()} would split a '\\r\\n' line ending`)
    }
    markedAfterCarriageReturn = false
    text += character
    position.advance(character)
  }
  const mark = () => {
    markedAfterCarriageReturn = position.afterCarriageReturn
    return position.point()
  }

  for (let i = 0; i < marked.length; i++) {
    const character = marked[i]!
    if (character === markers.escape && i + 1 < marked.length && special.has(marked[i + 1]!)) {
      append(marked[++i]!)
    } else if (character === markers.cursor) {
      cursors.push(mark())
    } else if (character === markers.rangeStart) {
      if (openRange !== null) throw new SyntaxError(`range starting at ${openRange.toString()} is still open at ${position.point().toString()}`)
      openRange = mark()
    } else if (character === markers.rangeEnd) {
      if (openRange === null) throw new SyntaxError(`range end at ${position.point().toString()} has no start`)
      ranges.push(new Range(openRange, mark()))
      openRange = null
    } else {
      append(character)
    }
  }
  if (openRange !== null) throw new SyntaxError(`range starting at ${openRange.toString()} is never closed`)
  return { text, cursors, ranges }
}

/** Inserts markers for `cursors` and `ranges` into `text`, escaping marker characters already in it. */
export function markText(
  text: string,
  marks: { cursors?: readonly PointLike[]; ranges?: readonly RangeLike[] },
  markerOverrides: Partial<Markers> = {},
): string {
  if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
  const markers = resolveMarkers(markerOverrides)
  const special = new Set([markers.cursor, markers.rangeStart, markers.rangeEnd, markers.escape])
  const ranges = (marks.ranges ?? []).map((range) => Range.fromObject(range, false, 'range')).sort((a, b) => a.compare(b))
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i]!.start.isLessThan(ranges[i - 1]!.end)) {
      throw new RangeError(`ranges ${ranges[i - 1]!.toString()} and ${ranges[i]!.toString()} overlap`)
    }
  }
  // What to insert at each position, in an order that parses back: ends, empty ranges, cursors, starts.
  const inserts = new Map<string, string[]>()
  const add = (point: Point, order: number, marker: string) => {
    const key = `${point.row},${point.column}`
    const list = inserts.get(key) ?? []
    list.push(`${order}${marker}`)
    inserts.set(key, list)
  }
  for (const range of ranges) {
    if (range.isEmpty()) add(range.start, 1, markers.rangeStart + markers.rangeEnd)
    else {
      add(range.end, 0, markers.rangeEnd)
      add(range.start, 3, markers.rangeStart)
    }
  }
  for (const cursor of marks.cursors ?? []) add(Point.fromObject(cursor, false, 'cursor'), 2, markers.cursor)

  const position = new PositionTracker()
  let out = ''
  const flush = () => {
    const key = `${position.row},${position.column}`
    const list = inserts.get(key)
    if (list === undefined) return
    out += list.sort().map((entry) => entry.slice(1)).join('')
    inserts.delete(key)
  }
  for (let i = 0; i < text.length; i++) {
    const unit = text[i]!
    // No position lies between the '\r' and '\n' of one line ending.
    if (!(unit === '\n' && position.afterCarriageReturn)) flush()
    out += special.has(unit) ? markers.escape + unit : unit
    position.advance(unit)
  }
  flush()
  if (inserts.size > 0) throw new RangeError(`marks outside the text: ${[...inserts.keys()].map((key) => `(${key.replace(',', ', ')})`).join(' ')}`)
  return out
}

/** `text` with a cursor marker at each point (several at one point give several markers). */
export function markPoints(text: string, points: readonly PointLike[], markerOverrides: Partial<Markers> = {}): string {
  return markText(text, { cursors: points }, markerOverrides)
}

/** `text` with each range marked. */
export function markRanges(text: string, ranges: readonly RangeLike[], markerOverrides: Partial<Markers> = {}): string {
  return markText(text, { ranges }, markerOverrides)
}
