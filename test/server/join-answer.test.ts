import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { Random } from '../helpers/random.ts'
import * as decoding from 'lib0/decoding'
import { connectClient, connectSynced, destroyAllClients, insertUpdate, openRaw, roundTrip, syncStep1, textIn, textOf, updateMessage } from './helpers/clients.ts'
import type { Client } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

/**
 * Issue 24 item 3: a large document's sync answers are encoded in the answer thread (answer-source.ts),
 * never in one step on the event loop. Whatever the joiners are answered with, they end with exactly the
 * room's state while others type, whether the room was loaded or comes from disk, and whether they join
 * with nothing or with part of the document; and what they saw is stored (a SIGKILL loses none of it).
 */

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 })

/** A small threshold, so that megabyte rooms are mirrored in the thread. */
const ENV = { ANSWER_WORKER_BYTES: String(256 * 1024), ANSWER_SLICE_BYTES: '65536', MAX_APPLY_MS: '3600000' }

afterEach(destroyAllClients)
afterAll(stopAllServers)

function randomText(random: Random, length: number): string {
  let text = ''
  while (text.length < length) text += random.next().toString(36).slice(2) + (random.bool(0.05) ? '\n' : ' ')
  return text.slice(0, length)
}

async function seedRoom(server: ServerProcess, room: string, text: string): Promise<void> {
  const seeder = await openRaw(`${server.wsUrl}/${room}`)
  seeder.ws.send(updateMessage(insertUpdate(text, 1)))
  expect(textOf(await roundTrip(seeder.ws)).length).toBe(text.length)
  seeder.ws.close()
  await seeder.closed
}

/** The text of a document that applied every sync step 2 and update among `messages`, in order. */
function textReceived(messages: Uint8Array[]): string {
  const doc = new Y.Doc()
  for (const message of messages) {
    const decoder = decoding.createDecoder(message)
    if (decoding.readVarUint(decoder) === 0 && decoding.readVarUint(decoder) > 0) Y.applyUpdate(doc, decoding.readVarUint8Array(decoder))
  }
  return doc.getText('text').toString()
}

/** Answers the room's thread gave so far, from the server's log. */
const threadAnswers = (server: ServerProcess, room: string): number =>
  server.logs.filter((line) => line.msg === 'sync answer encoded in the answer thread' && line.room === room).length

/**
 * Two typists insert numbered markers at seeded places until `until` resolves; returns the markers typed.
 * Each marker is `<typist.n>`, so that the final text shows whether any was lost or doubled.
 */
async function typeUntil(typists: Client[], random: Random, until: Promise<unknown>): Promise<string[]> {
  const markers: string[] = []
  let typing = true
  void until.finally(() => (typing = false))
  for (let n = 0; typing; n++) {
    const index = n % typists.length
    const typist = typists[index]!
    const marker = `<${index}.${n}>`
    typist.text.insert(random.int(typist.text.length + 1), marker)
    markers.push(marker)
    await new Promise((resolve) => setTimeout(resolve, 3 + random.int(15)))
  }
  return markers
}

/** Every client has the same text and the same state vector, and every marker is in it exactly once. */
async function expectConverged(clients: Client[], markers: string[]): Promise<string> {
  const first = clients[0]!
  await waitFor(() => clients.every((client) => client.text.toString() === first.text.toString()), 'every client to converge', 60_000)
  const text = first.text.toString()
  const vector = Y.encodeStateVector(first.doc)
  for (const client of clients) expect(Y.encodeStateVector(client.doc)).toEqual(vector)
  const counts = markers.map((marker) => text.split(marker).length - 1)
  expect(counts).toEqual(markers.map(() => 1))
  return text
}

