import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextEditor } from '../../core/editor/text-editor.ts'

/**
 * Editors on one Y.Doc in one process (one Yjs client, like Atom's panes on one buffer) share one undo
 * history: undo in any of them undoes the latest change made through any of them and restores the
 * selections of the editor that made it; the other editors' selections stay where they are.
 */

function twoEditors(text: string): { doc: Y.Doc; a: TextEditor; b: TextEditor } {
  const doc = new Y.Doc()
  const a = new TextEditor({ doc, text })
  const b = new TextEditor({ doc })
  a.getUndoManager().clear()
  return { doc, a, b }
}

const cursor = (editor: TextEditor): [number, number] => {
  const { row, column } = editor.getCursorBufferPosition()
  return [row, column]
}

describe('editors on one Y.Doc share one undo history', () => {
  it("undoes the latest change made through any of them, restoring only the maker's selections", () => {
    const { a, b } = twoEditors('one\ntwo')
    a.setCursorBufferPosition([0, 3])
    a.insertText('A')
    b.setCursorBufferPosition([1, 0])
    b.insertText('B')
    a.setCursorBufferPosition([1, 2])
    // Undo from A undoes B's change (the latest), puts B's cursor back, leaves A's cursor alone.
    b.setCursorBufferPosition([0, 1])
    expect(a.undo()).toBe(true)
    expect(a.getText()).toBe('oneA\ntwo')
    expect([cursor(a), cursor(b)]).toEqual([[1, 1], [1, 0]])
    // Undo from B then undoes A's change and puts A's cursor back.
    b.setCursorBufferPosition([1, 3])
    expect(b.undo()).toBe(true)
    expect(b.getText()).toBe('one\ntwo')
    expect([cursor(a), cursor(b)]).toEqual([[0, 3], [1, 3]])
    expect(a.getUndoManager().canUndo()).toBe(false)
    // Redo from either editor, in order, with the selections after each change in its maker.
    expect(b.redo()).toBe(true)
    expect(a.getText()).toBe('oneA\ntwo')
    expect(cursor(a)).toEqual([0, 4])
    expect(a.redo()).toBe(true)
    expect(a.getText()).toBe('oneA\nBtwo')
    expect([cursor(a), cursor(b)]).toEqual([[0, 4], [1, 1]])
  })

  it("never joins one editor's change to the step another editor made, even within the grouping interval", () => {
    const { a, b } = twoEditors('')
    a.insertText('a', { groupUndo: true })
    b.setCursorBufferPosition([0, 1])
    b.insertText('b', { groupUndo: true })
    a.setCursorBufferPosition([0, 2])
    a.insertText('c', { groupUndo: true })
    expect(a.getText()).toBe('abc')
    a.undo()
    expect(a.getText()).toBe('ab')
    a.undo()
    expect(a.getText()).toBe('a')
    a.undo()
    expect(a.getText()).toBe('')
  })

  it("never undoes a peer's change", () => {
    const { doc, a, b } = twoEditors('x')
    const peer = new Y.Doc()
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc))
    a.setCursorBufferPosition([0, 1])
    a.insertText('a')
    peer.getText('text').insert(0, 'P')
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(peer, Y.encodeStateVector(doc)))
    expect(b.getText()).toBe('Pxa')
    expect(b.undo()).toBe(true)
    expect(b.getText()).toBe('Px')
    expect(b.undo()).toBe(false)
    expect(a.getText()).toBe('Px')
  })

  it('keeps a closed editor’s steps undoable by the others, and ends when the last editor goes', () => {
    const { a, b } = twoEditors('')
    a.insertText('gone')
    b.setCursorBufferPosition([0, 4])
    b.insertText('!')
    const manager = a.getUndoManager()
    a.destroy()
    expect(b.undo()).toBe(true)
    expect(b.undo()).toBe(true)
    expect(b.getText()).toBe('')
    expect(cursor(b)).toEqual([0, 0])
    b.destroy()
    expect(manager.trackedOrigins.size).toBe(0)
  })

  it('keeps separate histories for separate texts and separate documents', () => {
    const doc = new Y.Doc()
    const a = new TextEditor({ doc, textName: 'a' })
    const b = new TextEditor({ doc, textName: 'b' })
    const c = new TextEditor({ doc: new Y.Doc() })
    expect(a.getUndoManager()).not.toBe(b.getUndoManager())
    expect(a.getUndoManager()).not.toBe(c.getUndoManager())
    a.insertText('a')
    b.insertText('b')
    expect(a.undo()).toBe(true)
    expect([a.getText(), b.getText()]).toEqual(['', 'b'])
    expect(a.undo()).toBe(false)
  })

  it("reverts to a checkpoint made in one editor the other editor's changes too, restoring each editor's selections", () => {
    const { a, b } = twoEditors('base')
    a.setCursorBufferPosition([0, 4])
    b.setCursorBufferPosition([0, 0])
    const checkpoint = a.createCheckpoint()
    a.insertText('1')
    b.insertText('2')
    a.insertText('3')
    expect(a.getText()).toBe('2base13')
    expect(b.revertToCheckpoint(checkpoint)).toBe(true)
    expect(a.getText()).toBe('base')
    expect([cursor(a), cursor(b)]).toEqual([[0, 4], [0, 0]])
    expect(a.getUndoManager().canRedo()).toBe(false)
  })
})
