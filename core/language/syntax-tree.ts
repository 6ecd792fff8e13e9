import { Tree, TreeFragment, type ChangedRange, type Parser, type PartialParse } from '@lezer/common'
import type { TextBuffer, TextChange } from '../buffer/text-buffer.ts'
import type { Disposable } from '../events/disposable.ts'
import { BufferInput } from './buffer-input.ts'

/**
 * How far past the position a query asks about the parse goes on: a node's type can depend on a little of
 * the text after it (`(a, b)` is a parameter list only once `=>` follows), so the answer near the position is
 * that of a full parse. It also bounds the work of a first query at the top of a large file.
 */
const LOOK_AHEAD = 4 * 1024

/**
 * The work budget of one query, in characters of text not parsed yet: a query whose position the full parse
 * would reach by parsing at most this much does so; one further down answers from a window instead. 64 KB is a
 * few milliseconds of Lezer on an idle machine, and also the step of a driven (background) parse.
 */
export const PARSE_BUDGET = 64 * 1024

/** How far above the position a window looks for a line to start at. */
const WINDOW_BACK = 32 * 1024

export interface SyntaxTreeOptions {
  /** Characters of unparsed text a query may parse before answering from a window; default PARSE_BUDGET. */
  readonly budget?: number
  /** A line that begins a top-level statement at column 0, where a window parse can start; none: no windows. */
  readonly resumeLine?: RegExp
}

/** What a driven parse has so far: a tree that is right for the current text on [0, upTo). */
export interface ParseProgress {
  readonly tree: Tree
  readonly upTo: number
}

/**
 * A Lezer tree that follows a buffer, parsed lazily. Every change, local or remote, arrives through the buffer's
 * change hook and only cuts the reusable fragments of the last tree; the parse itself waits for the next query,
 * so a burst of keystrokes costs one re-parse, and that re-parse reuses every node the edits did not touch.
 *
 * The full parse goes from the top, as far as someone asks: `getTree()` to the end, `treeUpTo(offset)` to an
 * offset (and `LOOK_AHEAD` past it), `advance(goal, shouldStop)` a step at a time for a caller that drives it
 * in idle slices (the page), each partial tree kept as fragments so the next step goes on from there.
 *
 * `treeAt(offset)`, what the language queries use, is budgeted: when the full parse would have to read more
 * than `budget` characters to reach the offset, it answers from a window instead, a parse of the text from the
 * nearest line above that begins a top-level statement (`resumeLine`) to a little past the offset, as if that
 * were the whole program. Such an answer is approximate (a column-0 line inside a template string or a block
 * comment fools it) until the full parse covers the offset, from which point the full tree answers.
 */
export class IncrementalSyntaxTree {
  private tree: Tree | null = null
  private fragments: readonly TreeFragment[] = []
  /** The tree is right for the current text on [0, parsedTo). */
  private parsedTo = 0
  /** A parse under way (driven in steps), and where it stops. */
  private pending: { parse: PartialParse; target: number } | null = null
  /** The last window parsed, valid until the next change. */
  private window: { tree: Tree; from: number; to: number } | null = null
  /** Whether a change dropped a window since the last window was parsed. */
  private editedSinceWindow = false
  private readonly budget: number
  private readonly resumeLine: RegExp | null
  private readonly subscription: Disposable

  constructor(
    private readonly buffer: TextBuffer,
    private readonly parser: Parser,
    options: SyntaxTreeOptions = {},
  ) {
    this.budget = options.budget ?? PARSE_BUDGET
    this.resumeLine = options.resumeLine ?? null
    this.subscription = buffer.addChangeHook('language', (event) => this.bufferDidChange(event.changes))
  }

  /** The tree of the whole current text, parsing what changed (or was not parsed yet) since the last call. */
  getTree(): Tree {
    return this.treeUpTo(Infinity)
  }

