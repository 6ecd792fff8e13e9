import { describe, expect, it } from 'vitest'
import { Range } from '../../core/point/range.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('languages through the editor', () => {
  it('toggles line comments at the smallest indentation and back', () => {
    const editor = editorWith('«  a()\n    b()»', { language: 'javascript' })
    editor.toggleLineCommentsInSelection()
    expect(editor.getText()).toBe('  // a()\n  //   b()')
    editor.toggleLineCommentsInSelection()
    expect(editor.getText()).toBe('  a()\n    b()')
  })

  it('comments a mix of commented and uncommented rows', () => {
    const editor = editorWith('«# a\nb»', { language: 'python' })
    editor.toggleLineCommentsInSelection()
    expect(editor.getText()).toBe('# # a\n# b')
  })

  it('wraps rows in block comments where the language has no line comment', () => {
    const editor = editorWith('a { color: red; }|', { language: 'css' })
    editor.toggleLineCommentsInSelection()
    expect(marked(editor)).toBe('/* a { color: red; }| */')
  })

  it('indents after an opening bracket and decreases on the closing one', () => {
    const editor = editorWith('function f() {|', { language: 'javascript' })
    editor.insertNewline()
    expect(marked(editor)).toBe('function f() {\n  |')
    editor.insertText('x()')
    editor.insertNewline()
    editor.insertText('}')
    expect(editor.getText()).toBe('function f() {\n  x()\n}')
  })

  it('indents after a colon in Python', () => {
    const editor = editorWith('if x:|', { language: 'python', tabLength: 4 })
    editor.insertNewline()
    expect(marked(editor)).toBe('if x:\n    |')
  })

  it('auto-indents selected rows', () => {
    const editor = editorWith('«if (a) {\nb()\n}»', { language: 'javascript' })
    editor.autoIndentSelectedRows()
    expect(editor.getText()).toBe('if (a) {\n  b()\n}')
  })

  it('reports scopes and syntax-tree scopes at the cursor', () => {
    const editor = editorWith('let s = "h|i" // c', { language: 'javascript' })
    const cursor = editor.getLastCursor()!
    expect(cursor.getScopeDescriptor().getScopesArray()).toEqual(['source.js', 'string.quoted.double.js'])
    expect(cursor.getSyntaxTreeScopeDescriptor().getScopesArray()[0]).toBe('source.js')
    cursor.setBufferPosition([0, 16])
    expect(cursor.getScopeDescriptor().getScopesArray()).toEqual(['source.js', 'comment.line.double-slash.js'])
  })

  it('treats comment-only rows as their own paragraph', () => {
    const editor = editorWith('// a\n// b\nc|\nd\n\ne', { language: 'javascript' })
    expect(editor.getLastCursor()!.getCurrentParagraphBufferRange()).toEqual(new Range([2, 0], [3, 1]))
    editor.setCursorBufferPosition([0, 1])
    expect(editor.getLastCursor()!.getCurrentParagraphBufferRange()).toEqual(new Range([0, 0], [1, 4]))
  })

  it('follows setLanguage and falls back to plain text', () => {
    const editor = editorWith('x = 1|')
    expect(editor.getLastCursor()!.getScopeDescriptor().getScopesArray()).toEqual(['text.plain'])
    editor.setLanguage('python')
    expect(editor.getLanguage()).toBe('python')
    expect(() => editor.setLanguage('cobol' as never)).toThrow(TypeError)
    expect(editor.getLanguage()).toBe('python')
  })
})
