import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pino } from 'pino'
import { WebSocket, WebSocketServer } from 'ws'
import * as Y from 'yjs'
import { Awareness } from 'y-protocols/awareness'
import { AwarenessOwners, reclaimOnWrite, type AwarenessRoom } from '../../server/awareness-guard.ts'
import { Connection } from '../../server/connection.ts'
import { Metrics } from '../../server/metrics.ts'
import { WriteBatcher } from '../../server/write-batcher.ts'

/** The reclaim on write (awareness-guard.ts) walks a room's connections only for an awareness id someone has claimed. */

const logger = pino({ level: 'silent' })
const context = { maxBufferedBytes: 1024 * 1024, metrics: new Metrics(), batcher: new WriteBatcher(), logger, onSlowReader: () => {} }
let wss: WebSocketServer
const clients: WebSocket[] = []

beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => wss.once('listening', resolve))
})
afterAll(async () => {
  for (const client of clients) client.terminate()
  await new Promise((resolve) => wss.close(resolve))
})

let ids = 0
/** A connection on an open server-side socket, as the server makes them. */
async function openConnection(): Promise<Connection> {
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve))
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`)
  clients.push(client)
  await new Promise((resolve) => client.once('open', resolve))
  return new Connection(++ids, await accepted, { mode: 'rw', subject: null, expiresAt: null }, context)
}

/** A room of `connections` that counts the walks of its connections. */
function roomOf(connections: Connection[]): AwarenessRoom & { walks: number } {
  const doc = new Y.Doc()
  const room = {
    name: 'r',
    doc,
    awareness: new Awareness(doc),
    walks: 0,
    *getConnections(): IterableIterator<Connection> {
      room.walks += 1
      yield* connections
    },
  }
  return room
}

describe('AwarenessOwners.maySpeakFor', () => {
  it('is true for the ids claimed in the room, also after their connection let go, and false for any other', async () => {
    const owners = new AwarenessOwners()
    const [a, b] = [await openConnection(), await openConnection()]
    expect(owners.maySpeakFor(7)).toBe(false)
    owners.claim(a, 7, [a, b])
    owners.claim(b, 9, [a, b])
    expect([7, 8, 9].map((id) => owners.maySpeakFor(id))).toEqual([true, false, true])
    owners.release(a, [b])
    expect([7, 8, 9].map((id) => owners.maySpeakFor(id))).toEqual([true, false, true])
  })
})

describe('reclaimOnWrite', () => {
  it('does not walk the room for a writer whose Yjs client no one has claimed, and takes the id back once someone has', async () => {
    const [writer, impostor, bystander] = [await openConnection(), await openConnection(), await openConnection()]
    const room = roomOf([writer, impostor, bystander])
    const owners = new AwarenessOwners()
    reclaimOnWrite(room, owners, logger)
    const text = room.doc.getText('text')
    for (let i = 0; i < 5; i++) room.doc.transact(() => text.insert(i, 'x'), writer)
    expect(room.walks).toBe(0)
    expect(writer.awarenessClientId).toBe(null)

    // The impostor speaks for the writer's Yjs client; the writer's next write takes it back.
    owners.claim(impostor, room.doc.clientID)
    room.doc.transact(() => text.insert(0, 'y'), writer)
    expect(writer.awarenessClientId).toBe(room.doc.clientID)
    expect(impostor.awarenessClientId).toBe(null)
    expect(room.walks).toBeGreaterThan(0)
    expect(text.toString()).toBe('yxxxxx')
  })
})
