import type { SyntaxNode, Tree } from '@lezer/common'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import { Point } from '../point/point.ts'
import { Range } from '../point/range.ts'

/**
 * Folds that follow the syntax, as Atom's tree-sitter language modes define them: a bracketed node
 * (`{…}`, `[…]`, `(…)`) folds from after its opening bracket to before its closing one; an HTML or JSX
 * element from the end of its start tag to the start of its end tag; a template string inside its
 * backticks; a Python block from after its colon to the end of its last statement. Only folds spanning
 * more than one row count.
 */

const CLOSER: Readonly<Record<string, string>> = { '{': '}', '[': ']', '(': ')' }
const WHITESPACE = /\s/

/** The offsets `node` folds, or null when it is not a foldable node. */
export function foldOffsetsForNode(node: SyntaxNode, text: (from: number, to: number) => string): [number, number] | null {
  // A template string folds inside its backticks.
  if (node.name === 'TemplateString') return [node.from + 1, node.to - 1]
  const first = node.firstChild
  const last = node.lastChild
  if (!first || !last || first.from === last.from) return null
  const closer = CLOSER[first.name]
  if (closer !== undefined) {
    if (last.name !== closer || first.from !== node.from || last.to !== node.to) return null
    return [first.to, last.from]
  }
  if (first.name.endsWith('OpenTag') && last.name.endsWith('CloseTag')) return [first.to, last.from]
  if (node.name === 'Body' && first.name === ':') {
    // The block ends with its last statement, not with the line breaks the parser gives it.
    let end = node.to
    const tail = text(first.to, node.to)
    while (end > first.to && WHITESPACE.test(tail[end - first.to - 1]!)) end--
    return [first.to, end]
  }
  return null
}

/** Syntax folds over an incrementally parsed tree of `buffer`. */
export class SyntaxFolds {
  constructor(
    private readonly buffer: TextBuffer,
    private readonly tree: () => Tree,
  ) {}

  /**
   * Atom's `getFoldableRangeContainingPoint`: from the node at `point`, the nearest enclosing node that
   * ends below `point`'s row and folds.
   */
  rangeContainingPoint(point: Point): Range | null {
    const position = this.buffer.clipPosition(point)
    let node: SyntaxNode | null = this.tree().resolveInner(this.buffer.characterIndexForPosition(position), -1)
    for (; node; node = node.parent) {
      if (this.buffer.positionForCharacterIndex(node.to).row <= position.row) continue
      const range = this.rangeForNode(node)
      if (range) return range
    }
    return null
  }

  /** Whether a fold starts on `row` (Atom's `isFoldableAtRow`). */
  isFoldableAtRow(row: number): boolean {
    const range = this.rangeContainingPoint(new Point(row, Infinity))
    return range !== null && range.start.row === row
  }

  /** Every fold, nested ones included, by start (Atom's `getFoldableRanges`). */
  ranges(): Range[] {
    return this.foldsWithLevels().map(({ range }) => range)
  }

  /**
   * The folds `level` folds deep (0: not inside another fold), as Atom's `getFoldableRangesAtIndentLevel`
   * counts them for syntax folds.
   */
  rangesAtLevel(level: number): Range[] {
    return this.foldsWithLevels()
      .filter((fold) => fold.level === level)
      .map(({ range }) => range)
  }

  private foldsWithLevels(): { range: Range; level: number }[] {
    // Nodes spanning the same rows fold the same lines: the innermost one stands for them, as in Atom.
    const byRows = new Map<string, { range: Range; level: number }>()
    const open: Range[] = []
    this.tree().iterate({
      enter: (node) => {
        const range = this.rangeForNode(node.node)
        if (!range) return
        while (open.length > 0 && !open[open.length - 1]!.containsRange(range)) open.pop()
        const enclosing = open.filter((outer) => outer.start.row !== range.start.row || outer.end.row !== range.end.row)
        const key = `${range.start.row}:${range.end.row}`
        byRows.set(key, { range, level: new Set(enclosing.map((r) => `${r.start.row}:${r.end.row}`)).size })
        open.push(range)
      },
    })
    return [...byRows.values()].sort((a, b) => a.range.start.compare(b.range.start))
  }

  private rangeForNode(node: SyntaxNode): Range | null {
    const offsets = foldOffsetsForNode(node, (from, to) => this.buffer.getTextBetweenOffsets(from, to))
    if (!offsets) return null
    const start = this.buffer.positionForCharacterIndex(offsets[0])
    const end = this.buffer.positionForCharacterIndex(offsets[1])
    return end.row > start.row ? new Range(start, end) : null
  }
}
