import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { connectSynced, destroyAllClients, textIn } from './helpers/clients.ts'
import { makeTempDir, metric, startServer, stopAllServers, storedUpdates } from './helpers/server-process.ts'
import { sleep, waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

afterEach(destroyAllClients)
afterAll(stopAllServers)



describe('the LevelDB store', () => {
  it('merges a room\'s stored updates every COMPACT_AFTER writes and reads them back', async () => {
    const dataDir = makeTempDir()
    const first = await startServer({ dataDir, env: { COMPACT_AFTER: '4' } })
    const client = await connectSynced(first.wsUrl, 'compact')
    for (let i = 0; i < 10; i++) {
      client.text.insert(i, String(i))
      await waitFor(async () => (await storedUpdates(first)) === i + 1, `update ${i} to be stored`)
    }
    // A compaction runs beside the appends, so the second may finish after the tenth update.
    await waitFor(async () => (await metric(first, 'cotext_compactions_total')) === 2, 'the second compaction')
    await sleep(100)
    expect(await metric(first, 'cotext_compactions_total')).toBe(2)
    client.destroy()
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' })
    const second = await startServer({ dataDir })
    expect(await textIn(second, 'compact')).toBe('0123456789')
  })

  it('refuses to start on a DATA_DIR that another server holds', async () => {
    const running = await startServer()
    await expect(startServer({ dataDir: running.dataDir })).rejects.toThrow(/exited with 1 before listening[\s\S]*cannot open the data directory/)
  })
})
