import * as Y from 'yjs'
import type { RawChange, YTextChangeReader } from './ytext-changes.ts'

/** One replacement of `TextBuffer#setTextInOffsetRanges`: the text between two offsets of the current text, and what replaces it. */
export interface OffsetReplacement {
  readonly from: number
  readonly to: number
  readonly text: string
}

/** Throws, naming the first bad edit, unless `edits` are sorted, apart or touching, and inside a text of `length`. */
export function checkOffsetReplacements(edits: readonly OffsetReplacement[], length: number): void {
  let previousEnd = 0
  for (const edit of edits) {
    if (edit === null || typeof edit !== 'object') throw new TypeError('each edit must be {from, to, text}')
    const { from, to, text } = edit
    if (typeof text !== 'string') throw new TypeError(`edit.text must be a string; got ${typeof text}`)
    if (!Number.isInteger(from) || !Number.isInteger(to) || from > to || from < previousEnd || to > length) {
      throw new RangeError(`edits must be sorted, not overlapping and inside the text (length ${length}); got ${from}..${to} after ${previousEnd}`)
    }
    previousEnd = to
  }
}

/**
 * Writes checked edits into the Y.Text left to right, inside the caller's transaction, each noted with
 * the change reader as the buffer's own; `clip` takes an offset out of a '\r\n' or surrogate pair.
 * Pushes onto `ends` where each edit's new text ends, and returns the replacements for the mirror.
 */
export function writeOffsetReplacements(
  ytext: Y.Text,
  reader: YTextChangeReader,
  edits: readonly OffsetReplacement[],
  clip: (offset: number) => number,
  ends: number[],
): RawChange[] {
  const doc = ytext.doc!
  const client = doc.clientID
  const raw: RawChange[] = []
  let shift = 0
  for (const edit of edits) {
    // Clipping keeps the order: it never moves an offset back past a smaller one's clip.
    const from = clip(edit.from)
    const to = edit.to === edit.from ? from : clip(edit.to)
    const text = edit.text
    const deleteLength = to - from
    const offset = from + shift
    ends.push(offset + text.length)
    if (deleteLength === 0 && text.length === 0) continue
    if (deleteLength > 0) {
      ytext.delete(offset, deleteLength)
      reader.noteOwnDelete(offset, deleteLength)
    }
    if (text.length > 0) {
      const clock = Y.getState(doc.store, client)
      ytext.insert(offset, text)
      reader.noteOwnInsert(client, clock, Y.getState(doc.store, client))
    }
    raw.push({ offset, deleteLength, insertText: text })
    shift += text.length - deleteLength
  }
  return raw
}
