import { describe, expect, it } from 'vitest'
import { ReadOnlyEditorError } from '../../core/editor/errors.ts'
import { editorWith, marked, screenText as screen } from '../helpers/editor-text.ts'

describe('moveLineUp / moveLineDown', () => {
  it('swaps the cursor line with the one above or below, the cursor moving with it', () => {
    const editor = editorWith('one\ntw|o\nthree')
    editor.moveLineUp()
    expect(marked(editor)).toBe('tw|o\none\nthree')
    editor.moveLineDown()
    editor.moveLineDown()
    expect(marked(editor)).toBe('one\nthree\ntw|o\n')
  })

  it('does nothing on the first row (up), nor with the last row when moving down', () => {
    const up = editorWith('o|ne\ntwo')
    up.moveLineUp()
    expect(marked(up)).toBe('o|ne\ntwo')
    const down = editorWith('one\ntw|o')
    down.moveLineDown()
    expect(marked(down)).toBe('one\ntw|o')
  })

  it('moves every row a selection covers, but not a last row it reaches only at column 0', () => {
    const editor = editorWith('a\nb\n«c\nd\n»e')
    editor.moveLineUp()
    expect(marked(editor)).toBe('a\n«c\nd\n»b\ne')
    editor.moveLineDown()
    expect(marked(editor)).toBe('a\nb\n«c\nd\n»e')
  })

  it('moves each cursor line, and lines that touch as one block', () => {
    const editor = editorWith('a\nb|\nc|\nd\ne|')
    editor.moveLineUp()
    expect(marked(editor)).toBe('b|\nc|\na\ne|\nd\n')
  })

  it('re-indents the moved lines like a typed line, unless autoIndent is off', () => {
    const indenting = editorWith('if (a) {\n  b()\n}\nc(|)', { language: 'javascript' })
    indenting.moveLineUp()
    expect(indenting.getText()).toBe('if (a) {\n  b()\n  c()\n}\n')
    const keeping = editorWith('if (a) {\n  b()\n}\nc(|)', { language: 'javascript', autoIndent: false })
    keeping.moveLineUp()
    expect(keeping.getText()).toBe('if (a) {\n  b()\nc()\n}\n')
  })

  it('moves a line around a fold, which stays folded', () => {
    const editor = editorWith('x|\nif (a) {\n  y()\n}\nz', { language: 'javascript', autoIndent: false })
    editor.foldBufferRow(1)
    expect(screen(editor)).toBe('x / if (a) {⋯} / z')
    editor.moveLineDown()
    expect(marked(editor)).toBe('if (a) {\n  y()\n}\nx|\nz')
    expect(screen(editor)).toBe('if (a) {⋯} / x / z')
    editor.moveLineUp()
    expect(marked(editor)).toBe('x|\nif (a) {\n  y()\n}\nz')
    expect(screen(editor)).toBe('x / if (a) {⋯} / z')
  })

  it('moves a folded block whole and keeps it folded', () => {
    const editor = editorWith('x\nif (a) {\n  y()\n}\nz', { language: 'javascript', autoIndent: false })
    editor.foldBufferRow(1)
    editor.setCursorScreenPosition([1, 2])
    editor.moveLineUp()
    expect(editor.getText()).toBe('if (a) {\n  y()\n}\nx\nz')
    expect(screen(editor)).toBe('if (a) {⋯} / x / z')
    expect(editor.getCursorBufferPosition().toArray()).toEqual([0, 2])
    editor.moveLineDown()
    editor.moveLineDown()
    expect(editor.getText()).toBe('x\nz\nif (a) {\n  y()\n}\n')
    expect(screen(editor)).toBe('x / z / if (a) {⋯} / ')
  })

  it('is one undo step, refused when read-only, allowed with bypassReadOnly', () => {
    const editor = editorWith('a\nb|\nc')
    editor.moveLineUp()
    editor.undo()
    expect(marked(editor)).toBe('a\nb|\nc')
    editor.setReadOnly(true)
    expect(() => editor.moveLineUp()).toThrow(ReadOnlyEditorError)
    expect(() => editor.moveLineDown()).toThrow(ReadOnlyEditorError)
    expect(editor.getText()).toBe('a\nb\nc')
    editor.moveLineDown({ bypassReadOnly: true })
    expect(marked(editor)).toBe('a\nc\nb|\n')
  })
})

