import * as Y from 'yjs'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { LevelStore } from '../../server/persistence.ts'
import { splitUpdate } from '../../server/relay-merge.ts'
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

  it('compacts updates that an earlier version stored out of Yjs\'s client order without losing any of them', async () => {
    // Typists 5 and 9; each stored update a join of both, written (as earlier versions did) lower client first.
    const dataDir = makeTempDir()
    const typists = [5, 9].map((clientID) => {
      const doc = new Y.Doc()
      doc.clientID = clientID
      return doc
    })
    const oldJoin = (updates: Uint8Array[]): Uint8Array => {
      const sections = updates.flatMap((update) => splitUpdate(update)!.sections.map((section) => [...section.bytes]))
      return new Uint8Array([sections.length, ...sections.flat(), 0])
    }
    const store = await LevelStore.open(dataDir)
    for (let round = 0; round < 4; round++) {
      const updates = typists.map((doc) => {
        const before = Y.encodeStateVector(doc)
        doc.getText('text').insert(doc.getText('text').length, `${doc.clientID}.${round} `)
        return Y.encodeStateAsUpdate(doc, before)
      })
      // Their docs stay apart: each typist's text is its own run, so the stored updates need nothing else.
      await store.append([{ room: 'old-order', update: oldJoin(updates) }])
    }
    await store.close()
    const expected = new Y.Doc()
    for (const doc of typists) Y.applyUpdate(expected, Y.encodeStateAsUpdate(doc))

    // Four stored updates, compacted at load (more than COMPACT_AFTER), then read back by a restarted server.
    const first = await startServer({ dataDir, env: { COMPACT_AFTER: '2' } })
    expect(await textIn(first, 'old-order')).toBe(expected.getText('text').toString())
    await waitFor(async () => (await metric(first, 'cotext_compactions_total')) === 1, 'the compaction at load')
    await first.stop('SIGTERM')
    const second = await startServer({ dataDir })
    const client = await connectSynced(second.wsUrl, 'old-order')
    expect(client.text.toString()).toBe(expected.getText('text').toString())
    expect(Y.encodeStateVector(client.doc)).toEqual(Y.encodeStateVector(expected))
  })

  it('refuses to start on a DATA_DIR that another server holds', async () => {
    const running = await startServer()
    await expect(startServer({ dataDir: running.dataDir })).rejects.toThrow(/exited with 1 before listening[\s\S]*cannot open the data directory/)
  })
})
