import { TreeFragment, type ChangedRange, type Parser, type Tree } from '@lezer/common'
import type { TextBuffer, TextChange } from '../buffer/text-buffer.ts'
import type { Disposable } from '../events/disposable.ts'
import { BufferInput } from './buffer-input.ts'

/**
 * A Lezer tree that follows a buffer. Every change, local or remote, arrives through the buffer's change hook
 * and only cuts the reusable fragments of the last tree; the parse itself waits for the next query, so a burst
 * of keystrokes costs one re-parse, and that re-parse reuses every node the edits did not touch.
 */
export class IncrementalSyntaxTree {
  private tree: Tree | null = null
  private fragments: readonly TreeFragment[] = []
  private stale = true
  private readonly subscription: Disposable

  constructor(
    private readonly buffer: TextBuffer,
    private readonly parser: Parser,
  ) {
    this.subscription = buffer.addChangeHook('language', (event) => this.bufferDidChange(event.changes))
  }

  /** The tree of the current text, parsing what changed since the last call. */
  getTree(): Tree {
    if (this.stale || !this.tree) {
      this.tree = this.parser.parse(new BufferInput(this.buffer), this.fragments)
      this.fragments = TreeFragment.addTree(this.tree)
      this.stale = false
    }
    return this.tree
  }

  /** Whether the next `getTree()` has to parse. */
  isStale(): boolean {
    return this.stale
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
