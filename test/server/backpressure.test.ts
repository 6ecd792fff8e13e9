import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Socket } from 'node:net'
import * as Y from 'yjs'
import * as decoding from 'lib0/decoding'
import { Random } from '../helpers/random.ts'
import { connectSynced, destroyAllClients, insertUpdate, openRaw, roundTrip, syncStep1, updateMessage } from './helpers/clients.ts'
import type { RawSocket } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

/** Issue 10 item 5: a client that does not read is cut; sync step 1 and awareness queries are rate-limited. */

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 })

const MAX_BUFFERED_BYTES = 65536
let server: ServerProcess

beforeAll(async () => {
  server = await startServer({ env: { MAX_BUFFERED_BYTES: String(MAX_BUFFERED_BYTES) } })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

const QUERY_AWARENESS = new Uint8Array([3])

function kind(message: Uint8Array): string {
  const decoder = decoding.createDecoder(message)
  const type = decoding.readVarUint(decoder)
  if (type !== 0) return type === 1 ? 'awareness' : String(type)
  return ['sync-step-1', 'sync-step-2', 'update'][decoding.readVarUint(decoder)] ?? 'sync?'
}

function randomText(random: Random, length: number): string {
  let text = ''
  while (text.length < length) text += random.next().toString(36).slice(2)
  return text.slice(0, length)
}

/** Resolves once `raw` has received a message of `type` beyond the first `after`. */
function receivedKind(raw: RawSocket, type: string, after = 0): Promise<void> {
  return waitFor(() => raw.received.filter((message) => kind(message) === type).length > after, `a ${type} message`)
}

describe('a client that stops reading', () => {
  it('is cut once MAX_BUFFERED_BYTES are waiting for it, and a bystander keeps receiving every update', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 5)
    console.log(`backpressure: seed ${seed}`)
    const random = new Random(seed)
    const room = 'busy'
    const writer = await connectSynced(server.wsUrl, room)
    writer.text.insert(0, randomText(random, 1 << 20))
    const bystander = await connectSynced(server.wsUrl, room)
    await waitFor(() => bystander.text.length === writer.text.length, 'the bystander to receive the document')

    // The attack from the issue: pause the socket, then ask for the whole document again and again.
    const attacker = await openRaw(`${server.wsUrl}/${room}`)
    await receivedKind(attacker, 'sync-step-1')
    ;(attacker.ws as unknown as { _socket: Socket })._socket.pause()
    const lines = server.logs.length
    const latencies: number[] = []
    for (let i = 0; (await metric(server, 'cotext_connections_closed_total{reason="slow_reader"}')) === 0; i++) {
      if (i > 400) throw new Error('the attacker was never cut')
      attacker.ws.send(syncStep1(new Y.Doc()))
      // Meanwhile the room stays busy: the bystander must get every edit.
      const before = bystander.text.length
      const sentAt = performance.now()
      writer.text.insert(random.int(writer.text.length), randomText(random, 1 + random.int(200)))
      await waitFor(() => bystander.text.length > before, 'the bystander to receive an edit')
      latencies.push(performance.now() - sentAt)
      await new Promise((resolve) => setTimeout(resolve, random.int(50)))
    }
    latencies.sort((a, b) => a - b)
    console.log(`backpressure: ${latencies.length} edits while the attacker read nothing; bystander latency median ${latencies[latencies.length >> 1]!.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`)
    const cut = server.logs.slice(lines).find((line) => line.msg === 'dropping a connection that does not read what it is sent (MAX_BUFFERED_BYTES)')!
    expect(cut.max).toBe(MAX_BUFFERED_BYTES)
    expect(cut.buffered as number).toBeGreaterThan(MAX_BUFFERED_BYTES)

    writer.text.insert(0, 'after the cut')
    await waitFor(() => bystander.text.toString() === writer.text.toString(), 'the bystander to catch up')
    expect(await metric(server, 'cotext_connections')).toBe(2)
    expect([writer.closes, bystander.closes]).toEqual([[], []])
  })
})

describe('requests whose answers cost more than they do', () => {
  it('answers at most 8 sync step 1 and 8 awareness queries in a burst, and drops the rest', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 55)
    console.log(`rate limits: seed ${seed}`)
    const random = new Random(seed)
    // A raw writer: a stock client would publish awareness, and its relays would mix with the answers.
    const writer = await openRaw(`${server.wsUrl}/asked-often`)
    writer.ws.send(updateMessage(insertUpdate(randomText(random, 1000))))
    await roundTrip(writer.ws)
    const raw = await openRaw(`${server.wsUrl}/asked-often`)
    await receivedKind(raw, 'sync-step-1')
    const droppedBefore = await metric(server, 'cotext_messages_dropped_total{reason="rate_limited"}')
    const requests = 12 + random.int(20)
    for (let i = 0; i < requests; i++) raw.ws.send(syncStep1(new Y.Doc()))
    for (let i = 0; i < requests; i++) raw.ws.send(QUERY_AWARENESS)
    // The server handles a socket's frames in order: once the 8th query is answered, all were seen.
    await waitFor(() => raw.received.filter((message) => kind(message) === 'awareness').length === 8, 'eight awareness answers')
    expect(raw.received.filter((message) => kind(message) === 'sync-step-2').length).toBe(8)
    expect(await metric(server, 'cotext_messages_dropped_total{reason="rate_limited"}')).toBe(droppedBefore + 2 * (requests - 8))
    expect(raw.ws.readyState).toBe(raw.ws.OPEN)
  })
})