describe('sync answers from the answer thread', () => {
  it('bring joiners of a loaded large room to exactly its state while two typists write, and a SIGKILL loses nothing they saw', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 41)
    console.log(`warm room: seed ${seed}`)
    const random = new Random(seed)
    const server = await startServer({ env: ENV })
    const room = 'warm'
    await seedRoom(server, room, randomText(random, 2 * 1024 * 1024))
    const typists = [await connectSynced(server.wsUrl, room), await connectSynced(server.wsUrl, room)]
    const before = threadAnswers(server, room)

    const joiners: Client[] = []
    const joined = (async () => {
      // In waves, so that some ask while the document changes under an answer being encoded.
      for (let wave = 0; wave < 4; wave++) {
        for (let i = 0; i < 4; i++) joiners.push(connectClient(server.wsUrl, room))
        await new Promise((resolve) => setTimeout(resolve, 50 + random.int(200)))
      }
      await waitFor(() => joiners.every((joiner) => joiner.provider.synced), 'every joiner to sync', 60_000)
    })()
    const markers = await typeUntil(typists, random, joined)
    await joined
    const text = await expectConverged([...typists, ...joiners], markers)
    expect(joiners.map((joiner) => joiner.closes)).toEqual(joiners.map(() => []))
    expect(threadAnswers(server, room)).toBeGreaterThan(before)

    // Everything any client saw was stored before it was sent.
    await server.stop('SIGKILL')
    const again = await startServer({ env: ENV, dataDir: server.dataDir })
    expect(await textIn(again, room)).toBe(text)
  })

  it('bring the joiners waiting for a large room loaded from disk to exactly its state while the first of them type', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 42)
    console.log(`cold room: seed ${seed}`)
    const random = new Random(seed)
    const server = await startServer({ env: ENV })
    const room = 'cold'
    await seedRoom(server, room, randomText(random, 2 * 1024 * 1024))
    await waitFor(async () => (await metric(server, 'cotext_rooms')) === 0, 'the room to be stored and unloaded')

    const joiners: Client[] = []
    for (let i = 0; i < 12; i++) joiners.push(connectClient(server.wsUrl, room))
    // The first two type as soon as they have the document, while the others are still being answered.
    const typists = joiners.slice(0, 2)
    await waitFor(() => typists.every((typist) => typist.provider.synced), 'the typists to sync', 60_000)
    const markers = await typeUntil(typists, random, waitFor(() => joiners.every((joiner) => joiner.provider.synced), 'every joiner to sync', 60_000))
    const text = await expectConverged(joiners, markers)
    expect(threadAnswers(server, room)).toBeGreaterThan(0)

    await server.stop('SIGKILL')
    const again = await startServer({ env: ENV, dataDir: server.dataDir })
    expect(await textIn(again, room)).toBe(text)
  })

  it('reach a joiner before anything relayed to it while its answer was being encoded', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 44)
    console.log(`answer first: seed ${seed}`)
    const random = new Random(seed)
    const server = await startServer({ env: ENV })
    const room = 'first'
    await seedRoom(server, room, randomText(random, 2 * 1024 * 1024))
    const typist = await connectSynced(server.wsUrl, room)
    const joiner = await openRaw(`${server.wsUrl}/${room}`)
    // Seen as the greeting arrives: the joiner is in the room, so what the typist writes from now on is relayed to it.
    await waitFor(() => joiner.received.length > 0, 'the greeting')
    // An edit first, so that the answer kept from the typist's join is out of date and a new one is encoded.
    typist.text.insert(0, '<first>')
    await waitFor(() => joiner.received.some((message) => message[0] === 0 && message[1] === 2), 'the first edit relayed')
    joiner.received.length = 0
    const before = threadAnswers(server, room)
    joiner.ws.send(syncStep1(new Y.Doc()))
    for (let i = 0; threadAnswers(server, room) === before; i++) {
      if (i > 2000) throw new Error('the thread never answered')
      typist.text.insert(random.int(typist.text.length + 1), `<${i}>`)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    typist.text.insert(0, '<last>')
    await waitFor(() => textReceived(joiner.received).includes('<last>'), 'the last edit')
    expect(textReceived(joiner.received)).toBe(typist.text.toString())
    // Presence (the typist's renewals) may come at any time; the document's messages are what count.
    const kinds = joiner.received.filter((message) => message[0] === 0).map((message) => ['step 1', 'step 2', 'update'][message[1]!])
    // The answer, then the relays of what was written while it was encoded.
    expect(kinds[0]).toBe('step 2')
    expect(kinds.slice(1).every((kind) => kind === 'update')).toBe(true)
    expect(kinds.length).toBeGreaterThan(1)
    joiner.ws.close()
    await server.stop()
  })

  it('bring a client that comes back with part of the document to exactly the room state, with what it wrote while away', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 43)
    console.log(`returning client: seed ${seed}`)
    const random = new Random(seed)
    const server = await startServer({ env: ENV })
    const room = 'return'
    await seedRoom(server, room, randomText(random, 1024 * 1024))
    const [stay, away] = [await connectSynced(server.wsUrl, room), await connectSynced(server.wsUrl, room)]
    away!.provider.disconnect()
    // While it is away, 400 KB more arrive (more than the event loop encodes at once), and it writes offline.
    stay!.text.insert(random.int(stay!.text.length), randomText(random, 400 * 1024))
    away!.text.insert(random.int(away!.text.length), '<offline>')
    const before = threadAnswers(server, room)
    const typing = typeUntil([stay!], random, (async () => {
      away!.provider.connect()
      await waitFor(() => away!.provider.synced, 'the returning client to sync', 60_000)
    })())
    const markers = [...(await typing), '<offline>']
    await expectConverged([stay!, away!], markers)
    expect(threadAnswers(server, room)).toBeGreaterThan(before)
    await server.stop()
  })
})
