import { describe, expect, it } from 'vitest'
import { Point } from '../../core/point/point.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

// Characters that render as one: e + combining acute, ❤ + VS16, a ZWJ family, a flag, Hangul jamo.
const E_ACUTE = 'e\u0301'
const HEART = '❤\ufe0f'
const FAMILY = '👨‍👩‍👧'
const FLAG = '🇫🇷'
const HANGUL = '\u1100\u1161'

describe('grapheme clusters under motion and deletion', () => {
  it('moveRight and moveLeft step over whole clusters', () => {
    const text = `a${E_ACUTE}${HEART}${FAMILY}${FLAG}${HANGUL}b`
    const editor = editorWith(`|${text}`)
    const stops: number[] = []
    for (let i = 0; i < 7; i++) {
      editor.moveRight()
      stops.push(editor.getCursorBufferPosition().column)
    }
    expect(stops).toEqual([1, 3, 5, 13, 17, 19, 20])
    const back: number[] = []
    for (let i = 0; i < 7; i++) {
      editor.moveLeft()
      back.push(editor.getCursorBufferPosition().column)
    }
    expect(back).toEqual([19, 17, 13, 5, 3, 1, 0])
  })

  it('counts clusters in moveLeft(n) and selectRight(n)', () => {
    const editor = editorWith(`${FAMILY}${FLAG}x|`)
    editor.moveLeft(2)
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 8))
    editor.selectRight(2)
    expect(editor.getSelectedText()).toBe(`${FLAG}x`)
  })

  it('backspace and delete remove a whole cluster', () => {
    const editor = editorWith(`a${FAMILY}|${HEART}b`)
    editor.backspace()
    expect(marked(editor)).toBe(`a|${HEART}b`)
    editor.delete()
    expect(marked(editor)).toBe('a|b')
    const marks = editorWith(`x${E_ACUTE}|y`)
    marks.backspace()
    expect(marked(marks)).toBe('x|y')
  })

  it('word motions and word deletion never stop inside a cluster', () => {
    const editor = editorWith(`|caf${E_ACUTE} bar`)
    editor.moveToEndOfWord()
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 5))
    editor.deleteToBeginningOfWord()
    expect(marked(editor)).toBe('| bar')
  })

  it('keeps an explicit buffer position inside a cluster, but never one inside a surrogate pair', () => {
    const editor = editorWith(`|a${FAMILY}b`)
    editor.setCursorBufferPosition([0, 4])
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 4))
    editor.setCursorBufferPosition([0, 2])
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 1))
    editor.moveRight()
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 9))
  })

  it('clips screen positions out of clusters in the clip direction', () => {
    const editor = editorWith(`|a${E_ACUTE}b`)
    expect(editor.clipScreenPosition([0, 2], { clipDirection: 'backward' })).toEqual(new Point(0, 1))
    expect(editor.clipScreenPosition([0, 2], { clipDirection: 'forward' })).toEqual(new Point(0, 3))
    editor.setCursorScreenPosition([0, 2], { clipDirection: 'forward' })
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 3))
  })
})