  /**
   * A tree of the current text that is complete at least up to `offset` (and `LOOK_AHEAD` past it): parses no
   * further than that when the text there was not parsed yet. Nodes past that point may be missing or cut short.
   */
  treeUpTo(offset: number): Tree {
    const length = this.buffer.getLength()
    if (this.tree !== null && this.parsedTo >= Math.min(length, offset + LOOK_AHEAD)) return this.tree
    // Twice the look-ahead: the queries that follow (the next row, the next keystroke) find it parsed.
    this.parseTowards(Math.min(length, offset + 2 * LOOK_AHEAD), Infinity, () => false)
    return this.tree!
  }

  /**
   * A tree to answer a query about `offset` from, within the work budget: the full tree when it reaches the
   * offset (parsing up to `budget` more characters to get there), otherwise a window's tree (approximate; see
   * the class comment). Its positions are the buffer's offsets either way.
   */
  treeAt(offset: number): Tree {
    const length = this.buffer.getLength()
    const target = Math.min(length, offset + LOOK_AHEAD)
    if (this.tree !== null && this.parsedTo >= target) return this.tree
    if (this.resumeLine === null || this.unparsedBefore(target) <= this.budget) return this.treeUpTo(offset)
    if (this.editedSinceWindow) {
      // Someone is typing down there: a window is parsed afresh after every edit, so each one also takes the
      // full parse a step further (a quarter of the budget). After a few keystrokes the full tree reaches the
      // position and every keystroke after that re-parses only around its edit.
      this.editedSinceWindow = false
      this.parseTowards(Math.min(target, this.parsedTo + this.budget / 4), this.budget / 4, () => false)
      if (this.parsedTo >= target) return this.tree!
    }
    return this.windowTree(offset, target)
  }

  /** Whether `treeAt(offset)` would now answer from a window rather than from the full tree. */
  isApproximateAt(offset: number): boolean {
    const target = Math.min(this.buffer.getLength(), offset + LOOK_AHEAD)
    if (this.tree !== null && this.parsedTo >= target) return false
    return this.resumeLine !== null && this.unparsedBefore(target) > this.budget
  }

  /**
   * Drives the full parse towards `goal` (an offset; Infinity: the end) a step at a time, asking `shouldStop`
   * every few parser steps, and returns whether the tree now reaches `goal`. A parse left unfinished goes on at
   * the next call unless the text changed meanwhile; each `budget`-sized step that completes is kept.
   */
  advance(goal: number, shouldStop: () => boolean): boolean {
    const target = Math.min(this.buffer.getLength(), goal)
    return this.parseTowards(target, this.budget, shouldStop)
  }

  /** The full tree as far as it is parsed, without parsing anything; null before the first parse. */
  progress(): ParseProgress | null {
    return this.tree === null ? null : { tree: this.tree, upTo: Math.max(0, Math.min(this.parsedTo, this.buffer.getLength())) }
  }

  /** Whether the next `getTree()` has to parse. */
  isStale(): boolean {
    return this.parsedTo < this.buffer.getLength() || (this.tree === null && this.parsedTo === 0)
  }

  destroy(): void {
    this.subscription.dispose()
    this.tree = null
    this.fragments = []
    this.pending = null
    this.window = null
    this.parsedTo = Infinity
  }

  /**
   * Parses from the top (reusing the fragments) until the tree reaches `target`, each parse stopping at most
   * `step` characters past what is parsed, or until `shouldStop` says so (asked every 16 parser steps: reading a
   * clock costs about as much as a step). Whether the tree reaches `target`.
   */
  private parseTowards(target: number, step: number, shouldStop: () => boolean): boolean {
    const length = this.buffer.getLength()
    while (this.tree === null || this.parsedTo < target) {
      if (this.pending === null) {
        const stop = Math.min(length, target, this.parsedTo + step)
        const parse = this.parser.startParse(new BufferInput(this.buffer), this.fragments)
        if (stop < length) parse.stopAt(stop)
        this.pending = { parse, target: stop }
      }
      const { parse, target: stop } = this.pending
      let tree: Tree | null = null
      for (let steps = 1; tree === null; steps++) {
        tree = parse.advance()
        if (tree === null && (steps & 15) === 0 && shouldStop()) return false
      }
      const partial = stop < length
      this.pending = null
      this.tree = tree
      this.parsedTo = partial ? Math.min(length, parse.stoppedAt ?? stop) : length
      this.fragments = TreeFragment.addTree(tree, this.fragments, partial)
    }
    return true
  }

