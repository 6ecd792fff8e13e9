import { afterEach, describe, expect, it, vi } from 'vitest'
import { pino } from 'pino'
import * as Y from 'yjs'
import { Metrics } from '../../server/metrics.ts'
import { LevelPersistence } from '../../server/persistence.ts'
import { RoomStore } from '../../server/room-store.ts'
import { RoomRegistry } from '../../server/rooms.ts'
import { createServer } from '../../server/server.ts'
import type { RunningServer } from '../../server/server.ts'
import { connectSynced, destroyAllClients, insertUpdate, openRaw, roundTrip, syncStep1, textOf } from './helpers/clients.ts'
import { GatedPersistence } from './helpers/gated-persistence.ts'
import { makeTempDir, stopAllServers } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

const logger = pino({ level: 'silent' })
const cleanups: Array<() => Promise<void>> = []

afterEach(async () => {
  destroyAllClients()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await stopAllServers()
})

async function inProcess(): Promise<{ server: RunningServer; registry: RoomRegistry; metrics: Metrics; persistence: GatedPersistence; wsUrl: string }> {
  const persistence = new GatedPersistence(await LevelPersistence.open(makeTempDir()))
  const metrics = new Metrics()
  const registry = new RoomRegistry({ persistence, metrics, logger, compactAfter: 500, storeBatchMs: 0 })
  const server = await createServer(
    { host: '127.0.0.1', port: 0, authSecret: null, maxMessageBytes: 1 << 20, pingIntervalMs: 30_000, webDir: makeTempDir() },
    { registry, metrics, logger },
  )
  cleanups.push(async () => {
    persistence.releaseAll()
    await server.close()
    await persistence.close()
  })
  return { server, registry, metrics, persistence, wsUrl: server.url.replace('http', 'ws') }
}

describe('a room that is still loading', () => {
  it('answers nothing until its stored state is in, then greets and answers with all of it', async () => {
    const { registry, persistence, wsUrl } = await inProcess()
    const writer = await connectSynced(wsUrl, 'slow')
    writer.text.insert(0, 'stored text')
    writer.destroy()
    await waitFor(() => registry.size === 0, 'the room to unload')

    const release = persistence.hold('load', 'slow')
    const raw = await openRaw(`${wsUrl}/slow`)
    raw.ws.send(syncStep1(new Y.Doc()))
    await waitFor(() => persistence.calls.filter((call) => call.operation === 'load').length === 2, 'the reload to start')
    // The sync step 1 is on its way while the load is held; a round trip on another room
    // shows that the server is processing frames meanwhile.
    const other = await openRaw(`${wsUrl}/other`)
    await roundTrip(other.ws)
    expect(raw.received).toEqual([])

    release()
    await waitFor(() => raw.received.length === 2, 'the greeting and the answer')
    const [greeting, answer] = raw.received
    expect([greeting![0], greeting![1]]).toEqual([0, 0])
    expect([answer![0], answer![1]]).toEqual([0, 1])
    expect(textOf(answer!.subarray(3))).toBe('stored text')
    raw.ws.close()
    other.ws.close()
  })
})

describe('unloading', () => {
  it('keeps the room when a client arrives while its last updates are being stored', async () => {
    const { registry, metrics, persistence, wsUrl } = await inProcess()
    const first = await connectSynced(wsUrl, 'busy')
    const release = persistence.hold('store')
    first.text.insert(0, 'in flight')
    await persistence.called('store')
    first.destroy()
    await waitFor(() => registry.get('busy')?.connectionCount === 0, 'the first client to leave')
    const second = await connectSynced(wsUrl, 'busy')
    release()
    await registry.get('busy')!.whenStored()
    expect([registry.size, metrics.roomsLoaded, metrics.roomsUnloaded, second.text.toString()]).toEqual([1, 1, 0, 'in flight'])
    second.destroy()
    await waitFor(() => registry.size === 0, 'the room to unload')
    expect(metrics.roomsUnloaded).toBe(1)
  })
})

describe('RoomStore', () => {
  async function store(batchMs = 0): Promise<{ roomStore: RoomStore; persistence: GatedPersistence; metrics: Metrics; inner: LevelPersistence }> {
    const inner = await LevelPersistence.open(makeTempDir())
    cleanups.push(() => inner.close())
    const persistence = new GatedPersistence(inner)
    const metrics = new Metrics()
    const roomStore = new RoomStore('r', persistence, { compactAfter: 500, batchMs, metrics, logger, retryDelayMs: 5 })
    return { roomStore, persistence, metrics, inner }
  }

  it('writes an update at once and merges the ones that arrive during a write', async () => {
    const { roomStore, persistence, metrics, inner } = await store()
    const release = persistence.hold('store')
    roomStore.push(insertUpdate('a', 1))
    await persistence.called('store')
    roomStore.push(insertUpdate('b', 2))
    roomStore.push(insertUpdate('c', 3))
    roomStore.push(insertUpdate('d', 4))
    release()
    await roomStore.idle()
    const merged = new Y.Doc()
    for (const [clientID, text] of [[2, 'b'], [3, 'c'], [4, 'd']] as const) Y.applyUpdate(merged, insertUpdate(text, clientID))
    expect(persistence.calls.map((call) => textOf(call.update!))).toEqual(['a', merged.getText('text').toString()])
    expect([metrics.storageWrites, metrics.storedUpdates]).toEqual([2, 4])
    Y.applyUpdate(merged, insertUpdate('a', 1))
    expect(textOf(await inner.load('r'))).toBe(merged.getText('text').toString())
  })

  it('writes each update on its own when they come one write apart', async () => {
    const { roomStore, persistence } = await store()
    roomStore.push(insertUpdate('a', 1))
    await roomStore.idle()
    roomStore.push(insertUpdate('b', 2))
    roomStore.push(insertUpdate('c', 3))
    await roomStore.idle()
    expect(persistence.calls.map((call) => textOf(call.update!))).toEqual(['a', 'b', 'c'])
  })

  it('merges the updates that come within batchMs of the last write into one write', async () => {
    const { roomStore, persistence, metrics } = await store(100)
    roomStore.push(insertUpdate('a', 1))
    await roomStore.idle()
    roomStore.push(insertUpdate('b', 2))
    roomStore.push(insertUpdate('c', 3))
    await roomStore.idle()
    const merged = new Y.Doc()
    Y.applyUpdate(merged, insertUpdate('b', 2))
    Y.applyUpdate(merged, insertUpdate('c', 3))
    expect(persistence.calls.map((call) => textOf(call.update!))).toEqual(['a', merged.getText('text').toString()])
    expect([metrics.storageWrites, metrics.storedUpdates]).toEqual([2, 3])
  })

  it('keeps updates whose write failed and writes them again', async () => {
    const { roomStore, persistence, metrics, inner } = await store()
    persistence.failStores = 2
    roomStore.push(insertUpdate('x', 1))
    await roomStore.idle()
    expect([persistence.calls.length, metrics.storageErrors, metrics.storageWrites, metrics.storedUpdates]).toEqual([3, 2, 1, 1])
    expect(textOf(await inner.load('r'))).toBe('x')
  })
})
