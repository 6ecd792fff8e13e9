import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { connectSynced, destroyAllClients, textIn } from './helpers/clients.ts'
import { makeTempDir, startServer, stopAllServers, storedUpdates } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

afterEach(destroyAllClients)
afterAll(stopAllServers)



describe('persistence in DATA_DIR', () => {
  it('keeps every document across a restart (SIGTERM stores, closes and exits 0)', async () => {
    const dataDir = makeTempDir()
    const first = await startServer({ dataDir })
    const rooms = { alpha: 'first room', 'team/beta': 'second\nroom', gamma: 'third ✓ room' }
    for (const [room, text] of Object.entries(rooms)) {
      const client = await connectSynced(first.wsUrl, room)
      for (const char of text) client.text.insert(client.text.length, char)
    }
    expect(await first.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    expect(first.logs.map((line) => line.msg)).toContain('stopped')
    destroyAllClients()

    const second = await startServer({ dataDir })
    for (const [room, text] of Object.entries(rooms)) expect(await textIn(second, room)).toBe(text)
    // SIGINT (Ctrl-C) stops it the same way.
    const client = await connectSynced(second.wsUrl, 'alpha')
    client.text.insert(0, '> ')
    await waitFor(async () => (await storedUpdates(second)) === 1, 'the edit to be stored')
    expect(await second.stop('SIGINT')).toEqual({ code: 0, signal: null })
    client.destroy()
    const third = await startServer({ dataDir })
    expect(await textIn(third, 'alpha')).toBe('> first room')
  })

  it('loses nothing to a SIGKILL once an update is stored', async () => {
    const dataDir = makeTempDir()
    const first = await startServer({ dataDir })
    const client = await connectSynced(first.wsUrl, 'crash')
    client.text.insert(0, 'a')
    client.text.insert(1, 'b')
    client.text.insert(2, 'c')
    await waitFor(async () => (await storedUpdates(first)) === 3, 'three stored updates')
    // The client must not be there to hand its copy to the restarted server.
    client.destroy()
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' })

    const second = await startServer({ dataDir })
    expect(await textIn(second, 'crash')).toBe('abc')
  })
})
