import { TreeFragment, type ChangedRange, type Parser, type Tree } from '@lezer/common'
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
 * A Lezer tree that follows a buffer, parsed lazily. Every change, local or remote, arrives through the buffer's
 * change hook and only cuts the reusable fragments of the last tree; the parse itself waits for the next query,
 * so a burst of keystrokes costs one re-parse, and that re-parse reuses every node the edits did not touch. A
 * query about one position parses only up to it (and `LOOK_AHEAD` beyond), as CodeMirror parses up to the
 * viewport: Lezer's `startParse(...).stopAt(pos)`, advanced until done, the partial tree kept as fragments so
 * that the next parse goes on from there. Only `getTree()` parses to the end.
 */
export class IncrementalSyntaxTree {
  private tree: Tree | null = null
  private fragments: readonly TreeFragment[] = []
  /** Where the current tree's parse stopped (the text's length when it reached the end). */
  private parsedTo = 0
  /** The current tree's parse stopped before the end of the text. */
  private partial = false
  private stale = true
  private readonly subscription: Disposable

  constructor(
    private readonly buffer: TextBuffer,
    private readonly parser: Parser,
  ) {
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
    const target = Math.min(length, offset + LOOK_AHEAD)
    if (!this.stale && this.tree && this.parsedTo >= target) return this.tree
    const parse = this.parser.startParse(new BufferInput(this.buffer), this.fragments)
    const partial = target < length
    if (partial) parse.stopAt(target)
    let tree: Tree | null = null
    while (tree === null) tree = parse.advance()
    this.tree = tree
    this.parsedTo = partial ? Math.min(length, parse.stoppedAt ?? length) : length
    this.partial = partial
    this.fragments = TreeFragment.addTree(tree, this.fragments, partial)
    this.stale = false
    return tree
  }

  /** Whether the next `getTree()` has to parse. */
  isStale(): boolean {
    return this.stale || this.partial
  }

  destroy(): void {
    this.subscription.dispose()
    this.tree = null
    this.fragments = []
  }

  private bufferDidChange(changes: readonly TextChange[]): void {
    this.stale = true
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
