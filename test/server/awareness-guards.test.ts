import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { WebSocket } from 'ws'
import { signToken } from '../../server/auth.ts'
import { encodeAwarenessEntries } from '../../server/protocol.ts'
import { awarenessMessage, connectClient, connectSynced, destroyAllClients, openRaw, roundTrip } from './helpers/clients.ts'
import type { Client, RawSocket } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

/**
 * Issue 19 items 6 and 7: a presence identity cannot be taken over by a connection that never
 * wrote as it, and one connection's awareness updates are rate-limited (coalesced, never lost).
 */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const SECRET = 'awareness-guards-test-secret-long-enough'
let server: ServerProcess

beforeAll(async () => {
  server = await startServer({ env: { AUTH_SECRET: SECRET } })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

/** A token without `sub`, as the attack used. */
function token(room: string, mode: 'rw' | 'ro'): Promise<string> {
  return signToken(SECRET, { room, mode, ttlSeconds: 600 })
}

function publish(raw: RawSocket, clientId: number, clock: number, state: unknown): void {
  raw.ws.send(awarenessMessage(encodeAwarenessEntries([{ clientId, clock, state: JSON.stringify(state) }])))
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

describe('a presence identity', () => {
  it('goes back to the connection that writes as it, from a read-only one that took it while the writer was away', async () => {
    const room = 'takeover'
    const writer = await connectSynced(server.wsUrl, room, { token: await token(room, 'rw'), user: 'writer' })
    const id = writer.doc.clientID
    const watcher = await connectSynced(server.wsUrl, room, { token: await token(room, 'ro') })
    writer.text.insert(0, 'hello')
    await waitFor(() => watcher.text.toString() === 'hello' && watcher.awareness.getStates().has(id), 'the watcher to see the writer')

    // The writer drops off briefly; a read-only connection without a subject publishes under its id.
    writer.provider.disconnect()
    await waitFor(() => !watcher.awareness.getStates().has(id), 'the writer\'s state to go')
    const attacker = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'ro')}`)
    publish(attacker, id, 1000, { user: { name: 'attacker' } })
    await waitFor(() => (watcher.awareness.getStates().get(id) as { user?: { name: string } } | undefined)?.user?.name === 'attacker', 'the attacker to hold the id')

    // The writer comes back and writes: the id is its own again, with its own state.
    const lines = server.logs.length
    writer.provider.connect()
    await waitFor(() => writer.provider.synced, 'the writer to reconnect')
    writer.text.insert(5, ' again')
    await waitFor(() => watcher.text.toString() === 'hello again', 'the edit to arrive')
    await waitFor(() => (watcher.awareness.getStates().get(id) as { user?: { name: string } } | undefined)?.user?.name === 'writer', 'the writer\'s state under its id')
    expect(writer.awareness.getLocalState()).toEqual({ user: { name: 'writer' } })
    const line = server.logs.slice(lines).find((entry) => entry.msg === 'awareness id taken back by the connection that writes as it, from one that never did')!
    expect([line.clientId, line.room]).toEqual([id, room])

    // The attacker can no longer publish under it, whatever clock it uses.
    publish(attacker, id, 5000, { user: { name: 'attacker' } })
    await roundTrip(attacker.ws)
    await roundTrip(watcher.provider.ws as unknown as WebSocket)
    expect(watcher.awareness.getStates().get(id)).toEqual({ user: { name: 'writer' } })
    expect(writer.closes).toEqual([])
  })

  it('stays with a connection that wrote as it against one that did not', async () => {
    const room = 'no-takeover'
    const watcher = await connectSynced(server.wsUrl, room, { token: await token(room, 'ro') })
    const writer = connectClient(server.wsUrl, room, { token: await token(room, 'rw'), user: 'writer' })
    await waitFor(() => writer.provider.synced, 'the writer to sync')
    const id = writer.doc.clientID
    writer.text.insert(0, 'mine')
    await waitFor(() => watcher.awareness.getStates().has(id) && watcher.text.toString() === 'mine', 'the watcher to see the writer')
    const seen = history(watcher, id)
    const attacker = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'rw')}`)
    publish(attacker, id, 1000, { user: { name: 'attacker' } })
    await roundTrip(attacker.ws)
    await roundTrip(watcher.provider.ws as unknown as WebSocket)
    expect(seen).toEqual([])
  })
})

describe('awareness updates', () => {
  it('past a burst, are coalesced to the latest per connection, and the last one always arrives', async () => {
    const room = 'presence-flood'
    const watcher = await connectSynced(server.wsUrl, room, { token: await token(room, 'ro') })
    const seen = history(watcher, 900)
    const coalescedBefore = await metric(server, 'cotext_messages_dropped_total{reason="awareness_coalesced"}')
    const flooder = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'ro')}`)
    const sent = 300
    for (let clock = 1; clock <= sent; clock++) publish(flooder, 900, clock, { n: clock, padding: 'p'.repeat(1000) })
    await waitFor(() => (seen.at(-1) as { n?: number } | undefined)?.n === sent, 'the last state to arrive')
    await roundTrip(flooder.ws)
    await roundTrip(watcher.provider.ws as unknown as WebSocket)
    const coalesced = (await metric(server, 'cotext_messages_dropped_total{reason="awareness_coalesced"}')) - coalescedBefore
    console.log(`awareness rate limit: ${sent} updates sent back to back, ${sent - coalesced} relayed, ${coalesced} coalesced`)
    expect(coalesced).toBeGreaterThan(0)
    // Every update either went out or was replaced by a later one before it did; states only move forward.
    expect(seen.length).toBe(sent - coalesced)
    const numbers = seen.map((state) => (state as { n: number }).n)
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
    expect(numbers.at(-1)).toBe(sent)
  })
})
