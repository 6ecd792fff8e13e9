import type { TextEditor } from '../../core/index.ts'
import { Range } from '../../core/index.ts'

/**
 * Atom's ctrl-d (find-and-replace:select-next): with an empty last selection, select the word under
 * every cursor; otherwise add a selection for the next occurrence of the last selection's text after
 * it, wrapping around at the end. When the first press selected a whole word, later presses match
 * whole words only, as in Atom.
 */
export function selectNext(editor: TextEditor): void {
  const last = editor.getLastSelection()!
  if (last.isEmpty()) {
    editor.selectWordsContainingCursors()
    return
  }
  const text = last.getText()
  const wholeWord = isWholeWord(editor, last.getBufferRange())
  const found = findNext(editor, text, last.getBufferRange().end, wholeWord)
  if (found === null) return
  const selected = editor.getSelectedBufferRanges().some((range) => range.isEqual(found))
  if (!selected) editor.addSelectionForBufferRange(found)
}

function isWordCharacter(editor: TextEditor, char: string | undefined): boolean {
  return char !== undefined && !/\s/.test(char) && !editor.getNonWordCharacters().includes(char)
}

function isWholeWord(editor: TextEditor, range: Range): boolean {
  if (!range.isSingleLine()) return false
  const line = editor.lineTextForBufferRow(range.start.row)
  const inside = line.slice(range.start.column, range.end.column)
  if (![...inside].every((char) => isWordCharacter(editor, char))) return false
  return !isWordCharacter(editor, line[range.start.column - 1]) && !isWordCharacter(editor, line[range.end.column])
}

/** The first occurrence at or after `from`, else the first from the top; rows are read one at a time. */
function findNext(editor: TextEditor, text: string, from: { row: number; column: number }, wholeWord: boolean): Range | null {
  const lineCount = editor.getLineCount()
  if (text.includes('\n') || text.includes('\r')) return findMultiline(editor, text, from)
  for (let step = 0; step <= lineCount; step++) {
    const row = (from.row + step) % lineCount
    const line = editor.lineTextForBufferRow(row)
    let column = step === 0 ? from.column : 0
    const stopAt = step === lineCount ? from.column : line.length
    for (;;) {
      const index = line.indexOf(text, column)
      if (index === -1 || index > stopAt) break
      const end = index + text.length
      if (!wholeWord || (!isWordCharacter(editor, line[index - 1]) && !isWordCharacter(editor, line[end]))) {
        return new Range([row, index], [row, end])
      }
      column = index + 1
    }
  }
  return null
}

/** Multi-line text is rare enough here that one scan of the whole text per key press is fine. */
function findMultiline(editor: TextEditor, text: string, from: { row: number; column: number }): Range | null {
  const buffer = editor.getBuffer()
  const all = buffer.getText()
  const start = buffer.characterIndexForPosition(from)
  let index = all.indexOf(text, start)
  if (index === -1) index = all.indexOf(text)
  if (index === -1) return null
  return new Range(buffer.positionForCharacterIndex(index), buffer.positionForCharacterIndex(index + text.length))
}
