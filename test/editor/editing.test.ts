import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('editing', () => {
  it('types at every cursor, each ending after its own insertion', () => {
    const editor = editorWith('a|b\nc|d')
    editor.insertText('XY')
    expect(marked(editor)).toBe('aXY|b\ncXY|d')
  })

  it('replaces selections, keeping a reversed selection cursor at the end', () => {
    const editor = editorWith('one «two» three')
    editor.insertText('2')
    expect(marked(editor)).toBe('one 2| three')
    editor.setSelectedBufferRange([[0, 0], [0, 3]], { reversed: true })
    editor.insertText('1')
    expect(marked(editor)).toBe('1| 2 three')
  })

  it('selects inserted text with select: true', () => {
    const editor = editorWith('a|b')
    editor.getLastSelection()!.insertText('XY', { select: true })
    expect(marked(editor)).toBe('a«XY»b')
  })

  it('backspaces and deletes single characters, joining lines', () => {
    const editor = editorWith('ab\n|cd')
    editor.backspace()
    expect(marked(editor)).toBe('ab|cd')
    editor.delete()
    expect(marked(editor)).toBe('ab|d')
    editor.moveToBeginningOfLine()
    editor.backspace()
    expect(marked(editor)).toBe('|abd')
  })

  it('backspaces and deletes a whole soft tab inside leading indentation', () => {
    const editor = editorWith('    |x', { tabLength: 2 })
    editor.backspace()
    expect(marked(editor)).toBe('  |x')
    editor.moveToBeginningOfLine()
    editor.delete()
    expect(marked(editor)).toBe('|x')
  })

  it('deletes to the beginning of the line: before a forward selection, through a reversed one', () => {
    const forward = editorWith('ab«cd»ef')
    forward.deleteToBeginningOfLine()
    expect(forward.getText()).toBe('cdef')
    const reversed = editorWith('abcdef')
    reversed.setSelectedBufferRange([[0, 2], [0, 4]], { reversed: true })
    reversed.deleteToBeginningOfLine()
    expect(reversed.getText()).toBe('ef')
    const atStart = editorWith('ab\n|cd')
    atStart.deleteToBeginningOfLine()
    expect(marked(atStart)).toBe('ab|cd')
  })

  it('deletes to the end of the line, and the line break when already there', () => {
    const editor = editorWith('a|bc\nd')
    editor.deleteToEndOfLine()
    expect(marked(editor)).toBe('a|\nd')
    editor.deleteToEndOfLine()
    expect(marked(editor)).toBe('a|d')
  })

  it('deletes words in both directions', () => {
    const editor = editorWith('foo bar| baz')
    editor.deleteToBeginningOfWord()
    expect(marked(editor)).toBe('foo | baz')
    editor.deleteToEndOfWord()
    expect(marked(editor)).toBe('foo |')
  })

  it('deletes lines, including a selection ending at column 0 of the last row', () => {
    const editor = editorWith('one\nt|wo\nthree')
    editor.deleteLine()
    expect(editor.getText()).toBe('one\nthree')
    const last = editorWith('one\ntwo\n')
    last.setSelectedBufferRange([[1, 0], [2, 0]])
    last.deleteLine()
    expect(last.getText()).toBe('one')
    const middle = editorWith('«one\n»two\nthree')
    middle.deleteLine()
    expect(middle.getText()).toBe('two\nthree')
  })

  it('joins lines with one space, trimming the whitespace around the join', () => {
    const editor = editorWith('fo|o  \n   bar\nbaz')
    editor.joinLines()
    expect(marked(editor)).toBe('foo| bar\nbaz')
    const selected = editorWith('«a\nb\nc»\nd')
    selected.joinLines()
    expect(selected.getText()).toBe('a b c\nd')
    const blank = editorWith('a|\n\nb')
    blank.joinLines()
    expect(marked(blank)).toBe('a|\nb')
  })

  it('indents and outdents selected rows, skipping empty ones when indenting', () => {
    const editor = editorWith('«a\n\nb»', { tabLength: 2 })
    editor.indentSelectedRows()
    expect(editor.getText()).toBe('  a\n\n  b')
    editor.outdentSelectedRows()
    expect(editor.getText()).toBe('a\n\nb')
    const offStop = editorWith('a|b', { tabLength: 2 })
    offStop.indent()
    expect(marked(offStop)).toBe('a |b')
    const hard = editorWith('|a', { softTabs: false })
    hard.indent()
    expect(hard.getText()).toBe('\ta')
  })

  it('keeps the previous line indentation on newline in plain text', () => {
    const editor = editorWith('    foo|', { tabLength: 2 })
    editor.insertNewline()
    expect(marked(editor)).toBe('    foo\n    |')
  })

  it('normalises inserted line endings to the row ending', () => {
    const editor = editorWith('a|\r\nb')
    editor.insertText('x\ny')
    expect(editor.getText()).toBe('ax\r\ny\r\nb')
  })

  it('makes every edit one transaction with the editor as origin', () => {
    const editor = editorWith('a|b|c')
    const origins: unknown[] = []
    editor.buffer.doc.on('afterTransaction', (tr: Y.Transaction) => origins.push(tr.origin))
    editor.insertText('-')
    expect(origins).toEqual([editor])
  })

  it('toggles no comments in plain text', () => {
    const editor = editorWith('|a\nb')
    editor.toggleLineCommentsInSelection()
    expect(editor.getText()).toBe('a\nb')
  })
})
