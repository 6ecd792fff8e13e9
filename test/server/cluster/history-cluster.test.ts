import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { signToken } from '../../../server/auth.ts'
import { connectSynced, destroyAllClients, openRaw, updateMessage } from '../helpers/clients.ts'
import type { Client } from '../helpers/clients.ts'
import { api } from '../helpers/api.ts'
import { startServer, stopAllServers } from '../helpers/server-process.ts'
import type { ServerProcess } from '../helpers/server-process.ts'
import { startPostgres, startRedis } from '../helpers/services.ts'
import type { Postgres, Redis } from '../helpers/services.ts'
import { waitFor } from '../helpers/wait-for.ts'

// Two server processes, one Redis, one PostgreSQL, all real.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 })

const SECRET = 'cluster-test-secret-long-enough-for-hs256'
let redis: Redis
let postgres: Postgres
let servers: ServerProcess[] = []

function startNode(): Promise<ServerProcess> {
  return startServer({ env: { AUTH_SECRET: SECRET, REDIS_URL: redis.url, DATABASE_URL: postgres.url } })
}

beforeAll(async () => {
  ;[redis, postgres] = await Promise.all([startRedis(), startPostgres()])
  servers = await Promise.all([startNode(), startNode()])
})
afterAll(async () => {
  destroyAllClients()
  await stopAllServers()
  await Promise.all([redis?.remove(), postgres?.remove()])
})

function token(room: string, sub: string, mode: 'rw' | 'ro' = 'rw'): Promise<string> {
  return signToken(SECRET, { room, mode, ttlSeconds: 600, sub })
}

async function join(server: ServerProcess, room: string, sub: string): Promise<Client> {
  return connectSynced(server.wsUrl, room, { token: await token(room, sub) })
}

async function textOn(server: ServerProcess, room: string): Promise<unknown> {
  return (await api(server.url, `/api/rooms/${room}/text`, { token: await token(room, 'reader', 'ro') })).body.text
}

describe('history in cluster mode', () => {
  it('refuses a forger on another process than the victim\'s, with nothing applied anywhere', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const alice = await join(a, 'forge', 'alice')
    alice.text.insert(0, 'hello')
    const watcher = await join(b, 'forge', 'watcher')
    await waitFor(() => watcher.doc.getMap('cotext:authors').get(String(alice.doc.clientID)) !== undefined && watcher.text.toString() === 'hello', 'alice\'s text and binding on the other process')
    const copy = new Y.Doc()
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(alice.doc))
    copy.clientID = alice.doc.clientID
    const before = Y.encodeStateVector(copy)
    copy.getText('text').insert(5, ' EVIL')
    const mallory = await openRaw(`${b.wsUrl}/forge?token=${await token('forge', 'mallory')}`)
    mallory.ws.send(updateMessage(Y.encodeStateAsUpdate(copy, before)))
    expect((await mallory.closed).code).toBe(4403)
    alice.text.insert(5, '!')
    await waitFor(() => watcher.text.toString() === 'hello!', 'alice\'s next keystroke on the other process')
    expect(await textOn(a, 'forge')).toBe('hello!')
    expect(await textOn(b, 'forge')).toBe('hello!')
    expect(b.logs.some((line) => line.msg === 'closing connection: refused an update (attested authorship)' && line.author === 'mallory')).toBe(true)
  })

  it('logs deletions as the deleter\'s, and shares versions, changes and restores between processes', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const alice = await join(a, 'shared', 'alice')
    alice.text.insert(0, 'one two')
    const bob = await join(b, 'shared', 'bob')
    await waitFor(() => bob.text.toString() === 'one two', 'bob to see alice\'s text')
    const created = await api(a.url, '/api/rooms/shared/versions', { method: 'POST', token: await token('shared', 'alice'), body: { name: 'start' } })
    bob.text.delete(0, 4)
    await waitFor(() => alice.text.toString() === 'two', 'alice to see bob\'s deletion')
    // Each process writes its own connections' entries, at most a second behind.
    await waitFor(async () => ((await api(a.url, '/api/rooms/shared/changes?by=bob', { token: await token('shared', 'r', 'ro') })).body.changes as unknown[]).length === 1, 'bob\'s entry, read on the other process', 8000, 100)
    const { body } = await api(a.url, '/api/rooms/shared/changes?by=bob', { token: await token('shared', 'r', 'ro') })
    expect(body.changes).toEqual([expect.objectContaining({ author: { id: 'bob', name: 'bob', attested: true }, inserted: [], deleted: [{ client: alice.doc.clientID, clock: 0, length: 4 }] })])
    const restored = await api(b.url, `/api/rooms/shared/versions/${created.body.id as string}/restore`, { method: 'POST', token: await token('shared', 'carol') })
    expect(restored.status).toBe(200)
    await waitFor(() => alice.text.toString() === 'one two' && bob.text.toString() === 'one two', 'the restore on both processes')
  })
})
