import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import * as decoding from 'lib0/decoding'
import { AWARENESS_BURST } from '../../server/awareness-throttle.ts'
import { encodeAwarenessEntries } from '../../server/protocol.ts'
import { awarenessMessage, destroyAllClients, openRaw, syncStep1 } from './helpers/clients.ts'
import type { RawSocket } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { sleep, waitFor } from './helpers/wait-for.ts'

/**
 * Issue 24 item 4: an idle connection holds little, because its rate limits, awareness throttle and
 * logger are made only when it first needs them, and the server's event handlers are shared. A
 * connection that wakes up after idling must get each of them, its own, as a busy one always had.
 */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const MAX_MESSAGE_BYTES = 64 * 1024
let server: ServerProcess

beforeAll(async () => {
  server = await startServer({ env: { MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES) } })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

function kind(message: Uint8Array): string {
  const decoder = decoding.createDecoder(message)
  const type = decoding.readVarUint(decoder)
  if (type !== 0) return type === 1 ? 'awareness' : String(type)
  return ['sync-step-1', 'sync-step-2', 'update'][decoding.readVarUint(decoder)] ?? 'sync?'
}

const count = (raw: RawSocket, type: string): number => raw.received.filter((message) => kind(message) === type).length

/** The states of `clientId` in the awareness messages `raw` received, in order. */
function statesOf(raw: RawSocket, clientId: number): unknown[] {
  const states: unknown[] = []
  for (const message of raw.received) {
    if (kind(message) !== 'awareness') continue
    const decoder = decoding.createDecoder(message)
    decoding.readVarUint(decoder)
    const update = decoding.createDecoder(decoding.readVarUint8Array(decoder))
    for (let n = decoding.readVarUint(update); n > 0; n--) {
      const id = decoding.readVarUint(update)
      decoding.readVarUint(update)
      const state = JSON.parse(decoding.readVarString(update)) as unknown
      if (id === clientId) states.push(state)
    }
  }
  return states
}

function publish(raw: RawSocket, clientId: number, clock: number, state: unknown): void {
  raw.ws.send(awarenessMessage(encodeAwarenessEntries([{ clientId, clock, state: JSON.stringify(state) }])))
}


describe('a connection that wakes up after idling', () => {
  it('gets its own sync rate limit: 8 requests answered, the rest dropped, whatever another connection did', async () => {
    const a = await openRaw(`${server.wsUrl}/quiet-sync`)
    const b = await openRaw(`${server.wsUrl}/quiet-sync`)
    await waitFor(() => count(a, 'sync-step-1') === 1 && count(b, 'sync-step-1') === 1, 'both greeted')
    await sleep(1200)
    const droppedBefore = await metric(server, 'cotext_messages_dropped_total{reason="rate_limited"}')
    for (let i = 0; i < 12; i++) a.ws.send(syncStep1(new Y.Doc()))
    await waitFor(() => count(a, 'sync-step-2') === 8, "a's eight answers")
    await waitFor(async () => (await metric(server, 'cotext_messages_dropped_total{reason="rate_limited"}')) === droppedBefore + 4, "a's four requests dropped")
    // b asks as many as its own burst allows: none of a's spending is b's.
    for (let i = 0; i < 8; i++) b.ws.send(syncStep1(new Y.Doc()))
    await waitFor(() => count(b, 'sync-step-2') === 8, "b's eight answers")
    expect(await metric(server, 'cotext_messages_dropped_total{reason="rate_limited"}')).toBe(droppedBefore + 4)
    expect(count(a, 'sync-step-2')).toBe(8)
  })

  it('gets its own awareness throttle: a flood past the burst is coalesced and its last state arrives; another connection keeps its whole burst', async () => {
    const a = await openRaw(`${server.wsUrl}/quiet-presence`)
    const b = await openRaw(`${server.wsUrl}/quiet-presence`)
    await waitFor(() => count(a, 'sync-step-1') === 1 && count(b, 'sync-step-1') === 1, 'both greeted')
    await sleep(1200)
    const coalescedBefore = await metric(server, 'cotext_messages_dropped_total{reason="awareness_coalesced"}')
    const flood = AWARENESS_BURST + 15
    for (let clock = 1; clock <= flood; clock++) publish(a, 501, clock, { n: clock })
    await waitFor(() => statesOf(b, 501).at(-1) !== undefined && (statesOf(b, 501).at(-1) as { n: number }).n === flood, "a's last state at b")
    const coalesced = (await metric(server, 'cotext_messages_dropped_total{reason="awareness_coalesced"}')) - coalescedBefore
    expect(coalesced).toBeGreaterThan(0)
    // b's first burst is its own: nothing of it is held back, so nothing is coalesced.
    for (let clock = 1; clock <= AWARENESS_BURST; clock++) publish(b, 502, clock, { n: clock })
    await waitFor(() => statesOf(a, 502).at(-1) !== undefined && (statesOf(a, 502).at(-1) as { n: number }).n === AWARENESS_BURST, "b's last state at a")
    expect((await metric(server, 'cotext_messages_dropped_total{reason="awareness_coalesced"}')) - coalescedBefore).toBe(coalesced)
    // Neither connection got its own states back.
    expect([statesOf(a, 501).length, statesOf(b, 502).length]).toEqual([0, 0])
  })

  it('logs a refusal with its own connection id and room', async () => {
    const a = await openRaw(`${server.wsUrl}/quiet-log`)
    await waitFor(() => count(a, 'sync-step-1') === 1, 'greeted')
    await sleep(500)
    a.ws.send(new Uint8Array(MAX_MESSAGE_BYTES + 1))
    expect((await a.closed).code).toBe(1009)
    await waitFor(() => server.logs.some((line) => line.msg === 'closing connection: message too large' && line.room === 'quiet-log'), 'the log line')
    const line = server.logs.find((entry) => entry.msg === 'closing connection: message too large' && entry.room === 'quiet-log')!
    expect({ level: line.level, kind: line.kind, code: line.code, conn: typeof line.conn }).toEqual({ level: 40, kind: 'too_large', code: 1009, conn: 'number' })
  })
})