  /** Characters of [0, end) that no reusable fragment covers: what a parse from the top would have to read. */
  private unparsedBefore(end: number): number {
    let covered = 0
    for (const fragment of this.fragments) {
      if (fragment.from >= end) break
      covered += Math.min(end, fragment.to) - fragment.from
    }
    return end - covered
  }

  /** The tree of a window around `offset` that reaches `target`: the last one when it does, else a new one. */
  private windowTree(offset: number, target: number): Tree {
    const last = this.window
    if (last !== null && last.from <= offset && last.to >= target) return last.tree
    const from = this.resumePointBefore(offset)
    const to = Math.min(this.buffer.getLength(), offset + 2 * LOOK_AHEAD)
    const parsed = this.parser.parse(new BufferInput(this.buffer), [], [{ from, to }])
    // A parse of a range numbers its nodes from the range's start; shift them to the buffer's offsets.
    const shifted = parsed.positions.map((position) => position + from)
    const tree = new Tree(parsed.type, parsed.children, shifted, from + parsed.length, parsed.propValues)
    this.window = { tree, from, to }
    return tree
  }

  /**
   * The start of the nearest row at or above `offset`'s that begins a top-level statement, looking at most
   * `WINDOW_BACK` characters up; failing that, the highest row start within that distance (error recovery then
   * has that much text to find its feet before the position).
   */
  private resumePointBefore(offset: number): number {
    const buffer = this.buffer
    let row = buffer.positionForCharacterIndex(offset).row
    let fallback = buffer.characterIndexForPosition([row, 0])
    for (; row >= 0; row--) {
      const start = buffer.characterIndexForPosition([row, 0])
      if (start < offset - WINDOW_BACK) break
      if (this.resumeLine!.test(buffer.lineForRow(row) ?? '')) return start
      fallback = start
    }
    return fallback
  }

  private bufferDidChange(changes: readonly TextChange[]): void {
    this.pending = null
    this.editedSinceWindow ||= this.window !== null
    this.window = null
    for (const change of changes) this.parsedTo = Math.min(this.parsedTo, change.startOffset)
    // A deletion at the end leaves all of the shorter text "parsed" while the tree still holds the deleted tail
    // (or a partial parse's unfinished end): below the length, so that the next query parses again.
    const length = this.buffer.getLength()
    if (this.tree !== null && this.parsedTo >= length) this.parsedTo = length - 1
    if (this.fragments.length === 0) return
    const ranges = changedRanges(changes)
    if (ranges) {
      this.fragments = TreeFragment.applyChanges(this.fragments, ranges)
    } else {
      // Out-of-order changes: map them one at a time, each in the text the previous ones produced.
      for (const change of changes) {
        const from = change.startOffset
        const range = { fromA: from, toA: from + change.oldLength, fromB: from, toB: from + change.newLength }
        this.fragments = TreeFragment.applyChanges(this.fragments, [range])
      }
    }
  }
}

/**
 * Lezer wants each changed range in both the old text (`fromA`/`toA`) and the new one (`fromB`/`toB`). A
 * transaction's changes apply in order, left to right, so each start is already in new-text coordinates and
 * the old start is found by undoing the length delta of the changes before it. Null when not left to right.
 */
export function changedRanges(changes: readonly TextChange[]): ChangedRange[] | null {
  const ranges: ChangedRange[] = []
  let shift = 0
  let lastEnd = 0
  for (const change of changes) {
    const fromB = change.startOffset
    if (fromB < lastEnd) return null
    const fromA = fromB - shift
    ranges.push({ fromA, toA: fromA + change.oldLength, fromB, toB: fromB + change.newLength })
    shift += change.newLength - change.oldLength
    lastEnd = fromB + change.newLength
  }
  return ranges
}
