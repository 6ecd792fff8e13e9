import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { Random } from '../helpers/random.ts'
import { connectSynced, destroyAllClients, openRaw, roundTrip, textIn, updateMessage } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

/** Issue 10 item 7: updates whose dependencies never arrive may not pile up in a room. */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const MAX_PENDING_BYTES = 64 * 1024
let server: ServerProcess

beforeAll(async () => {
  server = await startServer({ env: { MAX_PENDING_BYTES: String(MAX_PENDING_BYTES) } })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

/**
 * Two updates from one Yjs client: `dependency` inserts `first`, `dependent` appends `rest` to
 * it. Sent alone, `dependent` waits in the room until `dependency` arrives.
 */
function dependentPair(clientID: number, first: string, rest: string): { dependency: Uint8Array; dependent: Uint8Array } {
  const doc = new Y.Doc()
  doc.clientID = clientID
  doc.getText('text').insert(0, first)
  const dependency = Y.encodeStateAsUpdate(doc)
  const vector = Y.encodeStateVector(doc)
  doc.getText('text').insert(first.length, rest)
  const dependent = Y.encodeStateAsUpdate(doc, vector)
  doc.destroy()
  return { dependency, dependent }
}

describe('pending updates', () => {
  it('past MAX_PENDING_BYTES, the sender is closed with 4413 and what it left pending is dropped; others\' stays', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 7)
    console.log(`pending limit: seed ${seed}`)
    const random = new Random(seed)
    const room = 'never-resolved'
    const writer = await connectSynced(server.wsUrl, room)
    writer.text.insert(0, 'honest text.')

    // Another client's update waits for its dependency, which it sends later: it must survive.
    const patient = await openRaw(`${server.wsUrl}/${room}`)
    const late = dependentPair(5000, 'D', '[late but kept]')
    patient.ws.send(updateMessage(late.dependent))
    await roundTrip(patient.ws)

    const attacker = await openRaw(`${server.wsUrl}/${room}`)
    const lines = server.logs.length
    const withheld: Uint8Array[] = []
    let sent = 0
    let closed: { code: number; reason: string } | null = null
    void attacker.closed.then((event) => (closed = event))
    while (closed === null) {
      if (sent > 100) throw new Error('the attacker was never closed')
      const pair = dependentPair(9000 + sent, 'Z', 'q'.repeat(2000 + random.int(20_000)))
      withheld.push(pair.dependency)
      attacker.ws.send(updateMessage(pair.dependent))
      sent += 1
      await new Promise((resolve) => setTimeout(resolve, random.int(20)))
    }
    expect(closed).toEqual({ code: 4413, reason: 'too many unresolved updates' })
    const line = server.logs.slice(lines).find((entry) => entry.msg.startsWith('closing connection: its updates wait for dependencies'))!
    expect([line.code, line.max, line.othersDropped, line.room]).toEqual([4413, MAX_PENDING_BYTES, 0, room])
    expect(line.pendingBytes as number).toBeGreaterThan(MAX_PENDING_BYTES)
    // What is kept is the patient client's small update, nothing of the attacker's.
    expect(line.keptBytes as number).toBeLessThan(200)
    console.log(`pending limit: closed after ${sent} updates (${line.pendingBytes} bytes pending), ${line.keptBytes} bytes kept`)
    expect(await metric(server, 'cotext_connections_closed_total{reason="pending_limit"}')).toBe(1)

    // The dependencies arrive after all: the patient client's text appears, the attacker's does not.
    patient.ws.send(updateMessage(late.dependency))
    const helper = await openRaw(`${server.wsUrl}/${room}`)
    for (const dependency of withheld) helper.ws.send(updateMessage(dependency))
    await roundTrip(patient.ws)
    await roundTrip(helper.ws)
    await waitFor(() => writer.text.toString().includes('[late but kept]'), 'the patient update to resolve')
    const text = await textIn(server, room)
    expect(text).toContain('honest text.')
    expect(text).toContain('D[late but kept]')
    expect(text.includes('q')).toBe(false)
    expect(text.split('Z').length - 1).toBe(withheld.length)
    expect(writer.closes).toEqual([])
  })
})
