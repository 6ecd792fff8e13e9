import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import { MatchFinder, mayCrossLines, scanningRegExp, type FindStatus, type PatternTraits } from '../buffer/scan.ts'
import { mayBacktrackBadly } from '../buffer/regex-budget.ts'
import { Deadline, type ScanBudget } from '../buffer/regex-budget.ts'
import { MatchOffsets } from './match-offsets.ts'

/*
 * Live find results. A query's matches are kept as sorted pairs of offsets, mapped through every change
 * of the text, whoever made it, like markers (Atom keeps them as markers of a layer of their own; here a
 * layer of ten thousand marker objects would cost every keystroke ten thousand updates). After a change
 * only the rows it touched are searched again, and the search goes on past them only while a match runs
 * out of them. A pattern that can cross lines is searched again from LOOK_BACK_CHARS before the edit
 * (whole rows): a match of it that starts further above and reaches the edit is found by a fresh search only.
 *
 * The first search is resumable: `search()` looks at a slice of the text per call, so that a page can
 * count the matches of a large document in tasks of its own size; changes meanwhile are applied to what
 * has been searched, and the rest is searched as it is when the search gets there.
 */

export interface FindOptions {
  /** The text to find, or a regular expression's source when `regex`. */
  pattern: string
  regex?: boolean
  caseSensitive?: boolean
  /** Only matches that start and end at word boundaries (`\b…\b`, as Atom's find-and-replace). */
  wholeWord?: boolean
  /** Only matches inside the selection's range when the query is made (the range then follows edits). */
  inSelection?: boolean
}

/** Thrown by a query whose pattern is not a valid regular expression; nothing was changed. */
export class InvalidPatternError extends Error {
  constructor(readonly pattern: string, reason: string) {
    super(`Invalid regular expression /${pattern}/: ${reason}`)
    this.name = 'InvalidPatternError'
  }
}

/** What a query needs of its editor. */
export interface FindQueryHost {
  readonly buffer: TextBuffer
  /** Runs `fn` as one transaction and one undo step. */
  transact(fn: () => void): void
  getSelectedBufferRange(): Range
  setSelectedBufferRanges(ranges: RangeLike[]): void
}

/** What `onDidUpdate` callbacks receive. */
export interface FindUpdate {
  readonly count: number
  /** False while part of the text has not been searched yet. */
  readonly complete: boolean
  /** True when the search stopped because the pattern was too slow. */
  readonly tooSlow: boolean
}

interface FindEvents {
  'did-update': FindUpdate
}

const SEARCH_SLICE = 1 << 18
/** How far before an edit a match of a line-crossing pattern is searched again (whole rows, at least). */
const LOOK_BACK_CHARS = 512

/** The RegExp for `options`, as Atom's find-and-replace builds it; throws InvalidPatternError. */
export function findRegExp(options: FindOptions): RegExp {
  if (typeof options.pattern !== 'string') throw new TypeError(`pattern must be a string; got ${typeof options.pattern}`)
  let source = options.regex ? options.pattern : options.pattern.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
  if (options.wholeWord) source = `\\b${source}\\b`
  try {
    return new RegExp(source, options.caseSensitive ? 'gu' : 'giu')
  } catch {
    try {
      // Without the `u` flag, some patterns users write (`\-`, `{`) are accepted.
      return new RegExp(source, options.caseSensitive ? 'g' : 'gi')
    } catch (error) {
      throw new InvalidPatternError(options.pattern, error instanceof Error ? error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '') : String(error))
    }
  }
}

export class FindQuery {
  readonly options: Readonly<FindOptions>
  readonly regExp: RegExp
  private readonly pattern: RegExp
  private readonly crossesLines: boolean
  private readonly traits: PatternTraits
  private readonly matches = new MatchOffsets()
  /** Everything before this offset (within the bounds) has been searched. */
  private frontier: number
  private finder: MatchFinder | null = null
  private status: FindStatus = 'more'
  private bounds: { start: number; end: number } | null = null
  private readonly emitter = new Emitter<FindEvents>()
  private readonly subscription: Disposable
  private disposed = false

