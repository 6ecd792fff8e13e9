import type { Point } from '../point/point.ts'
import type { Range } from '../point/range.ts'

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
