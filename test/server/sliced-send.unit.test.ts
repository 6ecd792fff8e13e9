import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { Connection } from '../../server/connection.ts'
import { Metrics } from '../../server/metrics.ts'
import { SlicedSender } from '../../server/sliced-send.ts'
import { WriteBatcher } from '../../server/write-batcher.ts'

/**
 * SlicedSender over a real WebSocket pair on 127.0.0.1: what may wait behind a joiner's answer, and when a
 * connection that does not read is cut (MAX_BUFFERED_BYTES).
 */

const MAX_HELD = 64 * 1024
const SLICE = 256 * 1024
const logger = pino({ level: 'silent' })
const servers: WebSocketServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A server-side Connection, the client socket at the other end, what the client received, and the sender. */
async function pair(): Promise<{ connection: Connection; client: WebSocket; received: Uint8Array[]; sender: SlicedSender; metrics: Metrics }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  servers.push(server)
  await once(server, 'listening')
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`)
  const received: Uint8Array[] = []
  client.on('message', (data: Buffer) => received.push(new Uint8Array(data)))
  const [socket] = (await once(server, 'connection')) as [WebSocket]
  await once(client, 'open')
  const metrics = new Metrics()
  const context = { maxBufferedBytes: MAX_HELD, metrics, batcher: new WriteBatcher(), logger, onSlowReader: () => {} }
  const connection = new Connection(1, socket, { mode: 'rw', subject: null, expiresAt: null }, context, null)
  const sender = new SlicedSender({ sliceBytes: SLICE, maxHeldBytes: MAX_HELD, metrics, logger })
  return { connection, client, received, sender, metrics }
}

function message(length: number, fill: number): Uint8Array {
  return new Uint8Array(length).fill(fill)
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  if (!condition()) throw new Error(`timed out waiting for ${what}`)
}

describe('SlicedSender', () => {
  it('keeps a joiner whose answer is still being encoded while a 1 MB relay waits behind it, and sends the answer first', async () => {
    const { connection, received, sender, metrics } = await pair()
    sender.reserve(connection)
    sender.send(connection, message(1024 * 1024, 2))
    sender.send(connection, message(100, 3))
    expect(connection.isOpen).toBe(true)
    sender.fill(connection, message(300 * 1024, 1))
    await until(() => received.length === 3, 'three messages')
    expect(received.map((m) => [m.length, m[0]])).toEqual([
      [300 * 1024, 1],
      [1024 * 1024, 2],
      [100, 3],
    ])
    expect(metrics.closedByServer.slow_reader).toBe(0)
    expect(connection.isOpen).toBe(true)
  })

  it('cuts a connection that does not read once more than MAX_BUFFERED_BYTES wait behind a message being written', async () => {
    const { connection, client, sender, metrics } = await pair()
    ;(client as unknown as { _socket: { pause(): void } })._socket.pause()
    sender.send(connection, message(4 * 1024 * 1024, 1))
    for (let i = 0; i < 64; i++) sender.send(connection, message(1024, 2))
    expect(metrics.closedByServer.slow_reader).toBe(0)
    sender.send(connection, message(1024, 2))
    expect(metrics.closedByServer.slow_reader).toBe(1)
    await until(() => !connection.isOpen, 'the connection to close')
  })
})
