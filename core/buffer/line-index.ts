/**
 * The text as a balanced tree of lines, each line stored with its ending ('\n', '\r\n', '\r' or none
 * for the last). Row <-> offset lookups descend the tree in O(log n); an edit re-splits only the lines
 * it touches. It mirrors the Y.Text so that reads never stringify the CRDT.
 */
import { buildTree, spliceTree, type SummedTreeShape } from './summed-tree.ts'
import { LongLine, PIECE_SIZES, type PieceSizes } from './long-line.ts'

export { LongLine, PIECE_SIZES, type PieceSizes } from './long-line.ts'

/** A line with its ending: one string, or pieces when it is long (long-line.ts). */
export type Line = string | LongLine

const LEAF_MAX = 32
const BRANCH_MAX = 32

/** Whether a leaf's lines are plain (see `TreeNode#plain`): not looked at yet, yes, no. */
const UNKNOWN = 0
const PLAIN = 1
const NOT_PLAIN = 2

/** Code units that make a line not plain: a '\r' (in an ending) or half of a surrogate pair. */
const NOT_PLAIN_TEXT = /[\r\ud800-\udfff]/

/**
 * A leaf holds `lines`, a branch `children`; both kinds share one shape (the other field empty) so
 * that the descents, which run on every coordinate conversion, see a single hidden class.
 */
class TreeNode {
  constructor(
    readonly leaf: boolean,
    readonly lines: Line[],
    readonly children: TreeNode[],
    readonly lineCount: number,
    public length: number,
    /**
     * A leaf whose lines are all plain strings (no surrogate, every ending '\n') lets a conversion clip
     * a column from the line's length alone: reading a code unit of a line is a cache miss into the
     * text's memory, which costs more than the descent. Found when first asked, kept by typing.
     */
    public plain: number = UNKNOWN,
  ) {}
}

function leafPlain(lines: readonly Line[]): number {
  for (const line of lines) if (typeof line !== 'string' || NOT_PLAIN_TEXT.test(line)) return NOT_PLAIN
  return PLAIN
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

/** The whole line `line` (with its ending) as one string. */
export function lineText(line: Line): string {
  return typeof line === 'string' ? line : line.toString()
}

/** Length of the ending of `line` (0, 1 or 2), read from its last two code units. */
export function lineEndingLength(line: Line): number {
  if (typeof line === 'string') return endingLength(line)
  const n = line.length
  const last = line.charCodeAt(n - 1)
  if (last === 10) return n > 1 && line.charCodeAt(n - 2) === 13 ? 2 : 1
  return last === 13 ? 1 : 0
}

/** `line.slice(from, to)` without joining a long line's pieces into one string first. */
export function lineSlice(line: Line, from: number, to: number): string {
  return line.slice(from, to)
}

/** Splits text into lines that keep their endings; the last piece has none (and may be empty). */
export function splitLines(text: string): string[] {
  const lines: string[] = []
  let start = 0
  if (text.indexOf('\r') === -1) {
    // Only '\n' endings (nearly every text): indexOf finds them faster than the regular expression.
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      lines.push(text.slice(start, end + 1))
      start = end + 1
    }
  } else {
    LINE_BREAK.lastIndex = 0
    for (let match = LINE_BREAK.exec(text); match; match = LINE_BREAK.exec(text)) {
      const end = match.index + match[0].length
      lines.push(text.slice(start, end))
      start = end
    }
  }
  lines.push(text.slice(start))
  return lines
}

/**
 * `splitLines(head + text + tail)` without joining `text` to its neighbours first: a 2 MB paste is split
 * once, and only its first and last lines are joined to what was around them. When `text` ends in '\r'
 * that '\r' could pair with a '\n' starting `tail`, so that case (and a `text` without a line break)
 * splits the joined string.
 */
