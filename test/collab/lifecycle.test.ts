import { afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Awareness } from 'y-protocols/awareness'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { Network } from './network.ts'

let network: Network
afterEach(() => network?.destroy())

/** How many listeners a lib0 Observable (Y.Doc, Awareness) holds. */
function listeners(observable: Y.Doc | Awareness): number {
  let count = 0
  for (const set of (observable as unknown as { _observers: Map<string, Set<unknown>> })._observers.values()) count += set.size
  return count
}

describe('collaboration lifecycle', () => {
  it('releases every doc and awareness listener, its markers and its awareness fields on destroy', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'hello' })
    const raw = network.addClient('raw', { editor: false })
    const docListeners = listeners(raw.doc)
    const awarenessListeners = listeners(raw.awareness)
    const bob = new TextEditor({ doc: raw.doc, awareness: raw.awareness, user: { name: 'Bob', color: '#000' } })
    expect(bob.getPeers()).toHaveLength(1)
    const remote = bob.getPeers()[0]!.getSelections()[0]!
    const destroyed: string[] = []
    remote.onDidDestroy(() => destroyed.push('selection'))
    bob.onDidRemovePeer(() => destroyed.push('peer'))
    expect(bob.markerLayer.getMarkerCount()).toBe(2)
    bob.destroy()
    expect(destroyed).toEqual(['selection', 'peer'])
    expect(listeners(raw.doc)).toBe(docListeners)
    expect(listeners(raw.awareness)).toBe(awarenessListeners)
    expect(raw.awareness.getLocalState()).toEqual({})
    // Ada sees Bob's client without cursors, and nothing Bob's editor does any more reaches her.
    const bobAsSeen = ada.editor!.getPeers().find((peer) => peer.clientId === raw.doc.clientID)!
    expect(bobAsSeen.getSelections()).toEqual([])
    ada.editor!.insertText('!')
    expect(raw.doc.getText('text').toString()).toBe('hello!')
  })

  it('is not created without an awareness, and the peer API is empty then', () => {
    const editor = new TextEditor({ text: 'abc' })
    expect(editor.getPeers()).toEqual([])
    const subscription = editor.onDidAddPeer(() => {})
    subscription.dispose()
    editor.destroy()
  })

  it('checks its options', () => {
    const doc = new Y.Doc()
    const awareness = new Awareness(doc)
    expect(() => new TextEditor({ awareness })).toThrow(new TypeError('options.awareness needs options.doc, the document it belongs to'))
    expect(() => new TextEditor({ doc: new Y.Doc(), awareness })).toThrow(new TypeError('options.awareness must belong to options.doc'))
    expect(() => new TextEditor({ doc, awareness: {} as Awareness })).toThrow(new TypeError('options.awareness must be a y-protocols Awareness'))
    expect(() => new TextEditor({ doc, awareness, user: { name: 'x' } as { name: string; color: string } })).toThrow(
      new TypeError('options.user must be {name: string, color: string}'),
    )
    expect(() => new TextEditor({ doc, awareness, logger: {} as { warn(m: string): void } })).toThrow(new TypeError('options.logger must have a warn(message) method'))
    // Nothing was published by the refused editors.
    expect(awareness.getLocalState()).toEqual({})
    awareness.destroy()
  })

  it('never throws out of the awareness handler: a failing listener is logged and the others still run', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'abc' })
    const bob = network.addClient('bob')
    const peer = bob.editor!.getPeers()[0]!
    const seen: string[] = []
    peer.onDidAddSelection(() => {
      throw new Error('listener failed')
    })
    peer.onDidAddSelection((selection) => seen.push(selection.getBufferRange().toString()))
    expect(() => ada.editor!.setSelectedBufferRanges([[[0, 0], [0, 0]], [[0, 1], [0, 1]], [[0, 2], [0, 3]]])).not.toThrow()
    expect(seen).toEqual(['[(0, 1) - (0, 1)]', '[(0, 2) - (0, 3)]'])
    expect(bob.warnings).toEqual([`Cotext collaboration: error while applying the awareness state of client ${ada.doc.clientID}: Error: listener failed`])
    // The whole state was applied all the same.
    expect(peer.getSelections().map((s) => s.getBufferRange().toString())).toEqual(['[(0, 0) - (0, 0)]', '[(0, 1) - (0, 1)]', '[(0, 2) - (0, 3)]'])
  })
})

describe('a peer whose marker someone destroyed', () => {
  it('drops the destroyed selection and places a new one with the next state', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'abcdef' })
    const bob = network.addClient('bob')
    ada.editor!.setCursorBufferPosition([0, 2])
    const peer = bob.editor!.getPeers()[0]!
    peer.getLastCursor()!.getMarker().destroy()
    expect(peer.getSelections()).toEqual([])
    ada.editor!.moveRight()
    expect(peer.getCursors().map((c) => c.getBufferPosition().toArray())).toEqual([[0, 3]])
    expect(bob.warnings).toEqual([])
  })
})
