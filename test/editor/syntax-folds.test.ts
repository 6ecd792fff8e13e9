import { describe, expect, it } from 'vitest'
import { editorWith, screenText as screen } from '../helpers/editor-text.ts'

const JS = ['function f(a) {', '  if (a) {', '    g([', '      1,', '    ])', '  }', '  return 2', '}', 'h()'].join('\n')

describe('folds that follow the syntax', () => {
  it('folds a JavaScript block from its opening bracket to its closing one', () => {
    const editor = editorWith(JS, { language: 'javascript' })
    editor.foldBufferRow(1)
    expect(screen(editor)).toBe('function f(a) { /   if (a) {⋯} /   return 2 / } / h()')
    expect(editor.isFoldedAtBufferRow(1)).toBe(true)
    expect(editor.isFoldedAtBufferRow(5)).toBe(true)
    expect(editor.isFoldedAtBufferRow(6)).toBe(false)
  })

  it('folds the enclosing block when the row is folded already, and the block around a row inside it', () => {
    const editor = editorWith(JS, { language: 'javascript' })
    editor.foldBufferRow(1)
    editor.foldBufferRow(1)
    expect(screen(editor)).toBe('function f(a) {⋯} / h()')
    editor.unfoldAll()
    editor.foldBufferRow(3)
    expect(screen(editor)).toBe('function f(a) { /   if (a) { /     g([⋯]) /   } /   return 2 / } / h()')
  })

  it('maps screen positions below a fold past the hidden rows', () => {
    const editor = editorWith(JS, { language: 'javascript' })
    editor.foldBufferRow(1)
    expect(editor.screenPositionForBufferPosition([6, 2]).toArray()).toEqual([2, 2])
    expect(editor.bufferPositionForScreenPosition([3, 1]).toArray()).toEqual([7, 1])
    // The closing bracket shares the fold's screen row, after the placeholder.
    expect(editor.screenPositionForBufferPosition([5, 3]).toArray()).toEqual([1, 12])
    expect(editor.bufferPositionForScreenPosition([1, 12]).toArray()).toEqual([5, 3])
  })

  it('deletes the whole folded block with deleteLine on its row', () => {
    const editor = editorWith(JS, { language: 'javascript' })
    editor.foldBufferRow(1)
    editor.setCursorScreenPosition([1, 4])
    editor.deleteLine()
    expect(editor.getText()).toBe('function f(a) {\n  return 2\n}\nh()')
    expect(editor.getCursorBufferPosition().toArray()).toEqual([1, 4])
  })

  it('folds a Python block from its colon to its last statement', () => {
    const editor = editorWith('def f(x):\n    if x:\n        return 1\n    return 2\n\nclass A:\n    pass\n', { language: 'python' })
    editor.foldBufferRow(1)
    expect(screen(editor)).toBe('def f(x): /     if x:⋯ /     return 2 /  / class A: /     pass / ')
    editor.foldBufferRow(0)
    expect(screen(editor)).toBe('def f(x):⋯ /  / class A: /     pass / ')
  })

  it('folds HTML elements between their tags, JSON and CSS between their brackets', () => {
    const html = editorWith('<div>\n  <p>\n    hi\n  </p>\n</div>\n', { language: 'html' })
    html.foldBufferRow(1)
    expect(screen(html)).toBe('<div> /   <p>⋯</p> / </div> / ')
    const json = editorWith('{\n  "a": [\n    1\n  ]\n}', { language: 'json' })
    json.foldBufferRow(1)
    expect(screen(json)).toBe('{ /   "a": [⋯] / }')
    const css = editorWith('a {\n  color: red;\n}', { language: 'css' })
    css.foldBufferRow(1)
    expect(screen(css)).toBe('a {⋯}')
  })

  it('folds a JSX element between its tags and a template string inside its backticks', () => {
    const editor = editorWith('const a = (\n  <div>\n    <p/>\n  </div>\n)\nconst t = `a\nb`', { language: 'jsx' })
    editor.foldBufferRow(1)
    expect(screen(editor)).toBe('const a = ( /   <div>⋯</div> / ) / const t = `a / b`')
    editor.foldBufferRow(5)
    expect(screen(editor)).toBe('const a = ( /   <div>⋯</div> / ) / const t = `⋯`')
  })

  it('folds plain text and Markdown by indentation, from the end of the first row to the end of the last', () => {
    const text = editorWith('a\n  b\n  c\nd')
    text.foldBufferRow(0)
    expect(screen(text)).toBe('a⋯ / d')
    const markdown = editorWith('- a\n  - b\n  - c\n- d', { language: 'markdown' })
    markdown.foldBufferRow(0)
    expect(screen(markdown)).toBe('- a⋯ / - d')
  })
})

