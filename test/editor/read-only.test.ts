import { describe, expect, it } from 'vitest'
import { ReadOnlyEditorError } from '../../core/editor/errors.ts'
import { Clipboard } from '../../core/editor/clipboard.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('read-only editors', () => {
  const commands: [string, (editor: ReturnType<typeof editorWith>) => unknown][] = [
    ['insertText', (e) => e.insertText('x')],
    ['insertNewline', (e) => e.insertNewline()],
    ['backspace', (e) => e.backspace()],
    ['delete', (e) => e.delete()],
    ['deleteToBeginningOfWord', (e) => e.deleteToBeginningOfWord()],
    ['deleteToEndOfLine', (e) => e.deleteToEndOfLine()],
    ['deleteLine', (e) => e.deleteLine()],
    ['joinLines', (e) => e.joinLines()],
    ['indent', (e) => e.indent()],
    ['outdentSelectedRows', (e) => e.outdentSelectedRows()],
    ['cutSelectedText', (e) => e.cutSelectedText()],
    ['cutToEndOfLine', (e) => e.cutToEndOfLine()],
    ['pasteText', (e) => e.pasteText()],
    ['setText', (e) => e.setText('new')],
    ['setTextInBufferRange', (e) => e.setTextInBufferRange([[0, 0], [0, 1]], 'z')],
    ['selection.insertText', (e) => e.getLastSelection()!.insertText('x')],
    ['selection.backspace', (e) => e.getLastSelection()!.backspace()],
    ['undo', (e) => e.undo()],
  ]

  for (const [name, run] of commands) {
    it(`${name} throws ReadOnlyEditorError and changes nothing`, () => {
      const clipboard = new Clipboard()
      clipboard.write('clip')
      const editor = editorWith('  one\ntw|o', { readOnly: true, clipboard })
      expect(() => run(editor)).toThrow(ReadOnlyEditorError)
      expect(marked(editor)).toBe('  one\ntw|o')
      expect(clipboard.read()).toBe('clip')
    })
  }

  it('still moves cursors, selects and copies', () => {
    const clipboard = new Clipboard()
    const editor = editorWith('ab|c', { readOnly: true, clipboard })
    editor.selectLeft()
    editor.copySelectedText()
    expect(clipboard.read()).toBe('b')
    expect(marked(editor)).toBe('a«b»c')
  })

  it('changes with bypassReadOnly, and can be switched', () => {
    const editor = editorWith('a|', { readOnly: true })
    editor.insertText('b', { bypassReadOnly: true })
    editor.setText('x', { bypassReadOnly: true })
    expect(editor.getText()).toBe('x')
    const seen: boolean[] = []
    editor.onDidChangeReadOnly((value) => seen.push(value))
    editor.setReadOnly(false)
    expect(editor.isReadOnly()).toBe(false)
    editor.insertText('y')
    expect(editor.getText()).toBe('xy')
    expect(seen).toEqual([false])
  })

  it('follows changes made to the Y.Text by others', () => {
    const editor = editorWith('ab|', { readOnly: true })
    editor.buffer.ytext.insert(0, 'X')
    expect(marked(editor)).toBe('Xab|')
  })
})
