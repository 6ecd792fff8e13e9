import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { connectSynced, destroyAllClients, openRaw, roundTrip, textIn, textOf } from './helpers/clients.ts'
import { getJson, metric, startServer, stopAllServers } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

afterEach(destroyAllClients)
afterAll(stopAllServers)


describe('room unloading', () => {
  it('unloads a room once its last client has left and reloads it for the next one', async () => {
    const server = await startServer()
    const a = await connectSynced(server.wsUrl, 'unload')
    const b = await connectSynced(server.wsUrl, 'unload')
    a.text.insert(0, 'kept while nobody is here')
    await waitFor(() => b.text.length === 25, 'b to receive a\'s text')
    expect(await getJson(server, '/healthz')).toMatchObject({ rooms: 1, connections: 2 })
    a.destroy()
    await waitFor(async () => (await getJson<{ connections: number }>(server, '/healthz')).connections === 1, 'a to leave')
    expect(await getJson(server, '/healthz')).toMatchObject({ rooms: 1, connections: 1 })
    b.destroy()
    await waitFor(async () => (await getJson<{ rooms: number }>(server, '/healthz')).rooms === 0, 'the room to unload')
    expect(await metric(server, 'cotext_rooms_unloaded_total')).toBe(1)

    // The first sync answer of the reloaded room already holds the stored text.
    const raw = await openRaw(`${server.wsUrl}/unload`)
    expect(textOf(await roundTrip(raw.ws))).toBe('kept while nobody is here')
    raw.ws.close()
    expect(await metric(server, 'cotext_rooms_loaded_total')).toBe(2)
    expect(await textIn(server, 'unload')).toBe('kept while nobody is here')
  })
})
