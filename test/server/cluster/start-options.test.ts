import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ServerStartError, startServer } from '../../../server/start.ts'
import { connectSynced, destroyAllClients } from '../helpers/clients.ts'
import { freePort, startPostgres, startRedis } from '../helpers/services.ts'
import type { Postgres, Redis } from '../helpers/services.ts'
import { waitFor } from '../helpers/wait-for.ts'

/** startServer (cotext/server) in this process with redisUrl and databaseUrl as options. */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 })

let redis: Redis
let postgres: Postgres

beforeAll(async () => {
  ;[redis, postgres] = await Promise.all([startRedis(), startPostgres()])
})
afterAll(async () => {
  destroyAllClients()
  await Promise.all([redis?.remove(), postgres?.remove()])
})

describe('startServer with redisUrl and databaseUrl', () => {
  it('runs in cluster mode, and close() stores the room in PostgreSQL, where a PostgreSQL-only server finds it', async () => {
    const cluster = await startServer({ port: 0, logLevel: 'silent', redisUrl: redis.url, databaseUrl: postgres.url })
    const writer = await connectSynced(cluster.url.replace('http', 'ws'), 'options/room')
    writer.text.insert(0, 'through the stream')
    const metrics = async (): Promise<string> => (await fetch(`${cluster.url}/metrics`)).text()
    await waitFor(async () => /^cotext_cluster_entries_written_total [1-9]/m.test(await metrics()), 'the update to be appended')
    writer.destroy()
    await cluster.close()
    // Redis gone: only PostgreSQL has the room now.
    expect(redis.cli('FLUSHALL')).toBe('OK')
    const single = await startServer({ port: 0, logLevel: 'silent', databaseUrl: postgres.url })
    const reader = await connectSynced(single.url.replace('http', 'ws'), 'options/room')
    expect(reader.text.toString()).toBe('through the stream')
    reader.destroy()
    await single.close()
  })

  it('rejects with ServerStartError naming the service it cannot reach', async () => {
    const nobody = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`
    const attempt = startServer({ port: 0, logLevel: 'silent', databaseUrl: nobody })
    await expect(attempt).rejects.toThrow(ServerStartError)
    await expect(attempt).rejects.toThrow(/^cannot reach PostgreSQL: /)
    await expect(startServer({ port: 0, logLevel: 'silent', redisUrl: `redis://127.0.0.1:${await freePort()}`, databaseUrl: postgres.url })).rejects.toThrow(/^cannot reach Redis or PostgreSQL: /)
  })
})
