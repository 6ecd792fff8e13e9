import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('undo and redo', () => {
  it('undoes each command separately and restores the selections from before it', () => {
    const editor = editorWith('ab«cd»ef')
    editor.insertText('X')
    editor.insertText('Y')
    expect(marked(editor)).toBe('abXY|ef')
    editor.undo()
    expect(marked(editor)).toBe('abX|ef')
    editor.undo()
    expect(marked(editor)).toBe('ab«cd»ef')
    editor.redo()
    expect(marked(editor)).toBe('abX|ef')
  })

  it('groups a transaction into one undo step', () => {
    const editor = editorWith('|')
    editor.transact(() => {
      editor.insertText('a')
      editor.insertText('b')
    })
    editor.insertText('c')
    editor.undo()
    expect(editor.getText()).toBe('ab')
    editor.undo()
    expect(editor.getText()).toBe('')
  })

  it('groups typing within the grouping interval when asked', () => {
    const editor = editorWith('|')
    editor.insertText('a', { groupUndo: true })
    editor.insertText('b', { groupUndo: true })
    editor.undo()
    expect(editor.getText()).toBe('')
  })

  it('reverts to and groups changes since a checkpoint', () => {
    const editor = editorWith('|')
    editor.insertText('a')
    const checkpoint = editor.createCheckpoint()
    editor.insertText('b')
    editor.insertText('c')
    expect(editor.revertToCheckpoint(checkpoint)).toBe(true)
    expect(editor.getText()).toBe('a')
    expect(editor.redo()).toBe(false)
    const second = editor.createCheckpoint()
    editor.insertText('x')
    editor.insertText('y')
    expect(editor.groupChangesSinceCheckpoint(second)).toBe(true)
    editor.undo()
    expect(editor.getText()).toBe('a')
    expect(editor.revertToCheckpoint(12345)).toBe(false)
  })

  it('never undoes a peer change, even interleaved with ours', () => {
    const doc = new Y.Doc()
    const editor = new TextEditor({ doc, text: 'hello' })
    const remote = new Y.Doc()
    Y.applyUpdate(remote, Y.encodeStateAsUpdate(doc))
    doc.on('update', (u: Uint8Array, origin: unknown) => origin !== 'remote' && Y.applyUpdate(remote, u, 'local'))
    remote.on('update', (u: Uint8Array, origin: unknown) => origin !== 'local' && Y.applyUpdate(doc, u, 'remote'))
    editor.setCursorBufferPosition([0, 5])
    editor.insertText('!')
    remote.getText('text').insert(0, '>> ')
    editor.insertText('?')
    expect(editor.getText()).toBe('>> hello!?')
    editor.undo()
    editor.undo()
    expect(editor.getText()).toBe('>> hello')
    expect(remote.getText('text').toString()).toBe('>> hello')
    expect(marked(editor)).toBe('>> hello|')
    editor.redo()
    expect(editor.getText()).toBe('>> hello!')
  })

  it('does not undo changes other code made directly to the Y.Text', () => {
    const editor = editorWith('ab|')
    editor.buffer.ytext.insert(0, 'X')
    expect(editor.undo()).toBe(false)
    expect(editor.getText()).toBe('Xab')
  })

  it('redo restores the selections as they were right after the redone change', () => {
    const editor = editorWith('|one\ntwo')
    editor.insertText('A')
    editor.setCursorBufferPosition([1, 2])
    editor.insertText('B')
    editor.setCursorBufferPosition([1, 0])
    editor.undo()
    expect(marked(editor)).toBe('Aone\ntw|o')
    editor.undo()
    expect(marked(editor)).toBe('|one\ntwo')
    editor.redo()
    expect(marked(editor)).toBe('A|one\ntwo')
    editor.redo()
    expect(marked(editor)).toBe('Aone\ntwB|o')
    expect(editor.redo()).toBe(false)
  })

  it('redo of several cursors restores every one of them', () => {
    const editor = editorWith('|a\n|b')
    editor.insertText('x')
    editor.setCursorBufferPosition([0, 0])
    editor.undo()
    editor.redo()
    expect(marked(editor)).toBe('x|a\nx|b')
  })

  it('groups an insertion made with undo: skip with the previous step, as Atom did', () => {
    const editor = editorWith('|')
    editor.insertText('a')
    editor.createCheckpoint()
    editor.insertText('b', { undo: 'skip' })
    editor.insertText('c')
    expect(editor.getText()).toBe('abc')
    editor.undo()
    expect(marked(editor)).toBe('ab|')
    editor.undo()
    expect(marked(editor)).toBe('|')
    expect(editor.undo()).toBe(false)
    editor.redo()
    expect(marked(editor)).toBe('ab|')
  })

  it('keeps an insertion made with undo: skip as a step of its own when there is no previous one', () => {
    const editor = editorWith('|')
    editor.insertText('b', { undo: 'skip' })
    editor.undo()
    expect(editor.getText()).toBe('')
  })

  it('undoes the change just made when undo() is called from an onDidChange listener, as Atom does', () => {
    const editor = editorWith('ab|')
    editor.insertText('c')
    let first = true
    editor.onDidChange(() => {
      if (!first) return
      first = false
      editor.undo()
    })
    editor.insertText('d')
    expect(marked(editor)).toBe('abc|')
    editor.undo()
    expect(marked(editor)).toBe('ab|')
    editor.redo()
    expect(marked(editor)).toBe('abc|')
  })

  it('undoes the change just made when undo() is called from an onDidChangeText listener', () => {
    const editor = editorWith('ab|')
    editor.insertText('c')
    const once = editor.onDidChangeText(() => {
      once.dispose()
      editor.undo()
    })
    editor.insertText('d')
    expect(marked(editor)).toBe('abc|')
    expect([editor.getUndoManager().undoStack.length, editor.getUndoManager().redoStack.length]).toEqual([1, 1])
  })

  it('keeps a checkpoint through undo and redo of the edits around it', () => {
    const editor = editorWith('x|')
    editor.insertText('1')
    const checkpoint = editor.createCheckpoint()
    editor.insertText('2')
    editor.undo()
    editor.redo()
    expect(editor.revertToCheckpoint(checkpoint)).toBe(true)
    expect(marked(editor)).toBe('x1|')
    // The step below the checkpoint undone and redone is still that step.
    const second = editor.createCheckpoint()
    editor.undo()
    editor.redo()
    editor.insertText('3')
    expect(editor.revertToCheckpoint(second)).toBe(true)
    expect(editor.getText()).toBe('x1')
    // Undoing past the checkpoint invalidates it.
    const third = editor.createCheckpoint()
    editor.undo()
    expect(editor.revertToCheckpoint(third)).toBe(false)
  })
})
