import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { signToken } from '../../server/auth.ts'
import { connectSynced, destroyAllClients, openRaw, roundTrip, updateMessage } from './helpers/clients.ts'
import type { Client } from './helpers/clients.ts'
import { api } from './helpers/api.ts'
import { startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { sleep, waitFor } from './helpers/wait-for.ts'

vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

const SECRET = 'test-secret-that-is-long-enough-for-hs256!'
let server: ServerProcess

beforeAll(async () => {
  server = await startServer({ env: { AUTH_SECRET: SECRET } })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

function token(room: string, sub: string | undefined, mode: 'rw' | 'ro' = 'rw', name?: string): Promise<string> {
  return signToken(SECRET, { room, mode, ttlSeconds: 600, ...(sub === undefined ? {} : { sub }), ...(name === undefined ? {} : { name }) })
}

/** An update that continues `client`'s document under its own client id: inserts `text` at `index`. */
function forgedUpdate(victim: Client, index: number, text: string): Uint8Array {
  const copy = new Y.Doc()
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(victim.doc))
  // After the state: Yjs gives a document a new client id when a remote update writes under its own.
  copy.clientID = victim.doc.clientID
  const before = Y.encodeStateVector(copy)
  copy.getText('text').insert(index, text)
  const update = Y.encodeStateAsUpdate(copy, before)
  copy.destroy()
  return update
}

async function aliceWrote(room: string, text: string): Promise<Client> {
  const alice = await connectSynced(server.wsUrl, room, { token: await token(room, 'alice', 'rw', 'Alice') })
  alice.text.insert(0, text)
  const reader = await connectSynced(server.wsUrl, room, { token: await token(room, 'reader', 'ro') })
  await waitFor(() => reader.text.toString() === text, 'the reader to see alice\'s text')
  await waitFor(() => reader.doc.getMap('cotext:authors').has(String(alice.doc.clientID)), 'alice\'s binding to reach the reader')
  return alice
}

describe('attested authorship', () => {
  it('binds the client id to the subject of its first writer, in a map every stock client reads', async () => {
    const alice = await aliceWrote('bind', 'hello')
    const reader = await connectSynced(server.wsUrl, 'bind', { token: await token('bind', 'reader', 'ro') })
    expect(reader.doc.getMap('cotext:authors').get(String(alice.doc.clientID))).toEqual({ id: 'alice', name: 'Alice', attested: true })
    const { body } = await api(server.url, '/api/rooms/bind/authorship', { token: await token('bind', 'reader', 'ro') })
    expect(body).toEqual({ runs: [{ from: 0, to: 5, author: { id: 'alice', name: 'Alice', attested: true } }] })
  })

  it('refuses a forger writing under another user\'s client id: 4403, nothing applied, stored or relayed, logged', async () => {
    const alice = await aliceWrote('forge', 'hello')
    const watcher = await connectSynced(server.wsUrl, 'forge', { token: await token('forge', 'watcher', 'ro') })
    const relayed: Uint8Array[] = []
    watcher.doc.on('update', (update: Uint8Array) => relayed.push(update))
    const mallory = await openRaw(`${server.wsUrl}/forge?token=${await token('forge', 'mallory')}`)
    mallory.ws.send(updateMessage(forgedUpdate(alice, 5, ' EVIL')))
    expect(await mallory.closed).toEqual({ code: 4403, reason: 'update refused: not your client id' })
    // Alice's own next keystroke goes through, so everything before it was handled.
    alice.text.insert(5, '!')
    await waitFor(() => watcher.text.toString() === 'hello!', 'alice\'s next keystroke')
    expect(relayed.length).toBe(1)
    expect((await api(server.url, '/api/rooms/forge/text', { token: await token('forge', 'x', 'ro') })).body).toEqual({ text: 'hello!' })
    const refusal = server.logs.find((line) => line.msg === 'closing connection: refused an update (attested authorship)')
    expect(refusal).toMatchObject({ room: 'forge', code: 4403, author: 'mallory', attested: true, reason: `inserts under client id ${alice.doc.clientID}, which belongs to another user` })
    alice.destroy()
    const again = await connectSynced(server.wsUrl, 'forge', { token: await token('forge', 'x', 'ro') })
    expect(again.text.toString()).toBe('hello!')
  })

  it('refuses a token without a subject writing under a bound client id', async () => {
    const alice = await aliceWrote('nosub', 'abc')
    const anonymous = await openRaw(`${server.wsUrl}/nosub?token=${await token('nosub', undefined)}`)
    anonymous.ws.send(updateMessage(forgedUpdate(alice, 0, 'X'), 'sync-step-2'))
    expect((await anonymous.closed).code).toBe(4403)
  })

  it('lets anyone delete anyone\'s text, and logs the deletion as the deleter\'s', async () => {
    const alice = await aliceWrote('delete', 'hello world')
    const bob = await connectSynced(server.wsUrl, 'delete', { token: await token('delete', 'bob') })
    await waitFor(() => bob.text.toString() === 'hello world', 'bob to sync')
    bob.text.delete(0, 6)
    await waitFor(() => alice.text.toString() === 'world', 'alice to see the deletion')
    const { body } = await api(server.url, '/api/rooms/delete/changes?by=bob', { token: await token('delete', 'x', 'ro') })
    expect(body.changes).toEqual([
      expect.objectContaining({ author: { id: 'bob', name: 'bob', attested: true }, inserted: [], deleted: [{ client: alice.doc.clientID, clock: 0, length: 6 }] }),
    ])
    expect(bob.provider.wsconnected).toBe(true)
  })

  it('refuses any client update that writes to or deletes from the authors map', async () => {
    const alice = await aliceWrote('map', 'x')
    const mallory = await connectSynced(server.wsUrl, 'map', { token: await token('map', 'mallory') })
    await waitFor(() => mallory.doc.getMap('cotext:authors').has(String(alice.doc.clientID)), 'mallory to see the map')
    mallory.doc.getMap('cotext:authors').set(String(alice.doc.clientID), { id: 'mallory', name: 'mallory', attested: true })
    await waitFor(() => mallory.closes.some((close) => close.code === 4403), 'mallory to be refused')
    const eve = await connectSynced(server.wsUrl, 'map', { token: await token('map', 'eve') })
    await waitFor(() => eve.doc.getMap('cotext:authors').has(String(alice.doc.clientID)), 'eve to see the map')
    eve.doc.getMap('cotext:authors').delete(String(alice.doc.clientID))
    await waitFor(() => eve.closes.some((close) => close.code === 4403), 'eve to be refused')
    const reader = await connectSynced(server.wsUrl, 'map', { token: await token('map', 'x', 'ro') })
    expect(reader.doc.getMap('cotext:authors').get(String(alice.doc.clientID))).toEqual({ id: 'alice', name: 'Alice', attested: true })
  })

  it('never binds a read-only connection', async () => {
    await aliceWrote('readonly', 'a')
    const ro = await openRaw(`${server.wsUrl}/readonly?token=${await token('readonly', 'olivia', 'ro')}`)
    ro.ws.send(updateMessage(Y.encodeStateAsUpdate(newDocWith(424242, 'ro text'))))
    await roundTrip(ro.ws)
    await sleep(50)
    const reader = await connectSynced(server.wsUrl, 'readonly', { token: await token('readonly', 'x', 'ro') })
    expect(reader.doc.getMap('cotext:authors').has('424242')).toBe(false)
    expect(reader.text.toString()).toBe('a')
  })
})

function newDocWith(clientID: number, text: string): Y.Doc {
  const doc = new Y.Doc()
  doc.clientID = clientID
  doc.getText('text').insert(0, text)
  return doc
}
