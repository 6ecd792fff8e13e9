import { afterEach, describe, expect, it } from 'vitest'
import { Network } from './network.ts'
import { collect } from '../helpers/gc.ts'

let network: Network
afterEach(() => network?.destroy())

describe("a peer's Selection objects", () => {
  it('are made only when asked for, and are the same objects while held', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'abcdef' })
    const bob = network.addClient('bob')
    ada.editor!.setCursorBufferPosition([0, 2])
    const peer = bob.editor!.getPeers()[0]!
    // Bob's own selection only: the peer's position lives in the collaboration's index.
    expect(bob.editor!.markerLayer.getMarkerCount()).toBe(1)
    bob.editor!.setCursorBufferPosition([0, 0])
    bob.editor!.insertText('XY')
    const [selection] = peer.getSelections()
    expect(selection!.getBufferRange().toString()).toBe('[(0, 4) - (0, 4)]')
    expect(bob.editor!.markerLayer.getMarkerCount()).toBe(2)
    expect(peer.getSelections()[0]).toBe(selection)
    expect(peer.getLastCursor()).toBe(selection!.cursor)
  })

  it('are let go when nobody holds them, and made again at the current place', async () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'abcdef' })
    const bob = network.addClient('bob')
    ada.editor!.setCursorBufferPosition([0, 3])
    const peer = bob.editor!.getPeers()[0]!
    const ref = new WeakRef(peer.getSelections()[0]!)
    await collect()
    expect(ref.deref()).toBe(undefined)
    expect(bob.editor!.markerLayer.getMarkerCount()).toBe(1)
    bob.editor!.setCursorBufferPosition([0, 0])
    bob.editor!.insertText('-')
    expect(peer.getCursors().map((cursor) => cursor.getBufferPosition().toArray())).toEqual([[0, 4]])
  })

  it('are kept while someone listens, and report every move', async () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'abcdef' })
    const bob = network.addClient('bob')
    ada.editor!.setCursorBufferPosition([0, 3])
    const peer = bob.editor!.getPeers()[0]!
    const events: string[] = []
    peer.getCursors()[0]!.onDidChangePosition((event) => events.push(`${event.newBufferPosition.toString()} ${event.textChanged}`))
    let destroyed = 0
    peer.getSelections()[0]!.onDidDestroy(() => destroyed++)
    await collect()
    bob.editor!.setCursorBufferPosition([0, 0])
    bob.editor!.insertText('-')
    ada.editor!.moveRight()
    expect(events).toEqual(['(0, 4) true', '(0, 5) false'])
    ada.editor!.destroy()
    expect(destroyed).toBe(1)
  })
})
