import { describe, expect, it } from 'vitest'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'
import type { CursorPositionEvent } from '../../core/selection/cursor.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('screen coordinates through the editor', () => {
  it('expands hard tabs to the next tab stop', () => {
    const editor = editorWith('a\tb|', { tabLength: 4 })
    expect(editor.lineTextForScreenRow(0)).toBe('a   b')
    expect(editor.getCursorScreenPosition()).toEqual(new Point(0, 5))
    editor.setTabLength(2)
    expect(editor.getCursorScreenPosition()).toEqual(new Point(0, 3))
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 3))
  })

  it('moves by screen rows on soft-wrapped lines, keeping the goal column', () => {
    const editor = editorWith('|aaaa bbbb cccc\nx', { softWrapped: true, editorWidthInChars: 6 })
    expect(editor.getScreenLineCount()).toBe(4)
    expect(editor.lineTextForScreenRow(1)).toBe('bbbb ')
    editor.moveRight(2)
    editor.moveDown()
    expect(editor.getCursorScreenPosition()).toEqual(new Point(1, 2))
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 7))
    editor.moveDown(2)
    expect(editor.getCursorBufferPosition()).toEqual(new Point(1, 1))
    editor.moveUp()
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 12))
  })

  it('stops before the wrap space at the end of a wrapped screen line', () => {
    const editor = editorWith('aaaa |bbbb cccc', { softWrapped: true, editorWidthInChars: 6 })
    editor.moveToEndOfScreenLine()
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 9))
    editor.moveToBeginningOfScreenLine()
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 5))
    editor.selectToEndOfLine()
    expect(editor.getSelectedBufferRange()).toEqual(new Range([0, 5], [0, 9]))
    editor.setCursorBufferPosition([0, 5])
    editor.selectToEndOfBufferLine()
    expect(editor.getSelectedBufferRange()).toEqual(new Range([0, 5], [0, 14]))
    expect(editor.getLastSelection()!.isSingleScreenLine()).toBe(false)
  })

  it('keeps every cursor at its buffer position when soft wrap toggles, with no textChanged event', () => {
    const editor = editorWith('aaaa bbbb cc|cc')
    const events: CursorPositionEvent[] = []
    editor.onDidChangeCursorPosition((event) => events.push(event))
    expect(editor.setSoftWrapped(true)).toBe(true)
    editor.setEditorWidthInChars(6)
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 12))
    expect(editor.getCursorScreenPosition()).toEqual(new Point(2, 2))
    editor.setSoftWrapped(false)
    expect(editor.getCursorScreenPosition()).toEqual(new Point(0, 12))
    expect(events.filter((e) => e.textChanged)).toEqual([])
  })

  it('folds by indentation and shows the fold as one placeholder column', () => {
    const editor = editorWith('def\n  a\n  b\nend|')
    editor.foldBufferRow(1)
    expect(editor.isFoldedAtBufferRow(1)).toBe(true)
    expect(editor.getScreenLineCount()).toBe(2)
    expect(editor.lineTextForScreenRow(0)).toBe('def⋯')
    expect(editor.isFoldedAtScreenRow(0)).toBe(true)
    editor.moveUp()
    expect(editor.getCursorScreenPosition()).toEqual(new Point(0, 3))
    editor.unfoldAll()
    expect(editor.getScreenLineCount()).toBe(4)
  })

  it('moves over a fold as one column, and a selection set inside it unfolds it', () => {
    const editor = editorWith('ab|cdefgh')
    editor.foldBufferRange([[0, 3], [0, 6]])
    expect(editor.lineTextForScreenRow(0)).toBe('abc⋯gh')
    editor.moveRight(2)
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 6))
    editor.moveLeft()
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 3))
    editor.setSelectedBufferRange([[0, 4], [0, 5]])
    expect(editor.isFoldedAtBufferRow(0)).toBe(false)
    expect(marked(editor)).toBe('abcd«e»fgh')
  })

  it('keeps a fold through an edit strictly inside it and drops it for one across its edge', () => {
    const editor = editorWith('0123456789')
    editor.foldBufferRange([[0, 2], [0, 8]])
    editor.getBuffer().insert([0, 4], 'x')
    expect(editor.isFoldedAtBufferRow(0)).toBe(true)
    editor.getBuffer().delete([[0, 7], [0, 10]])
    expect(editor.isFoldedAtBufferRow(0)).toBe(false)
  })

  it('folds the selection with Selection#fold and moves the cursor to its end', () => {
    const editor = editorWith('a«bc\nde»f')
    editor.getLastSelection()!.fold()
    expect(editor.getScreenLineCount()).toBe(1)
    expect(editor.lineTextForScreenRow(0)).toBe('a⋯f')
    expect(editor.getCursorBufferPosition()).toEqual(new Point(1, 2))
  })

  it('translates and clips screen positions in both directions', () => {
    const editor = editorWith('\tab', { tabLength: 4 })
    expect(editor.screenPositionForBufferPosition([0, 1])).toEqual(new Point(0, 4))
    expect(editor.bufferPositionForScreenPosition([0, 2], { clipDirection: 'backward' })).toEqual(new Point(0, 0))
    expect(editor.bufferPositionForScreenPosition([0, 2], { clipDirection: 'forward' })).toEqual(new Point(0, 1))
    expect(editor.clipScreenPosition([5, 99])).toEqual(new Point(0, 6))
    expect(editor.screenRangeForBufferRange([[0, 0], [0, 2]])).toEqual(new Range([0, 0], [0, 5]))
    expect(editor.getLastCursor()!.getScreenRow()).toBe(0)
  })
})