describe('duplicateLines', () => {
  it('copies the cursor line below itself and puts the cursor on the copy', () => {
    const editor = editorWith('a|b\ncd')
    editor.duplicateLines()
    expect(marked(editor)).toBe('ab\na|b\ncd')
  })

  it('copies every row of a selection once, and the last row with a line break', () => {
    const editor = editorWith('ab\nc«d\ne»f')
    editor.duplicateLines()
    expect(marked(editor)).toBe('ab\ncd\nef\nc«d\ne»f')
  })

  it('copies each cursor line on its own, and a selection sharing a row with the next as one block', () => {
    const separate = editorWith('a|\nb|\nc')
    separate.duplicateLines()
    expect(marked(separate)).toBe('a\na|\nb\nb|\nc')
    const block = editorWith('«a\nb»c|')
    block.duplicateLines()
    expect(marked(block)).toBe('a\nbc\n«a\nb»c|')
  })

  it('copies a folded block whole and folds the copy', () => {
    const editor = editorWith('if (a) {\n  y()\n}\nz', { language: 'javascript' })
    editor.foldBufferRow(0)
    editor.setCursorScreenPosition([0, 3])
    editor.duplicateLines()
    expect(editor.getText()).toBe('if (a) {\n  y()\n}\nif (a) {\n  y()\n}\nz')
    expect(screen(editor)).toBe('if (a) {⋯} / if (a) {⋯} / z')
    expect(editor.getCursorBufferPosition().toArray()).toEqual([3, 3])
  })

  it('leaves alone the row a selection ends on at column 0, and a fold on it, as moveLineUp does', () => {
    const editor = editorWith('a\nb\nc {\n d\n}\ne')
    editor.foldBufferRange([[2, 0], [4, 1]])
    editor.setSelectedBufferRange([[0, 0], [2, 0]], { preserveFolds: true })
    editor.duplicateLines()
    expect(editor.getText()).toBe('a\nb\na\nb\nc {\n d\n}\ne')
    expect(editor.getSelectedBufferRange().toString()).toBe('[(2, 0) - (4, 0)]')
    expect(editor.getDisplayLayer().foldsIntersectingBufferRange([[0, 0], [9, 0]]).map((fold) => fold.range.toString())).toEqual(['[(4, 0) - (6, 1)]'])
    expect(screen(editor)).toBe('a / b / a / b / ⋯ / e')
  })

  it('copies the folds inside the copied lines, and not one that only reaches their first row', () => {
    const editor = editorWith('a {\n  b\n}\nc {\n  d\n}\ne')
    editor.foldBufferRange([[0, 3], [2, 0]])
    editor.foldBufferRange([[3, 3], [5, 1]])
    editor.setSelectedBufferRange([[0, 0], [6, 0]], { preserveFolds: true })
    editor.duplicateLines()
    expect(editor.getText()).toBe('a {\n  b\n}\nc {\n  d\n}\na {\n  b\n}\nc {\n  d\n}\ne')
    const folds = () => editor.getDisplayLayer().foldsIntersectingBufferRange([[0, 0], [99, 0]]).map((fold) => fold.range.toString())
    expect(folds()).toEqual(['[(0, 3) - (2, 0)]', '[(3, 3) - (5, 1)]', '[(6, 3) - (8, 0)]', '[(9, 3) - (11, 1)]'])
    const touching = editorWith('a {\n b\n}\nc\nd')
    touching.foldBufferRange([[0, 3], [2, 0]])
    touching.setSelectedBufferRange([[2, 0], [3, 1]], { preserveFolds: true })
    touching.duplicateLines()
    expect(touching.getText()).toBe('a {\n b\n}\nc\n}\nc\nd')
    expect(touching.getDisplayLayer().foldsIntersectingBufferRange([[0, 0], [99, 0]]).map((fold) => fold.range.toString())).toEqual(['[(0, 3) - (2, 0)]'])
  })

  it('is one undo step and refused when read-only', () => {
    const editor = editorWith('a|\nb|')
    editor.duplicateLines()
    editor.undo()
    expect(editor.getText()).toBe('a\nb')
    editor.setReadOnly(true)
    expect(() => editor.duplicateLines()).toThrow(ReadOnlyEditorError)
  })
})

describe('moveSelectionLeft / moveSelectionRight', () => {
  it('moves the selected text one column, the passed character going to the other side', () => {
    const editor = editorWith('ab«cd»e')
    editor.moveSelectionLeft()
    expect(marked(editor)).toBe('a«cd»be')
    editor.moveSelectionRight()
    editor.moveSelectionRight()
    expect(marked(editor)).toBe('abe«cd»')
  })

  it('moves nothing unless every selection can move', () => {
    const editor = editorWith('«ab»c\nd«e»f')
    editor.moveSelectionLeft()
    expect(marked(editor)).toBe('«ab»c\nd«e»f')
    editor.moveSelectionRight()
    expect(marked(editor)).toBe('c«ab»\ndf«e»')
    editor.moveSelectionRight()
    expect(marked(editor)).toBe('c«ab»\ndf«e»')
  })

  it('is one undo step and refused when read-only', () => {
    const editor = editorWith('x«y»')
    editor.moveSelectionLeft()
    editor.undo()
    expect(editor.getText()).toBe('xy')
    editor.setReadOnly(true)
    expect(() => editor.moveSelectionLeft()).toThrow(ReadOnlyEditorError)
    expect(() => editor.moveSelectionRight()).toThrow(ReadOnlyEditorError)
  })
})
