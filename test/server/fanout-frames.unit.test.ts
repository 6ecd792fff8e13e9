import { once } from 'node:events'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { pino } from 'pino'
import { WebSocket, WebSocketServer } from 'ws'
import * as Y from 'yjs'
import { Connection } from '../../server/connection.ts'
import { RoomFanout } from '../../server/fanout.ts'
import { Metrics } from '../../server/metrics.ts'
import { encodeAwarenessMessage, encodeUpdate } from '../../server/protocol.ts'
import { WriteBatcher } from '../../server/write-batcher.ts'

/**
 * What a flush writes to each socket: one frame, one write, also for a sender, whose batch is merged
 * without its own updates (ws would write a message it frames itself as two chunks, one writev).
 */

const servers: WebSocketServer[] = []
const clients: WebSocket[] = []
afterAll(async () => {
  for (const client of clients) client.terminate()
  for (const server of servers) await new Promise((resolve) => server.close(resolve))
})

const metrics = new Metrics()
const context = { maxBufferedBytes: 1024 * 1024, metrics, batcher: new WriteBatcher(), logger: pino({ level: 'silent' }), onSlowReader: () => {} }

/** A server-side Connection on its TCP socket (corked by the batcher, as the server makes them), what its client received, and the writes of each kind on the socket. */
async function connection(id: number): Promise<{ connection: Connection; received: Uint8Array[]; writes: { single: number; vectored: number } }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  servers.push(server)
  await once(server, 'listening')
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`)
  clients.push(client)
  const received: Uint8Array[] = []
  client.on('message', (data: Buffer) => received.push(new Uint8Array(data)))
  const [socket] = (await once(server, 'connection')) as [WebSocket]
  await once(client, 'open')
  const tcp = (socket as unknown as { _socket: Socket & { _write: Function; _writev: Function } })._socket
  // Counted on the way through: every write still goes to the socket.
  const writes = { single: 0, vectored: 0 }
  const [write, writev] = [tcp._write, tcp._writev]
  tcp._write = function (...args: unknown[]) {
    writes.single += 1
    return write.apply(this, args)
  }
  tcp._writev = function (...args: unknown[]) {
    writes.vectored += 1
    return writev.apply(this, args)
  }
  return { connection: new Connection(id, socket, { mode: 'rw', subject: null, expiresAt: null }, context, tcp), received, writes }
}

function update(clientID: number, text: string): Uint8Array {
  const doc = new Y.Doc()
  doc.clientID = clientID
  doc.getText('text').insert(0, text)
  return Y.encodeStateAsUpdate(doc)
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
}

describe('a flush of the fan-out', () => {
  it('writes each recipient, senders included, one frame in one write', async () => {
    const [a, b, c] = [await connection(1), await connection(2), await connection(3)]
    const fanout = new RoomFanout({ windowMs: 1000, recipients: () => [a.connection, b.connection, c.connection].values(), metrics })
    const [u0, u1, u2] = [update(30, 'x'), update(20, 'y'), update(10, 'z')]
    // The first goes at once and opens the window; a's and b's wait for the flush.
    fanout.relayUpdate(u0, null)
    fanout.relayUpdate(u1, a.connection)
    fanout.relayUpdate(u2, b.connection)
    await new Promise((resolve) => setImmediate(resolve))
    fanout.flush()
    fanout.dispose()
    await until(() => a.received.length === 2 && b.received.length === 2 && c.received.length === 2)
    expect(a.received).toEqual([encodeUpdate(u0), encodeUpdate(u2)])
    expect(b.received).toEqual([encodeUpdate(u0), encodeUpdate(u1)])
    expect(c.received.map((message) => Buffer.from(message).toString('hex'))).toEqual(
      [encodeUpdate(u0), encodeUpdate(Y.mergeUpdates([u1, u2]))].map((message) => Buffer.from(message).toString('hex')),
    )
    expect([a.writes, b.writes, c.writes]).toEqual([0, 1, 2].map(() => ({ single: 2, vectored: 0 })))
  })

  it('writes a sender of awareness its batch without its own entry in one write', async () => {
    const [a, b] = [await connection(4), await connection(5)]
    const fanout = new RoomFanout({ windowMs: 1000, recipients: () => [a.connection, b.connection].values(), metrics })
    const entry = (clientId: number) => ({ clientId, clock: 1, state: JSON.stringify({ name: `user ${clientId}` }) })
    fanout.relayAwareness([entry(99)], null)
    fanout.relayAwareness([entry(7)], a.connection)
    fanout.relayAwareness([entry(8)], b.connection)
    await new Promise((resolve) => setImmediate(resolve))
    fanout.flush()
    fanout.dispose()
    await until(() => a.received.length === 2 && b.received.length === 2)
    expect(a.received).toEqual([encodeAwarenessMessage([entry(99)]), encodeAwarenessMessage([entry(8)])])
    expect(b.received).toEqual([encodeAwarenessMessage([entry(99)]), encodeAwarenessMessage([entry(7)])])
    expect([a.writes, b.writes]).toEqual([0, 1].map(() => ({ single: 2, vectored: 0 })))
  })
})
