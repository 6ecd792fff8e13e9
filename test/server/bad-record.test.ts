import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { LevelStore } from '../../server/persistence.ts'
import * as Y from 'yjs'
import { connectSynced, destroyAllClients, insertUpdate, textIn, textOf } from './helpers/clients.ts'
import { makeTempDir, metric, startServer, stopAllServers } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

afterEach(destroyAllClients)
afterAll(stopAllServers)

/** Bytes that are no Yjs update: Y.applyUpdate throws "Unexpected end of array" on them. */
const GARBAGE = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])

describe('a stored update that fails to apply', () => {
  it('is set aside, logged and counted, and the room loads the rest and is served', async () => {
    const dataDir = makeTempDir()
    // A log of three updates, the middle one broken, as a torn or foreign write would leave.
    const seeded = await LevelStore.open(dataDir)
    await seeded.append([{ room: 'hurt', update: insertUpdate('kept', 1) }])
    await seeded.append([{ room: 'hurt', update: GARBAGE }])
    await seeded.append([{ room: 'hurt', update: insertUpdate('also ', 2) }])
    await seeded.close()

    const server = await startServer({ dataDir })
    const client = await connectSynced(server.wsUrl, 'hurt')
    const loaded = client.text.toString()
    expect(loaded).toBe(textOf(Y.mergeUpdates([insertUpdate('kept', 1), insertUpdate('also ', 2)])))
    expect(await metric(server, 'cotext_bad_stored_updates_total')).toBe(1)
    const report = server.logs.find((line) => line.msg.startsWith('a stored update fails to apply'))
    expect(report).toMatchObject({ level: 50, room: 'hurt', seq: 1, bytes: 8, cause: 'Error: Unexpected end of array' })

    // Still a working room: an edit is stored and relayed.
    client.text.insert(0, '> ')
    const other = await connectSynced(server.wsUrl, 'hurt')
    await waitFor(() => other.text.toString() === `> ${loaded}`, 'the edit to reach another client')
    client.destroy()
    other.destroy()
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })

    // The broken update is kept aside, out of the room's log, and the room loads cleanly now.
    const store = await LevelStore.open(dataDir)
    expect((await store.setAsideUpdates('hurt')).map(({ seq, update }) => ({ seq, update: [...update] }))).toEqual([{ seq: 1, update: [...GARBAGE] }])
    expect((await store.load('hurt')).map(({ seq }) => seq)).not.toContain(1)
    await store.close()
    const again = await startServer({ dataDir })
    expect(await textIn(again, 'hurt')).toBe(`> ${loaded}`)
    expect(await metric(again, 'cotext_bad_stored_updates_total')).toBe(0)
  })
})
