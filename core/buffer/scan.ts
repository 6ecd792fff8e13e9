import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import { splitsSurrogatePair } from '../point/unicode.ts'
import { Deadline, INPUT_GOES_ON, ScanTooSlowError, guardedExec, mayBacktrackBadly, type ScanBudget } from './regex-budget.ts'

/*
 * Regular-expression search over the buffer with the semantics of Atom's `TextBuffer#scanInRange`
 * (superstring's `findAllInRangeSync` underneath):
 *
 * - the pattern is always multiline (`^`/`$` at every line start and end), keeping the caller's i, s, u
 *   and v flags; a match may run across lines when the pattern can;
 * - a range that starts mid-line does not let `^` match at its start, and one that ends mid-line does
 *   not let `$` match at its end (the text is cut there and a match running into the cut is cut short);
 * - after an empty match the search moves on one character, or past the whole line ending; no empty
 *   match is reported at the range end right after a match that ended there, and a match starting at
 *   the range end is skipped when the range ends at a column > 0;
 * - all matches are found first, then the iterator is called for each; a non-global regex stops after
 *   the first (the last, backwards); `replace(text)` during a forward scan shifts the later matches.
 *
 * The text is searched in slices of whole rows (never the whole document as one string), so a scan can
 * be resumed, and its time is bounded by a budget (regex-budget.ts).
 */

/** Rows a search of a line-crossing pattern looks at past the rows it decides (at least). */
const CONTEXT_CHARS = 4096

/** What the scanner reads: the text by offsets and the row structure (TextBuffer has all of it). */
export interface ScanText {
  getLength(): number
  getTextBetweenOffsets(startOffset: number, endOffset: number): string
  positionForCharacterIndex(offset: number): Point
  characterIndexForPosition(position: PointLike): number
  lineForRow(row: number): string | undefined
  getLineCount(): number
  clipRange(range: RangeLike): Range
}

/** What a scan that replaces also needs: an edit and one transaction around all of them. */
export interface ScanHost extends ScanText {
  setTextInRange(range: RangeLike, text: string): Range
}

/** Atom's scan options: context lines to hand the iterator, plus the time budget. */
export interface ScanOptions extends ScanBudget {
  leadingContextLineCount?: number
  trailingContextLineCount?: number
}

/** What the iterator of a scan receives for each match (Atom's `SearchCallbackArgument`). */
export interface ScanMatch {
  /** The regex's match, with `index` the column in `lineText`. */
  readonly match: RegExpExecArray
  readonly matchText: string
  readonly range: Range
  /** The text of the row the match starts on. */
  readonly lineText: string
  /** Always 0: `lineText` is the whole row. */
  readonly lineTextOffset: number
  readonly leadingContextLines: string[]
  readonly trailingContextLines: string[]
  /** Ends the scan after this match. */
  stop(): void
  /** Replaces the match's text (within the scan's one transaction). */
  replace(text: string): void
}

export type ScanIterator = (argument: ScanMatch) => void

/** A search's progress: more text to search, finished, or stopped by its budget. */
export type FindStatus = 'more' | 'done' | 'too-slow'

/** The private copy used for scanning: global and multiline, keeping the caller's i, s, u and v flags. */
export function scanningRegExp(regex: RegExp): RegExp {
  let flags = 'gm'
  for (const flag of regex.flags) if (flag === 'i' || flag === 's' || flag === 'u' || flag === 'v') flags += flag
  return new RegExp(regex.source, flags)
}

/**
 * True when a match of `source` may span a line break or look across one: it names a line break,
 * whitespace or a negated class, or has the `s` flag with a dot.
 */
