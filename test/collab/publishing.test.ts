import { afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Awareness } from 'y-protocols/awareness'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { Network, type Client } from './network.ts'

/** What `JSON.parse(JSON.stringify(relPos))` gives for a left-bound position at `index`. */
function position(ytext: Y.Text, index: number): unknown {
  return JSON.parse(JSON.stringify(Y.createRelativePositionFromTypeIndex(ytext, index, -1)))
}

function localState(client: Client): Record<string, unknown> {
  return client.awareness.getLocalState()!
}

let network: Network
afterEach(() => network?.destroy())

describe('publishing the local selections', () => {
  it('publishes {user, cursor, selections} as relative positions with every field, in the order added', () => {
    network = new Network()
    const ada = network.addClient('ada', { user: { name: 'Ada', color: '#d81b60' }, text: 'hello world' })
    const editor = ada.editor!
    editor.setSelectedBufferRanges([[[0, 0], [0, 5]], [[0, 11], [0, 11]]])
    editor.addSelectionForBufferRange([[0, 6], [0, 8]], { reversed: true })
    const ytext = ada.doc.getText('text')
    const expected = [
      { anchor: position(ytext, 0), head: position(ytext, 5) },
      { anchor: position(ytext, 11), head: position(ytext, 11) },
      { anchor: position(ytext, 8), head: position(ytext, 6) },
    ]
    expect(localState(ada)).toEqual({ user: { name: 'Ada', color: '#d81b60' }, cursor: expected[2], selections: expected })
    // Exactly that JSON, key order included; the position at the end of the text keeps its item.
    expect(JSON.stringify(localState(ada).selections)).toBe(JSON.stringify(expected))
    expect(JSON.stringify((localState(ada).selections as { head: unknown }[])[1]!.head)).toBe(
      JSON.stringify({ type: null, tname: 'text', item: { client: ada.doc.clientID, clock: 10 }, assoc: -1 }),
    )
  })

  it('publishes the start of an empty text with a null item', () => {
    network = new Network()
    const ada = network.addClient('ada')
    expect(localState(ada).cursor).toEqual({
      anchor: { type: null, tname: 'text', item: null, assoc: -1 },
      head: { type: null, tname: 'text', item: null, assoc: -1 },
    })
    expect(localState(ada).selections).toEqual([localState(ada).cursor])
  })

  it('publishes a cursor that y-codemirror.next can read, at the end of the text too', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'abc\ndef' })
    const bob = network.addClient('bob', { editor: false })
    ada.editor!.setCursorBufferPosition([1, 3])
    // What y-codemirror.next does with a remote state's cursor.
    const cursor = bob.awareness.getStates().get(ada.doc.clientID)!.cursor
    const head = Y.createAbsolutePositionFromRelativePosition(Y.createRelativePositionFromJSON(cursor.head), bob.doc)
    const anchor = Y.createAbsolutePositionFromRelativePosition(Y.createRelativePositionFromJSON(cursor.anchor), bob.doc)
    expect([anchor?.index, head?.index]).toEqual([7, 7])
    expect(cursor.head.item).toEqual({ client: ada.doc.clientID, clock: 6 })
  })

  it('writes a default user when given none, and keeps a user already in the state', () => {
    const doc = new Y.Doc()
    doc.clientID = 7
    const awareness = new Awareness(doc)
    const editor = new TextEditor({ doc, awareness })
    expect(awareness.getLocalState()!.user).toEqual({ name: 'Anonymous', color: '#d81b60' })
    editor.destroy()
    expect(awareness.getLocalState()).toEqual({})
    awareness.setLocalStateField('user', { name: 'Grace', color: '#123456', colorLight: '#12345633' })
    const second = new TextEditor({ doc, awareness })
    expect(awareness.getLocalState()!.user).toEqual({ name: 'Grace', color: '#123456', colorLight: '#12345633' })
    second.destroy()
    // Not ours to remove.
    expect(awareness.getLocalState()).toEqual({ user: { name: 'Grace', color: '#123456', colorLight: '#12345633' } })
    awareness.destroy()
  })

  it('joins with one awareness update and clears its fields (only its own) on destroy', () => {
    network = new Network()
    const ada = network.addClient('ada', { editor: false })
    ada.awareness.setLocalStateField('status', 'away')
    const before = ada.localAwarenessUpdates
    const editor = new TextEditor({ doc: ada.doc, awareness: ada.awareness, user: { name: 'Ada', color: '#000' } })
    expect(ada.localAwarenessUpdates - before).toBe(1)
    expect(Object.keys(localState(ada))).toEqual(['status', 'user', 'cursor', 'selections'])
    editor.destroy()
    expect(localState(ada)).toEqual({ status: 'away' })
  })

  it('publishes again when someone resets the local state', () => {
    network = new Network()
    const ada = network.addClient('ada', { user: { name: 'Ada', color: '#000' }, text: 'abc' })
    ada.editor!.setCursorBufferPosition([0, 2])
    ada.awareness.setLocalState(null)
    ada.editor!.moveLeft()
    expect(ada.awareness.getLocalState()).toBe(null)
    ada.awareness.setLocalState({})
    const ytext = ada.doc.getText('text')
    expect(localState(ada)).toEqual({
      user: { name: 'Ada', color: '#000' },
      cursor: { anchor: position(ytext, 1), head: position(ytext, 1) },
      selections: [{ anchor: position(ytext, 1), head: position(ytext, 1) }],
    })
  })
})

