import { describe, expect, it } from 'vitest'
import { Point } from '../../core/point/point.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('cursor movement', () => {
  it('moves left and right across line ends', () => {
    const editor = editorWith('ab\n|cd')
    editor.moveLeft()
    expect(marked(editor)).toBe('ab|\ncd')
    editor.moveLeft(2)
    expect(marked(editor)).toBe('|ab\ncd')
    editor.moveLeft()
    expect(marked(editor)).toBe('|ab\ncd')
    editor.moveRight(3)
    expect(marked(editor)).toBe('ab\n|cd')
    editor.moveRight(5)
    expect(marked(editor)).toBe('ab\ncd|')
  })

  it('moves up and down keeping the goal column across short lines', () => {
    const editor = editorWith('abcdef|\nab\nabcdefgh')
    editor.moveDown()
    expect(marked(editor)).toBe('abcdef\nab|\nabcdefgh')
    editor.moveDown()
    expect(marked(editor)).toBe('abcdef\nab\nabcdef|gh')
    editor.moveUp(2)
    expect(marked(editor)).toBe('abcdef|\nab\nabcdefgh')
    editor.moveUp()
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 0))
  })

  it('forgets the goal column after a horizontal move', () => {
    const editor = editorWith('abcdef|\nab\nabcdefgh')
    editor.moveDown()
    editor.moveLeft()
    editor.moveDown()
    expect(marked(editor)).toBe('abcdef\nab\na|bcdefgh')
  })

  it('collapses a selection to its start or end when moving left, right, up or down', () => {
    const editor = editorWith('a«bc»d\nxyzw')
    editor.moveLeft()
    expect(marked(editor)).toBe('a|bcd\nxyzw')
    editor.setSelectedBufferRange([[0, 1], [0, 3]])
    editor.moveRight()
    expect(marked(editor)).toBe('abc|d\nxyzw')
    editor.setSelectedBufferRange([[0, 1], [0, 3]])
    editor.moveDown()
    expect(marked(editor)).toBe('abcd\nxyz|w')
  })

  it('toggles between the first character and the start of the line', () => {
    const editor = editorWith('  foo| bar')
    editor.moveToFirstCharacterOfLine()
    expect(marked(editor)).toBe('  |foo bar')
    editor.moveToFirstCharacterOfLine()
    expect(marked(editor)).toBe('|  foo bar')
    editor.moveToFirstCharacterOfLine()
    expect(marked(editor)).toBe('  |foo bar')
  })

  it('moves to line ends, the top and the bottom', () => {
    const editor = editorWith('one\nt|wo\nthree')
    editor.moveToEndOfLine()
    expect(marked(editor)).toBe('one\ntwo|\nthree')
    editor.moveToBeginningOfLine()
    expect(marked(editor)).toBe('one\n|two\nthree')
    editor.moveToBottom()
    expect(marked(editor)).toBe('one\ntwo\nthree|')
    editor.moveToTop()
    expect(marked(editor)).toBe('|one\ntwo\nthree')
  })

  it('jumps whole tab stops inside leading soft-tab indentation', () => {
    const editor = editorWith('    |foo', { tabLength: 2 })
    editor.moveLeft()
    expect(marked(editor)).toBe('  |  foo')
    editor.moveLeft()
    expect(marked(editor)).toBe('|    foo')
    editor.moveRight()
    expect(marked(editor)).toBe('  |  foo')
  })

  it('snaps to a tab stop when moving vertically into indentation', () => {
    // Atom's 'closest' clip goes to the next stop only past the middle of a soft tab.
    const editor = editorWith('abc|\n    x', { tabLength: 2 })
    editor.moveDown()
    expect(editor.getCursorBufferPosition()).toEqual(new Point(1, 2))
    const wide = editorWith('abc|\n        x', { tabLength: 4 })
    wide.moveDown()
    expect(wide.getCursorBufferPosition()).toEqual(new Point(1, 4))
    const other = editorWith('a|\n    x', { tabLength: 4 })
    other.moveDown()
    expect(other.getCursorBufferPosition()).toEqual(new Point(1, 0))
  })

  it('moves by words and paragraphs', () => {
    const editor = editorWith('|foo bar\n\nbaz')
    editor.moveToEndOfWord()
    expect(marked(editor)).toBe('foo| bar\n\nbaz')
    editor.moveToBeginningOfNextWord()
    expect(marked(editor)).toBe('foo |bar\n\nbaz')
    editor.moveToBeginningOfNextParagraph()
    expect(marked(editor)).toBe('foo bar\n|\nbaz')
    editor.moveToBeginningOfPreviousParagraph()
    expect(marked(editor)).toBe('|foo bar\n\nbaz')
  })

  it('moves every cursor and merges cursors that meet, keeping the earliest added', () => {
    const editor = editorWith('a|b|c')
    const [first, second] = editor.getCursors()
    let destroyed = 0
    second!.onDidDestroy(() => destroyed++)
    editor.moveToBeginningOfLine()
    expect(editor.getCursors()).toEqual([first])
    expect(destroyed).toBe(1)
    expect(marked(editor)).toBe('|abc')
  })

  it('reports the indent level from the cursor column', () => {
    const editor = editorWith('   |x', { tabLength: 2 })
    expect(editor.getLastCursor()!.getIndentLevel()).toBe(1.5)
    editor.setSoftTabs(false)
    expect(editor.getLastCursor()!.getIndentLevel()).toBe(3)
  })

  it('answers questions about its surroundings', () => {
    const editor = editorWith('foo |bar')
    const cursor = editor.getLastCursor()!
    expect(cursor.isInsideWord()).toBe(true)
    expect(cursor.isAtBeginningOfLine()).toBe(false)
    expect(cursor.hasPrecedingCharactersOnLine()).toBe(true)
    cursor.setBufferPosition([0, 7])
    expect(cursor.isAtEndOfLine()).toBe(true)
    expect(cursor.isInsideWord()).toBe(true)
    expect(cursor.getCurrentWordBufferRange().serialize()).toEqual([[0, 4], [0, 7]])
    // Right after a space the prefix reaches back into the previous word, as Atom's does.
    cursor.setBufferPosition([0, 4])
    expect(cursor.getCurrentWordPrefix()).toBe('foo ')
    cursor.setBufferPosition([0, 6])
    expect(cursor.getCurrentWordPrefix()).toBe('ba')
  })

  it('clips positions out of the buffer', () => {
    const editor = editorWith('ab\ncd')
    editor.setCursorBufferPosition([9, 9])
    expect(editor.getCursorBufferPosition()).toEqual(new Point(1, 2))
    editor.setCursorBufferPosition([-3, Infinity])
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 0))
    // NaN is no position: Atom's `Invalid Point` error, the cursor stays.
    expect(() => editor.setCursorBufferPosition([-3, NaN])).toThrow('Invalid Point: (-3, NaN)')
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 0))
    expect(() => editor.setCursorBufferPosition('x' as never)).toThrow(/bufferPosition/)
  })
})
