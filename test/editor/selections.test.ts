import { describe, expect, it } from 'vitest'
import { Range } from '../../core/point/range.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('selections', () => {
  it('selects left, right, up and down from the cursor', () => {
    const editor = editorWith('ab|cd\nefgh')
    editor.selectRight()
    expect(marked(editor)).toBe('ab«c»d\nefgh')
    editor.selectDown()
    expect(marked(editor)).toBe('ab«cd\nefg»h')
    editor.selectLeft(3)
    expect(marked(editor)).toBe('ab«cd\n»efgh')
    editor.selectUp()
    expect(editor.getLastSelection()!.isReversed()).toBe(true)
    expect(marked(editor)).toBe('«ab»cd\nefgh')
  })

  it('keeps the orientation of setBufferRange unless reversed is given', () => {
    const editor = editorWith('abcdef')
    editor.setSelectedBufferRange([[0, 1], [0, 3]], { reversed: true })
    const selection = editor.getLastSelection()!
    selection.setBufferRange([[0, 2], [0, 5]])
    expect(selection.isReversed()).toBe(true)
    expect(selection.getHeadBufferPosition().serialize()).toEqual([0, 2])
    selection.setBufferRange([[0, 2], [0, 5]], { reversed: false })
    expect(selection.isReversed()).toBe(false)
  })

  it('merges intersecting selections but keeps non-empty ones that only touch', () => {
    const editor = editorWith('«ab»«cd»ef')
    expect(editor.getSelections()).toHaveLength(2)
    editor.selectRight()
    expect(marked(editor)).toBe('«abcde»f')
    const touching = editorWith('ab|«cd»')
    touching.addSelectionForBufferRange([[0, 2], [0, 2]])
    expect(touching.getSelections()).toHaveLength(1)
  })

  it('an empty selection touching a non-empty one merges into it', () => {
    const editor = editorWith('«ab»cd')
    editor.addCursorAtBufferPosition([0, 2])
    expect(editor.getSelectedBufferRanges()).toEqual([new Range([0, 0], [0, 2])])
  })

  it('returns the existing cursor when adding one where a cursor already is', () => {
    const editor = editorWith('ab|c')
    const existing = editor.getLastCursor()
    const added = editor.addCursorAtBufferPosition([0, 2])
    expect(added).toBe(existing)
    expect(editor.getCursors()).toHaveLength(1)
  })

  it('selectToTop with several selections keeps the last selection tail', () => {
    const editor = editorWith('ab\nc|d\nef|g')
    editor.selectToTop()
    expect(editor.getSelections()).toHaveLength(1)
    const selection = editor.getLastSelection()!
    expect(selection.getBufferRange()).toEqual(new Range([0, 0], [2, 2]))
    expect(selection.isReversed()).toBe(true)
  })

  it('selectWord returns the word range and selects it', () => {
    const editor = editorWith('foo b|ar baz')
    expect(editor.getLastSelection()!.selectWord()).toEqual(new Range([0, 4], [0, 7]))
    expect(marked(editor)).toBe('foo «bar» baz')
  })

  it('selects whole lines and expands over lines', () => {
    const editor = editorWith('one\nt|wo\nthree')
    editor.selectLinesContainingCursors()
    expect(marked(editor)).toBe('one\n«two\n»three')
    const multi = editorWith('o«ne\ntw»o\nthree')
    multi.getLastSelection()!.expandOverLine()
    expect(multi.getSelectedBufferRange()).toEqual(new Range([0, 1], [2, 0]))
  })

  it('does not count a final column-0 row in getBufferRowRange', () => {
    const editor = editorWith('«one\ntwo\n»three')
    expect(editor.getLastSelection()!.getBufferRowRange()).toEqual([0, 1])
    const single = editorWith('«»one')
    expect(single.getLastSelection()!.getBufferRowRange()).toEqual([0, 0])
  })

  it('adds selections below and above, skipping empty rows', () => {
    const short = editorWith('abc|d\nx')
    short.addSelectionBelow()
    expect(marked(short)).toBe('abc|d\nx|')
    const editor = editorWith('abc|d\n\nabcdef')
    editor.addSelectionBelow()
    expect(marked(editor)).toBe('abc|d\n\nabc|def')
    editor.addSelectionAbove()
    expect(editor.getCursors()).toHaveLength(2)
    const ranged = editorWith('a«bc»d\nefgh')
    ranged.addSelectionBelow()
    expect(marked(ranged)).toBe('a«bc»d\ne«fg»h')
  })

  it('splits multi-line selections into lines', () => {
    const editor = editorWith('a«bc\ndef\ngh»i')
    editor.splitSelectionsIntoLines()
    expect(editor.getSelectedBufferRanges()).toEqual([new Range([0, 1], [0, 3]), new Range([1, 0], [1, 3]), new Range([2, 0], [2, 2])])
  })

  it('consolidates and clears selections', () => {
    const editor = editorWith('«a»b|c|d')
    expect(editor.consolidateSelections()).toBe(true)
    expect(marked(editor)).toBe('«a»bcd')
    editor.clearSelections()
    expect(marked(editor)).toBe('a|bcd')
  })

  it('selects to the end of the line and of the buffer line', () => {
    const editor = editorWith('a|bc\ndef')
    editor.selectToEndOfLine()
    expect(marked(editor)).toBe('a«bc»\ndef')
    editor.selectToBottom()
    expect(marked(editor)).toBe('a«bc\ndef»')
    editor.selectAll()
    expect(marked(editor)).toBe('«abc\ndef»')
  })
})
