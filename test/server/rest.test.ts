import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { signToken } from '../../server/auth.ts'
import { connectSynced, destroyAllClients } from './helpers/clients.ts'
import type { Client } from './helpers/clients.ts'
import { api } from './helpers/api.ts'
import { startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

vi.setConfig({ testTimeout: 120_000, hookTimeout: 30_000 })

const SECRET = 'test-secret-that-is-long-enough-for-hs256!'
let server: ServerProcess

beforeAll(async () => {
  server = await startServer({ env: { AUTH_SECRET: SECRET, MAX_REVERT_RANGES: '40', VERSION_IDLE_MS: '300' } })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

function token(room: string, sub?: string, mode: 'rw' | 'ro' = 'rw'): Promise<string> {
  return signToken(SECRET, { room, mode, ttlSeconds: 600, ...(sub === undefined ? {} : { sub }) })
}

async function join(room: string, sub: string): Promise<Client> {
  return connectSynced(server.wsUrl, room, { token: await token(room, sub) })
}

async function get(room: string, path: string): Promise<Record<string, unknown>> {
  const { status, body } = await api(server.url, `/api/rooms/${room}/${path}`, { token: await token(room, 'reader', 'ro') })
  expect(status).toBe(200)
  return body
}

async function post(room: string, path: string, sub: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  return api(server.url, `/api/rooms/${room}/${path}`, { method: 'POST', token: await token(room, sub), body })
}

/**
 * Waits until every client and the server hold `text`, or, without it, the same text as each other. The
 * target is read afresh on every poll: the server's text read once may still miss updates in flight.
 */
async function converge(room: string, clients: Client[], text?: string): Promise<string> {
  let held = ''
  await waitFor(async () => {
    held = (await get(room, 'text')).text as string
    return (text === undefined || held === text) && clients.every((client) => client.text.toString() === held)
  }, `every client of ${room} and the server to hold ${text === undefined ? 'the same text' : JSON.stringify(text)}`)
  return held
}

describe('GET routes', () => {
  it('answers text, authorship, changes and versions of a room', async () => {
    const alice = await join('read', 'alice')
    alice.text.insert(0, 'hello')
    const bob = await join('read', 'bob')
    await converge('read', [alice, bob], 'hello')
    bob.text.insert(5, ' world')
    await converge('read', [alice, bob], 'hello world')
    expect(await get('read', 'text')).toEqual({ text: 'hello world' })
    expect(await get('read', 'authorship')).toEqual({
      runs: [
        { from: 0, to: 5, author: { id: 'alice', name: 'alice', attested: true } },
        { from: 5, to: 11, author: { id: 'bob', name: 'bob', attested: true } },
      ],
    })
    const changes = (await get('read', 'changes')).changes as Array<Record<string, unknown>>
    expect(changes.map((change) => [(change.author as { id: string }).id, change.inserted, change.deleted])).toEqual([
      ['alice', [{ client: alice.doc.clientID, clock: 0, length: 5 }], []],
      ['bob', [{ client: bob.doc.clientID, clock: 0, length: 6 }], []],
    ])
    const first = changes[0]!.time as number
    expect((await get('read', `changes?by=bob`)).changes).toEqual([changes[1]])
    expect((await get('read', `changes?since=${new Date(Date.now() + 60_000).toISOString()}`)).changes).toEqual([])
    expect(((await get('read', `changes?until=${first - 1}`)).changes as unknown[]).length).toBe(0)
  })

  it('keeps a version on request and after the room is idle, and answers each by id', async () => {
    const alice = await join('versions', 'alice')
    alice.text.insert(0, 'first')
    await converge('versions', [alice], 'first')
    const { status, body } = await post('versions', 'versions', 'alice', { name: 'draft 1' })
    expect(status).toBe(200)
    const id = body.id as string
    alice.text.insert(5, ' second')
    // VERSION_IDLE_MS is 300 here: a version follows once the typing stops.
    await waitFor(async () => ((await get('versions', 'versions')).versions as unknown[]).length === 2, 'the automatic version')
    const versions = (await get('versions', 'versions')).versions as Array<Record<string, unknown>>
    expect(versions[0]).toEqual({ id, time: expect.any(Number), name: 'draft 1', authors: [{ id: 'alice', name: 'alice', attested: true }] })
    expect(versions[1]).toMatchObject({ authors: [{ id: 'alice', name: 'alice', attested: true }] })
    expect(await get('versions', `versions/${id}`)).toEqual({ id, time: versions[0]!.time, name: 'draft 1', text: 'first' })
    expect(await get('versions', `versions/${versions[1]!.id as string}`)).toMatchObject({ text: 'first second' })
  })
})

describe('POST restore and revert', () => {
  it('restores a version as one change by the requester, which can itself be reverted', async () => {
    const alice = await join('restore', 'alice')
    alice.text.insert(0, 'one two three')
    await converge('restore', [alice], 'one two three')
    const { body } = await post('restore', 'versions', 'alice', { name: 'before' })
    alice.text.delete(4, 4)
    alice.text.insert(0, '0 ')
    await converge('restore', [alice], '0 one three')
    const restored = await post('restore', `versions/${body.id as string}/restore`, 'carol')
    expect(restored).toEqual({ status: 200, body: { version: expect.any(String), deleted: 5, inserted: 7, unrevertable: 0 } })
    await converge('restore', [alice], 'one two three')
    // The version taken before the restore holds what was there.
    expect(await get('restore', `versions/${restored.body.version as string}`)).toMatchObject({ text: '0 one three' })
    const reverted = await post('restore', 'revert?by=carol', 'alice')
    expect(reverted.status).toBe(200)
    await converge('restore', [alice], '0 one three')
  })

  it('reverts one user\'s changes: text others inserted inside stays, deletions come back', async () => {
    const alice = await join('revert', 'alice')
    const bob = await join('revert', 'bob')
    alice.text.insert(0, 'ABCDEFG')
    await converge('revert', [alice, bob], 'ABCDEFG')
    bob.text.insert(3, '***')
    await converge('revert', [alice, bob], 'ABC***DEFG')
    expect((await post('revert', 'revert?by=alice', 'carol')).body).toMatchObject({ deleted: 7, inserted: 0 })
    await converge('revert', [alice, bob], '***')
    const carol = await join('revert', 'carol')
    await converge('revert', [alice, bob, carol], '***')
    // Carol's revert was hers: reverting it brings alice's text back around bob's.
    expect((await post('revert', 'revert?by=carol', 'dave')).body).toMatchObject({ deleted: 0, inserted: 7, unrevertable: 0 })
    await converge('revert', [alice, bob, carol], 'ABC***DEFG')
    const changes = (await get('revert', 'changes?by=dave')).changes as Array<{ author: unknown }>
    expect(changes.map((change) => change.author)).toEqual([{ id: 'dave', name: 'dave', attested: true }])
  })

  it('restores and reverts while clients type, and every client converges', async () => {
    const alice = await join('typing', 'alice')
    const bob = await join('typing', 'bob')
    alice.text.insert(0, 'base text. ')
    await converge('typing', [alice, bob], 'base text. ')
    const { body } = await post('typing', 'versions', 'alice', { name: 'base' })
    bob.text.insert(0, 'bob was here. ')
    await converge('typing', [alice, bob])
    let typing = true
    const typed = (async () => {
      let count = 0
      while (typing) {
        alice.text.insert(alice.text.length, 'x')
        count += 1
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      return count
    })()
    expect((await post('typing', 'revert?by=bob', 'carol')).status).toBe(200)
    expect((await post('typing', `versions/${body.id as string}/restore`, 'carol')).status).toBe(200)
    typing = false
    const count = await typed
    const final = await converge('typing', [alice, bob])
    // The restore removed what alice typed before it; what she typed meanwhile stays after the version's text.
    expect(final).toMatch(/^base text\. x*$/)
    expect(final.length - 'base text. '.length).toBeLessThanOrEqual(count)
    expect(final).not.toContain('bob')
  })
})

describe('errors', () => {
  it('answers 401 and 403 as the WebSocket would, and read-only tokens may only GET', async () => {
    const alice = await join('guarded', 'alice')
    alice.text.insert(0, 'x')
    await converge('guarded', [alice], 'x')
    expect(await api(server.url, '/api/rooms/guarded/text')).toEqual({ status: 401, body: { error: 'missing token' } })
    expect(await api(server.url, '/api/rooms/guarded/text', { token: 'not-a-jwt' })).toEqual({ status: 401, body: { error: 'invalid token' } })
    expect(await api(server.url, '/api/rooms/guarded/text', { token: await token('other') })).toEqual({ status: 403, body: { error: 'token is for another room' } })
    expect(await api(server.url, '/api/rooms/guarded/text', { token: await token('guarded', 'x', 'ro'), tokenInQuery: true })).toEqual({ status: 200, body: { text: 'x' } })
    expect(await api(server.url, '/api/rooms/guarded/versions', { method: 'POST', token: await token('guarded', 'x', 'ro'), body: {} })).toEqual({ status: 403, body: { error: 'a read-only token may only GET' } })
  })

  it('answers 400 for bad parameters, 404 for unknown rooms, versions and routes, 405 and 413', async () => {
    const alice = await join('bad', 'alice')
    alice.text.insert(0, 'x')
    await converge('bad', [alice], 'x')
    const ro = await token('bad', 'r', 'ro')
    const rw = await token('bad', 'w')
    expect(await api(server.url, '/api/rooms/bad/changes?since=yesterday', { token: ro })).toEqual({ status: 400, body: { error: 'since: "yesterday" is neither an ISO 8601 time nor epoch milliseconds' } })
    expect(await api(server.url, '/api/rooms/bad/changes?since=20&until=10', { token: ro })).toEqual({ status: 400, body: { error: 'since: must not be after until' } })
    expect(await api(server.url, '/api/rooms/bad/revert', { method: 'POST', token: rw })).toEqual({ status: 400, body: { error: 'by: required, the author id whose changes to revert' } })
    expect(await api(server.url, '/api/rooms/bad/versions', { method: 'POST', token: rw, body: '{"name":' })).toEqual({ status: 400, body: { error: 'the request body is not JSON' } })
    expect(await api(server.url, '/api/rooms/bad/versions', { method: 'POST', token: rw, body: { name: 7 } })).toEqual({ status: 400, body: { error: 'name: must be a string of 1-200 characters' } })
    expect(await api(server.url, '/api/rooms/never-written/text', { token: await token('never-written', 'r', 'ro') })).toEqual({ status: 404, body: { error: 'no room "never-written"' } })
    expect(await api(server.url, '/api/rooms/bad/versions/00000000000001-abc-1', { token: ro })).toEqual({ status: 404, body: { error: 'no version 00000000000001-abc-1' } })
    expect(await api(server.url, '/api/rooms/bad/versions/00000000000001-abc-1/restore', { method: 'POST', token: rw })).toEqual({ status: 404, body: { error: 'no version 00000000000001-abc-1' } })
    expect((await api(server.url, '/api/rooms/bad/nothing', { token: ro })).status).toBe(404)
    expect((await api(server.url, '/api/rooms/bad/text', { method: 'POST', token: rw })).status).toBe(405)
    expect((await api(server.url, '/api/rooms/bad/versions', { method: 'POST', token: rw, body: { name: 'n'.repeat(20_000) } })).status).toBe(413)
    // MAX_REVERT_RANGES is 40 here: 41 separate deletions are too many at once.
    for (let index = 0; index < 41; index++) alice.text.insert(0, 'ab')
    await converge('bad', [alice])
    const mallory = await join('bad', 'mallory')
    await converge('bad', [alice, mallory])
    for (let index = 0; index < 41; index++) mallory.text.delete(index, 1)
    await converge('bad', [alice, mallory])
    const tooLarge = await api(server.url, '/api/rooms/bad/revert?by=mallory', { method: 'POST', token: rw })
    expect(tooLarge).toEqual({ status: 413, body: { error: 'the window holds 41 changed ranges; at most 40 can be reverted at once: narrow it with since and until' } })
  })
})

describe('across a restart and without AUTH_SECRET', () => {
  it('keeps versions and the change log across a restart', async () => {
    const alice = await join('durable', 'alice')
    alice.text.insert(0, 'kept')
    await converge('durable', [alice], 'kept')
    const { body } = await post('durable', 'versions', 'alice', { name: 'v' })
    alice.destroy()
    await server.stop()
    server = await startServer({ dataDir: server.dataDir, env: { AUTH_SECRET: SECRET, MAX_REVERT_RANGES: '40', VERSION_IDLE_MS: '300' } })
    expect(((await get('durable', 'versions')).versions as Array<{ id: string }>).map((version) => version.id)).toContain(body.id)
    expect(await get('durable', `versions/${body.id as string}`)).toMatchObject({ text: 'kept', name: 'v' })
    expect(((await get('durable', 'changes?by=alice')).changes as unknown[]).length).toBe(1)
  })

  it('keeps deleted text revertable across a restart within the revert window, and not beyond it', async () => {
    for (const [windowDays, expected] of [['7', { text: 'abcdef', unrevertable: 0 }], ['0', { text: 'abef', unrevertable: 2 }]] as const) {
      const node = await startServer({ env: { AUTH_SECRET: SECRET, REVERT_WINDOW_DAYS: windowDays } })
      const alice = await connectSynced(node.wsUrl, 'window', { token: await token('window', 'alice') })
      alice.text.insert(0, 'abcdef')
      const bob = await connectSynced(node.wsUrl, 'window', { token: await token('window', 'bob') })
      await waitFor(() => bob.text.toString() === 'abcdef', 'bob to sync')
      bob.text.delete(2, 2)
      await waitFor(async () => (await api(node.url, '/api/rooms/window/text', { token: await token('window', 'r', 'ro') })).body.text === 'abef', 'the deletion on the server')
      alice.destroy()
      bob.destroy()
      await node.stop()
      const again = await startServer({ dataDir: node.dataDir, env: { AUTH_SECRET: SECRET, REVERT_WINDOW_DAYS: windowDays } })
      const reverted = await api(again.url, '/api/rooms/window/revert?by=bob', { method: 'POST', token: await token('window', 'carol') })
      expect(reverted.body).toMatchObject({ unrevertable: expected.unrevertable })
      expect((await api(again.url, '/api/rooms/window/text', { token: await token('window', 'r', 'ro') })).body.text).toBe(expected.text)
      await again.stop()
    }
    // Four server starts: slow on a loaded machine.
  }, 120_000)

  it('marks authorship unattested, by connection, on an open server', async () => {
    const open = await startServer()
    const client = await connectSynced(open.wsUrl, 'open')
    client.text.insert(0, 'anon')
    await waitFor(async () => (await api(open.url, '/api/rooms/open/text')).body.text === 'anon', 'the text on the open server')
    const { body } = await api(open.url, '/api/rooms/open/authorship')
    expect(body).toEqual({ runs: [{ from: 0, to: 4, author: { id: expect.stringMatching(/^connection:[0-9a-f]{8}-1$/), name: 'connection 1', attested: false } }] })
    await open.stop()
  })
})