  constructor(private readonly host: FindQueryHost, options: FindOptions) {
    this.regExp = findRegExp(options)
    this.options = Object.freeze({ ...options })
    this.pattern = scanningRegExp(this.regExp)
    this.crossesLines = mayCrossLines(this.pattern)
    this.traits = { risky: mayBacktrackBadly(this.pattern.source), crossesLines: this.crossesLines }
    const buffer = host.buffer
    if (options.inSelection) {
      const range = host.getSelectedBufferRange()
      if (!range.isEmpty()) this.bounds = { start: buffer.characterIndexForPosition(range.start), end: buffer.characterIndexForPosition(range.end) }
    }
    this.frontier = this.rangeStart()
    if (options.pattern === '') this.status = 'done'
    this.subscription = buffer.onDidChangeText((changes) => {
      const edits: number[] = []
      changes.iterChanges((fromA, toA, fromB, toB) => edits.push(fromA, toA, fromB, toB))
      this.applyEdits(edits, changes.newLength - changes.oldLength)
    })
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.subscription.dispose()
    this.emitter.dispose()
  }

  /** Calls `callback` after every change of the results (a search slice, an edit anywhere). */
  onDidUpdate(callback: (update: FindUpdate) => void): Disposable {
    return this.emitter.on('did-update', callback)
  }

  /**
   * Searches on: about `maxChars` characters (default 256K), or until `budget` runs out. Returns
   * 'more' while text is left, 'done', or 'too-slow' (the pattern ran out of its budget; matches found
   * so far stay). A page calls it from its own tasks until it stops returning 'more'.
   */
  search(options: { maxChars?: number } & ScanBudget = {}): FindStatus {
    if (this.disposed || this.status !== 'more') return this.status
    const end = this.rangeEnd()
    if (this.finder === null || this.finder.getPosition() !== this.frontier || this.finder.end !== end) {
      this.finder = new MatchFinder(this.host.buffer, this.pattern, this.frontier, end, new Deadline(options), this.traits)
    } else this.finder.deadline = new Deadline(options)
    const matches = this.matches
    const found = (s: number, e: number): void => {
      // An edit's rows, searched again, can end with the match at the frontier (an empty one at the
      // text's end): the scan goes on after it, as a global regex scan would, and does not repeat it.
      const last = matches.length - 1
      if (last >= 0 && s === matches.start(last) && e === matches.end(last)) return
      matches.push(s, e)
    }
    const status = this.finder.run(options.maxChars ?? SEARCH_SLICE, found)
    this.frontier = status === 'done' ? end : this.finder.getPosition()
    if (status !== 'more') this.finder = null
    this.status = status
    this.emitUpdate()
    return status
  }

  /** Searches everything that is left at once (within `budget`); returns the final status. */
  searchAll(budget: ScanBudget = {}): FindStatus {
    const deadline = { now: budget.now, timeLimit: budget.timeLimit }
    let status = this.search({ ...deadline, maxChars: Number.MAX_SAFE_INTEGER })
    while (status === 'more') status = this.search({ ...deadline, maxChars: Number.MAX_SAFE_INTEGER })
    return status
  }

  isComplete(): boolean {
    return this.status === 'done'
  }

  isTooSlow(): boolean {
    return this.status === 'too-slow'
  }

  getMatchCount(): number {
    return this.matches.length
  }

  /** The buffer range of match `index`. */
  getMatchRange(index: number): Range {
    const count = this.matches.length
    if (!Number.isInteger(index) || index < 0 || index >= count) throw new RangeError(`no match ${index}; there are ${count}`)
    const buffer = this.host.buffer
    return new Range(buffer.positionForCharacterIndex(this.matches.start(index)), buffer.positionForCharacterIndex(this.matches.end(index)))
  }

  getMatchRanges(): Range[] {
    return Array.from({ length: this.matches.length }, (_, i) => this.getMatchRange(i))
  }

