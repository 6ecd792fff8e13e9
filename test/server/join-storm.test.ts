import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Socket } from 'node:net'
import * as Y from 'yjs'
import * as decoding from 'lib0/decoding'
import { Random } from '../helpers/random.ts'
import { connectClient, connectSynced, destroyAllClients, insertUpdate, openRaw, roundTrip, syncStep1, textOf, updateMessage } from './helpers/clients.ts'
import type { Client, RawSocket } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

/**
 * Issue 24 item 3: a large document's sync answer goes out in slices (server/sliced-send.ts), with
 * backpressure, round-robin among the joiners of every room; a cold room answers its waiting joiners
 * the same way. Stock y-websocket clients get each answer as one message.
 */

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 })

const SLICE = 65536
let server: ServerProcess

beforeAll(async () => {
  // Seeding a multi-MB room takes more than the per-address apply budget allows.
  server = await startServer({ env: { ANSWER_SLICE_BYTES: String(SLICE), MAX_APPLY_MS: '3600000' } })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

function randomText(random: Random, length: number): string {
  const parts: string[] = []
  let size = 0
  while (size < length) {
    const part = random.next().toString(36).slice(2)
    parts.push(part, random.bool(0.05) ? '\n' : ' ')
    size += part.length + 1
  }
  return parts.join('').slice(0, length)
}

/** Stores `text` as the room's document (one update, from a raw socket that then leaves) and returns it. */
async function seedRoom(room: string, text: string): Promise<void> {
  const seeder = await openRaw(`${server.wsUrl}/${room}`)
  seeder.ws.send(updateMessage(insertUpdate(text, 1)))
  // Answered after the update is stored (and with it).
  const answer = await roundTrip(seeder.ws)
  expect(textOf(answer).length).toBe(text.length)
  seeder.ws.close()
  await seeder.closed
}

function syncAnswerOf(raw: RawSocket): Uint8Array | null {
  for (const message of raw.received) {
    const decoder = decoding.createDecoder(message)
    if (decoding.readVarUint(decoder) === 0 && decoding.readVarUint(decoder) === 1) return decoding.readVarUint8Array(decoder)
  }
  return null
}

function socketOf(raw: RawSocket): Socket {
  return (raw.ws as unknown as { _socket: Socket })._socket
}

describe('a join storm', () => {
  it('brings every stock client to the exact text while others type, past a joiner that leaves mid-answer and one that sends garbage', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 24)
    console.log(`join storm: seed ${seed}`)
    const random = new Random(seed)
    const room = 'storm'
    await seedRoom(room, randomText(random, 3 * 1024 * 1024))
    const typists = [await connectSynced(server.wsUrl, room), await connectSynced(server.wsUrl, room)]
    const slicedBefore = await metric(server, 'cotext_sliced_answers_total')
    const closedBefore = await metric(server, 'cotext_connections_closed_total{reason="malformed"}')

    // One leaves once part of its answer has arrived; one sends a malformed frame once its answer has begun.
    const leaver = await openRaw(`${server.wsUrl}/${room}`)
    let leaverBytes = 0
    socketOf(leaver).on('data', (chunk: Buffer) => {
      leaverBytes += chunk.length
      if (leaverBytes > 2 * SLICE) leaver.ws.terminate()
    })
    leaver.ws.send(syncStep1(new Y.Doc()))
    const garbler = await openRaw(`${server.wsUrl}/${room}`)
    let garbled = false
    socketOf(garbler).on('data', () => {
      if (garbled || socketOf(garbler).bytesRead < 2 * SLICE) return
      garbled = true
      garbler.ws.send(new Uint8Array([0, 9, 9]))
    })
    garbler.ws.send(syncStep1(new Y.Doc()))

    const joiners: Client[] = []
    for (let i = 0; i < 12; i++) joiners.push(connectClient(server.wsUrl, room))
    let typing = true
    const typed = (async () => {
      for (let n = 0; typing; n++) {
        const typist = typists[n % 2]!
        typist.text.insert(random.int(typist.text.length + 1), `<${n}>`)
        await new Promise((resolve) => setTimeout(resolve, 5 + random.int(20)))
      }
    })()
    await waitFor(() => joiners.every((joiner) => joiner.provider.synced), 'every joiner to sync', 60_000)
    typing = false
    await typed

    const expected = typists[0]!.text.toString()
    await waitFor(() => [...typists, ...joiners].every((client) => client.text.toString() === typists[0]!.text.toString()), 'every client to converge', 30_000)
    expect(typists[1]!.text.toString()).toBe(typists[0]!.text.toString())
    expect(expected.length).toBeGreaterThan(3 * 1024 * 1024)
    expect(joiners.map((joiner) => joiner.closes)).toEqual(joiners.map(() => []))
    expect(await metric(server, 'cotext_sliced_answers_total')).toBeGreaterThanOrEqual(slicedBefore + joiners.length)

    expect(await garbler.closed).toEqual({ code: 4400, reason: 'malformed message' })
    expect(await metric(server, 'cotext_connections_closed_total{reason="malformed"}')).toBe(closedBefore + 1)
    expect(server.logs.some((line) => line.msg === 'closing connection: malformed message' && line.room === room)).toBe(true)
    await leaver.closed
    // Both are gone, and nothing is left going out to them.
    await waitFor(async () => (await metric(server, 'cotext_connections')) === typists.length + joiners.length, 'the leaver and the garbler to be gone')
    await waitFor(async () => (await metric(server, 'cotext_sliced_answers_active')) === 0, 'no answer in progress')
  })

  it('holds a joiner that does not read to two slices unwritten, serves the others meanwhile, and finishes once it reads', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 25)
    console.log(`paused joiner: seed ${seed}`)
    const random = new Random(seed)
    const room = 'paused'
    const text = randomText(random, 12 * 1024 * 1024)
    await seedRoom(room, text)

    const paused = await openRaw(`${server.wsUrl}/${room}`)
    socketOf(paused).pause()
    paused.ws.send(syncStep1(new Y.Doc()))
    await waitFor(async () => (await metric(server, 'cotext_sliced_answers_active')) === 1, 'its answer to start')

    // Others join the same room, and another room keeps answering.
    const others = await Promise.all([0, 1, 2].map(() => connectSynced(server.wsUrl, room)))
    for (const other of others) expect(other.text.length).toBe(text.length)
    const [a, b] = [await connectSynced(server.wsUrl, 'elsewhere'), await connectSynced(server.wsUrl, 'elsewhere')]
    a!.text.insert(0, 'still here')
    await waitFor(() => b!.text.toString() === 'still here', 'the other room to relay')

    // The paused joiner's answer is still going out, and the server holds no more than two slices of it unwritten.
    expect(await metric(server, 'cotext_sliced_answers_active')).toBe(1)
    expect(syncAnswerOf(paused)).toBeNull()
    expect(await metric(server, 'cotext_sliced_answer_unwritten_bytes_peak')).toBeLessThanOrEqual(2 * SLICE)

    socketOf(paused).resume()
    await waitFor(() => syncAnswerOf(paused) !== null, 'the paused joiner to get its answer once it reads', 30_000)
    expect(textOf(syncAnswerOf(paused)!)).toBe(text)
    await waitFor(async () => (await metric(server, 'cotext_sliced_answers_active')) === 0, 'no answer in progress')
    expect(await metric(server, 'cotext_sliced_answer_unwritten_bytes_peak')).toBeLessThanOrEqual(2 * SLICE)
    paused.ws.close()
    await paused.closed
  })

  it('answers the joiners waiting for a room loaded from disk through the same slices, and a bystander room answers throughout', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 26)
    console.log(`cold room: seed ${seed}`)
    const random = new Random(seed)
    const room = 'cold'
    const text = randomText(random, 4 * 1024 * 1024)
    await seedRoom(room, text)
    await waitFor(async () => (await metric(server, 'cotext_rooms')) === 0, 'the room to be stored and unloaded')
    const loadedBefore = await metric(server, 'cotext_rooms_loaded_total')
    const slicedBefore = await metric(server, 'cotext_sliced_answers_total')

    const [a, b] = [await connectSynced(server.wsUrl, 'bystander'), await connectSynced(server.wsUrl, 'bystander')]
    const joiners: Client[] = []
    for (let i = 0; i < 10; i++) joiners.push(connectClient(server.wsUrl, room))
    let relayed = 0
    for (let i = 0; !joiners.every((joiner) => joiner.provider.synced); i++) {
      if (i > 2000) throw new Error('the joiners never synced')
      a!.text.insert(0, 'x')
      await waitFor(() => b!.text.length === a!.text.length, 'the bystander room to relay', 30_000)
      relayed += 1
    }
    console.log(`cold room: the bystander room relayed ${relayed} edits while the joiners synced`)
    for (const joiner of joiners) expect(joiner.text.toString()).toBe(text)
    expect(await metric(server, 'cotext_rooms_loaded_total')).toBe(loadedBefore + 2)
    expect(await metric(server, 'cotext_sliced_answers_total')).toBeGreaterThanOrEqual(slicedBefore + joiners.length)
    expect(relayed).toBeGreaterThan(0)
  })
})
