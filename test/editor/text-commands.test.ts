import { describe, expect, it } from 'vitest'
import { Clipboard } from '../../core/editor/clipboard.ts'
import { ReadOnlyEditorError } from '../../core/editor/errors.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('transpose', () => {
  it('swaps the characters around an empty selection and leaves the cursor after them', () => {
    const editor = editorWith('ab|c\nx|yz')
    editor.transpose()
    expect(marked(editor)).toBe('ac|b\ny|xz')
  })

  it('reverses a non-empty selection, keeping surrogate pairs whole', () => {
    const editor = editorWith('«ab😀c»d')
    editor.transpose()
    expect(marked(editor)).toBe('c😀ba|d')
  })
})

describe('upperCase / lowerCase / replaceSelectedText', () => {
  it('changes the case of each selection and keeps it selected', () => {
    const editor = editorWith('«foo» bar «Baz»')
    editor.upperCase()
    expect(marked(editor)).toBe('«FOO» bar «BAZ»')
    editor.lowerCase()
    expect(marked(editor)).toBe('«foo» bar «baz»')
  })

  it('takes the word around an empty selection', () => {
    const editor = editorWith('one tw|o three')
    editor.upperCase()
    expect(marked(editor)).toBe('one «TWO» three')
  })

  it('replaceSelectedText applies a function to every selection (an empty one only with selectWordIfEmpty)', () => {
    const editor = editorWith('«ab» c|d')
    editor.replaceSelectedText({}, (text) => `[${text}]`)
    expect(marked(editor)).toBe('«[ab]» c«[]»d')
    const words = editorWith('«ab» c|d')
    words.replaceSelectedText({ selectWordIfEmpty: true }, (text) => text.split('').reverse().join(''))
    expect(marked(words)).toBe('«ba» «dc»')
    expect(() => words.replaceSelectedText({}, 'x' as never)).toThrow(TypeError)
  })

  it('is one undo step each and refused when read-only', () => {
    const editor = editorWith('«ab» «cd»')
    editor.upperCase()
    editor.transpose()
    editor.undo()
    expect(editor.getText()).toBe('AB CD')
    editor.undo()
    expect(editor.getText()).toBe('ab cd')
    editor.setReadOnly(true)
    expect(() => editor.upperCase()).toThrow(ReadOnlyEditorError)
    expect(() => editor.lowerCase()).toThrow(ReadOnlyEditorError)
    expect(() => editor.transpose()).toThrow(ReadOnlyEditorError)
    expect(() => editor.replaceSelectedText({}, (t) => t)).toThrow(ReadOnlyEditorError)
    editor.upperCase({ bypassReadOnly: true })
    expect(editor.getText()).toBe('AB CD')
  })
})

describe('insertNewlineBelow / insertNewlineAbove', () => {
  it('opens an auto-indented line below every cursor line', () => {
    const editor = editorWith('if (a) {|\n}\n  x|y', { language: 'javascript' })
    editor.insertNewlineBelow()
    expect(marked(editor)).toBe('if (a) {\n  |\n}\n  xy\n  |')
  })

  it('opens a line above, keeping the line\'s indentation', () => {
    const editor = editorWith('x\n  a|b')
    editor.insertNewlineAbove()
    expect(marked(editor)).toBe('x\n  |\n  ab')
  })

  it('on the first row, leaves the cursor on the new first line', () => {
    const editor = editorWith('  a|b')
    editor.insertNewlineAbove()
    expect(marked(editor)).toBe('  |\n  ab')
  })

  it('is one undo step each and refused when read-only', () => {
    const editor = editorWith('a|b')
    editor.insertNewlineAbove()
    editor.undo()
    expect(marked(editor)).toBe('a|b')
    editor.setReadOnly(true)
    expect(() => editor.insertNewlineBelow()).toThrow(ReadOnlyEditorError)
    expect(() => editor.insertNewlineAbove()).toThrow(ReadOnlyEditorError)
    expect(editor.getText()).toBe('ab')
  })
})

