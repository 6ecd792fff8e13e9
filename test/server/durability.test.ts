import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { connectSynced, destroyAllClients } from './helpers/clients.ts'
import { makeTempDir, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { startPostgres, startRedis } from './helpers/services.ts'
import type { Postgres, Redis } from './helpers/services.ts'
import { waitFor } from './helpers/wait-for.ts'

/**
 * FSYNC: every write is on disk before anything it holds is relayed. The single-process server
 * runs under strace, which records (in order, across its threads) the journal's fdatasync and
 * the socket write that relays the update; the cluster settings are checked at start.
 */

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 })

afterEach(async () => {
  destroyAllClients()
  await stopAllServers()
})

/** The server's own pid (under strace, `child` is strace's), from its log lines. */
function serverPid(server: ServerProcess): number {
  return server.logs.find((line) => line.msg === 'listening')!.pid as number
}

/** The strace lines from the journal write of `marker` up to the first socket write that relays it. */
async function traceOfOneRelay(fsync: boolean): Promise<string[]> {
  const dir = makeTempDir()
  const trace = join(dir, 'strace.txt')
  const server = await startServer({
    env: { FSYNC: String(fsync) },
    wrapper: ['strace', '-f', '-qq', '-s', '4096', '-e', 'trace=pwrite64,fdatasync,write,writev', '-o', trace],
  })
  const marker = `durable-${fsync ? 'on' : 'off'}-marker`
  try {
    const [author, reader] = await Promise.all([connectSynced(server.wsUrl, 'fsync/room'), connectSynced(server.wsUrl, 'fsync/room')])
    author.text.insert(0, marker)
    await waitFor(() => reader.text.toString() === marker, 'the reader to get the update')
  } finally {
    // Killing strace would leave the server running, detached: kill the server, strace follows.
    process.kill(serverPid(server), 'SIGKILL')
    await server.exited
  }
  const lines = readFileSync(trace, 'utf8').split('\n')
  const journalWrite = lines.findIndex((line) => line.includes('pwrite64(') && line.includes(marker))
  const relay = lines.findIndex((line, index) => index > journalWrite && /\b(write|writev)\(/.test(line) && line.includes(marker))
  expect([journalWrite >= 0, relay > journalWrite]).toEqual([true, true])
  return lines.slice(journalWrite, relay + 1)
}

describe('FSYNC in a single process (LevelDB with its journal)', () => {
  it.runIf(existsSync('/usr/bin/strace'))('syncs the journal record (fdatasync done) before the socket write that relays it', async () => {
    const between = await traceOfOneRelay(true)
    const started = between.findIndex((line) => /fdatasync\(/.test(line))
    const done = between.findIndex((line) => /fdatasync\(\d+\)\s+= 0|<\.\.\. fdatasync resumed>\)\s+= 0/.test(line))
    expect(started).toBeGreaterThan(0)
    expect(done).toBeGreaterThanOrEqual(started)
    expect(done).toBeLessThan(between.length - 1)
  })

  it.runIf(existsSync('/usr/bin/strace'))('without it, relays with no fdatasync in between (what a machine crash can lose)', async () => {
    const between = await traceOfOneRelay(false)
    expect(between.filter((line) => line.includes('fdatasync'))).toEqual([])
  })

  it('stores with sync writes: everything typed is there after a SIGKILL', async () => {
    const dataDir = makeTempDir()
    const server = await startServer({ dataDir, env: { FSYNC: 'true' } })
    const client = await connectSynced(server.wsUrl, 'fsync/kill')
    for (let index = 0; index < 20; index++) client.text.insert(client.text.length, `${index};`)
    const expected = client.text.toString()
    const reader = await connectSynced(server.wsUrl, 'fsync/kill')
    await waitFor(() => reader.text.toString() === expected, 'the reader to get every edit')
    await server.stop('SIGKILL')
    const again = await startServer({ dataDir, env: { FSYNC: 'true' } })
    const after = await connectSynced(again.wsUrl, 'fsync/kill')
    expect(after.text.toString()).toBe(expected)
  })
})

describe('FSYNC in cluster mode', () => {
  let postgres: Postgres
  const services: Redis[] = []
  beforeAll(async () => {
    postgres = await startPostgres()
  })
  afterAll(async () => {
    await Promise.all([postgres?.remove(), ...services.map((redis) => redis.remove())])
  })

  async function startOn(appendfsync: 'always' | 'everysec'): Promise<ServerProcess> {
    const redis = await startRedis({ appendfsync })
    services.push(redis)
    return startServer({ env: { FSYNC: 'true', REDIS_URL: redis.url, DATABASE_URL: postgres.url } })
  }

  it('says at start that Redis needs appendfsync always, and that a PostgreSQL with fsync off can lose rooms', async () => {
    const server = await startOn('everysec')
    const warnings = server.logs.filter((line) => line.level === 40).map((line) => line.msg)
    expect(warnings).toContain('FSYNC is on but Redis runs with appendfsync everysec: a machine crash under Redis loses up to about 1 s of acknowledged appends. Set appendfsync always')
    // The tests' PostgreSQL runs with fsync off (-F).
    expect(warnings).toContain('PostgreSQL runs with fsync off: a machine crash can lose or corrupt stored rooms')
  })

  it('is content with appendfsync always, and relays as before', async () => {
    const server = await startOn('always')
    expect(server.logs.find((line) => line.msg === 'Redis: every append is on disk before it is acknowledged')?.level).toBe(30)
    const [author, reader] = await Promise.all([connectSynced(server.wsUrl, 'fsync/cluster'), connectSynced(server.wsUrl, 'fsync/cluster')])
    author.text.insert(0, 'on disk in Redis first')
    await waitFor(() => reader.text.toString() === 'on disk in Redis first', 'the reader to get the update')
  })
})
