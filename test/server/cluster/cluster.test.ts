import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import pg from 'pg'
import { WebSocket } from 'ws'
import { WebsocketProvider } from 'y-websocket'
import { signToken } from '../../../server/auth.ts'
import { connectClient, connectSynced, destroyAllClients, insertUpdate, openRaw, roundTrip, textOf, updateMessage } from '../helpers/clients.ts'
import type { Client } from '../helpers/clients.ts'
import { metric, startServer, stopAllServers } from '../helpers/server-process.ts'
import type { ServerProcess } from '../helpers/server-process.ts'
import { startPostgres, startRedis } from '../helpers/services.ts'
import type { Postgres, Redis } from '../helpers/services.ts'
import { sleep, waitFor } from '../helpers/wait-for.ts'

// Three server processes, one Redis, one PostgreSQL, all real: start-up alone takes seconds.
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
  servers = await Promise.all([startNode(), startNode(), startNode()])
})
afterAll(async () => {
  destroyAllClients()
  await stopAllServers()
  await Promise.all([redis?.remove(), postgres?.remove()])
})

function token(room: string, mode: 'rw' | 'ro' = 'rw'): Promise<string> {
  return signToken(SECRET, { room, mode, ttlSeconds: 600 })
}

async function join(server: ServerProcess, room: string, user?: string): Promise<Client> {
  return connectSynced(server.wsUrl, room, { token: await token(room), ...(user === undefined ? {} : { user }) })
}

/** The user names a client sees in its awareness, sorted. */
function namesSeenBy(client: Client): string[] {
  const names: string[] = []
  for (const state of client.awareness.getStates().values()) {
    const name = (state as { user?: { name?: string } }).user?.name
    if (name !== undefined) names.push(name)
  }
  return names.sort()
}

function converged(clients: Client[], expected?: string): boolean {
  const first = clients[0]!.text.toString()
  return clients.every((client) => client.text.toString() === first) && (expected === undefined || first === expected)
}

/** What a load balancer does for a client whose server died: the same document, connected to another server. */
async function moveClient(client: Client, server: ServerProcess, room: string): Promise<void> {
  client.provider.destroy()
  client.provider = new WebsocketProvider(server.wsUrl, room, client.doc, {
    awareness: client.awareness,
    disableBc: true,
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params: { token: await token(room) },
    maxBackoffTime: 100,
  })
}

/** Room name → the text every room must have at the end, for the restart-after-flush test. */
const expectedRooms = new Map<string, string>()

