import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { WebSocket } from 'ws'
import { signToken } from '../../server/auth.ts'
import { encodeAwarenessEntries } from '../../server/protocol.ts'
import { Random } from '../helpers/random.ts'
import { awarenessMessage, connectSynced, destroyAllClients, openRaw, roundTrip } from './helpers/clients.ts'
import type { Client, RawSocket } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

/** Issue 10 item 6: awareness states have a size cap, and a client id belongs to whoever used it first. */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const SECRET = 'presence-test-secret-long-enough-for-hs256'
const MAX_AWARENESS_BYTES = 1024
let server: ServerProcess

beforeAll(async () => {
  // Each publication relayed on its own (no batching window: fanout.test.ts covers batching), so each one shows.
  server = await startServer({ env: { AUTH_SECRET: SECRET, MAX_AWARENESS_BYTES: String(MAX_AWARENESS_BYTES), FANOUT_WINDOW_MS: '0' } })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

function token(room: string, mode: 'rw' | 'ro', sub?: string): Promise<string> {
  return signToken(SECRET, { room, mode, ttlSeconds: 600, ...(sub === undefined ? {} : { sub }) })
}

function publish(raw: RawSocket, clientId: number, clock: number, state: unknown): void {
  raw.ws.send(awarenessMessage(encodeAwarenessEntries([{ clientId, clock, state: JSON.stringify(state) }])))
}

/** Waits until the server has handled everything `senders` sent and `watcher` has what it relayed. */
async function settle(watcher: Client, ...senders: RawSocket[]): Promise<void> {
  for (const sender of senders) if (sender.ws.readyState === sender.ws.OPEN) await roundTrip(sender.ws)
  await roundTrip(watcher.provider.ws as unknown as WebSocket)
}

/** Every state `watcher` has seen for `clientId`, in order (null: removed). */
function history(watcher: Client, clientId: number): unknown[] {
  const seen: unknown[] = []
  watcher.awareness.on('change', ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }) => {
    if (added.includes(clientId) || updated.includes(clientId)) seen.push(watcher.awareness.getStates().get(clientId))
    if (removed.includes(clientId)) seen.push(null)
  })
  return seen
}

