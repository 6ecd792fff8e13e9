import { Point } from '../point/point.ts'
import { Range } from '../point/range.ts'

/**
 * One contiguous replacement within a Y.Text transaction. The changes of one transaction are sorted
 * by position and apply one after another: each change's `startOffset`, `start`, `oldRange` and
 * `newRange` are in the text as it is once the earlier changes of the same transaction have been
 * applied. Because they are sorted, `start` and `newRange` are also positions in the final text.
 *
 * The rows and columns are plain numbers (`startRow` … `newEndColumn`); the `Point`s and `Range`s are
 * made only when a reader asks for them, so that the parts following every keystroke allocate none.
 */
export interface TextChange {
  readonly startOffset: number
  readonly oldLength: number
  readonly newLength: number
  readonly startRow: number
  readonly startColumn: number
  /** The end of the replaced text, in the text before this change. */
  readonly oldEndRow: number
  readonly oldEndColumn: number
  /** The end of the new text. */
  readonly newEndRow: number
  readonly newEndColumn: number
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

/**
 * The buffer's `TextChange`: numbers kept as computed, and each `Point` or `Range` made on its first
 * read (then kept, so that a reader gets the same object every time).
 */
export class BufferChange implements TextChange {
  private startPoint: Point | null = null
  private oldRangeValue: Range | null = null
  private newRangeValue: Range | null = null

  constructor(
    readonly startOffset: number,
    readonly oldLength: number,
    readonly newLength: number,
    readonly startRow: number,
    readonly startColumn: number,
    readonly oldEndRow: number,
    readonly oldEndColumn: number,
    readonly newEndRow: number,
    readonly newEndColumn: number,
    readonly oldText: string,
    readonly newText: string,
  ) {}

  get start(): Point {
    return (this.startPoint ??= new Point(this.startRow, this.startColumn))
  }

  get oldRange(): Range {
    return (this.oldRangeValue ??= new Range(this.start, new Point(this.oldEndRow, this.oldEndColumn)))
  }

  get newRange(): Range {
    return (this.newRangeValue ??= new Range(this.start, new Point(this.newEndRow, this.newEndColumn)))
  }

  get oldExtent(): Point {
    return extent(this.startRow, this.startColumn, this.oldEndRow, this.oldEndColumn)
  }

  get newExtent(): Point {
    return extent(this.startRow, this.startColumn, this.newEndRow, this.newEndColumn)
  }
}

/** The traversal from (row, column) to (endRow, endColumn), as `Point#traversalFrom`. */
function extent(row: number, column: number, endRow: number, endColumn: number): Point {
  return endRow === row ? new Point(0, endColumn - column) : new Point(endRow - row, endColumn)
}

/** How many line breaks `text` holds ('\r\n', '\r' and '\n' each count once), as `Range.fromText` counts rows. */
export function lineBreakCount(text: string): number {
  let rows = 0
  // Without '\r' every break is one '\n': indexOf finds them several times faster than a loop over
  // the code units (a 2 MB paste is counted twice in its task).
  if (text.indexOf('\r') === -1) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) rows++
    return rows
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10) rows++
    else if (c === 13) {
      rows++
      if (text.charCodeAt(i + 1) === 10) i++
    }
  }
  return rows
}

/** The length of the text after its last line break (the whole text without one). */
export function lastLineLength(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i)
    if (c === 10 || c === 13) return text.length - i - 1
  }
  return text.length
}