describe('fold commands', () => {
  it('unfoldAll returns the ranges it unfolded', () => {
    const editor = editorWith(JS, { language: 'javascript' })
    editor.foldBufferRow(1)
    editor.foldBufferRow(1)
    expect(editor.unfoldAll().map((range) => range.toString())).toEqual(['[(0, 15) - (7, 0)]', '[(1, 10) - (5, 2)]'])
    expect(editor.unfoldAll()).toEqual([])
    expect(editor.getScreenLineCount()).toBe(9)
  })

  it('foldAll folds every block, nested ones too', () => {
    const editor = editorWith(JS, { language: 'javascript' })
    editor.foldAll()
    expect(screen(editor)).toBe('function f(a) {⋯} / h()')
    expect(editor.unfoldAll().map((range) => range.toString())).toEqual(['[(0, 15) - (7, 0)]', '[(1, 10) - (5, 2)]', '[(2, 7) - (4, 4)]'])
  })

  it('foldAllAtIndentLevel folds the blocks at one nesting level, unfolding the rest', () => {
    const editor = editorWith(JS, { language: 'javascript' })
    editor.foldAllAtIndentLevel(1)
    expect(screen(editor)).toBe('function f(a) { /   if (a) {⋯} /   return 2 / } / h()')
    editor.foldAllAtIndentLevel(2)
    expect(screen(editor)).toBe('function f(a) { /   if (a) { /     g([⋯]) /   } /   return 2 / } / h()')
    const text = editorWith('a\n  b\n    c\n  d\n    e\nf')
    text.foldAllAtIndentLevel(1)
    expect(screen(text)).toBe('a /   b⋯ /   d⋯ / f')
    expect(() => text.foldAllAtIndentLevel(-1)).toThrow(TypeError)
  })

  it('foldCurrentRow and unfoldCurrentRow work on the last cursor row', () => {
    const editor = editorWith(JS, { language: 'javascript' })
    editor.setCursorBufferPosition([3, 2])
    expect(typeof editor.foldCurrentRow()).toBe('number')
    expect(screen(editor)).toBe('function f(a) { /   if (a) { /     g([⋯]) /   } /   return 2 / } / h()')
    editor.setCursorBufferPosition([2, 0])
    expect(editor.unfoldCurrentRow().map((range) => range.toString())).toEqual(['[(2, 7) - (4, 4)]'])
    editor.setCursorBufferPosition([8, 0])
    expect(editor.foldCurrentRow()).toBeUndefined()
    expect(editor.getScreenLineCount()).toBe(9)
  })

  it('isFoldableAtBufferRow says where a fold starts, by syntax or by indentation', () => {
    const editor = editorWith(JS, { language: 'javascript' })
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1].map((row) => editor.isFoldableAtBufferRow(row))).toEqual([
      true, true, true, false, false, false, false, false, false, false, false,
    ])
    expect(editor.isFoldableAtScreenRow(1)).toBe(true)
    const text = editorWith('a\n  b\nc')
    expect([0, 1, 2].map((row) => text.isFoldableAtBufferRow(row))).toEqual([true, false, false])
  })

  it('toggleFoldAtBufferRow folds an unfolded row and unfolds a folded one', () => {
    const editor = editorWith(JS, { language: 'javascript' })
    editor.toggleFoldAtBufferRow(1)
    expect(screen(editor)).toBe('function f(a) { /   if (a) {⋯} /   return 2 / } / h()')
    editor.toggleFoldAtBufferRow(1)
    expect(editor.getScreenLineCount()).toBe(9)
  })
})
