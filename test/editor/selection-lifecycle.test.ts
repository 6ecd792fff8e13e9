import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('the editor always has a cursor', () => {
  it('creates one at (0, 0) when asked after the last one was destroyed', () => {
    const editor = editorWith('ab\n|cd')
    editor.getLastSelection().destroy()
    expect(editor.getLastCursor().getBufferPosition()).toEqual(new Point(0, 0))
    expect(editor.getCursors()).toHaveLength(1)
    editor.getCursors()[0]!.destroy()
    expect(editor.getSelections().map((s) => s.getBufferRange())).toEqual([new Range([0, 0], [0, 0])])
    editor.getLastCursor().destroy()
    expect(editor.getLastSelection().getBufferRange()).toEqual(new Range([0, 0], [0, 0]))
    expect(editor.getCursorBufferPosition()).toEqual(new Point(0, 0))
  })
})

describe('moveToFirstCharacterOfLine', () => {
  it('clears the goal column', () => {
    const editor = editorWith('  abcdef\n|\n  abcdef')
    editor.setCursorBufferPosition([0, 6])
    editor.moveDown()
    editor.moveToFirstCharacterOfLine()
    editor.moveDown()
    expect(editor.getCursorBufferPosition()).toEqual(new Point(2, 0))
  })
})

describe('adding selections above and below', () => {
  it('announces only the selections that survive merging', () => {
    const editor = editorWith('abc\nabc\nabc')
    editor.setSelectedBufferRanges([[[0, 1], [0, 1]], [[1, 1], [1, 1]]])
    const added: Range[] = []
    const removed: number[] = []
    editor.onDidAddSelection((selection) => added.push(selection.getBufferRange()))
    editor.onDidRemoveSelection((selection) => removed.push(selection.id))
    editor.addSelectionBelow()
    expect(added).toEqual([new Range([2, 1], [2, 1])])
    expect(removed).toEqual([])
    expect(editor.getCursorBufferPositions()).toEqual([new Point(0, 1), new Point(1, 1), new Point(2, 1)])
  })
})

describe('cursors brought together by edits outside the editor', () => {
  it('merge after a direct buffer edit', () => {
    const editor = editorWith('ab|cd|ef')
    const removed: Point[] = []
    editor.onDidRemoveCursor((cursor) => removed.push(cursor.getBufferPosition()))
    editor.getBuffer().delete([[0, 2], [0, 4]])
    expect(marked(editor)).toBe('ab|ef')
    expect(removed).toHaveLength(1)
  })

  it('merge after a peer deletes the text between them', () => {
    const editor = editorWith('ab|cd|ef')
    const peer = new Y.Doc()
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(editor.doc))
    peer.getText('text').delete(2, 2)
    Y.applyUpdate(editor.doc, Y.encodeStateAsUpdate(peer, Y.encodeStateVector(editor.doc)))
    expect(marked(editor)).toBe('ab|ef')
    expect(editor.getCursors()).toHaveLength(1)
  })
})

describe('setters given null or undefined', () => {
  it('ignore them, as Atom does', () => {
    const editor = new TextEditor({ text: 'a', tabLength: 4, softWrapped: true, editorWidthInChars: 20 })
    const nothing = null as unknown as number
    editor.setTabLength(nothing)
    editor.setTabLength(undefined as unknown as number)
    editor.setSoftTabs(null as unknown as boolean)
    editor.setSoftWrapped(undefined as unknown as boolean)
    editor.setEditorWidthInChars(nothing)
    editor.setSoftWrapHangingIndentLength(nothing)
    editor.setReadOnly(null as unknown as boolean)
    editor.setLanguage(undefined as never)
    expect([editor.getTabLength(), editor.getSoftTabs(), editor.isSoftWrapped(), editor.getEditorWidthInChars()]).toEqual([4, true, true, 20])
    expect([editor.getSoftWrapHangingIndentLength(), editor.isReadOnly(), editor.getLanguage()]).toEqual([0, false, 'text'])
    expect(() => editor.setTabLength('2' as unknown as number)).toThrow(TypeError)
  })
})