describe('the awareness size cap', () => {
  it('drops states over MAX_AWARENESS_BYTES, relays smaller ones, and logs once per connection', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 64)
    console.log(`awareness size: seed ${seed}`)
    const random = new Random(seed)
    const room = 'big-presence'
    const watcher = await connectSynced(server.wsUrl, room, { token: await token(room, 'ro', 'watcher') })
    const seen = history(watcher, 700)
    const raw = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'ro', 'big')}`)
    const lines = server.logs.length
    const droppedBefore = await metric(server, 'cotext_messages_dropped_total{reason="awareness_too_large"}')
    const sizes = Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? MAX_AWARENESS_BYTES + 1 + random.int(10_000) : random.int(MAX_AWARENESS_BYTES - 20)))
    sizes.forEach((size, i) => publish(raw, 700, i + 1, { pad: 'x'.repeat(size) }))
    await settle(watcher, raw)
    // Each state is {"pad":"..."}: 10 bytes around the padding.
    const relayed = sizes.map((size, i) => ({ size, clock: i + 1 })).filter(({ size }) => size + 10 <= MAX_AWARENESS_BYTES)
    expect(seen.map((state) => ((state as { pad: string }).pad.length))).toEqual(relayed.map(({ size }) => size))
    expect(await metric(server, 'cotext_messages_dropped_total{reason="awareness_too_large"}')).toBe(droppedBefore + 3)
    const warnings = server.logs.slice(lines).filter((line) => String(line.msg).startsWith('dropped an awareness state over MAX_AWARENESS_BYTES'))
    expect(warnings.length).toBe(1)
    expect(raw.ws.readyState).toBe(raw.ws.OPEN)
  })
})

describe('who owns a client id', () => {
  it('a subject keeps its id across reconnects; an impostor cannot take it, even while the subject is away', async () => {
    const room = 'owned-ids'
    const watcher = await connectSynced(server.wsUrl, room, { token: await token(room, 'ro', 'watcher') })
    const seen = history(watcher, 500)
    const foreignBefore = await metric(server, 'cotext_messages_dropped_total{reason="foreign_awareness"}')

    const alice = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'rw', 'alice')}`)
    publish(alice, 500, 1, { user: 'alice' })
    await settle(watcher, alice)
    alice.ws.close()
    await alice.closed
    await waitFor(() => seen.length === 2, 'alice\'s state to be removed')

    // While alice is away: a read-only impostor with a subject, and one with no subject at all.
    const mallory = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'ro', 'mallory')}`)
    const anonymous = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'ro')}`)
    publish(mallory, 500, 10, { user: 'mallory' })
    publish(anonymous, 500, 11, { user: 'anonymous' })
    await settle(watcher, mallory, anonymous)

    // Alice comes back under her id, and is seen; the impostors still are not.
    const back = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'rw', 'alice')}`)
    publish(back, 500, 3, { user: 'alice', back: true })
    publish(mallory, 500, 20, { user: 'mallory' })
    await settle(watcher, back, mallory)
    expect(seen).toEqual([{ user: 'alice' }, null, { user: 'alice', back: true }])
    // The stock watcher echoes what it receives too, so count the impostors' drops in the log.
    const malloryConn = server.logs.find((line) => line.msg === 'connection opened' && line.subject === 'mallory')!.conn
    const drops = server.logs.filter((line) => line.msg === 'dropped awareness published for another client' && line.conn === malloryConn)
    expect(drops.length).toBe(2)
    expect(await metric(server, 'cotext_messages_dropped_total{reason="foreign_awareness"}')).toBeGreaterThanOrEqual(foreignBefore + 3)
    // The impostors keep their own ids.
    publish(mallory, 501, 1, { user: 'mallory' })
    await settle(watcher, mallory)
    expect(watcher.awareness.getStates().get(501)).toEqual({ user: 'mallory' })
  })

  it('a user\'s old connection closing after the new one took the id leaves the user\'s state in place', async () => {
    const room = 'reconnected-ids'
    const watcher = await connectSynced(server.wsUrl, room, { token: await token(room, 'ro', 'watcher') })
    const seen = history(watcher, 800)
    const old = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'rw', 'bob')}`)
    publish(old, 800, 1, { user: 'bob' })
    await settle(watcher, old)
    // Bob reconnects before the server has noticed that his old socket is gone.
    const fresh = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'rw', 'bob')}`)
    publish(fresh, 800, 2, { user: 'bob', fresh: true })
    await settle(watcher, fresh)
    old.ws.close()
    await old.closed
    const oldConn = server.logs.find((line) => line.msg === 'connection opened' && line.subject === 'bob')!.conn
    await waitFor(() => server.logs.some((line) => line.msg === 'connection closed' && line.conn === oldConn), 'the old connection to leave')
    await settle(watcher, fresh)
    expect(seen).toEqual([{ user: 'bob' }, { user: 'bob', fresh: true }])
    expect(watcher.awareness.getStates().get(800)).toEqual({ user: 'bob', fresh: true })
    fresh.ws.close()
    await waitFor(() => seen.length === 3, 'bob\'s state to go with his last connection')
    expect(seen[2]).toBe(null)
  })

  it('without a subject, an id is its connection\'s until that connection closes', async () => {
    const room = 'connection-ids'
    const watcher = await connectSynced(server.wsUrl, room, { token: await token(room, 'ro', 'watcher') })
    const seen = history(watcher, 600)
    const first = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'rw')}`)
    const second = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'rw')}`)
    publish(first, 600, 1, { who: 'first' })
    await settle(watcher, first)
    publish(second, 600, 2, { who: 'second' })
    await settle(watcher, second)
    expect(seen).toEqual([{ who: 'first' }])
    first.ws.close()
    await first.closed
    await waitFor(() => seen.length === 2, 'the first connection\'s state to be removed')
    // second spoke for no id yet (its only entry was refused), so it may take the freed one.
    publish(second, 600, 5, { who: 'second' })
    await settle(watcher, second)
    expect(seen).toEqual([{ who: 'first' }, null, { who: 'second' }])
  })
})