describe('publishing once per change', () => {
  function setup(text: string): Client {
    network = new Network()
    const ada = network.addClient('ada', { text })
    return ada
  }

  function updatesDuring(client: Client, fn: () => void): number {
    const before = client.localAwarenessUpdates
    fn()
    return client.localAwarenessUpdates - before
  }

  it('publishes once for an editor command on several cursors', () => {
    const ada = setup('one\ntwo\nthree')
    const editor = ada.editor!
    expect(updatesDuring(ada, () => editor.setSelectedBufferRanges([[[0, 1], [0, 1]], [[1, 1], [1, 1]], [[2, 1], [2, 1]]]))).toBe(1)
    expect(updatesDuring(ada, () => editor.insertText('X'))).toBe(1)
    expect(updatesDuring(ada, () => editor.moveRight())).toBe(1)
    expect(updatesDuring(ada, () => editor.selectToEndOfLine())).toBe(1)
    expect(updatesDuring(ada, () => editor.backspace())).toBe(1)
    expect(updatesDuring(ada, () => editor.addCursorAtBufferPosition([0, 0]))).toBe(1)
    expect(updatesDuring(ada, () => editor.deleteLine())).toBe(1)
    expect(updatesDuring(ada, () => editor.undo())).toBe(1)
    expect(updatesDuring(ada, () => editor.redo())).toBe(1)
    expect(updatesDuring(ada, () => editor.copySelectedText())).toBe(0)
  })

  it('publishes once for a direct Cursor or Selection call that changes the range in several steps', () => {
    const ada = setup('hello world')
    const editor = ada.editor!
    editor.setSelectedBufferRange([[0, 2], [0, 5]])
    const selection = editor.getLastSelection()!
    // Clearing the selection and moving are two marker changes.
    expect(updatesDuring(ada, () => selection.cursor.moveToEndOfWord())).toBe(1)
    expect(updatesDuring(ada, () => selection.selectLeft(2))).toBe(1)
    expect(updatesDuring(ada, () => selection.selectWord())).toBe(1)
    expect(updatesDuring(ada, () => selection.insertText('abc'))).toBe(1)
  })

  it('publishes once for a transaction, and once for a local edit made directly on the Y.Text', () => {
    const ada = setup('hello world')
    const editor = ada.editor!
    editor.setCursorBufferPosition([0, 5])
    expect(
      updatesDuring(ada, () =>
        editor.transact(() => {
          editor.insertText(',')
          editor.moveLeft()
          editor.addCursorAtBufferPosition([0, 0])
        }),
      ),
    ).toBe(1)
    const ytext = ada.doc.getText('text')
    expect(
      updatesDuring(ada, () =>
        ada.doc.transact(() => {
          ytext.insert(0, '>')
          ytext.insert(0, '>')
        }),
      ),
    ).toBe(1)
    expect(localState(ada).selections).toEqual([
      { anchor: position(ytext, 7), head: position(ytext, 7) },
      { anchor: position(ytext, 2), head: position(ytext, 2) },
    ])
  })

  it('publishes nothing when nothing changed', () => {
    const ada = setup('hello')
    const editor = ada.editor!
    editor.setCursorBufferPosition([0, 2])
    expect(updatesDuring(ada, () => editor.setCursorBufferPosition([0, 2]))).toBe(0)
    expect(updatesDuring(ada, () => editor.moveToTop())).toBe(1)
    expect(updatesDuring(ada, () => editor.moveLeft())).toBe(0)
    expect(updatesDuring(ada, () => editor.moveUp())).toBe(0)
    expect(updatesDuring(ada, () => editor.moveRight())).toBe(1)
    // After the cursor: the published position (bound to the character before it) still holds.
    expect(updatesDuring(ada, () => ada.doc.getText('text').insert(3, 'abc'))).toBe(0)
    expect(updatesDuring(ada, () => editor.getBuffer().insert([0, 4], 'x'))).toBe(0)
  })

  it('does not publish for a remote edit, unless it deleted the character a position is bound to', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'hello world' })
    const bob = network.addClient('bob')
    ada.editor!.setCursorBufferPosition([0, 6])
    const bobText = bob.doc.getText('text')
    expect(updatesDuring(ada, () => bobText.insert(0, '>> '))).toBe(0)
    expect(updatesDuring(ada, () => bobText.insert(9, '__'))).toBe(0)
    expect(ada.editor!.getCursorBufferPosition().toArray()).toEqual([0, 9])
    expect(updatesDuring(ada, () => bobText.delete(11, 1))).toBe(0)
    // 'hello ' loses its space: Ada's position was bound to it.
    expect(updatesDuring(ada, () => bobText.delete(8, 1))).toBe(1)
    const adaText = ada.doc.getText('text')
    expect(adaText.toString()).toBe('>> hello__orld')
    expect(ada.editor!.getCursorBufferPosition().toArray()).toEqual([0, 8])
    expect(localState(ada).cursor).toEqual({ anchor: position(adaText, 8), head: position(adaText, 8) })
  })
})
