import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { WebSocket } from 'ws'
import { encodeAwarenessEntries } from '../../server/protocol.ts'
import { awarenessMessage, connectSynced, destroyAllClients, insertUpdate, openRaw, roundTrip, updateMessage } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

const MAX_MESSAGE_BYTES = 4096
let server: ServerProcess

beforeAll(async () => {
  server = await startServer({ args: ['--max-message-bytes', String(MAX_MESSAGE_BYTES)] })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

function logCount(msg: string): number {
  return server.logs.filter((line) => line.msg === msg).length
}

const BAD_FRAMES: Array<[string, Uint8Array | string]> = [
  ['an unterminated varint', new Uint8Array([0xff, 0xff, 0xff])],
  ['an unknown message type', new Uint8Array([9])],
  ['the auth message type, which only servers send', new Uint8Array([2, 0])],
  ['an unknown sync step', new Uint8Array([0, 7, 0])],
  ['a payload longer than the frame', new Uint8Array([0, 2, 10, 1, 2])],
  ['an update Yjs cannot read', new Uint8Array([0, 2, 3, 0xff, 0xff, 0xff])],
  ['a state vector Yjs cannot read', new Uint8Array([0, 0, 2, 5, 0xff])],
  ['trailing bytes', new Uint8Array([0, 2, 2, 0, 0, 42])],
  ['awareness with a truncated entry', awarenessMessage(new Uint8Array([1, 7, 1]))],
  ['awareness whose state is not JSON', awarenessMessage(encodeAwarenessEntries([{ clientId: 7, clock: 1, state: '{nope' }]))],
  ['a text frame', 'hello'],
]

describe('a malformed frame', () => {
  it('closes only its own connection, with 4400 and one log line, and leaves the room working', async () => {
    const a = await connectSynced(server.wsUrl, 'bad-frames')
    const b = await connectSynced(server.wsUrl, 'bad-frames')
    a.text.insert(0, 'before')
    await waitFor(() => b.text.toString() === 'before', 'b to sync')
    const logsBefore = logCount('closing connection: malformed message')
    const closedBefore = await metric(server, 'cotext_connections_closed_total{reason="malformed"}')

    const closes: Array<[string, { code: number; reason: string }]> = []
    for (const [what, frame] of BAD_FRAMES) {
      const raw = await openRaw(`${server.wsUrl}/bad-frames`)
      raw.ws.send(frame)
      closes.push([what, await raw.closed])
    }
    expect(closes).toEqual(BAD_FRAMES.map(([what]) => [what, { code: 4400, reason: 'malformed message' }]))

    a.text.insert(6, ' and after')
    await waitFor(() => b.text.toString() === 'before and after', 'the room to keep working')
    await roundTrip(b.provider.ws as unknown as WebSocket)
    expect(a.closes).toEqual([])
    expect(b.closes).toEqual([])
    await waitFor(() => logCount('closing connection: malformed message') >= logsBefore + BAD_FRAMES.length, 'the log lines')
    expect(logCount('closing connection: malformed message')).toBe(logsBefore + BAD_FRAMES.length)
    expect(await metric(server, 'cotext_connections_closed_total{reason="malformed"}')).toBe(closedBefore + BAD_FRAMES.length)
    const line = server.logs.filter((entry) => entry.msg === 'closing connection: malformed message').at(-1)!
    expect({ level: line.level, room: line.room, code: line.code, reason: line.reason }).toEqual({
      level: 40,
      room: 'bad-frames',
      code: 4400,
      reason: 'text frame (y-websocket messages are binary)',
    })
  })

  it('larger than MAX_MESSAGE_BYTES closes the connection with 1009 and one log line', async () => {
    const a = await connectSynced(server.wsUrl, 'big-frames')
    const raw = await openRaw(`${server.wsUrl}/big-frames`)
    const fits = updateMessage(insertUpdate('x'.repeat(MAX_MESSAGE_BYTES - 100)))
    raw.ws.send(fits)
    await waitFor(() => a.text.length === MAX_MESSAGE_BYTES - 100, 'the largest allowed update to arrive')
    raw.ws.send(updateMessage(insertUpdate('y'.repeat(MAX_MESSAGE_BYTES))))
    // ws refuses the frame while reading its header, before buffering it, and gives no reason.
    expect(await raw.closed).toEqual({ code: 1009, reason: '' })
    await waitFor(() => logCount('closing connection: message too large') === 1, 'the log line')
    expect(await metric(server, 'cotext_connections_closed_total{reason="too_large"}')).toBe(1)
    a.text.insert(0, '!')
    const b = await connectSynced(server.wsUrl, 'big-frames')
    expect(b.text.toString()).toBe(`!${'x'.repeat(MAX_MESSAGE_BYTES - 100)}`)
  })
})

describe('the room name', () => {
  it('must be 1-128 letters, digits, . _ - in /-separated parts (no . or ..), or the server closes with 4400', async () => {
    const names = ['', 'has%20space', 'a//b', 'trailing/', '%2Fleading', 'x'.repeat(129), 'a%2F..%2Fb', 'semi;colon']
    const results = []
    for (const name of names) {
      const raw = await openRaw(`${server.wsUrl}/${name}`)
      results.push({ name, ...(await raw.closed), messages: raw.received.length })
    }
    expect(results).toEqual(names.map((name) => ({ name, code: 4400, reason: 'invalid room name', messages: 0 })))
    const fine = await connectSynced(server.wsUrl, `a.b_c-d/E/${'9'.repeat(100)}`)
    expect(fine.closes).toEqual([])
  })
})
