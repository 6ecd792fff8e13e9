import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { createLanguageMode, type LanguageId, type LanguageMode } from '../../core/language/index.ts'
import type { LineEdit } from '../../core/language/comments.ts'

/** Marks the position in test text: `'const x = "a‸b"'`. */
export const CARET = '‸'

export interface Fixture {
  readonly buffer: TextBuffer
  readonly mode: LanguageMode
}

export function fixture(id: LanguageId, text: string): Fixture {
  const buffer = new TextBuffer({ text })
  return { buffer, mode: createLanguageMode(id, buffer) }
}

/** The text without its caret, and the caret's [row, column]. */
export function parseCaret(marked: string): { text: string; position: [number, number] } {
  const index = marked.indexOf(CARET)
  if (index === -1 || marked.indexOf(CARET, index + 1) !== -1) throw new Error(`expected exactly one ${CARET} in ${JSON.stringify(marked)}`)
  const before = marked.slice(0, index)
  const row = before.split('\n').length - 1
  const column = index - (before.lastIndexOf('\n') + 1)
  return { text: marked.slice(0, index) + marked.slice(index + CARET.length), position: [row, column] }
}

/** The TextMate scopes at the caret. */
export function scopesAt(id: LanguageId, marked: string): string[] {
  const { text, position } = parseCaret(marked)
  return fixture(id, text).mode.scopeDescriptorForPosition(position).getScopesArray()
}

/** The syntax-tree scopes at the caret. */
export function treeScopesAt(id: LanguageId, marked: string): string[] {
  const { text, position } = parseCaret(marked)
  return fixture(id, text).mode.syntaxTreeScopeDescriptorForPosition(position).getScopesArray()
}

/** Applies non-overlapping edits given in the original text's coordinates, last first. */
export function applyEdits(buffer: TextBuffer, edits: readonly LineEdit[]): void {
  const sorted = [...edits].sort((a, b) => b.row - a.row || b.startColumn - a.startColumn)
  buffer.transact(() => {
    for (const edit of sorted) buffer.setTextInRange([[edit.row, edit.startColumn], [edit.row, edit.endColumn]], edit.text)
  })
}
