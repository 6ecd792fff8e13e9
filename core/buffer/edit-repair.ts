import type { Line, LineIndex } from './line-index.ts'
import type { RawChange } from './ytext-changes.ts'
import { isHighSurrogate, isLowSurrogate } from '../point/unicode.ts'

// How the buffer widens a change so that its mirror of the text stays true to the Y.Text.

const CR = 13
const LF = 10

/** The row the caller has already found around an edit: its start offset and its line (with ending). */
export interface RowAt {
  readonly rowStart: number
  readonly line: Line
}

/** The code unit at `offset` (-1 outside the text), read from `near` when it holds it (no descent). */
function codeAt(index: LineIndex, near: RowAt | undefined, offset: number): number {
  if (near !== undefined) {
    const local = offset - near.rowStart
    if (local >= 0 && local < near.line.length) return near.line.charCodeAt(local)
  }
  return offset < 0 || offset >= index.length ? -1 : index.charAt(offset).charCodeAt(0)
}

/**
 * An edit that joins a '\r' and a '\n' into one line ending, or splits one, changes the rows around
 * it: "a\rb" plus "\n" at (1, 0) keeps two rows. Widening the change over the '\r' and '\n' involved
 * makes its extents tell the truth, so markers, layout and listeners see the real rows. Returns
 * `change` itself when nothing needs widening; `near` (the row holding the edit's offset) saves the
 * index lookups for the characters around an edit inside it.
 */
export function withLineEndingPairs(index: LineIndex, change: RawChange, near?: RowAt): RawChange {
  let { offset, deleteLength, insertText } = change
  const before = codeAt(index, near, offset - 1)
  const after = codeAt(index, near, offset + deleteLength)
  if (before !== CR && after !== LF) return change
  const firstOld = codeAt(index, near, offset)
  const lastOld = deleteLength > 0 ? codeAt(index, near, offset + deleteLength - 1) : -1
  const firstNew = insertText.length > 0 ? insertText.charCodeAt(0) : after
  const lastNew = insertText.length > 0 ? insertText.charCodeAt(insertText.length - 1) : before
  const joinsLeft = before === CR && (firstNew === LF || firstOld === LF)
  const joinsRight = after === LF && (lastNew === CR || lastOld === CR)
  if (!joinsLeft && !joinsRight) return change
  // A pair forms across the left edge, or the edit starts inside an existing pair.
  if (joinsLeft) {
    offset -= 1
    deleteLength += 1
    insertText = '\r' + insertText
  }
  // A pair forms across the right edge, or the edit ends inside an existing pair.
  if (joinsRight) {
    deleteLength += 1
    insertText += '\n'
  }
  return { offset, deleteLength, insertText }
}

/**
 * Yjs replaces both halves of a surrogate pair with U+FFFD when an edit splits the pair inside one
 * item, without reporting it; widen such a change so the mirror sees the same text.
 */
export function withSplitSurrogates(index: LineIndex, change: RawChange): RawChange {
  let { offset, deleteLength, insertText } = change
  const around = index.textBetween(offset - 1, offset + 1)
  if (offset > 0 && around.length === 2 && isHighSurrogate(around.charCodeAt(0)) && isLowSurrogate(around.charCodeAt(1))) {
    offset -= 1
    deleteLength += 1
    insertText = '\ufffd' + insertText
    if (change.deleteLength === 0) {
      deleteLength += 1
      insertText += '\ufffd'
    }
  }
  if (change.deleteLength > 0) {
    const end = change.offset + change.deleteLength
    const edge = index.textBetween(end - 1, end + 1)
    if (edge.length === 2 && isHighSurrogate(edge.charCodeAt(0)) && isLowSurrogate(edge.charCodeAt(1))) {
      deleteLength += 1
      insertText += '\ufffd'
    }
  }
  return { offset, deleteLength, insertText }
}