function splitAround(head: string, text: string, tail: string): string[] {
  const lines = splitLines(text)
  const last = lines.length - 1
  if (last === 0 || text.charCodeAt(text.length - 1) === 13) return splitLines(head + text + tail)
  // The first line ends with a break that text decides (a '\r' there is followed by more of text), so
  // splitting head + it ends with an empty tail piece, dropped; the last line takes the tail.
  const before = splitLines(head + lines[0]!)
  before.pop()
  const after = splitLines(lines[last]! + tail)
  lines.splice(last, 1, ...after)
  lines.splice(0, 1, ...before)
  return lines
}

function makeLeaf(lines: Line[]): TreeNode {
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

const SHAPE: SummedTreeShape<TreeNode, Line[]> = {
  leafMax: LEAF_MAX,
  branchMax: BRANCH_MAX,
  isLeaf: (node) => node.leaf,
  children: (node) => node.children,
  count: (node) => node.lineCount,
  entries: (leaf) => leaf.lines,
  entryCount: (lines) => lines.length,
  slice: (lines, from, to) => lines.slice(from, to),
  concat: (parts) => ([] as Line[]).concat(...parts),
  leaf: makeLeaf,
  branch: makeBranch,
}

export class LineIndex {
  private root: TreeNode

  /** `sizes` says from which length a line is kept in pieces, and how long they are (long-line.ts). */
  constructor(text = '', readonly sizes: PieceSizes = PIECE_SIZES) {
    this.root = buildTree(SHAPE, this.entries(splitLines(text)))
  }

  get lineCount(): number {
    return this.root.lineCount
  }

  get length(): number {
    return this.root.length
  }

  /** The line at `row` including its ending ('' outside the text), joined when it is in pieces. */
  lineWithEnding(row: number): string {
    return lineText(this.lineAndOffsetForRow(row).line)
  }

  /**
   * The line at `row` (with its ending; pieces when long) and its start offset, in one descent.
   * `plain`: the line is a string without surrogates whose ending, unless it is the last row, is '\n'.
   */
  lineAndOffsetForRow(row: number): { line: Line; offset: number; plain: boolean } {
    if (row >= this.root.lineCount) return { line: '', offset: this.root.length, plain: false }
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
    if (node.plain === UNKNOWN) node.plain = leafPlain(lines)
    return { line: lines[local] ?? '', offset, plain: node.plain === PLAIN }
  }

  /**
   * The row holding `offset`, its start offset and its line (with ending; pieces when long), in one
   * descent; `plain` as `lineAndOffsetForRow` says.
   */
  lineForOffset(offset: number): { row: number; rowStart: number; line: Line; plain: boolean } {
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
    if (node.plain === UNKNOWN) node.plain = leafPlain(lines)
    const plain = node.plain === PLAIN
    const last = lines.length - 1
    for (let i = 0; i < last; i++) {
      const len = lines[i]!.length
      if (remaining < len) return { row: row + i, rowStart, line: lines[i]!, plain }
      remaining -= len
      rowStart += len
    }
    return last >= 0 ? { row: row + last, rowStart, line: lines[last]!, plain } : { row, rowStart, line: '', plain: false }
  }

  /**
   * The length of the content (without its ending) of the line at `row`, found by a descent: a plain
   * row's ending is one '\n' unless it is the last row, known without reading the line's text.
   */
  contentLength(row: number, line: Line, plain: boolean): number {
    return plain ? (row === this.root.lineCount - 1 ? line.length : line.length - 1) : line.length - lineEndingLength(line)
  }

  /** How many pieces the line at `row` is kept in: 0 for a line kept as one string (tests, diagnostics). */
  pieceCountForRow(row: number): number {
    const { line } = this.lineAndOffsetForRow(row)
    return typeof line === 'string' ? 0 : line.pieceCount
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

  /** Lines with their endings for rows [startRow, endRow), long ones joined. */
  linesWithEndings(startRow: number, endRow: number): string[] {
    const out: string[] = []
    this.collect(this.root, startRow, Math.min(endRow, this.lineCount), out)
    return out
  }

  private collect(node: TreeNode, from: number, to: number, out: string[]): void {
    if (from >= to) return
    if (node.leaf) {
      for (let i = from; i < to; i++) out.push(lineText(node.lines[i]!))
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
    return line.slice(offset - rowStart, offset - rowStart + 1)
  }

  /** Text between two offsets; within one row, only the characters asked for are read. */
  textBetween(startOffset: number, endOffset: number): string {
    if (endOffset <= startOffset) return ''
    const first = this.lineForOffset(startOffset)
    const local = startOffset - first.rowStart
    if (endOffset - first.rowStart <= first.line.length) return first.line.slice(local, endOffset - first.rowStart)
    const last = this.lineForOffset(endOffset - 1)
    const parts = [first.line.slice(local, first.line.length), ...this.linesWithEndings(first.row + 1, last.row), last.line.slice(0, endOffset - last.rowStart)]
    return parts.join('')
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
    const line = at.line
    const contentEnd = at.rowStart + this.contentLength(at.row, line, at.plain)
    if (offset + deleteLength <= contentEnd && (offset > at.rowStart || at.row === 0) && !/[\r\n]/.test(text)) {
      const local = offset - at.rowStart
      const delta = text.length - deleteLength
      if (typeof line === 'string') {
        const edited = line.slice(0, local) + text + line.slice(local + deleteLength)
        const long = edited.length > this.sizes.longLine
        // Deleting keeps a plain line plain; inserted text is looked at (no line break in it here).
        this.replaceLine(at.row, long ? new LongLine(edited, this.sizes) : edited, delta, !long && !NOT_PLAIN_TEXT.test(text))
      } else {
        // A line in pieces is edited in place (only the pieces the edit touches change); one that
        // has shrunk to under half the long-line length goes back to one string.
        line.edit(local, deleteLength, text)
        this.replaceLine(at.row, line.length < this.sizes.longLine >> 1 ? line.toString() : line, delta, false)
      }
      return
    }
    let firstRow = at.row
    let firstStart = at.rowStart
    if (offset === at.rowStart && firstRow > 0) {
      const previous = this.lineAndOffsetForRow(firstRow - 1).line
      if (previous.charCodeAt(previous.length - 1) === 13) {
        firstRow -= 1
        firstStart -= previous.length
      }
    }
    const last = this.rowForOffset(offset + deleteLength)
    const lastRow = last.row
    const old = this.linesWithEndings(firstRow, lastRow + 1).join('')
    const local = offset - firstStart
    const lines = splitAround(old.slice(0, local), text, old.slice(local + deleteLength))
    // A region that ended with a line break is followed by more rows: its empty tail is not a row.
    if (lastRow < this.lineCount - 1 && lines[lines.length - 1] === '') lines.pop()
    this.splice(firstRow, lastRow + 1, lines)
  }

  /**
   * Puts `line` in place of the line at `row` (same ending), `delta` code units longer than it: one
   * descent, adding `delta` to the lengths on the way (the caller found the row, so it exists).
   * `keepsPlain`: the leaf stays plain if it was (else it is marked not plain).
   */
  private replaceLine(row: number, line: Line, delta: number, keepsPlain: boolean): void {
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
    if (!keepsPlain) node.plain = NOT_PLAIN
  }

  private splice(from: number, to: number, lines: string[]): void {
    const root = spliceTree(SHAPE, this.root, from, to, this.entries(lines))
    // No rows at all is the empty text: one empty row.
    this.root = root.lineCount === 0 ? makeLeaf(['']) : root
  }

  /** The entries of `lines`: long ones in pieces. */
  private entries(lines: string[]): Line[] {
    const { longLine } = this.sizes
    let entries: Line[] | null = null
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.length <= longLine) continue
      entries ??= lines.slice()
      entries[i] = new LongLine(lines[i]!, this.sizes)
    }
    return entries ?? lines
  }
}
