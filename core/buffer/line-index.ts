/**
 * The text as a balanced tree of lines, each line stored with its ending ('\n', '\r\n', '\r' or none
 * for the last). Row <-> offset lookups descend the tree in O(log n); an edit re-splits only the lines
 * it touches. It mirrors the Y.Text so that reads never stringify the CRDT.
 */
import { buildTree, spliceTree, type SummedTreeShape } from './summed-tree.ts'

const LEAF_MAX = 32
const BRANCH_MAX = 32

/**
 * A leaf holds `lines`, a branch `children`; both kinds share one shape (the other field empty) so
 * that the descents, which run on every coordinate conversion, see a single hidden class.
 */
class TreeNode {
  constructor(
    readonly leaf: boolean,
    readonly lines: string[],
    readonly children: TreeNode[],
    readonly lineCount: number,
    public length: number,
  ) {}
}

const NONE: never[] = []

const LINE_BREAK = /\r\n|\r|\n/g

/** Length of the line ending at the end of `line` (0, 1 or 2). */
export function endingLength(line: string): number {
  const n = line.length
  if (n === 0) return 0
  const last = line.charCodeAt(n - 1)
  if (last === 10) return n > 1 && line.charCodeAt(n - 2) === 13 ? 2 : 1
  return last === 13 ? 1 : 0
}

/** Splits text into lines that keep their endings; the last piece has none (and may be empty). */
export function splitLines(text: string): string[] {
  const lines: string[] = []
  let start = 0
  LINE_BREAK.lastIndex = 0
  for (let match = LINE_BREAK.exec(text); match; match = LINE_BREAK.exec(text)) {
    const end = match.index + match[0].length
    lines.push(text.slice(start, end))
    start = end
  }
  lines.push(text.slice(start))
  return lines
}

function makeLeaf(lines: string[]): TreeNode {
  let length = 0
  for (const line of lines) length += line.length
  return new TreeNode(true, lines, NONE, lines.length, length)
}

function makeBranch(children: TreeNode[]): TreeNode {
  let lineCount = 0
  let length = 0
  for (const child of children) {
    lineCount += child.lineCount
    length += child.length
  }
  return new TreeNode(false, NONE, children, lineCount, length)
}

const SHAPE: SummedTreeShape<TreeNode, string[]> = {
  leafMax: LEAF_MAX,
  branchMax: BRANCH_MAX,
  isLeaf: (node) => node.leaf,
  children: (node) => node.children,
  count: (node) => node.lineCount,
  entries: (leaf) => leaf.lines,
  entryCount: (lines) => lines.length,
  slice: (lines, from, to) => lines.slice(from, to),
  concat: (parts) => ([] as string[]).concat(...parts),
  leaf: makeLeaf,
  branch: makeBranch,
}

export class LineIndex {
  private root: TreeNode

  constructor(text = '') {
    this.root = buildTree(SHAPE, splitLines(text))
  }

  get lineCount(): number {
    return this.root.lineCount
  }

  get length(): number {
    return this.root.length
  }

  /** The line at `row` including its ending ('' outside the text). */
  lineWithEnding(row: number): string {
    return this.lineAndOffsetForRow(row).line
  }

  /** The line at `row` (with its ending) and its start offset, in one descent. */
  lineAndOffsetForRow(row: number): { line: string; offset: number } {
    if (row >= this.root.lineCount) return { line: '', offset: this.root.length }
    let node = this.root
    let local = row
    let offset = 0
    while (!node.leaf) {
      let i = 0
      for (let child = node.children[0]!; local >= child.lineCount; child = node.children[++i]!) {
        local -= child.lineCount
        offset += child.length
      }
      node = node.children[i]!
    }
    const lines = node.lines
    const end = local < lines.length ? local : lines.length
    for (let i = 0; i < end; i++) offset += lines[i]!.length
    return { line: lines[local] ?? '', offset }
  }

  /** The row holding `offset`, its start offset and its line (with ending), in one descent. */
  lineForOffset(offset: number): { row: number; rowStart: number; line: string } {
    let node = this.root
    let remaining = offset < 0 ? 0 : offset > node.length ? node.length : offset
    let row = 0
    let rowStart = 0
    while (!node.leaf) {
      const children = node.children
      const last = children.length - 1
      let i = 0
      for (; i < last; i++) {
        const child = children[i]!
        if (remaining < child.length) break
        remaining -= child.length
        rowStart += child.length
        row += child.lineCount
      }
      node = children[i]!
    }
    const lines = node.lines
    const last = lines.length - 1
    for (let i = 0; i < last; i++) {
      const len = lines[i]!.length
      if (remaining < len) return { row: row + i, rowStart, line: lines[i]! }
      remaining -= len
      rowStart += len
    }
    return last >= 0 ? { row: row + last, rowStart, line: lines[last]! } : { row, rowStart, line: '' }
  }

