import type { LineIndex } from './line-index.ts'
import type { RawChange } from './ytext-changes.ts'
import { isHighSurrogate, isLowSurrogate } from '../point/unicode.ts'

// How the buffer widens a change so that its mirror of the text stays true to the Y.Text.

/**
 * An edit that joins a '\r' and a '\n' into one line ending, or splits one, changes the rows around
 * it: "a\rb" plus "\n" at (1, 0) keeps two rows. Widening the change over the '\r' and '\n' involved
 * makes its extents tell the truth, so markers, layout and listeners see the real rows.
 */
export function withLineEndingPairs(index: LineIndex, change: RawChange): RawChange {
  let { offset, deleteLength, insertText } = change
  const before = index.charAt(offset - 1)
  const after = index.charAt(offset + deleteLength)
  if (before !== '\r' && after !== '\n') return change
  const firstOld = index.charAt(offset)
  const lastOld = deleteLength > 0 ? index.charAt(offset + deleteLength - 1) : ''
  const firstNew = insertText.length > 0 ? insertText[0] : after
  const lastNew = insertText.length > 0 ? insertText[insertText.length - 1] : before
  // A pair forms across the left edge, or the edit starts inside an existing pair.
  if (before === '\r' && (firstNew === '\n' || firstOld === '\n')) {
    offset -= 1
    deleteLength += 1
    insertText = '\r' + insertText
  }
  // A pair forms across the right edge, or the edit ends inside an existing pair.
  if (after === '\n' && (lastNew === '\r' || lastOld === '\r')) {
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
