import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { WebsocketProvider } from 'y-websocket'
import { connectSynced, destroyAllClients } from './helpers/clients.ts'
import type { Client } from './helpers/clients.ts'
import { startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { startPostgres, startRedis } from './helpers/services.ts'
import type { Postgres, Redis } from './helpers/services.ts'
import { sleep, waitFor } from './helpers/wait-for.ts'

/**
 * Seeded chaos in cluster mode, all real processes: two server processes on one Redis and one
 * PostgreSQL, clients typing marked edits (`<c3-17>`: client 3's 17th) while, once a step, a
 * client goes offline or comes back, a server process is killed (SIGKILL) and replaced (its
 * clients move, as behind a load balancer), or Redis is killed and restarted: with its AOF, and
 * without persistence (it comes back empty). One client per process only watches and never goes
 * offline. Afterwards: every process converges, every edit a client saw from another client is
 * in that text, and after everyone leaves (the offline clients never come back) PostgreSQL holds
 * exactly that text.
 *
 *   CHAOS_SEED=1234 npx vitest run test/server/chaos.test.ts      replays a run (the seed is printed)
 */

// About 30 s a run on an idle machine (mostly server start-ups); far more on a loaded one.
vi.setConfig({ testTimeout: 150_000, hookTimeout: 60_000 })

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31))
/** Faults per run: at least one server kill and one Redis kill, the rest drawn (mostly clients going offline or back). */
const STEPS = 7
const STEP_MS = 1000
const TYPE_MS = 120
const TYPISTS = 4

/** mulberry32: a small seeded generator, enough to replay a run's choices. */
function generator(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

let postgres: Postgres

beforeAll(async () => {
  console.log(`chaos seed: ${SEED} (CHAOS_SEED=${SEED} replays it)`)
  postgres = await startPostgres()
})
afterAll(async () => {
  destroyAllClients()
  await stopAllServers()
  await postgres?.remove()
})

interface Seat {
  client: Client
  server: ServerProcess
  online: boolean
  watcher: boolean
  typed: number
}

const TOKEN = /<c(\d+)-(\d+)>/g

async function runChaos(appendonly: boolean, seed: number): Promise<void> {
  const random = generator(seed)
  // Typing runs on its own timer: its draws come from a generator of their own, so that the
  // sequence of faults depends on the seed alone.
  const typingRandom = generator(seed ^ 0x5bd1e995)
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const room = `chaos/${appendonly ? 'aof' : 'volatile'}`
  const redis: Redis = await startRedis({ appendonly })
  const startNode = (): Promise<ServerProcess> => startServer({ env: { REDIS_URL: redis.url, DATABASE_URL: postgres.url } })
  let servers: ServerProcess[] = await Promise.all([startNode(), startNode()])
  const events: string[] = []
  /** Every edit some client saw that another client typed, and who saw it first. */
  const seen = new Map<string, number>()

  const seat = async (index: number, server: ServerProcess, watcher: boolean): Promise<Seat> => {
    const client = await connectSynced(server.wsUrl, room)
    client.doc.on('update', () => {
      for (const match of client.text.toString().matchAll(TOKEN)) if (Number(match[1]) !== index && !seen.has(match[0])) seen.set(match[0], index)
    })
    return { client, server, online: true, watcher, typed: 0 }
  }
  const seats: Seat[] = []
  for (let index = 0; index < TYPISTS; index++) seats.push(await seat(index, servers[index % servers.length]!, false))
  for (const [offset, server] of servers.entries()) seats.push(await seat(TYPISTS + offset, server, true))

  /** Gives the seat a provider on `server`, connected or not as the seat is online. */
  const moveSeat = (entry: Seat, server: ServerProcess): void => {
    entry.client.provider.destroy()
    entry.client.provider = new WebsocketProvider(server.wsUrl, room, entry.client.doc, {
      awareness: entry.client.awareness,
      connect: entry.online,
      disableBc: true,
      WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
      maxBackoffTime: 100,
    })
    entry.server = server
  }

  const typing = setInterval(() => {
    seats.forEach((entry, index) => {
      if (entry.watcher || typingRandom() < 0.3) return
      const token = `<c${index}-${++entry.typed}>`
      // At either end, so that no edit splits another's token.
      entry.client.text.insert(typingRandom() < 0.5 ? 0 : entry.client.text.length, token)
    })
  }, TYPE_MS)

  const kinds = Array.from({ length: STEPS }, () => random())
  // One of each fault for sure, at drawn steps: 0.5 kills a server, 0.9 kills Redis.
  const serverStep = Math.floor(random() * STEPS)
  kinds[serverStep] = 0.5
  kinds[(serverStep + 1 + Math.floor(random() * (STEPS - 1))) % STEPS] = 0.9
  for (const roll of kinds) {
    await sleep(STEP_MS)
    if (roll < 0.45) {
      const entry = pick(seats.filter((candidate) => !candidate.watcher))
      entry.online = !entry.online
      if (entry.online) entry.client.provider.connect()
      else entry.client.provider.disconnect()
      events.push(`client ${seats.indexOf(entry)} ${entry.online ? 'online' : 'offline'}`)
    } else if (roll < 0.75) {
      const victim = pick(servers)
      await victim.stop('SIGKILL')
      const replacement = await startNode()
      servers = [...servers.filter((server) => server !== victim), replacement]
      for (const entry of seats) if (entry.server === victim) moveSeat(entry, replacement)
      events.push(`killed server ${victim.port}, replaced by ${replacement.port}`)
    } else {
      await redis.kill()
      await redis.start()
      events.push(`killed Redis (${appendonly ? 'AOF kept' : 'came back empty'})`)
    }
  }
  clearInterval(typing)
  console.log(`chaos ${room} (seed ${seed}): ${events.join('; ')}; ${seen.size} edits seen by another client`)

  // Every process converges: the online clients and a fresh client on each process.
  const fresh = await Promise.all(servers.map((server) => connectSynced(server.wsUrl, room)))
  const online = [...seats.filter((entry) => entry.online).map((entry) => entry.client), ...fresh]
  const agreed = (): boolean => online.every((client) => client.text.toString() === online[0]!.text.toString())
  await waitFor(agreed, `every process and online client to converge (seed ${seed})`, 20_000)
  const text = online[0]!.text.toString()
  const missing = [...seen.keys()].filter((token) => !text.includes(token))
  expect({ seed, missing }).toEqual({ seed, missing: [] })

  // Everyone leaves, the offline clients without coming back: the processes store the room.
  destroyAllClients()
  await Promise.all(servers.map((server) => server.stop('SIGTERM')))
  expect(redis.cli('FLUSHALL')).toBe('OK')
  const reader = await startNode()
  const stored = await connectSynced(reader.wsUrl, room)
  expect({ seed, stored: stored.text.toString() }).toEqual({ seed, stored: text })
  stored.destroy()
  await reader.stop('SIGTERM')
  await redis.remove()
}

describe('chaos in cluster mode (seeded)', () => {
  it('loses no seen edit and converges while processes and an AOF Redis are killed and clients go offline', async () => {
    await runChaos(true, SEED)
  })

  it('loses no seen edit and converges while processes and a Redis without persistence are killed and clients go offline', async () => {
    await runChaos(false, SEED + 1)
  })
})