  /** Matches that start or end on rows `startRow..endRow` (what a view highlights), with their indices. */
  getMatchesInRowRange(startRow: number, endRow: number): { index: number; range: Range }[] {
    const buffer = this.host.buffer
    const from = buffer.characterIndexForPosition([startRow, 0])
    const to = buffer.characterIndexForPosition([endRow + 1, 0])
    const out: { index: number; range: Range }[] = []
    // Matches are sorted and do not overlap, so ends are sorted too.
    const matches = this.matches
    for (let i = matches.firstEndingAtOrAfter(from); i < matches.length && matches.start(i) <= to; i++) out.push({ index: i, range: this.getMatchRange(i) })
    return out
  }

  /** The index of the first match that starts at or after `position`; -1 when there is none. */
  indexAtOrAfter(position: PointLike): number {
    const offset = this.host.buffer.characterIndexForPosition(Point.fromObject(position, false, 'position'))
    const i = this.matches.firstStartingAtOrAfter(offset)
    return i < this.matches.length ? i : -1
  }

  /** The index of the last match that starts before `position`; -1 when there is none. */
  indexBefore(position: PointLike): number {
    const offset = this.host.buffer.characterIndexForPosition(Point.fromObject(position, false, 'position'))
    return this.matches.firstStartingAtOrAfter(offset) - 1
  }

  /** The text that replaces match `index`: `$1`, `$&` and `\n`, `\t` expanded for a regex query. */
  replacementFor(index: number, replacement: string): string {
    if (!this.options.regex) return replacement
    const range = this.getMatchRange(index)
    const matchText = this.host.buffer.getTextInRange(range)
    const single = new RegExp(this.regExp.source, this.regExp.flags.replace('g', ''))
    return matchText.replace(single, unescapeReplacement(replacement))
  }

  /** Replaces match `index` (one transaction, one undo step); returns the range of the new text. */
  replace(index: number, replacement: string): Range {
    const range = this.getMatchRange(index)
    const text = this.replacementFor(index, replacement)
    let result = range
    this.host.transact(() => {
      result = this.host.buffer.setTextInRange(range, text, { normalizeLineEndings: false })
    })
    return result
  }

  /**
   * Replaces every match (searching what is left first) in one transaction and one undo step; every
   * cursor, ours and the peers', is mapped through it. Returns the count.
   */
  replaceAll(replacement: string, budget: ScanBudget = {}): number {
    if (typeof replacement !== 'string') throw new TypeError(`replacement must be a string; got ${typeof replacement}`)
    if (this.searchAll(budget) === 'too-slow') return 0
    const count = this.matches.length
    if (count === 0) return 0
    const texts = Array.from({ length: count }, (_, i) => this.replacementFor(i, replacement))
    const starts = Array.from({ length: count }, (_, i) => this.matches.start(i))
    const ends = Array.from({ length: count }, (_, i) => this.matches.end(i))
    const buffer = this.host.buffer
    // The results then follow the transaction's change set like any other edit.
    this.host.transact(() => {
      // In order, each offset shifted by the replacements before it.
      let shift = 0
      for (let i = 0; i < count; i++) {
        const start = buffer.positionForCharacterIndex(starts[i]! + shift)
        const end = buffer.positionForCharacterIndex(ends[i]! + shift)
        buffer.setTextInRange(new Range(start, end), texts[i]!, { normalizeLineEndings: false })
        shift += texts[i]!.length - (ends[i]! - starts[i]!)
      }
    })
    return count
  }

  /** Selects every match, a cursor per match (Atom's `find-and-replace:select-all`); searches what is left first. */
  selectAll(budget: ScanBudget = {}): number {
    this.searchAll(budget)
    if (this.matches.length > 0) this.host.setSelectedBufferRanges(this.getMatchRanges())
    return this.matches.length
  }

  // Keeping the results current

  private rangeStart(): number {
    return this.bounds ? this.bounds.start : 0
  }

  private rangeEnd(): number {
    return this.bounds ? this.bounds.end : this.host.buffer.getLength()
  }

