import { afterEach, describe, expect, it } from 'vitest'
import { ReadOnlyEditorError } from '../../core/editor/errors.ts'
import { Network } from '../collab/network.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('selectMarker', () => {
  it("selects a valid marker's range and returns it; an invalid one changes nothing", () => {
    const editor = editorWith('|one two\nthree')
    const marker = editor.markBufferRange([[0, 4], [1, 2]])
    expect(editor.selectMarker(marker)?.toString()).toBe('[(0, 4) - (1, 2)]')
    expect(marked(editor)).toBe('one «two\nth»ree')
    marker.destroy()
    expect(editor.selectMarker(marker)).toBeUndefined()
    expect(marked(editor)).toBe('one «two\nth»ree')
  })
})

describe('getCursorAtScreenPosition', () => {
  it('finds the cursor whose head is at a screen position, in screen coordinates', () => {
    const editor = editorWith('\tab|c\nd|ef', { tabLength: 4 })
    const [first, second] = editor.getCursors()
    expect(editor.getCursorAtScreenPosition([0, 6])).toBe(first)
    expect(editor.getCursorAtScreenPosition([1, 1])).toBe(second)
    expect(editor.getCursorAtScreenPosition([0, 3])).toBeUndefined()
  })

  it('answers only for the head of a selection', () => {
    const editor = editorWith('a«bc»d')
    expect(editor.getCursorAtScreenPosition([0, 3])).toBe(editor.getLastCursor())
    expect(editor.getCursorAtScreenPosition([0, 1])).toBeUndefined()
  })
})

describe('getCursorScope and getCurrentParagraphBufferRange', () => {
  it("give the last cursor's scopes and paragraph", () => {
    const editor = editorWith('x = "s|tr"\n\nfirst\nsecond\n\nla|st', { language: 'javascript' })
    expect(editor.getCursorScope().getScopesArray()).toEqual(['source.js'])
    expect(editor.getCurrentParagraphBufferRange()?.toString()).toBe('[(5, 0) - (5, 4)]')
    editor.getLastCursor()!.destroy()
    expect(editor.getCursorScope().getScopesArray()).toEqual(['source.js', 'string.quoted.double.js'])
    editor.setCursorBufferPosition([3, 3])
    expect(editor.getCurrentParagraphBufferRange()?.toString()).toBe('[(2, 0) - (3, 6)]')
    editor.setCursorBufferPosition([1, 0])
    expect(editor.getCurrentParagraphBufferRange()).toBeUndefined()
  })
})

describe('pageUp / pageDown / selectPageUp / selectPageDown', () => {
  it('move every cursor by rowsPerPage screen rows (the option, then the setter)', () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n')
    const editor = editorWith(text, { rowsPerPage: 5 })
    editor.setCursorBufferPosition([2, 3])
    editor.pageDown()
    expect(editor.getCursorBufferPosition().toArray()).toEqual([7, 3])
    editor.selectPageDown()
    expect(editor.getSelectedBufferRange().toString()).toBe('[(7, 3) - (12, 3)]')
    editor.setRowsPerPage(3)
    expect(editor.getRowsPerPage()).toBe(3)
    editor.selectPageUp()
    expect(editor.getSelectedBufferRange().toString()).toBe('[(7, 3) - (9, 3)]')
    editor.pageUp()
    expect(editor.getCursorBufferPosition().toArray()).toEqual([4, 3])
    editor.setRowsPerPage(null)
    expect(editor.getRowsPerPage()).toBe(3)
    expect(() => editor.setRowsPerPage(0)).toThrow(TypeError)
    expect(editorWith('').getRowsPerPage()).toBe(1)
  })
})

describe("the new commands and peers' objects", () => {
  let network: Network
  afterEach(() => network?.destroy())

  it("apply to this editor's selections only: a peer's cursors are moved by the text alone", () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'one\ntwo\nthree' })
    const bob = network.addClient('bob')
    bob.editor!.setCursorBufferPosition([2, 2])
    ada.editor!.setCursorBufferPosition([1, 1])
    ada.editor!.moveLineUp()
    ada.editor!.upperCase()
    ada.editor!.duplicateLines()
    expect(ada.editor!.getText()).toBe('TWO\nTWO\none\nthree')
    expect(bob.editor!.getText()).toBe('TWO\nTWO\none\nthree')
    const bobSeenByAda = ada.editor!.getPeers()[0]!
    expect(bobSeenByAda.getCursors().map((cursor) => cursor.getBufferPosition().toArray())).toEqual([[3, 2]])
    expect(ada.editor!.getSelectedBufferRanges().map(String)).toEqual(['[(1, 0) - (1, 3)]'])
  })

  it("refuse to edit through a peer's selection, and answer queries about it", () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'ab\n\ncd' })
    const bob = network.addClient('bob')
    bob.editor!.setSelectedBufferRange([[0, 0], [0, 2]])
    const selection = ada.editor!.getPeers()[0]!.getLastSelection()!
    expect(() => selection.cut(false, false, true)).toThrow(/another user/)
    expect(() => selection.insertText('x')).toThrow(/another user/)
    expect(selection.cursor.getCurrentParagraphBufferRange()?.toString()).toBe('[(0, 0) - (0, 2)]')
    expect(ada.editor!.getText()).toBe('ab\n\ncd')
  })

  it('refuse on a read-only editor', () => {
    const editor = editorWith('a|b')
    editor.setReadOnly(true)
    for (const command of ['moveLineUp', 'moveLineDown', 'duplicateLines', 'moveSelectionLeft', 'moveSelectionRight', 'insertNewlineAbove', 'insertNewlineBelow', 'transpose', 'upperCase', 'lowerCase'] as const) {
      expect(() => editor[command](), command).toThrow(ReadOnlyEditorError)
    }
    expect(() => editor.insertText('x')).toThrow(ReadOnlyEditorError)
    expect(marked(editor)).toBe('a|b')
  })
})
