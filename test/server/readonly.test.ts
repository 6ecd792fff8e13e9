import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { WebSocket } from 'ws'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as Y from 'yjs'
import { signToken } from '../../server/auth.ts'
import { decodeAwarenessEntries, encodeAwarenessEntries } from '../../server/protocol.ts'
import {
  awarenessMessage,
  connectSynced,
  destroyAllClients,
  insertUpdate,
  openRaw,
  roundTrip,
  textOf,
  updateMessage,
} from './helpers/clients.ts'
import type { Client } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

const SECRET = 'read-only-test-secret-long-enough-for-hs256'
let server: ServerProcess

beforeAll(async () => {
  server = await startServer({ env: { AUTH_SECRET: SECRET } })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

function token(room: string, mode: 'rw' | 'ro'): Promise<string> {
  return signToken(SECRET, { room, mode, ttlSeconds: 600 })
}

function socketOf(client: Client): WebSocket {
  return client.provider.ws as unknown as WebSocket
}

describe('a read-only connection', () => {
  it('receives the document and everyone\'s updates', async () => {
    const writer = await connectSynced(server.wsUrl, 'ro-reads', { token: await token('ro-reads', 'rw') })
    writer.text.insert(0, 'before')
    const reader = await connectSynced(server.wsUrl, 'ro-reads', { token: await token('ro-reads', 'ro') })
    await waitFor(() => reader.text.toString() === 'before', 'the reader to sync')
    writer.text.insert(6, ' and after')
    await waitFor(() => reader.text.toString() === 'before and after', 'the reader to receive the update')
    expect(reader.closes).toEqual([])
  })

  it('has its updates and sync step 2 dropped: never applied, never relayed', async () => {
    const room = 'ro-writes'
    const writer = await connectSynced(server.wsUrl, room, { token: await token(room, 'rw') })
    writer.text.insert(0, 'kept')
    const reader = await connectSynced(server.wsUrl, room, { token: await token(room, 'ro') })
    await waitFor(() => reader.text.toString() === 'kept', 'the reader to sync')
    // The reader answered the server's sync step 1 with a sync step 2: count from after it.
    await roundTrip(socketOf(reader))
    const droppedBefore = await metric(server, 'cotext_messages_dropped_total{reason="read_only"}')

    // Through the stock client: a local edit becomes an update message.
    reader.text.insert(0, 'X')
    // Below it: an explicit update and an unsolicited sync step 2.
    const raw = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'ro')}`)
    raw.ws.send(updateMessage(insertUpdate('Y')))
    raw.ws.send(updateMessage(insertUpdate('Z'), 'sync-step-2'))

    // Once each socket's round trip is back, its earlier frames have been handled, and the
    // writer's socket has received everything the server relayed before.
    expect(textOf(await roundTrip(socketOf(reader)))).toBe('kept')
    expect(textOf(await roundTrip(raw.ws))).toBe('kept')
    expect(textOf(await roundTrip(socketOf(writer)))).toBe('kept')
    expect(writer.text.toString()).toBe('kept')
    expect(await metric(server, 'cotext_messages_dropped_total{reason="read_only"}')).toBe(droppedBefore + 3)
    expect(raw.ws.readyState).toBe(raw.ws.OPEN)
    expect(reader.closes).toEqual([])
  })

  it('publishes its own awareness and sees everyone else\'s', async () => {
    const room = 'ro-awareness'
    const writer = await connectSynced(server.wsUrl, room, { token: await token(room, 'rw'), user: 'Writer' })
    const reader = await connectSynced(server.wsUrl, room, { token: await token(room, 'ro'), user: 'Reader' })
    await waitFor(() => writer.awareness.getStates().has(reader.doc.clientID), 'the writer to see the reader')
    await waitFor(() => reader.awareness.getStates().has(writer.doc.clientID), 'the reader to see the writer')
    reader.awareness.setLocalStateField('cursor', { index: 2 })
    await waitFor(() => writer.awareness.getStates().get(reader.doc.clientID)?.cursor !== undefined, 'the reader\'s cursor to show')
    expect(writer.awareness.getStates().get(reader.doc.clientID)).toEqual({ user: { name: 'Reader' }, cursor: { index: 2 } })
  })
})

describe('awareness from any connection', () => {
  it('is applied only for the connection\'s own client id', async () => {
    const room = 'own-awareness'
    const url = `${server.wsUrl}/${room}?token=${await token(room, 'rw')}`
    // Raw sockets on both ends: a stock client re-sends every awareness change it receives,
    // which the server also drops and would blur the count.
    const observer = await openRaw(url)
    const attacker = await openRaw(url)
    const state = (name: string): string => JSON.stringify({ user: { name } })
    observer.ws.send(awarenessMessage(encodeAwarenessEntries([{ clientId: 5005, clock: 1, state: state('Observer') }])))
    await roundTrip(observer.ws)
    const foreignBefore = await metric(server, 'cotext_messages_dropped_total{reason="foreign_awareness"}')
    observer.received.length = 0

    // A removal claims no id; the first state does: 1001 is its own, 2002 someone else's.
    attacker.ws.send(awarenessMessage(encodeAwarenessEntries([
      { clientId: 3003, clock: 4, state: 'null' },
      { clientId: 1001, clock: 1, state: state('Attacker') },
      { clientId: 2002, clock: 1, state: state('Impostor') },
    ])))
    // 5005 is held by the observer's connection.
    attacker.ws.send(awarenessMessage(encodeAwarenessEntries([{ clientId: 5005, clock: 99, state: state('Hijacked') }])))
    await roundTrip(attacker.ws)
    await roundTrip(observer.ws)

    const relayed = observer.received.filter((message) => message[0] === 1).map((message) => decodeAwarenessEntries(message.subarray(2)))
    expect(relayed).toEqual([[{ clientId: 1001, clock: 1, state: state('Attacker') }]])
    expect(await metric(server, 'cotext_messages_dropped_total{reason="foreign_awareness"}')).toBe(foreignBefore + 3)

    // Leaving removes the state it published.
    observer.received.length = 0
    attacker.ws.close()
    await waitFor(() => observer.received.length === 1, 'the removal to be relayed')
    expect(decodeAwarenessEntries(observer.received[0]!.subarray(2))).toEqual([{ clientId: 1001, clock: 1, state: 'null' }])
    observer.ws.close()
  })

  it('lets a stock client re-publish and clear its own state', async () => {
    const room = 'own-awareness-2'
    const observer = await connectSynced(server.wsUrl, room, { token: await token(room, 'rw') })
    const peerDoc = new Y.Doc()
    const peerAwareness = new awarenessProtocol.Awareness(peerDoc)
    peerAwareness.setLocalState({ n: 1 })
    const raw = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'ro')}`)
    raw.ws.send(awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(peerAwareness, [peerDoc.clientID])))
    peerAwareness.setLocalState({ n: 2 })
    raw.ws.send(awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(peerAwareness, [peerDoc.clientID])))
    await waitFor(() => observer.awareness.getStates().get(peerDoc.clientID)?.n === 2, 'the second state to arrive')
    peerAwareness.setLocalState(null)
    raw.ws.send(awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(peerAwareness, [peerDoc.clientID])))
    await waitFor(() => !observer.awareness.getStates().has(peerDoc.clientID), 'the state to be cleared')
    expect(raw.ws.readyState).toBe(raw.ws.OPEN)
    peerAwareness.destroy()
    raw.ws.close()
  })
})
