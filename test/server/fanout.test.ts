import * as Y from 'yjs'
import * as decoding from 'lib0/decoding'
import * as awarenessProtocol from 'y-protocols/awareness'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { Random } from '../helpers/random.ts'
import { type RawSocket, awarenessMessage, connectSynced, destroyAllClients, openRaw, roundTrip, updateMessage } from './helpers/clients.ts'
import { makeTempDir, metric, startServer, stopAllServers } from './helpers/server-process.ts'
import { sleep, waitFor } from './helpers/wait-for.ts'

// Real server processes and a dozen clients each; a busy machine can make that slow.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 30_000 })

afterEach(destroyAllClients)
afterAll(stopAllServers)

/** The relayed document updates (sync "update" messages, not sync answers) among what a raw socket received. */
function receivedUpdates(socket: RawSocket): Uint8Array[] {
  const updates: Uint8Array[] = []
  for (const message of socket.received) {
    const decoder = decoding.createDecoder(message)
    if (decoding.readVarUint(decoder) !== 0 || decoding.readVarUint(decoder) !== 2) continue
    updates.push(decoding.readVarUint8Array(decoder))
  }
  return updates
}

/** The awareness entries among what a raw socket received, one array per message. */
function receivedAwareness(socket: RawSocket): Array<Array<{ clientId: number; clock: number; state: unknown }>> {
  const messages: Array<Array<{ clientId: number; clock: number; state: unknown }>> = []
  for (const message of socket.received) {
    const decoder = decoding.createDecoder(message)
    if (decoding.readVarUint(decoder) !== 1) continue
    const update = decoding.createDecoder(decoding.readVarUint8Array(decoder))
    const entries: Array<{ clientId: number; clock: number; state: unknown }> = []
    for (let n = decoding.readVarUint(update); n > 0; n--) {
      entries.push({ clientId: decoding.readVarUint(update), clock: decoding.readVarUint(update), state: JSON.parse(decoding.readVarString(update)) })
    }
    messages.push(entries)
  }
  return messages
}

/** Every [client, clock] a list of updates carries, counted: a duplicate shows as a count above 1. */
function structCounts(updates: readonly Uint8Array[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const update of updates) {
    for (const struct of Y.decodeUpdate(update).structs) {
      for (let clock = struct.id.clock; clock < struct.id.clock + struct.length; clock++) {
        const key = `${struct.id.client}:${clock}`
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
    }
  }
  return counts
}

describe('batched fan-out of document updates', () => {
  it('loses, reorders and duplicates nothing, never echoes a sender, and sends fewer frames than updates (seeded)', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 100_000)
    console.log(`fanout seed ${seed}`)
    const random = new Random(seed)
    const server = await startServer({ env: { FANOUT_WINDOW_MS: '30' } })
    const room = 'hot-room'
    // Stock clients typing, and raw writers whose every relay is inspected.
    const typists = await Promise.all(Array.from({ length: 6 }, () => connectSynced(server.wsUrl, room)))
    const writers = await Promise.all(Array.from({ length: 6 }, () => openRaw(`${server.wsUrl}/${room}`)))
    const watcher = await openRaw(`${server.wsUrl}/${room}`)
    for (const socket of [...writers, watcher]) await roundTrip(socket.ws)
    for (const socket of [...writers, watcher]) socket.received.length = 0
    const writerDocs = writers.map((_, i) => {
      const doc = new Y.Doc()
      doc.clientID = 1_000 + i
      return doc
    })
    let sent = 0
    let characters = 0
    for (let burst = 0; burst < 20; burst++) {
      for (let i = 0; i < typists.length; i++) {
        const text = typists[i]!.text
        text.insert(random.int(text.length + 1), String.fromCharCode(97 + random.int(26)))
        sent += 1
        characters += 1
      }
      for (let i = 0; i < writers.length; i++) {
        const doc = writerDocs[i]!
        const before = Y.encodeStateVector(doc)
        const piece = `w${i}.${burst};`
        doc.getText('text').insert(0, piece)
        writers[i]!.ws.send(updateMessage(Y.encodeStateAsUpdate(doc, before)))
        sent += 1
        characters += piece.length
      }
      await sleep(random.int(15))
    }
    const final = () => typists[0]!.text.toString()
    await waitFor(() => final().length === characters && typists.every((t) => t.text.toString() === final()), 'the typists to converge')
    await waitFor(() => {
      const all = new Y.Doc()
      for (const update of receivedUpdates(watcher)) Y.applyUpdate(all, update)
      return all.getText('text').length === characters
    }, 'the watcher to hold every update')
    // A relay still in its window arrives before the next one: wait out one more window.
    await sleep(100)

    // The watcher, who wrote nothing, got every update exactly once, and the same text as everyone.
    const watcherDoc = new Y.Doc()
    const watcherUpdates = receivedUpdates(watcher)
    for (const update of watcherUpdates) Y.applyUpdate(watcherDoc, update)
    expect(watcherDoc.getText('text').toString()).toBe(typists[0]!.text.toString())
    expect([...structCounts(watcherUpdates).values()].filter((count) => count > 1)).toEqual([])
    // No writer got its own structs back, and each got everyone else's.
    for (let i = 0; i < writers.length; i++) {
      const relays = receivedUpdates(writers[i]!)
      const own = [...structCounts(relays).keys()].filter((key) => key.startsWith(`${1_000 + i}:`))
      expect({ writer: i, own }).toEqual({ writer: i, own: [] })
      const doc = new Y.Doc()
      doc.clientID = 1_000 + i
      Y.applyUpdate(doc, Y.encodeStateAsUpdate(writerDocs[i]!))
      for (const update of relays) Y.applyUpdate(doc, update)
      expect(doc.getText('text').toString()).toBe(typists[0]!.text.toString())
    }
    // Batching happened: fewer relay frames than updates relayed.
    const batches = await metric(server, 'cotext_relay_batches_total')
    const batched = await metric(server, 'cotext_relay_batched_updates_total')
    expect(batched).toBeGreaterThanOrEqual(sent)
    expect(batches).toBeLessThan(batched)
    expect(watcherUpdates.length).toBeLessThan(sent)
  })

  it('loses nothing another client saw when the server is SIGKILLed mid-batch', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 100_000)
    console.log(`fanout kill seed ${seed}`)
    const random = new Random(seed)
    const dataDir = makeTempDir()
    const server = await startServer({ dataDir, env: { FANOUT_WINDOW_MS: '50' } })
    const room = 'killed-mid-batch'
    const typists = await Promise.all(Array.from({ length: 8 }, () => connectSynced(server.wsUrl, room)))
    const observer = await connectSynced(server.wsUrl, room)
    let typing = true
    const typed = typists.map(async (typist, i) => {
      for (let n = 0; typing; n++) {
        typist.text.insert(random.int(typist.text.length + 1), String.fromCharCode(97 + ((i + n) % 26)))
        await sleep(random.int(6))
      }
    })
    // Kill once the observer has seen some of the typing (so the check below has something to check).
    await waitFor(() => observer.text.length > 0, 'the observer to see some typing')
    await sleep(random.int(400))
    await server.stop('SIGKILL')
    await waitFor(() => !observer.provider.wsconnected, 'the observer to see the server gone')
    const seen = Y.encodeStateVector(observer.doc)
    typing = false
    await Promise.all(typed)
    for (const typist of typists) typist.destroy()
    const seenText = observer.text.toString()
    observer.destroy()

    const restarted = await startServer({ dataDir })
    const fresh = await connectSynced(restarted.wsUrl, room)
    // Everything the observer had is stored: the stored state vector covers the observer's.
    const stored = Y.decodeStateVector(Y.encodeStateVector(fresh.doc))
    // Each as [client, clock seen, clock stored], so that a failure says how far behind the store is.
    const missing = [...Y.decodeStateVector(seen)].filter(([client, clock]) => (stored.get(client) ?? 0) < clock).map(([client, clock]) => [client, clock, stored.get(client) ?? 0])
    expect({ seenLength: seenText.length > 0, missing }).toEqual({ seenLength: true, missing: [] })
    fresh.destroy()
    await restarted.stop('SIGTERM')
  })
})