  /** Offset of the first character of `row` (the text's length past the last row). */
  offsetForRow(row: number): number {
    return this.lineAndOffsetForRow(row).offset
  }

  /** The row holding `offset` (a line's ending belongs to its row) and that row's start offset. */
  rowForOffset(offset: number): { row: number; rowStart: number } {
    const { row, rowStart } = this.lineForOffset(offset)
    return { row, rowStart }
  }

  /** Lines with their endings for rows [startRow, endRow). */
  linesWithEndings(startRow: number, endRow: number): string[] {
    const out: string[] = []
    this.collect(this.root, startRow, Math.min(endRow, this.lineCount), out)
    return out
  }

  private collect(node: TreeNode, from: number, to: number, out: string[]): void {
    if (from >= to) return
    if (node.leaf) {
      for (let i = from; i < to; i++) out.push(node.lines[i]!)
      return
    }
    let start = 0
    for (const child of node.children) {
      const count = child.lineCount
      const end = start + count
      if (end > from && start < to) this.collect(child, Math.max(0, from - start), Math.min(count, to - start), out)
      if (end >= to) return
      start = end
    }
  }

  /** The character at `offset` ('' outside the text), in one descent. */
  charAt(offset: number): string {
    if (offset < 0 || offset >= this.root.length) return ''
    const { rowStart, line } = this.lineForOffset(offset)
    return line.charAt(offset - rowStart)
  }

  /** Text between two offsets. */
  textBetween(startOffset: number, endOffset: number): string {
    if (endOffset <= startOffset) return ''
    const first = this.rowForOffset(startOffset)
    const last = this.rowForOffset(Math.max(startOffset, endOffset - 1))
    const joined = this.linesWithEndings(first.row, last.row + 1).join('')
    return joined.slice(startOffset - first.rowStart, endOffset - first.rowStart)
  }

  getText(): string {
    return this.linesWithEndings(0, this.lineCount).join('')
  }

  /**
   * Applies "delete `deleteLength` characters at `offset`, then insert `text` there". Only the rows the
   * edit touches are re-split, plus the row before when it ends in '\r' (an inserted '\n' would join it).
   * `at` is `lineForOffset(offset)` when the caller has it already.
   */
  edit(offset: number, deleteLength: number, text: string, at = this.lineForOffset(offset)): void {
    // Typing: an edit inside one row's content with no line break in or out re-splits nothing. At a
    // row's start a '\r' ending the row above could join a '\n', so that case takes the full path.
    const contentEnd = at.rowStart + at.line.length - endingLength(at.line)
    if (offset + deleteLength <= contentEnd && (offset > at.rowStart || at.row === 0) && !/[\r\n]/.test(text)) {
      const local = offset - at.rowStart
      this.replaceLine(at.row, at.line.slice(0, local) + text + at.line.slice(local + deleteLength), text.length - deleteLength)
      return
    }
    let firstRow = at.row
    let firstStart = at.rowStart
    if (offset === at.rowStart && firstRow > 0) {
      const previous = this.lineWithEnding(firstRow - 1)
      if (previous.charCodeAt(previous.length - 1) === 13) {
        firstRow -= 1
        firstStart -= previous.length
      }
    }
    const last = this.rowForOffset(offset + deleteLength)
    const lastRow = last.row
    const old = this.linesWithEndings(firstRow, lastRow + 1).join('')
    const local = offset - firstStart
    const replaced = old.slice(0, local) + text + old.slice(local + deleteLength)
    const lines = splitLines(replaced)
    // A region that ended with a line break is followed by more rows: its empty tail is not a row.
    if (lastRow < this.lineCount - 1 && lines[lines.length - 1] === '') lines.pop()
    this.splice(firstRow, lastRow + 1, lines)
  }

  /**
   * Puts `line` in place of the line at `row` (same ending), `delta` code units longer than it: one
   * descent, adding `delta` to the lengths on the way (the caller found the row, so it exists).
   */
  private replaceLine(row: number, line: string, delta: number): void {
    let node = this.root
    let local = row
    for (;;) {
      node.length += delta
      if (node.leaf) break
      let i = 0
      for (const children = node.children; local >= children[i]!.lineCount; i++) local -= children[i]!.lineCount
      node = node.children[i]!
    }
    node.lines[local] = line
  }

  private splice(from: number, to: number, lines: string[]): void {
    const root = spliceTree(SHAPE, this.root, from, to, lines)
    // No rows at all is the empty text: one empty row.
    this.root = root.lineCount === 0 ? makeLeaf(['']) : root
  }
}
