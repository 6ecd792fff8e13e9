import { describe, expect, it } from 'vitest'
import { TextEditor } from '../../core/editor/text-editor.ts'

describe('syntax highlighting spans', () => {
  it('gives tok-* spans per buffer row in buffer columns', () => {
    const editor = new TextEditor({ text: 'const a = "x"\n// note', language: 'javascript' })
    const [first, second] = editor.highlightSpansForBufferRows(0, 1)
    expect(first).toEqual([
      { startColumn: 0, endColumn: 5, classes: 'tok-keyword' },
      { startColumn: 6, endColumn: 7, classes: 'tok-variableName tok-definition' },
      { startColumn: 8, endColumn: 9, classes: 'tok-operator' },
      { startColumn: 10, endColumn: 13, classes: 'tok-string' },
    ])
    expect(second).toEqual([{ startColumn: 0, endColumn: 7, classes: 'tok-comment' }])
  })

  it('splits a span that crosses line breaks and follows edits', () => {
    const editor = new TextEditor({ text: 'a\n/* one\ntwo */\nb', language: 'javascript' })
    expect(editor.highlightSpansForBufferRows(1, 2)).toEqual([
      [{ startColumn: 0, endColumn: 6, classes: 'tok-comment' }],
      [{ startColumn: 0, endColumn: 6, classes: 'tok-comment' }],
    ])
    editor.setTextInBufferRange([[1, 0], [2, 6]], 'let x')
    expect(editor.highlightSpansForBufferRows(1, 1)).toEqual([
      [
        { startColumn: 0, endColumn: 3, classes: 'tok-keyword' },
        { startColumn: 4, endColumn: 5, classes: 'tok-variableName tok-definition' },
      ],
    ])
  })

  it('gives nothing for plain text and clips the rows asked for', () => {
    const editor = new TextEditor({ text: 'const a' })
    expect(editor.highlightSpansForBufferRows(0, 5)).toEqual([[]])
    editor.setLanguage('python')
    expect(editor.highlightSpansForBufferRows(-2, 0)).toEqual([
      [
        { startColumn: 0, endColumn: 5, classes: 'tok-variableName' },
        { startColumn: 6, endColumn: 7, classes: 'tok-variableName' },
      ],
    ])
  })
})
