import { afterEach, describe, expect, it, vi } from 'vitest'
import { pino } from 'pino'
import * as Y from 'yjs'
import { Metrics } from '../../server/metrics.ts'
import { LevelStore } from '../../server/persistence.ts'
import { StoreWriter } from '../../server/store-writer.ts'
import { connectClient, connectSynced, destroyAllClients, insertUpdate, openRaw, roundTrip, syncStep1, textOf, updateMessage } from './helpers/clients.ts'
import { GatedStore } from './helpers/gated-store.ts'
import { startInProcessServer, type InProcessServer } from './helpers/in-process.ts'
import { makeTempDir, stopAllServers } from './helpers/server-process.ts'
import { sleep, waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

const logger = pino({ level: 'silent' })
const cleanups: Array<() => Promise<void>> = []

afterEach(async () => {
  destroyAllClients()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await stopAllServers()
})

async function inProcess(fanoutWindowMs = 20): Promise<InProcessServer> {
  const running = await startInProcessServer(fanoutWindowMs)
  cleanups.push(running.stop)
  return running
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

describe('store before relay', () => {
  it('sends nobody an update, or a sync answer holding it, before it is stored, and relays in order of arrival', async () => {
    // No batching window, so that each relay is a message of its own and their order shows.
    const { persistence, wsUrl } = await inProcess(0)
    const sender = await openRaw(`${wsUrl}/order`)
    const reader = await openRaw(`${wsUrl}/order`)
    await roundTrip(sender.ws)
    await roundTrip(reader.ws)
    const release = persistence.hold('append')
    const updates = ['a', 'b', 'c'].map((text, i) => insertUpdate(text, i + 1))
    for (const update of updates) sender.ws.send(updateMessage(update))
    await persistence.called('append')
    // A newcomer's sync answer holds the updates, so it waits too. (Even the sender's own
    // round trip waits, so only time can show that nothing was sent.)
    const newcomer = await openRaw(`${wsUrl}/order`)
    newcomer.ws.send(syncStep1(new Y.Doc()))
    const received = reader.received.length
    await sleep(200)
    expect(reader.received.length).toBe(received)
    expect(newcomer.received.filter((message) => message[0] === 0 && message[1] !== 0)).toEqual([])

    release()
    await waitFor(() => reader.received.length === received + 3, 'the three relays')
    expect(reader.received.slice(received).map((message) => textOf(message.subarray(3)))).toEqual(['a', 'b', 'c'])
    await waitFor(() => newcomer.received.some((message) => message[0] === 0 && message[1] === 1), 'the newcomer\'s answer')
    expect(textOf(newcomer.received.find((message) => message[0] === 0 && message[1] === 1)!.subarray(3))).toBe(textOf(Y.mergeUpdates(updates)))
    for (const socket of [sender, reader, newcomer]) socket.ws.close()
  })
})

describe('unloading', () => {
  it('keeps the room when a client arrives while its last updates are being stored', async () => {
    const { registry, metrics, persistence, wsUrl } = await inProcess()
    const first = await connectSynced(wsUrl, 'busy')
    const release = persistence.hold('append')
    first.text.insert(0, 'in flight')
    await persistence.called('append')
    first.destroy()
    await waitFor(() => registry.get('busy')?.connectionCount === 0, 'the first client to leave')
    const second = connectClient(wsUrl, 'busy')
    await waitFor(() => registry.get('busy')?.connectionCount === 1, 'the second client to join')
    // Its sync answer holds 'in flight', so it waits for the write.
    expect(second.provider.synced).toBe(false)
    release()
    await registry.get('busy')!.whenStored()
    await waitFor(() => second.provider.synced, 'the second client to sync')
    expect([registry.size, metrics.roomsLoaded, metrics.roomsUnloaded, second.text.toString()]).toEqual([1, 1, 0, 'in flight'])
    second.destroy()
    await waitFor(() => registry.size === 0, 'the room to unload')
    expect(metrics.roomsUnloaded).toBe(1)
  })
})

describe('StoreWriter', () => {
  async function makeWriter(): Promise<{ writer: StoreWriter; store: GatedStore; metrics: Metrics; inner: LevelStore }> {
    const inner = await LevelStore.open(makeTempDir())
    cleanups.push(() => inner.close())
    const store = new GatedStore(inner)
    const metrics = new Metrics()
    return { writer: new StoreWriter(store, { metrics, logger, batchMs: 0, retryMs: 5 }), store, metrics, inner }
  }

  const textOfLog = async (store: LevelStore, room: string): Promise<string> => {
    const doc = new Y.Doc()
    for (const { update } of await store.load(room)) Y.applyUpdate(doc, update)
    return doc.getText('text').toString()
  }

  it('writes what arrives in one turn together, and what arrives during a write in the next, one record per room', async () => {
    const { writer, store, metrics, inner } = await makeWriter()
    const release = store.hold('append')
    const first = [writer.append('r', insertUpdate('a', 1)), writer.append('s', insertUpdate('b', 2))]
    await store.called('append')
    const second = [writer.append('r', insertUpdate('c', 3)), writer.append('r', insertUpdate('d', 4))]
    release()
    expect(await Promise.all([...first, ...second])).toEqual([true, true, true, true])
    expect(store.calls.map((call) => call.entries!.map((entry) => `${entry.room}:${textOf(entry.update)}`))).toEqual([['r:a', 's:b'], [`r:${textOf(Y.mergeUpdates([insertUpdate('c', 3), insertUpdate('d', 4)]))}`]])
    expect([metrics.storageWrites, metrics.storedUpdates]).toEqual([2, 4])
    expect((await inner.load('r')).length).toBe(2)
    expect(await textOfLog(inner, 's')).toBe('b')
  })

  it('after a failed write counts nothing as stored, reopens the store and writes every room whole again', async () => {
    const { writer, store, metrics, inner } = await makeWriter()
    const doc = new Y.Doc()
    doc.getText('text').insert(0, 'whole room')
    writer.rooms = () => [{ name: 'r', hasUnstored: false, takeSnapshot: () => Y.encodeStateAsUpdate(doc) }]
    let toldUnhealthy = 0
    writer.onUnhealthy = () => (toldUnhealthy += 1)
    store.failAppends = 1
    expect(await writer.append('r', insertUpdate('x', 1))).toBe(false)
    expect([writer.healthy, toldUnhealthy, metrics.storedUpdates, metrics.storageHealthy]).toEqual([false, 1, 0, 0])
    expect(await writer.append('r', insertUpdate('y', 2))).toBe(false)
    await writer.whenHealthy()
    expect(store.calls.map((call) => call.operation)).toEqual(['append', 'reopen', 'replace'])
    expect([writer.healthy, metrics.storageHealthy, metrics.storageRecoveries, metrics.storageErrors]).toEqual([true, 1, 1, 1])
    expect(await textOfLog(inner, 'r')).toBe('whole room')
    expect(await writer.append('r', insertUpdate('z', 3))).toBe(true)
    expect(metrics.storedUpdates).toBe(1)
  })
})