describe('copyOnlySelectedText', () => {
  it('copies only the non-empty selections, never a whole line for an empty one', () => {
    const clipboard = new Clipboard()
    clipboard.write('before')
    const editor = editorWith('a|b\n«cd»\ne«f»', { clipboard })
    editor.copyOnlySelectedText()
    expect(clipboard.readWithMetadata()).toEqual({
      text: 'cd\nf',
      metadata: {
        indentBasis: 0,
        fullLine: false,
        selections: [
          { text: 'cd', indentBasis: 0, fullLine: false },
          { text: 'f', indentBasis: 0, fullLine: false },
        ],
      },
    })
    const empty = editorWith('a|b', { clipboard })
    empty.copyOnlySelectedText()
    expect(clipboard.read()).toBe('cd\nf')
  })
})

describe('onWillInsertText', () => {
  it('sees typed and pasted text first, and can cancel it', () => {
    const clipboard = new Clipboard()
    clipboard.write('pasted')
    const editor = editorWith('|', { clipboard })
    const seen: string[] = []
    const subscription = editor.onWillInsertText(({ text, cancel }) => {
      seen.push(text)
      if (text === 'x' || text === 'pasted') cancel()
    })
    expect(editor.insertText('ab')).toEqual([expect.objectContaining({ end: expect.objectContaining({ column: 2 }) })])
    expect(editor.insertText('x')).toBe(false)
    expect(editor.pasteText()).toBe(false)
    clipboard.write('cd')
    editor.pasteText()
    expect(seen).toEqual(['ab', 'x', 'pasted', 'cd'])
    expect(marked(editor)).toBe('abcd|')
    subscription.dispose()
    editor.insertText('x')
    expect(editor.getText()).toBe('abcdx')
  })
})

describe('paste and autoIndentOnPaste', () => {
  it('pastes a whole copied line over a selection, indented for where it lands', () => {
    const clipboard = new Clipboard()
    const editor = editorWith('if (a) {\n    x|()\n}\nif (b) {\n  y\n}', { language: 'javascript', clipboard })
    editor.copySelectedText()
    expect(clipboard.readWithMetadata()).toEqual({ text: '    x()\n', metadata: { indentBasis: 0, fullLine: true } })
    editor.setSelectedBufferRange([[4, 2], [4, 3]])
    editor.pasteText()
    expect(marked(editor)).toBe('if (a) {\n    x()\n}\nif (b) {\n  x()\n|\n}')
  })

  it('indents a whole line pasted above the cursor line the same way', () => {
    const clipboard = new Clipboard()
    const editor = editorWith('if (a) {\n    x|()\n}\nif (b) {\n  y\n}', { language: 'javascript', clipboard })
    editor.copySelectedText()
    editor.setCursorBufferPosition([4, 1])
    editor.pasteText()
    // The cursor keeps its column, one row down, as in Atom.
    expect(marked(editor)).toBe('if (a) {\n    x()\n}\nif (b) {\n  x()\n | y\n}')
  })

  it('keeps the copied indentation when autoIndentOnPaste is off', () => {
    const clipboard = new Clipboard()
    const editor = editorWith('if (a) {\n    x|()\n}\nif (b) {\n  y\n}', { language: 'javascript', clipboard, autoIndentOnPaste: false })
    editor.copySelectedText()
    editor.setSelectedBufferRange([[4, 2], [4, 3]])
    editor.pasteText()
    expect(editor.getText()).toBe('if (a) {\n    x()\n}\nif (b) {\n      x()\n\n}')
    expect(editor.getAutoIndentOnPaste()).toBe(false)
    editor.setAutoIndentOnPaste(null)
    expect(editor.getAutoIndentOnPaste()).toBe(false)
    expect(() => editorWith('', { autoIndentOnPaste: 'yes' as never })).toThrow(TypeError)
  })
})
