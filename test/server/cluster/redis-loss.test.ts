import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import pg from 'pg'
import * as Y from 'yjs'
import { PgStore } from '../../../server/cluster/pg-store.ts'
import { connectSynced, destroyAllClients, insertUpdate, textOf } from '../helpers/clients.ts'
import type { Client } from '../helpers/clients.ts'
import { metric, startServer, stopAllServers } from '../helpers/server-process.ts'
import type { ServerProcess } from '../helpers/server-process.ts'
import { startPostgres, startRedis } from '../helpers/services.ts'
import type { Postgres, Redis } from '../helpers/services.ts'
import { sleep, waitFor } from '../helpers/wait-for.ts'

/**
 * Cluster mode when Redis loses data: server processes, redis-server and PostgreSQL, all real.
 * Redis is restarted without its data files while the processes hold edits that only the stream
 * had (PostgreSQL has not compacted the room yet).
 */

vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 })

let redis: Redis
let postgres: Postgres

beforeAll(async () => {
  ;[redis, postgres] = await Promise.all([startRedis(), startPostgres()])
})
afterAll(async () => {
  destroyAllClients()
  await stopAllServers()
  await Promise.all([redis?.remove(), postgres?.remove()])
})

function startNode(): Promise<ServerProcess> {
  return startServer({ env: { REDIS_URL: redis.url, DATABASE_URL: postgres.url } })
}

/** Every `<name>` edit in `text`, sorted. */
function editsIn(text: string): string[] {
  return (text.match(/<[^>]+>/g) ?? []).sort()
}

async function storedText(room: string): Promise<string> {
  const client = new pg.Client({ connectionString: postgres.url })
  await client.connect()
  const result = await client.query<{ state: Buffer }>('SELECT state FROM cotext_rooms WHERE room = $1', [room])
  await client.end()
  return result.rows[0] === undefined ? '' : textOf(result.rows[0].state)
}

async function restartRedisEmpty(): Promise<void> {
  await redis.stop()
  redis.wipe()
  await redis.start()
}

describe('Redis restarted without its data while processes hold edits', () => {
  it('converges every process, gives a room opened afterwards every edit, and loses nothing once the authors leave', async () => {
    const room = 'loss/room'
    const [a, b] = await Promise.all([startNode(), startNode()])
    // Two authors per process; each also sees the others' edits.
    const authors: Client[] = await Promise.all([a, a, b, b].map((server) => connectSynced(server.wsUrl, room)))
    authors.forEach((client, index) => client.text.insert(0, `<before-${index}>`))
    const before = authors.map((_client, index) => `<before-${index}>`).sort()
    await waitFor(() => authors.every((client) => editsIn(client.text.toString()).join() === before.join()), 'every author to see every edit')
    expect(await storedText(room)).toBe('')

    await restartRedisEmpty()
    await waitFor(async () => (await metric(a, 'cotext_cluster_redis_resets_total')) === 1 && (await metric(b, 'cotext_cluster_redis_resets_total')) === 1, 'both processes to notice the loss')
    expect(a.logs.some((line) => line.msg.startsWith('Redis was restarted or emptied'))).toBe(true)

    // Edits made after the loss depend on the lost ones (they follow them in the text).
    authors.forEach((client, index) => client.text.insert(client.text.length, `<after-${index}>`))
    const all = [...before, ...authors.map((_client, index) => `<after-${index}>`)].sort()
    await waitFor(() => authors.every((client) => editsIn(client.text.toString()).join() === all.join()), 'every author to see every edit after the loss', 15_000)

    // A process started after the loss, and the two that held the edits, all serve every edit.
    const c = await startNode()
    for (const server of [a, b, c]) {
      const fresh = await connectSynced(server.wsUrl, room)
      await waitFor(() => editsIn(fresh.text.toString()).join() === all.join(), `a fresh client on port ${server.port} to see every edit`, 15_000)
      fresh.destroy()
    }
    const text = authors[0]!.text.toString()

    // The authors leave: every process stores the room from its document, merged into PostgreSQL.
    destroyAllClients()
    await waitFor(async () => editsIn(await storedText(room)).join() === all.join(), 'PostgreSQL to hold every edit', 15_000)
    await Promise.all([a, b, c].map((server) => server.stop('SIGTERM')))
    expect(await storedText(room)).toBe(text)
    expect(redis.cli('FLUSHALL')).toBe('OK')
    const d = await startNode()
    const reader = await connectSynced(d.wsUrl, room)
    expect(reader.text.toString()).toBe(text)
    reader.destroy()
    await d.stop('SIGTERM')
  })

  it('keeps the presence of live processes\' clients while Redis restarts empty', async () => {
    const room = 'loss/presence'
    const [a, b] = await Promise.all([startNode(), startNode()])
    const watcher = await connectSynced(a.wsUrl, room)
    const remote = await connectSynced(b.wsUrl, room, { user: 'remote' })
    const remoteSeen = (): boolean => watcher.awareness.getStates().has(remote.doc.clientID)
    await waitFor(remoteSeen, 'the watcher to see the other process\'s client')
    await restartRedisEmpty()
    await waitFor(async () => (await metric(a, 'cotext_cluster_redis_resets_total')) === 1, 'the process to notice the restart')
    // Past the heartbeat expiry (8 s) and two presence sweeps after the restart: nobody is
    // declared dead on one answer from an empty Redis.
    const deadline = performance.now() + 6000
    while (performance.now() < deadline) {
      expect(remoteSeen()).toBe(true)
      await sleep(50)
    }
    expect(await metric(a, 'cotext_cluster_presence_expired_total')).toBe(0)
    destroyAllClients()
    await Promise.all([a.stop('SIGTERM'), b.stop('SIGTERM')])
  })

  it('warns at start when a Redis crash can lose acknowledged appends', async () => {
    const volatile = await startRedis({ appendonly: false })
    const server = await startServer({ env: { REDIS_URL: volatile.url, DATABASE_URL: postgres.url } })
    const warning = server.logs.find((line) => line.msg.startsWith('Redis runs with appendonly no'))
    expect(warning?.level).toBe(40)
    await server.stop('SIGTERM')
    await volatile.remove()
  })
})

describe('PgStore.storeSnapshot', () => {
  it('merges a snapshot into the stored one by content, never replacing it because its stream position is later', async () => {
    const store = await PgStore.open(postgres.url, () => {})
    const room = 'loss/merge'
    const stored = insertUpdate('<seen by others>', 1)
    expect(await store.storeSnapshot(room, stored, '1000-0')).toEqual({ streamId: '1000-0', written: true })
    // A process that never got the stored edit (Redis lost it) stores its document, at a later position.
    const lacking = insertUpdate('<later>', 2)
    expect(await store.storeSnapshot(room, lacking, '2000-0')).toEqual({ streamId: '2000-0', written: true })
    const text = await storedText(room)
    expect(editsIn(text)).toEqual(['<later>', '<seen by others>'])
    // An earlier position that adds something is merged too, and keeps the later position.
    const late = insertUpdate('<held by a slow process>', 3)
    expect(await store.storeSnapshot(room, late, '1500-0')).toEqual({ streamId: '2000-0', written: true })
    expect(editsIn(await storedText(room))).toEqual(['<held by a slow process>', '<later>', '<seen by others>'])
    // What adds nothing at an earlier position writes nothing.
    expect(await store.storeSnapshot(room, Y.mergeUpdates([stored, lacking]), '1800-0')).toEqual({ streamId: '2000-0', written: false })
    await store.close()
  })
})
