import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openRaw } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

// Long enough that a busy test machine still answers in time, short enough for a quick test.
const PING_INTERVAL_MS = 400
let server: ServerProcess

beforeAll(async () => {
  server = await startServer({ args: ['--ping-interval-ms', String(PING_INTERVAL_MS)] })
})
afterAll(stopAllServers)

function logCount(msg: string): number {
  return server.logs.filter((line) => line.msg === msg).length
}

describe('a connection that stops answering pings', () => {
  it('is dropped', async () => {
    const dead = await openRaw(`${server.wsUrl}/pings`, { autoPong: false })
    const alive = await openRaw(`${server.wsUrl}/pings`)
    expect((await dead.closed).code).toBe(1006)
    await waitFor(() => logCount('dropping a connection that stopped answering pings') === 1, 'the log line')
    expect(await metric(server, 'cotext_connections_closed_total{reason="dead"}')).toBe(1)
    expect(alive.ws.readyState).toBe(alive.ws.OPEN)
    alive.ws.close()
  })
})
