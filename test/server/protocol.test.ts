import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Awareness, encodeAwarenessUpdate } from 'y-protocols/awareness'
import {
  ProtocolError,
  decodeAwarenessEntries,
  decodeClientMessage,
  encodeAwarenessEntries,
  encodeSyncStep1,
  encodeSyncStep2,
  encodeUpdate,
} from '../../server/protocol.ts'
import { awarenessMessage, updateMessage } from './helpers/clients.ts'

describe('decodeClientMessage', () => {
  it('reads the messages the stock client sends', () => {
    const doc = new Y.Doc()
    doc.getText('text').insert(0, 'hi')
    const update = Y.encodeStateAsUpdate(doc)
    const stateVector = Y.encodeStateVector(doc)
    expect(decodeClientMessage(encodeSyncStep1(doc))).toEqual({ type: 'sync-step-1', stateVector })
    expect(decodeClientMessage(updateMessage(update, 'sync-step-2'))).toEqual({ type: 'sync-step-2', update })
    expect(decodeClientMessage(encodeUpdate(update))).toEqual({ type: 'update', update })
    expect(decodeClientMessage(new Uint8Array([3]))).toEqual({ type: 'query-awareness' })
    const awareness = new Awareness(doc)
    const awarenessUpdate = encodeAwarenessUpdate(awareness, [doc.clientID])
    expect(decodeClientMessage(awarenessMessage(awarenessUpdate))).toEqual({ type: 'awareness', update: awarenessUpdate })
    awareness.destroy()
  })

  it('refuses what is not one whole message', () => {
    const cases: Array<[number[], string]> = [
      [[], 'truncated frame (Unexpected end of array)'],
      [[0x80], 'truncated frame (Unexpected end of array)'],
      [[2, 0], 'unknown message type 2'],
      [[0, 3, 0], 'unknown sync message type 3'],
      [[0, 2, 3, 1], 'payload length runs past the end of the frame'],
      [[0, 2, 1, 0, 7, 7], '2 trailing bytes after the message'],
      [[3, 0], '1 trailing bytes after the message'],
    ]
    for (const [bytes, message] of cases) expect(() => decodeClientMessage(new Uint8Array(bytes))).toThrow(new ProtocolError(message))
  })
})

describe('encodeSyncStep2', () => {
  it('answers a state vector with exactly what it lacks', () => {
    const doc = new Y.Doc()
    doc.getText('text').insert(0, 'abc')
    const peer = new Y.Doc()
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc))
    doc.getText('text').insert(3, 'def')
    const message = decodeClientMessage(encodeSyncStep2(doc, Y.encodeStateVector(peer)))
    expect(message.type).toBe('sync-step-2')
    Y.applyUpdate(peer, (message as { update: Uint8Array }).update)
    expect(peer.getText('text').toString()).toBe('abcdef')
  })
})

describe('awareness entries', () => {
  it('round-trip through y-protocols\' encoding', () => {
    const doc = new Y.Doc()
    doc.clientID = 42
    const awareness = new Awareness(doc)
    awareness.setLocalState({ user: { name: 'Ada' } })
    const update = encodeAwarenessUpdate(awareness, [42])
    const entries = decodeAwarenessEntries(update)
    expect(entries).toEqual([{ clientId: 42, clock: 1, state: '{"user":{"name":"Ada"}}' }])
    expect(encodeAwarenessEntries(entries)).toEqual(update)
    awareness.destroy()
  })

  it('refuse malformed updates', () => {
    const valid = encodeAwarenessEntries([{ clientId: 1, clock: 1, state: 'null' }])
    expect(() => decodeAwarenessEntries(new Uint8Array([200, 1]))).toThrow(new ProtocolError('awareness update claims 200 entries'))
    expect(() => decodeAwarenessEntries(valid.subarray(0, valid.length - 1))).toThrow(ProtocolError)
    expect(() => decodeAwarenessEntries(new Uint8Array([...valid, 0]))).toThrow(new ProtocolError('trailing bytes after the awareness update'))
    expect(() => decodeAwarenessEntries(encodeAwarenessEntries([{ clientId: 1, clock: 1, state: '{' }]))).toThrow(/^malformed awareness update/)
  })
})
