import { afterEach, describe, expect, it } from 'vitest'
import { createConnection, createServer } from 'node:net'
import type { Server, Socket } from 'node:net'
import { WriteBatcher } from '../../server/write-batcher.ts'

const open: Array<Server | Socket> = []
afterEach(() => {
  for (const item of open.splice(0)) 'destroy' in item ? item.destroy() : item.close()
})

/** A connected TCP pair on 127.0.0.1: what the server writes to, and what receives it. */
async function socketPair(): Promise<{ client: Socket; received: () => string }> {
  let text = ''
  const server = createServer((peer) => {
    open.push(peer)
    peer.setEncoding('utf8')
    peer.on('data', (chunk: string) => (text += chunk))
  })
  open.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const client = createConnection(port, '127.0.0.1')
  open.push(client)
  await new Promise<void>((resolve) => client.once('connect', resolve))
  return { client, received: () => text }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('WriteBatcher', () => {
  it('corks a socket once per event-loop turn and uncorks it at the end of the turn', async () => {
    const { client, received } = await socketPair()
    const batcher = new WriteBatcher()
    batcher.hold(client)
    client.write('one ')
    batcher.hold(client)
    client.write('two')
    expect([client.writableCorked, client.writableLength]).toEqual([1, 7])
    await nextTurn()
    expect(client.writableCorked).toBe(0)
    await new Promise<void>((resolve) => {
      const check = (): void => (received() === 'one two' ? resolve() : void setTimeout(check, 5))
      check()
    })
    batcher.hold(client)
    expect(client.writableCorked).toBe(1)
    await nextTurn()
    expect(client.writableCorked).toBe(0)
  })
})
