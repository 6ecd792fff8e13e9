import { afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Network, type Client } from './network.ts'

/**
 * A peer's position goes where Yjs resolves it: bound to the character before it (Cotext's `assoc: -1`),
 * text inserted at it leaves it; bound to the one after it (`assoc >= 0`, what y-codemirror.next publishes,
 * end of text included), text inserted at it pushes it. Such a peer does not publish again when its
 * relative position has not changed, so the editor must map it the same way.
 */

let network: Network
afterEach(() => network?.destroy())

/** What the viewer shows of the y-codemirror-like client's selection, and where Yjs resolves its published one. */
function shown(viewer: Client, cm: Client): { shown: [number, number]; yjs: [number, number] } {
  const peer = viewer.editor!.getPeers().find((p) => p.clientId === cm.doc.clientID)!
  const range = peer.getLastSelection()!.getBufferRange()
  const cursor = cm.awareness.getLocalState()!.cursor as { anchor: Y.RelativePosition; head: Y.RelativePosition }
  const resolve = (position: Y.RelativePosition) => Y.createAbsolutePositionFromRelativePosition(position, viewer.doc)!.index
  const anchor = resolve(cursor.anchor)
  const head = resolve(cursor.head)
  const buffer = viewer.editor!.getBuffer()
  return {
    shown: [buffer.characterIndexForPosition(range.start), buffer.characterIndexForPosition(range.end)],
    yjs: [Math.min(anchor, head), Math.max(anchor, head)],
  }
}

function publish(cm: Client, anchor: number, head: number, assoc: number): void {
  const ytext = cm.doc.getText('text')
  cm.awareness.setLocalStateField('cursor', {
    anchor: Y.createRelativePositionFromTypeIndex(ytext, anchor, assoc),
    head: Y.createRelativePositionFromTypeIndex(ytext, head, assoc),
  })
}

describe("a peer's position bound to the character after it", () => {
  it('moves with text its owner types at the end of the text, without a new awareness state', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'hello' })
    const cm = network.addClient('cm', { editor: false })
    publish(cm, 5, 5, 0)
    // Its caret is read once (as the viewer opens the peer's selection), then the owner types at the end.
    expect(shown(ada, cm)).toEqual({ shown: [5, 5], yjs: [5, 5] })
    cm.doc.getText('text').insert(5, ' world')
    expect(ada.editor!.getText()).toBe('hello world')
    expect(shown(ada, cm)).toEqual({ shown: [11, 11], yjs: [11, 11] })
  })

  it('moves with it also while nobody holds its Selection (the position alone)', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'hello' })
    const cm = network.addClient('cm', { editor: false })
    publish(cm, 5, 5, 0)
    cm.doc.getText('text').insert(5, '!!')
    expect(shown(ada, cm)).toEqual({ shown: [7, 7], yjs: [7, 7] })
  })

  it('moves with text inserted at it in the middle, by anyone, while Cotext-published positions stay', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'abcdef' })
    const bob = network.addClient('bob')
    const cm = network.addClient('cm', { editor: false })
    publish(cm, 2, 4, 0)
    bob.editor!.setCursorBufferPosition([0, 2])
    expect(shown(ada, cm)).toEqual({ shown: [2, 4], yjs: [2, 4] })
    // Ada types at both ends of the selection: Yjs puts both after her text, and so does the editor.
    ada.editor!.setCursorBufferPosition([0, 4])
    ada.editor!.insertText('XY')
    ada.editor!.setCursorBufferPosition([0, 2])
    ada.editor!.insertText('Z')
    expect(ada.editor!.getText()).toBe('abZcdXYef')
    expect(shown(ada, cm)).toEqual({ shown: [3, 7], yjs: [3, 7] })
    // Bob's cursor (Cotext publishes assoc -1) stays before the text inserted at it.
    const bobPeer = ada.editor!.getPeers().find((p) => p.clientId === bob.doc.clientID)!
    expect(bobPeer.getLastCursor()!.getBufferPosition().toArray()).toEqual([0, 2])
  })

  it('is left by text inserted at it again once its owner publishes it bound to the character before', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'abc' })
    const cm = network.addClient('cm', { editor: false })
    publish(cm, 1, 1, 0)
    expect(shown(ada, cm).shown).toEqual([1, 1])
    publish(cm, 1, 1, -1)
    ada.editor!.setCursorBufferPosition([0, 1])
    ada.editor!.insertText('Q')
    expect(shown(ada, cm)).toEqual({ shown: [1, 1], yjs: [1, 1] })
  })
})
