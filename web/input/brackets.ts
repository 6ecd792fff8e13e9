import { bracketPairAt, isInsideEmptyPair, typedBracketAction, type TextEditor } from '../../core/index.ts'

/**
 * Atom's bracket-matcher on the page, through the editor's public commands: closing brackets and
 * quotes as they are typed, stepping over a closer, Backspace removing an empty pair, and jumping to
 * the matching bracket. The rules themselves are core's (`core/motions/brackets.ts`).
 */

/**
 * Types one character with bracket-matcher's rules when every cursor is empty and all agree on what
 * to do (close the pair, or step over the closer); false when the character is to be typed as it is.
 */
export function typeWithBrackets(editor: TextEditor, text: string): boolean {
  if (text.length !== 1) return false
  const selections = editor.getSelections()
  if (selections.some((selection) => !selection.isEmpty())) return false
  const buffer = editor.getBuffer()
  const actions = selections.map((selection) => typedBracketAction(buffer, selection.getHeadBufferPosition(), text))
  const first = actions[0]!
  if (first.kind === 'type' || actions.some((action) => action.kind !== first.kind)) return false
  if (first.kind === 'step-over') {
    editor.moveRight()
    return true
  }
  editor.transact(() => {
    editor.insertText(text + first.closer, { groupUndo: true })
    editor.moveLeft()
  })
  return true
}

/** Backspace between an empty pair (`(|)`, `"|"`) at every cursor removes both characters; false otherwise. */
export function backspaceEmptyPairs(editor: TextEditor): boolean {
  const selections = editor.getSelections()
  const buffer = editor.getBuffer()
  if (!selections.every((selection) => selection.isEmpty() && isInsideEmptyPair(buffer, selection.getHeadBufferPosition()))) return false
  editor.transact(() => {
    editor.delete()
    editor.backspace()
  })
  return true
}

/**
 * bracket-matcher:go-to-matching-bracket: each cursor next to a bracket with a partner moves to the
 * partner's other side (before `(` goes after `)`, after `(` goes before `)`, and back).
 */
export function goToMatchingBracket(editor: TextEditor): void {
  const buffer = editor.getBuffer()
  for (const cursor of editor.getCursors()) {
    const head = cursor.getBufferPosition()
    const pair = bracketPairAt(buffer, head)
    if (pair === null || pair.match === null) continue
    const beforeBracket = pair.bracket.column === head.column
    cursor.setBufferPosition([pair.match.row, pair.match.column + (beforeBracket ? 1 : 0)])
  }
}
