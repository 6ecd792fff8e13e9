import { describe, expect, it } from 'vitest'
import { Clipboard } from '../../core/editor/clipboard.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('clipboard', () => {
  it('copies the selection with its indent basis', () => {
    const clipboard = new Clipboard()
    const editor = editorWith('  «foo»', { clipboard })
    editor.copySelectedText()
    expect(clipboard.readWithMetadata()).toEqual({ text: 'foo', metadata: { indentBasis: 1, fullLine: false } })
  })

  it('copies the whole line for an empty selection and pastes it above the cursor line', () => {
    const clipboard = new Clipboard()
    const editor = editorWith('one\nt|wo\nthree', { clipboard })
    editor.copySelectedText()
    expect(clipboard.read()).toBe('two\n')
    expect(clipboard.readWithMetadata().metadata?.fullLine).toBe(true)
    expect(marked(editor)).toBe('one\nt|wo\nthree')
    editor.setCursorBufferPosition([0, 1])
    editor.pasteText()
    expect(marked(editor)).toBe('two\no|ne\ntwo\nthree')
  })

  it('keeps one entry per selection and pastes them back to as many cursors', () => {
    const clipboard = new Clipboard()
    const editor = editorWith('«a»b«c»', { clipboard })
    editor.copySelectedText()
    expect(clipboard.read()).toBe('a\nc')
    editor.setSelectedBufferRanges([[[0, 1], [0, 1]], [[0, 3], [0, 3]]])
    editor.pasteText()
    expect(editor.getText()).toBe('aabcc')
    editor.setCursorBufferPosition([0, 0])
    editor.pasteText()
    expect(editor.getText()).toBe('a\ncaabcc')
  })

  it('cuts selections and whole lines', () => {
    const clipboard = new Clipboard()
    const editor = editorWith('a«bc»d\nx|y\nz', { clipboard })
    editor.cutSelectedText()
    expect(editor.getText()).toBe('ad\nz')
    expect(clipboard.read()).toBe('bc\nxy\n')
  })

  it('cutToEndOfLine at the end of a line removes the break and leaves the clipboard alone', () => {
    const clipboard = new Clipboard()
    clipboard.write('kept')
    const editor = editorWith('ab|\ncd', { clipboard })
    editor.cutToEndOfLine()
    expect(editor.getText()).toBe('abcd')
    expect(clipboard.read()).toBe('kept')
    editor.cutToEndOfLine()
    expect(clipboard.read()).toBe('cd')
    expect(editor.getText()).toBe('ab')
  })

  it('normalises \\r\\n to \\n when copying', () => {
    const clipboard = new Clipboard()
    const editor = editorWith('«a\r\nb»', { clipboard })
    editor.copySelectedText()
    expect(clipboard.read()).toBe('a\nb')
  })

  it('pastes multi-line text keeping the relative indentation', () => {
    const clipboard = new Clipboard()
    const source = editorWith('  «if\n    x»', { clipboard, tabLength: 2 })
    source.copySelectedText()
    const target = editorWith('|', { clipboard, tabLength: 2 })
    target.pasteText()
    expect(target.getText()).toBe('if\n  x')
  })

  it('forgets metadata once the clipboard holds other text', () => {
    const clipboard = new Clipboard()
    clipboard.write('x', { fullLine: true })
    expect(clipboard.readWithMetadata()).toEqual({ text: 'x', metadata: { fullLine: true } })
    clipboard.write('y')
    expect(clipboard.readWithMetadata()).toEqual({ text: 'y' })
  })

  it('shares one in-memory clipboard between editors by default', () => {
    const a = editorWith('«shared»')
    const b = editorWith('|')
    a.copySelectedText()
    b.pasteText()
    expect(b.getText()).toBe('shared')
  })
})