describe('three server processes on one Redis and one PostgreSQL', () => {
  it('converge edits and presence of clients spread over them', async () => {
    const room = 'cluster/converge'
    const clients = await Promise.all(servers.flatMap((server, index) => [join(server, room, `u${index}a`), join(server, room, `u${index}b`)]))
    clients.forEach((client, index) => client.text.insert(0, `<${index}>`))
    await waitFor(() => converged(clients) && clients[0]!.text.length === 18, 'the six clients to converge')
    const text = clients[0]!.text.toString()
    for (let index = 0; index < 6; index++) expect(text).toContain(`<${index}>`)
    const everyone = ['u0a', 'u0b', 'u1a', 'u1b', 'u2a', 'u2b']
    await waitFor(() => clients.every((client) => namesSeenBy(client).join() === everyone.join()), 'every client to see every name')
    expectedRooms.set(room, text)

    for (const server of servers) {
      expect(await metric(server, 'cotext_cluster_entries_written_total')).toBeGreaterThan(0)
      expect(await metric(server, 'cotext_cluster_entries_read_total')).toBeGreaterThan(0)
      expect(await metric(server, 'cotext_cluster_postgres_errors_total')).toBe(0)
      expect(await metric(server, 'cotext_cluster_stream_lag_seconds')).toBeGreaterThanOrEqual(0)
      expect(await metric(server, 'cotext_cluster_compaction_lag_seconds')).toBeGreaterThanOrEqual(0)
    }
  })

  it('gives a late joiner on any process the whole document', async () => {
    const room = 'cluster/late'
    const writer = await join(servers[0]!, room)
    writer.text.insert(0, 'written on the first process')
    const other = await join(servers[1]!, room)
    other.text.insert(0, 'and the second: ')
    const expected = 'and the second: written on the first process'
    await waitFor(() => writer.text.toString() === expected, 'the writer to receive the second process\'s edit')
    for (const server of servers) {
      const late = await join(server, room)
      expect(late.text.toString()).toBe(expected)
      late.destroy()
    }
    expectedRooms.set(room, expected)
  })

  it('enforces read-only tokens on every process', async () => {
    const room = 'cluster/read-only'
    const writer = await join(servers[0]!, room)
    writer.text.insert(0, 'original')
    for (const server of servers) {
      const raw = await openRaw(`${server.wsUrl}/${room}?token=${await token(room, 'ro')}`)
      raw.ws.send(updateMessage(insertUpdate('forged ')))
      // Once the round trip is back, the server has handled the forged update; the document it
      // sends lacks the forgery.
      expect(textOf(await roundTrip(raw.ws))).toBe('original')
      raw.ws.close()
    }
    for (const server of servers) expect(await metric(server, 'cotext_messages_dropped_total{reason="read_only"}')).toBe(1)
    // No process relayed the forgery across the stream either.
    for (const server of servers) {
      const reader = await join(server, room)
      expect(reader.text.toString()).toBe('original')
      reader.destroy()
    }
    expectedRooms.set(room, 'original')
  })

  it('keeps its clients connected and served while Redis is away, holds their updates until appended, and catches up when it returns', async () => {
    const room = 'cluster/outage'
    const [a1, a2, b1] = await Promise.all([join(servers[0]!, room), join(servers[0]!, room), join(servers[1]!, room)])
    a1.text.insert(0, 'before;')
    await waitFor(() => converged([a1, a2, b1], 'before;'), 'the first edit everywhere')
    await redis.stop()
    // The process still answers: a client joining the open room now is served what is stored.
    const joiner = await join(servers[0]!, room)
    expect(joiner.text.toString()).toBe('before;')
    a1.text.insert(a1.text.length, 'a-during;')
    b1.text.insert(b1.text.length, 'b-during;')
    // Not appended, so not relayed, not even to a client of the same process.
    await sleep(500)
    expect([a2.text.toString(), joiner.text.toString()]).toEqual(['before;', 'before;'])
    await redis.start()
    const everyone = [a1, a2, b1, joiner]
    await waitFor(() => converged(everyone) && a1.text.length === 'before;a-during;b-during;'.length, 'every client to converge once Redis is back', 15_000)
    // Nobody was disconnected by the outage.
    expect(everyone.map((client) => client.closes.length)).toEqual([0, 0, 0, 0])
    b1.text.insert(0, '>')
    await waitFor(() => a1.text.toString().startsWith('>'), 'a new edit across processes after the outage')
    expectedRooms.set(room, a1.text.toString())
  })

  it('treats an append Redis rejects as a failed write: closes its clients with 1013 and answers 503 until every room is appended again', async () => {
    const room = 'cluster/rejected'
    const [writer, reader] = await Promise.all([join(servers[0]!, room), join(servers[1]!, room)])
    writer.text.insert(0, 'stored;')
    await waitFor(() => converged([writer, reader], 'stored;'), 'the first edit on both processes')
    // Over maxmemory with the default noeviction policy, Redis refuses every write.
    expect(redis.cli('CONFIG', 'SET', 'maxmemory', '1')).toBe('OK')
    writer.text.insert(writer.text.length, 'refused;')
    await waitFor(() => writer.closes.some((close) => close.code === 1013), 'the writer to be closed with 1013')
    expect((await fetch(`${servers[0]!.url}/healthz`)).status).toBe(503)
    expect(reader.text.toString()).toBe('stored;')
    expect(redis.cli('CONFIG', 'SET', 'maxmemory', '0')).toBe('OK')
    // Recovery appends the room's whole state; the writer reconnects and both converge.
    await waitFor(() => converged([writer, reader], 'stored;refused;'), 'both clients to converge after recovery', 15_000)
    expect((await fetch(`${servers[0]!.url}/healthz`)).status).toBe(200)
    expect(await metric(servers[0]!, 'cotext_storage_recoveries_total')).toBe(1)
    expectedRooms.set(room, 'stored;refused;')
  })

  it('loses nothing when a process is killed while others type; its clients move and its presence goes within 15 s', async () => {
    const room = 'cluster/kill'
    const [victim, survivorA, survivorB] = servers as [ServerProcess, ServerProcess, ServerProcess]
    const typists = await Promise.all([join(survivorA, room, 'typist-a'), join(survivorB, room, 'typist-b'), join(victim, room, 'typist-v')])
    const leaver = await join(victim, room, 'leaver')
    const watcher = await join(survivorA, room, 'watcher')
    await waitFor(() => namesSeenBy(watcher).includes('leaver'), 'the watcher to see the victim\'s clients')
    const all = [...typists, leaver, watcher]
    let round = 0
    const typing = setInterval(() => {
      round += 1
      typists.forEach((client, index) => client.text.insert(client.text.length, `${'abv'[index]}${round};`))
    }, 20)
    await sleep(300)
    await victim.stop('SIGKILL')
    const killedAt = performance.now()
    servers = [survivorA, survivorB]
    const seenAtKill = all.map((client) => client.text.toString())
    await sleep(200)
    clearInterval(typing)
    // The leaver's user closes the tab; the victim's typist is sent to a live process.
    leaver.destroy()
    await moveClient(typists[2]!, survivorB, room)
    const remaining = [...typists, watcher]
    await waitFor(() => converged(remaining), 'the clients to converge after the kill', 15_000)
    const final = watcher.text.toString()
    for (const seen of seenAtKill) for (const edit of seen.split(';').filter(Boolean)) expect(final).toContain(`${edit};`)
    // Every client's own edits are there, those the dead process never passed on included.
    for (let n = 1; n <= round; n++) for (const letter of 'abv') expect(final).toContain(`${letter}${n};`)
    // Within 15 s of the kill, not of this line.
    await waitFor(() => !namesSeenBy(watcher).includes('leaver'), 'the dead process\'s presence to disappear', 15_000 - (performance.now() - killedAt))
    // The moved typist's presence comes back through its new process (its client re-announces
    // itself when told it was removed).
    const present = ['typist-a', 'typist-b', 'typist-v', 'watcher']
    await waitFor(() => namesSeenBy(watcher).join() === present.join(), 'the moved typist\'s presence at the watcher', 15_000)
    expect(await metric(survivorA, 'cotext_cluster_presence_expired_total')).toBeGreaterThan(0)
    expectedRooms.set(room, final)
  })

  it('brings every room back whole from PostgreSQL after all processes stopped and Redis was flushed', async () => {
    destroyAllClients()
    const exits = await Promise.all(servers.map((server) => server.stop('SIGTERM')))
    expect(exits.map((exit) => exit.code)).toEqual(servers.map(() => 0))
    // A stopped process leaves neither its heartbeat nor its wake stream behind.
    for (const server of servers) {
      const processId = String(server.logs.find((line) => line.msg === 'listening')?.processId)
      expect(processId).toMatch(/^.+:\d+:[0-9a-f]{8}$/)
      expect(redis.cli('EXISTS', `cotext:alive:${processId}`, `cotext:wake:${processId}`)).toBe('0')
    }
    expect(redis.cli('FLUSHALL')).toBe('OK')
    expect(redis.cli('DBSIZE')).toBe('0')
    const restarted = await startNode()
    expect(expectedRooms.size).toBe(6)
    for (const [room, text] of expectedRooms) {
      const client = await join(restarted, room)
      expect([room, client.text.toString()]).toEqual([room, text])
      client.destroy()
    }
  })
})