  private emitUpdate(): void {
    this.emitter.emit('did-update', { count: this.matches.length, complete: this.status === 'done', tooSlow: this.status === 'too-slow' })
  }

  /** Follows one change of the text: `edits` are (fromA, toA, fromB, toB) per replacement, sorted. */
  private applyEdits(edits: readonly number[], shift: number): void {
    if (this.disposed || this.options.pattern === '' || edits.length === 0) return
    if (this.bounds) {
      const start = mapThrough(edits, this.bounds.start, -1)
      this.bounds = { start, end: Math.max(start, mapThrough(edits, this.bounds.end, 1)) }
    }
    this.frontier = this.status === 'done' ? this.rangeEnd() : mapThrough(edits, this.frontier, -1)
    // Old matches, mapped in place: those before the first edit stay, those after the last shift (lazily),
    // and only the ones between go through the edits (an edit's own rows are searched again below).
    const matches = this.matches
    const n = matches.length
    const head = matches.firstEndingAtOrAfter(edits[0]!)
    let tail = matches.firstStartingAtOrAfter(edits[edits.length - 3]! + 1)
    if (tail < head) tail = head
    const mapper = new MonotoneMapper(edits)
    for (let i = head; i < tail; i++) {
      const start = mapper.map(matches.start(i), 1)
      matches.set(i, start, Math.max(start, mapper.map(matches.end(i), -1)))
    }
    matches.shiftFrom(tail, shift)
    // Rows to search again, in the new text, merged.
    const buffer = this.host.buffer
    const dirty: number[] = []
    for (let k = 0; k < edits.length; k += 4) {
      // A match of a pattern that crosses lines may start rows above the edit (`b\n+a` over blank rows).
      const a = this.rowStart(this.crossesLines ? Math.max(0, edits[k + 2]! - LOOK_BACK_CHARS) : edits[k + 2]!)
      const b = this.rowEndAfter(edits[k + 3]!)
      if (dirty.length > 0 && a <= dirty[dirty.length - 1]!) dirty[dirty.length - 1] = Math.max(dirty[dirty.length - 1]!, b)
      else dirty.push(a, b)
    }
    const lo = this.rangeStart()
    const rangeEnd = this.rangeEnd()
    const limit = Math.min(this.frontier, rangeEnd)
    // Each searched region replaces the old matches [from, to) with what the search found.
    const replacements: { from: number; to: number; starts: number[]; ends: number[] }[] = []
    let next = 0
    let previousEnd = lo
    for (let d = 0; d < dirty.length; d += 2) {
      let a = Math.max(previousEnd, dirty[d]!)
      let b = Math.min(limit, dirty[d + 1]!)
      // An empty region is searched only at the very end, where an empty match can be.
      if (a > b || (a === b && b !== rangeEnd)) continue
      // The first old match that is not wholly before the region; one running into it widens it to its row.
      let from = Math.max(next, matches.firstEndingAtOrAfter(a))
      if (from < n && matches.end(from) === a && matches.start(from) < a) from++
      if (from < n && matches.start(from) < a) a = Math.max(previousEnd, this.rowStart(matches.start(from)))
      const foundStarts: number[] = []
      const foundEnds: number[] = []
      const finder = new MatchFinder(buffer, this.pattern, a, rangeEnd, new Deadline(), this.traits)
      let done = false
      const found = (s: number, e: number): boolean => {
        if (s > b || (s === b && !(e === b && b === rangeEnd))) {
          done = true
          return false
        }
        foundStarts.push(s)
        foundEnds.push(e)
        // A match running past the region: search on to the end of its row.
        if (e > b) b = Math.min(limit, this.rowEndAfter(e))
        return true
      }
      while (!done) {
        const status = finder.run(Math.max(1, b - finder.getPosition()), found)
        if (status === 'too-slow') {
          this.status = 'too-slow'
          break
        }
        if (status === 'done' || finder.getPosition() >= b) break
      }
      // Old matches inside the searched region, or overlapping the last match found, are replaced.
      let to = from
      const lastEnd = foundEnds.length > 0 ? foundEnds[foundEnds.length - 1]! : -1
      while (to < n && (matches.start(to) < b || (matches.start(to) === b && b === rangeEnd) || matches.start(to) < lastEnd)) to++
      replacements.push({ from, to, starts: foundStarts, ends: foundEnds })
      next = to
      previousEnd = b
      // Regions the search ran into start where it stopped.
      for (let j = d + 2; j < dirty.length && dirty[j]! < b; j += 2) {
        dirty[j] = b
        dirty[j + 1] = Math.max(dirty[j + 1]!, b)
      }
    }
    // Matches past the searched part (a change moved the frontier back) are found again when searched.
    let keep = n
    if (this.status !== 'done') keep = Math.max(next, matches.firstStartingAtOrAfter(limit))
    if (replacements.length <= 4) {
      matches.truncate(keep)
      for (let r = replacements.length - 1; r >= 0; r--) {
        const { from, to, starts: newStarts, ends: newEnds } = replacements[r]!
        matches.splice(from, to, newStarts, newEnds)
      }
    } else {
      // Many regions (a peer's replace all): one pass building new arrays.
      const outStarts: number[] = []
      const outEnds: number[] = []
      let i = 0
      for (const { from, to, starts: newStarts, ends: newEnds } of replacements) {
        for (; i < from; i++) {
          outStarts.push(matches.start(i))
          outEnds.push(matches.end(i))
        }
        for (let j = 0; j < newStarts.length; j++) {
          outStarts.push(newStarts[j]!)
          outEnds.push(newEnds[j]!)
        }
        i = to
      }
      for (; i < keep; i++) {
        outStarts.push(matches.start(i))
        outEnds.push(matches.end(i))
      }
      matches.reset(outStarts, outEnds)
    }
    // A match found in an edit's rows may run past the frontier: the search goes on after it, not
    // inside it (where it would find the rest of that match again).
    const last = matches.length - 1
    if (this.status !== 'done' && last >= 0 && matches.end(last) > this.frontier) this.frontier = matches.end(last)
    this.finder = null
    this.emitUpdate()
  }