export function mayCrossLines(regex: RegExp): boolean {
  const source = regex.source
  if (/\\[nrsSWDBu]|\\x0[aAdD]|\\c[jJmM]|\[\^|\\p|\(\?[=!<]/.test(source)) return true
  return regex.flags.includes('s') && source.includes('.')
}

/** What a finder needs to know about its pattern (`mayBacktrackBadly`, `mayCrossLines`). */
export interface PatternTraits {
  readonly risky: boolean
  readonly crossesLines: boolean
}

/**
 * A resumable search of `[start, end)` of a text, row slice by row slice. Each `run` searches about
 * `maxChars` characters (whole rows) and reports matches in order as offsets.
 */
export class MatchFinder {
  private position: number
  private previousEnd = -1
  /** Rows a slice must reach past, after a match ran into the end of the previous slice. */
  private minSliceEnd = 0
  private readonly risky: boolean
  private readonly crossesLines: boolean
  readonly end: number

  constructor(
    private readonly text: ScanText,
    private readonly pattern: RegExp,
    start: number,
    end: number,
    /** The budget of the runs to come (a resumed search gets a new one per call). */
    public deadline: Deadline,
    traits?: PatternTraits,
  ) {
    this.position = start
    this.end = end
    // Both read the pattern's source; a query making a finder per edit passes what it computed once.
    this.risky = traits?.risky ?? mayBacktrackBadly(pattern.source)
    this.crossesLines = traits?.crossesLines ?? mayCrossLines(pattern)
  }

  /** Where the next search starts. */
  getPosition(): number {
    return this.position
  }

  /**
   * Searches on from where the last run stopped, about `maxChars` characters, calling `found` per match
   * (offsets in the text). `found` returning false ends the search ('done').
   */
  run(maxChars: number, found: (start: number, end: number, match: RegExpExecArray, startPoint: Point | null, endPoint: Point | null) => boolean | void, withPoints = false): FindStatus {
    if (this.position > this.end) return 'done'
    const text = this.text
    const startRow = text.positionForCharacterIndex(this.position).row
    const sliceStart = text.characterIndexForPosition([startRow, 0])
    const rowEndAfter = (offset: number): number => {
      const row = text.positionForCharacterIndex(offset).row
      return row + 1 < text.getLineCount() ? text.characterIndexForPosition([row + 1, 0]) : text.getLength()
    }
    // The rows this run decides; a pattern that crosses lines also sees as many rows again (at least
    // CONTEXT_CHARS) after them, so that a match starting in them and running on is seen whole.
    const decidedEnd = rowEndAfter(Math.min(this.end, Math.max(this.position + maxChars, this.minSliceEnd)))
    const contextEnd = this.crossesLines && decidedEnd < this.end ? rowEndAfter(Math.min(this.end, decidedEnd + Math.max(decidedEnd - sliceStart, CONTEXT_CHARS))) : decidedEnd
    const final = contextEnd >= this.end
    const sliceEnd = final ? this.end : contextEnd
    let input = text.getTextBetweenOffsets(sliceStart, sliceEnd)
    const limit = input.length
    // A range that ends mid-line: `$` must not match at its end.
    if (final && this.end < text.getLength() && !/[\r\n]/.test(text.getTextBetweenOffsets(this.end, this.end + 1))) input += INPUT_GOES_ON
    const pattern = this.pattern
    // Matches starting in the context rows are decided by the next run, which starts there.
    const deferFrom = decidedEnd < this.end && decidedEnd < sliceEnd ? decidedEnd - sliceStart : limit
    // Row and column of match ends, counted along the slice (cheaper than a lookup per match).
    const slice = input
    let row = startRow
    let rowStart = 0
    let nextBreak: RegExpExecArray | null = null
    let lineBreak: RegExp | null = null
    const pointAt = (offset: number): Point => {
      lineBreak ??= /\r\n|\r|\n/g
      for (;;) {
        if (nextBreak === null || nextBreak.index < rowStart) {
          lineBreak.lastIndex = rowStart
          nextBreak = lineBreak.exec(slice)
        }
        if (nextBreak === null || nextBreak.index + nextBreak[0].length > offset) break
        row++
        rowStart = nextBreak.index + nextBreak[0].length
      }
      return new Point(row, offset - rowStart)
    }
    let index = this.position - sliceStart
    while (index <= limit) {
      let match: RegExpExecArray | null | undefined
      if (this.risky) match = guardedExec(pattern, input, index, this.deadline)
      else {
        pattern.lastIndex = index
        match = pattern.exec(input)
      }
      if (match === undefined) {
        this.position = sliceStart + index
        return 'too-slow'
      }
      if (match === null || match.index > limit) break
      const matchStart = match.index
      let matchEnd = matchStart + match[0].length
      if (final) {
        // A match that only consumed the cut is not in the range; one running into it is cut short.
        if (matchStart === limit && matchEnd > matchStart) break
        matchEnd = Math.min(matchEnd, limit)
      }
      if (matchStart >= deferFrom && deferFrom < limit) break
      if (!final && matchEnd >= limit) {
        // It may go on past this slice: decide it again with more rows in view.
        this.position = sliceStart + matchStart
        this.minSliceEnd = sliceEnd + (sliceEnd - sliceStart)
        return 'more'
      }
      const absoluteStart = sliceStart + matchStart
      const absoluteEnd = sliceStart + matchEnd
      const empty = matchEnd === matchStart
      // Between '\r' and '\n' is no position of the buffer.
      const insideEnding = matchStart > 0 && input[matchStart - 1] === '\r' && input[matchStart] === '\n'
      if (empty && absoluteStart === this.end && this.previousEnd === this.end) break
      if (!insideEnding) {
        this.previousEnd = absoluteEnd
        const startPoint = withPoints ? pointAt(matchStart) : null
        const endPoint = withPoints ? pointAt(matchEnd) : null
        if (found(absoluteStart, absoluteEnd, match, startPoint, endPoint) === false) {
          this.position = this.end + 1
          return 'done'
        }
      }
      if (!empty) index = matchEnd
      else if (input[matchStart] === '\r' && input[matchStart + 1] === '\n') index = matchStart + 2
      else index = splitsSurrogatePair(input, matchStart + 1) ? matchStart + 2 : matchStart + 1
    }
    this.minSliceEnd = 0
    if (deferFrom < limit) {
      this.position = sliceStart + Math.min(limit, Math.max(deferFrom, index))
      return this.deadline.remaining() <= 0 ? 'too-slow' : 'more'
    }
    this.position = final ? this.end + 1 : sliceEnd
    if (this.deadline.remaining() <= 0 && !final) return 'too-slow'
    return final ? 'done' : 'more'
  }
}

const SLICE_CHARS = 1 << 16

/** Every match of `regex` in `[start, end)` as offset pairs; throws ScanTooSlowError past the budget. */
export function findAllOffsets(text: ScanText, regex: RegExp, start: number, end: number, budget: ScanBudget = {}, firstOnly = false): number[] {
  const pattern = scanningRegExp(regex)
  const deadline = new Deadline(budget)
  const finder = new MatchFinder(text, pattern, start, end, deadline)
  const offsets: number[] = []
  const found = (s: number, e: number): boolean => {
    offsets.push(s, e)
    return !firstOnly
  }
  for (;;) {
    const status = finder.run(SLICE_CHARS, found)
    if (status === 'done') return offsets
    if (status === 'too-slow') throw new ScanTooSlowError(regex.source, deadline.timeLimit)
  }
}

class Argument implements ScanMatch {
  readonly lineTextOffset = 0
  readonly leadingContextLines: string[] = []
  readonly trailingContextLines: string[] = []
  stopped = false
  replacementText: string | null = null
  private line: string | null = null

  constructor(
    private readonly host: ScanHost,
    readonly range: Range,
    readonly match: RegExpExecArray,
    readonly matchText: string,
    options: ScanOptions,
  ) {
    this.stop = this.stop.bind(this)
    this.replace = this.replace.bind(this)
    match.index = range.start.column
    const row = range.start.row
    const leading = options.leadingContextLineCount ?? 0
    const trailing = options.trailingContextLineCount ?? 0
    for (let r = Math.max(0, row - leading); r < row; r++) this.leadingContextLines.push(host.lineForRow(r) ?? '')
    for (let r = row + 1; r <= row + trailing && r < host.getLineCount(); r++) this.trailingContextLines.push(host.lineForRow(r) ?? '')
  }

  /** Read on demand, as Atom's getter does: most iterators never ask. */
  get lineText(): string {
    this.line ??= this.host.lineForRow(this.range.start.row) ?? ''
    return this.line
  }

  stop(): void {
    this.stopped = true
  }

  replace(text: string): void {
    if (typeof text !== 'string') throw new TypeError(`replacement must be a string; got ${typeof text}`)
    this.replacementText = text
    this.host.setTextInRange(this.range, text)
  }
}

/**
 * Atom's `scanInRange` (and, with `reverse`, `backwardsScanInRange`): finds every match first (or
 * throws ScanTooSlowError having changed nothing), then calls `iterator` for each; `transact` wraps the
 * calls so that all replacements are one transaction.
 */
export function scanInRange(host: ScanHost, regex: RegExp, range: RangeLike, options: ScanOptions, iterator: ScanIterator, reverse: boolean, transact: (fn: () => void) => void): void {
  if (!(regex instanceof RegExp)) throw new TypeError(`regex must be a RegExp; got ${typeof regex}`)
  if (typeof iterator !== 'function') throw new TypeError('scan needs an iterator function')
  const clipped = host.clipRange(range)
  const start = host.characterIndexForPosition(clipped.start)
  const end = host.characterIndexForPosition(clipped.end)
  const pattern = scanningRegExp(regex)
  const deadline = new Deadline(options)
  const matches: { start: number; end: number; match: RegExpExecArray; range: Range }[] = []
  const finder = new MatchFinder(host, pattern, start, end, deadline)
  const firstOnly = !regex.global && !reverse
  for (;;) {
    const status = finder.run(SLICE_CHARS, (s, e, match, a, b) => {
      // Atom skips a match starting at the end of a range that ends at a column > 0.
      if (s === end && clipped.end.column > 0) return
      matches.push({ start: s, end: e, match, range: new Range(a!, b!) })
      return !firstOnly
    }, true)
    if (status === 'done') break
    if (status === 'too-slow') throw new ScanTooSlowError(regex.source, deadline.timeLimit)
  }
  if (matches.length === 0) return
  transact(() => {
    let shift = 0
    let replaced = false
    for (let k = 0; k < matches.length; k++) {
      const { start: s, end: e, match, range: found } = matches[reverse ? matches.length - 1 - k : k]!
      // Once the text changed, the match's rows may have moved: its offsets (shifted) still hold.
      const range = replaced && !reverse ? new Range(host.positionForCharacterIndex(s + shift), host.positionForCharacterIndex(e + shift)) : found
      const matchText = e - s === match[0].length ? match[0] : match[0].slice(0, e - s)
      const argument = new Argument(host, range, match, matchText, options)
      iterator(argument)
      if (argument.stopped || !regex.global) break
      if (argument.replacementText !== null) {
        replaced = true
        if (!reverse) shift += argument.replacementText.length - (e - s)
      }
    }
  })
}

/** Atom's `TextBuffer#replace`: every match's text replaced as `String#replace` would; returns the count. */
export function replaceAll(host: ScanHost, regex: RegExp, replacement: string, transact: (fn: () => void) => void): number {
  if (typeof replacement !== 'string') throw new TypeError(`replacement must be a string; got ${typeof replacement}`)
  let count = 0
  scanInRange(host, regex, new Range(Point.ZERO, host.positionForCharacterIndex(host.getLength())), {}, ({ matchText, replace }) => {
    regex.lastIndex = 0
    replace(matchText.replace(regex, replacement))
    count++
  }, false, transact)
  return count
}

/** Atom's optional-options call shape: `(regex, range, iterator)` or `(regex, range, options, iterator)`. */
export function scanWithArguments(host: ScanHost, regex: RegExp, range: RangeLike, optionsOrIterator: ScanOptions | ScanIterator, iterator: ScanIterator | undefined, reverse: boolean, transact: (fn: () => void) => void): void {
  const [options, callback] = typeof optionsOrIterator === 'function' ? [{}, optionsOrIterator] : [optionsOrIterator, iterator!]
  scanInRange(host, regex, range, options, callback, reverse, transact)
}