describe('settings', () => {
  it('refuses REDIS_URL without DATABASE_URL at once, saying why', async () => {
    await expect(startServer({ env: { REDIS_URL: redis.url } })).rejects.toThrow('REDIS_URL (cluster mode) needs DATABASE_URL')
  })

  it('stores in PostgreSQL alone with DATABASE_URL and no Redis', async () => {
    const single = await startServer({ env: { DATABASE_URL: postgres.url } })
    expect(single.logs.find((line) => line.msg === 'listening')?.store).toBe('postgresql')
    const client = connectClient(single.wsUrl, 'single/pg')
    await waitFor(() => client.provider.synced, 'the client to sync')
    client.text.insert(0, 'kept in PostgreSQL')
    await waitFor(async () => (await metric(single, 'cotext_stored_updates_total')) === 1, 'the update to be stored')
    await single.stop('SIGKILL')
    const again = await startServer({ env: { DATABASE_URL: postgres.url } })
    const reader = await connectSynced(again.wsUrl, 'single/pg')
    expect(reader.text.toString()).toBe('kept in PostgreSQL')
  })
  it('sets a stored update that does not apply aside in PostgreSQL alone, and serves the rest of the room', async () => {
    const room = 'single/bad'
    const client = new pg.Client({ connectionString: postgres.url })
    await client.connect()
    await client.query('CREATE TABLE IF NOT EXISTS cotext_updates (id bigserial PRIMARY KEY, room text NOT NULL, data bytea NOT NULL)')
    for (const data of [insertUpdate('kept', 1), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])]) await client.query('INSERT INTO cotext_updates (room, data) VALUES ($1, $2)', [room, Buffer.from(data)])
    const single = await startServer({ env: { DATABASE_URL: postgres.url } })
    const reader = await connectSynced(single.wsUrl, room)
    expect(reader.text.toString()).toBe('kept')
    expect(await metric(single, 'cotext_bad_stored_updates_total')).toBe(1)
    await waitFor(async () => (await client.query('SELECT 1 FROM cotext_aside WHERE room = $1', [room])).rows.length === 1, 'the bad update to be set aside')
    expect((await client.query('SELECT data FROM cotext_updates WHERE room = $1', [room])).rows.length).toBe(1)
    await client.end()
  })
})
