import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { connectSynced, destroyAllClients } from './helpers/clients.ts'
import { startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

let server: ServerProcess

beforeAll(async () => {
  server = await startServer()
})

afterEach(destroyAllClients)

afterAll(stopAllServers)

describe('two stock y-websocket clients in one room', () => {
  it('converge on concurrent edits', async () => {
    const a = await connectSynced(server.wsUrl, 'converge')
    const b = await connectSynced(server.wsUrl, 'converge')
    a.text.insert(0, 'hello')
    await waitFor(() => b.text.toString() === 'hello', 'b to receive a\'s insert')
    a.text.insert(5, ' world')
    b.text.insert(0, '> ')
    await waitFor(() => a.text.toString() === b.text.toString() && a.text.length === 13, 'both to converge')
    expect(a.text.toString()).toBe('> hello world')
    expect(b.text.toString()).toBe('> hello world')
  })

  it('give a client that joins later the whole document on its first sync', async () => {
    const a = await connectSynced(server.wsUrl, 'late-joiner')
    a.text.insert(0, 'written before anyone else came')
    a.doc.getMap('meta').set('title', 'notes')
    const b = await connectSynced(server.wsUrl, 'late-joiner')
    await waitFor(() => b.text.length === a.text.length, 'b to sync')
    expect(b.text.toString()).toBe('written before anyone else came')
    expect(b.doc.getMap('meta').toJSON()).toEqual({ title: 'notes' })
  })

  it('keep rooms apart', async () => {
    const a = await connectSynced(server.wsUrl, 'room-one')
    const b = await connectSynced(server.wsUrl, 'room-two')
    const a2 = await connectSynced(server.wsUrl, 'room-one')
    a.text.insert(0, 'only in room one')
    b.text.insert(0, 'only in room two')
    await waitFor(() => a2.text.length > 0, 'a2 to receive room one\'s text')
    expect(a2.text.toString()).toBe('only in room one')
    expect(Y.encodeStateVector(a2.doc)).toEqual(Y.encodeStateVector(a.doc))
    expect(b.text.toString()).toBe('only in room two')
  })

  it('pass awareness both ways and remove a client\'s state when it leaves', async () => {
    const a = await connectSynced(server.wsUrl, 'awareness', { user: 'Ada' })
    const b = await connectSynced(server.wsUrl, 'awareness', { user: 'Bob' })
    await waitFor(() => a.awareness.getStates().has(b.doc.clientID), 'a to see b')
    await waitFor(() => b.awareness.getStates().has(a.doc.clientID), 'b to see a')
    expect(a.awareness.getStates().get(b.doc.clientID)).toEqual({ user: { name: 'Bob' } })
    expect(b.awareness.getStates().get(a.doc.clientID)).toEqual({ user: { name: 'Ada' } })

    b.awareness.setLocalStateField('cursor', { index: 3 })
    await waitFor(() => a.awareness.getStates().get(b.doc.clientID)?.cursor !== undefined, 'a to see b\'s cursor')
    expect(a.awareness.getStates().get(b.doc.clientID)).toEqual({ user: { name: 'Bob' }, cursor: { index: 3 } })

    const bId = b.doc.clientID
    b.destroy()
    await waitFor(() => !a.awareness.getStates().has(bId), 'b\'s state to disappear at a')
    expect([...a.awareness.getStates().keys()]).toEqual([a.doc.clientID])
  })

  it('show the states of clients already present to one that joins', async () => {
    const a = await connectSynced(server.wsUrl, 'awareness-late', { user: 'Ada' })
    const b = await connectSynced(server.wsUrl, 'awareness-late', { user: 'Bob' })
    await waitFor(() => b.awareness.getStates().has(a.doc.clientID), 'b to see a')
    expect(b.awareness.getStates().get(a.doc.clientID)).toEqual({ user: { name: 'Ada' } })
  })
})
