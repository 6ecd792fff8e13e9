import { Point } from '../point/point.ts'
import { Range } from '../point/range.ts'

/**
 * One contiguous replacement within a Y.Text transaction. The changes of one transaction are sorted
 * by position and apply one after another: each change's `startOffset`, `start`, `oldRange` and
 * `newRange` are in the text as it is once the earlier changes of the same transaction have been
 * applied. Because they are sorted, `start` and `newRange` are also positions in the final text.
 */
export interface TextChange {
  readonly startOffset: number
  readonly oldLength: number
  readonly newLength: number
  readonly start: Point
  readonly oldExtent: Point
  readonly newExtent: Point
  readonly oldRange: Range
  readonly newRange: Range
  readonly oldText: string
  readonly newText: string
}

/** What the buffer reports after each Y.Text transaction that changed its text. */
export interface BufferChangeEvent {
  readonly changes: readonly TextChange[]
  /** The Yjs transaction origin (the editor for its own edits). */
  readonly origin: unknown
  /** False when the change arrived from another Y.Doc (a remote peer). */
  readonly local: boolean
}

/** Extents of one row and `column` code units, made once for the short ones (typing reuses them). */
const ROW_EXTENTS: readonly Point[] = Array.from({ length: 64 }, (_, column) => new Point(0, column))

/** The extent of `column` code units within one row. */
export function rowExtent(column: number): Point {
  return column < ROW_EXTENTS.length ? ROW_EXTENTS[column]! : new Point(0, column)
}

/** The extent of `text`: how many line breaks it holds ('\r\n' is one) and the length of its last line. */
export function textExtent(text: string): Point {
  let rows = 0
  let lastLineStart = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code !== 10 && code !== 13) continue
    if (code === 13 && text.charCodeAt(i + 1) === 10) i++
    rows++
    lastLineStart = i + 1
  }
  return rows === 0 ? rowExtent(text.length) : new Point(rows, text.length - lastLineStart)
}

/**
 * The buffer's TextChange: the ranges are made from `start` and the extents when first read (most
 * consumers read the extents only), so that a keystroke allocates one Point for its change.
 */
export class BufferTextChange implements TextChange {
  private ranges: [Range, Range] | null = null

  constructor(
    readonly startOffset: number,
    readonly start: Point,
    readonly oldExtent: Point,
    readonly newExtent: Point,
    readonly oldText: string,
    readonly newText: string,
  ) {}

  get oldLength(): number {
    return this.oldText.length
  }

  get newLength(): number {
    return this.newText.length
  }

  get oldRange(): Range {
    return (this.ranges ??= this.makeRanges())[0]
  }

  get newRange(): Range {
    return (this.ranges ??= this.makeRanges())[1]
  }

  private makeRanges(): [Range, Range] {
    return [new Range(this.start, this.start.traverse(this.oldExtent)), new Range(this.start, this.start.traverse(this.newExtent))]
  }
}