  private rowStart(offset: number): number {
    const buffer = this.host.buffer
    return buffer.characterIndexForPosition([buffer.positionForCharacterIndex(offset).row, 0])
  }

  /** The offset of the start of the row after the one holding `offset` (or the text's end). */
  private rowEndAfter(offset: number): number {
    const buffer = this.host.buffer
    const row = buffer.positionForCharacterIndex(offset).row
    return row + 1 < buffer.getLineCount() ? buffer.characterIndexForPosition([row + 1, 0]) : buffer.getLength()
  }
}

/** Where `offset` (old text) is after `edits` (fromA, toA, fromB, toB per edit, sorted). */
function mapThrough(edits: readonly number[], offset: number, assoc: -1 | 1): number {
  return new MonotoneMapper(edits).map(offset, assoc)
}

/** `mapThrough` for offsets that only increase: one pass over the edits for all of them. */
class MonotoneMapper {
  private k = 0
  private shift = 0

  constructor(private readonly edits: readonly number[]) {}

  map(offset: number, assoc: -1 | 1): number {
    const edits = this.edits
    // Skip the edits wholly before `offset` (an insertion at it is not before it).
    while (this.k < edits.length && (edits[this.k + 1]! < offset || (edits[this.k + 1] === offset && edits[this.k]! < offset))) {
      this.shift = edits[this.k + 3]! - edits[this.k + 1]!
      this.k += 4
    }
    if (this.k >= edits.length || offset < edits[this.k]!) return offset + this.shift
    return assoc < 0 ? edits[this.k + 2]! : edits[this.k + 3]!
  }
}

/** Atom's find-and-replace turns `\n`, `\t` and `\\` in a regex replacement into the characters. */
function unescapeReplacement(text: string): string {
  return text.replace(/\\([nrt\\])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : '\\'))
}