describe('batched presence', () => {
  it('coalesces each client\'s states per window, keeps the last one, echoes no one, and reaches everyone', async () => {
    const server = await startServer({ env: { FANOUT_WINDOW_MS: '40' } })
    const room = 'presence-storm'
    const movers = await Promise.all(Array.from({ length: 8 }, () => openRaw(`${server.wsUrl}/${room}`)))
    const watcher = await openRaw(`${server.wsUrl}/${room}`)
    for (const socket of [...movers, watcher]) await roundTrip(socket.ws)
    for (const socket of [...movers, watcher]) socket.received.length = 0
    const moves = 25
    for (let move = 1; move <= moves; move++) {
      movers.forEach((socket, i) => {
        const doc = new Y.Doc()
        doc.clientID = 2_000 + i
        const awareness = new awarenessProtocol.Awareness(doc)
        // Set the clock directly: each publication a newer state of the same client.
        awareness.setLocalState({ cursor: move })
        awareness.meta.set(doc.clientID, { clock: move, lastUpdated: 0 })
        socket.ws.send(awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(awareness, [doc.clientID])))
        awareness.destroy()
      })
      await sleep(2)
    }
    await waitFor(() => {
      const last = new Map<number, unknown>()
      for (const entries of receivedAwareness(watcher)) for (const entry of entries) last.set(entry.clientId, entry.state)
      return movers.every((_, i) => JSON.stringify(last.get(2_000 + i)) === JSON.stringify({ cursor: moves }))
    }, 'the watcher to see every mover\'s last state')
    const watcherFrames = receivedAwareness(watcher)
    // Fewer frames than publications (25 x 8 = 200), each client at most once per frame.
    expect(watcherFrames.length).toBeLessThan(moves * movers.length)
    for (const entries of watcherFrames) expect(new Set(entries.map((e) => e.clientId)).size).toBe(entries.length)
    // Every mover saw the others' last states and never its own.
    for (let i = 0; i < movers.length; i++) {
      await roundTrip(movers[i]!.ws)
      const frames = receivedAwareness(movers[i]!)
      const own = frames.flat().filter((entry) => entry.clientId === 2_000 + i)
      const last = new Map<number, unknown>()
      for (const entry of frames.flat()) last.set(entry.clientId, entry.state)
      expect({ mover: i, own: own.length, others: [...last.keys()].sort() }).toEqual({
        mover: i,
        own: 0,
        others: movers.map((_, k) => 2_000 + k).filter((id) => id !== 2_000 + i),
      })
      for (const [, state] of last) expect(state).toEqual({ cursor: moves })
    }
    expect(await metric(server, 'cotext_presence_batches_total')).toBeLessThan(moves * movers.length)
  })
})
