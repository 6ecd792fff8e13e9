import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import * as awarenessProtocol from 'y-protocols/awareness'
import { RoomLink } from '../../../server/cluster/room-link.ts'
import { REMOTE_ORIGIN } from '../../../server/cluster/origin.ts'
import type { StreamEntry } from '../../../server/cluster/stream.ts'

/** Issue 24: other processes' entries of one stream read are applied as one transaction per run of updates. */

function typed(clientID: number, text: string): Uint8Array {
  const doc = new Y.Doc()
  doc.clientID = clientID
  doc.getText('text').insert(0, text)
  return Y.encodeStateAsUpdate(doc)
}

describe('RoomLink.applyAll', () => {
  it('applies a run of updates in one transaction, skips a bad entry, and keeps awareness after the updates before it', () => {
    const doc = new Y.Doc()
    const awareness = new awarenessProtocol.Awareness(doc)
    awareness.setLocalState(null)
    const link = new RoomLink({ name: 'r', doc, awareness }, () => {})
    const transactions: unknown[] = []
    doc.on('afterTransaction', (transaction: Y.Transaction) => transactions.push(transaction.origin))
    const order: string[] = []
    doc.on('update', () => order.push(`update ${doc.getText('text').length}`))
    awareness.on('update', () => order.push(`awareness ${doc.getText('text').length}`))
    const peer = new awarenessProtocol.Awareness(new Y.Doc())
    peer.setLocalState({ cursor: 1 })
    const entries: StreamEntry[] = [
      { id: '1-0', processId: 'a', kind: 'update', data: typed(11, 'ab') },
      { id: '2-0', processId: 'b', kind: 'update', data: new Uint8Array([1, 2, 3, 250]) },
      { id: '3-0', processId: 'a', kind: 'update', data: typed(12, 'cd') },
      { id: '4-0', processId: 'b', kind: 'awareness', data: awarenessProtocol.encodeAwarenessUpdate(peer, [peer.clientID]) },
      { id: '5-0', processId: 'a', kind: 'update', data: typed(13, 'e') },
    ]
    const failed: string[] = []
    link.applyAll(entries, (entry) => failed.push(entry.id))
    expect(failed).toEqual(['2-0'])
    expect(doc.getText('text').length).toBe(5)
    // The first three entries in one transaction, the last update in its own.
    expect(transactions).toEqual([REMOTE_ORIGIN, REMOTE_ORIGIN])
    expect(order).toEqual(['update 4', 'awareness 4', 'update 5'])
    expect(awareness.getStates().get(peer.clientID)).toEqual({ cursor: 1 })
    link.detach()
  })
})
