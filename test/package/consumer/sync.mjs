// Run by pack.test.ts with plain Node inside the consumer project: Cotext's server inside this
// process (startServer on a free port), two stock y-websocket clients syncing through it, then
// close() — the port is free and the text stored — and a second server on the same directory.
import { createServer } from 'node:net'
import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'
import WebSocket from 'ws'
import { startServer } from 'cotext/server'

const dataDir = process.argv[2]
const DEADLINE_MS = 30_000

async function until(what, condition) {
  const deadline = Date.now() + DEADLINE_MS
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

function client(server, name) {
  const doc = new Y.Doc()
  // Without a BroadcastChannel, clients of one process can only meet through the server, and
  // the server relays nothing it has not stored.
  const provider = new WebsocketProvider(server.url.replace(/^http/, 'ws'), 'team/notes', doc, { WebSocketPolyfill: WebSocket, disableBc: true })
  provider.awareness.setLocalStateField('user', { name })
  const destroy = () => {
    provider.destroy()
    provider.awareness.destroy()
  }
  return { doc, provider, destroy, text: () => doc.getText('text').toString() }
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

const server = await startServer({ port: 0, dataDir, logLevel: 'silent' })
const a = client(server, 'A')
const b = client(server, 'B')
await until('both clients to sync', () => a.provider.synced && b.provider.synced)
a.doc.getText('text').insert(0, 'from a')
await until("a's edit at b", () => b.text() === 'from a')
b.doc.getText('text').insert(6, ', from b')
await until("b's edit at a", () => a.text() === 'from a, from b')
await until("a's awareness at b", () => b.provider.awareness.getStates().get(a.doc.clientID)?.user?.name === 'A')
a.destroy()
b.destroy()
const closing = server.close()
const sameClose = server.close() === closing
await closing
const freed = await portIsFree(server.port)

const again = await startServer({ port: 0, dataDir, logLevel: 'silent' })
const c = client(again, 'C')
await until('the third client to sync', () => c.provider.synced)
const stored = c.text()
c.destroy()
await again.close()

console.log(JSON.stringify({ url: server.url === `http://127.0.0.1:${server.port}`, a: a.text(), b: b.text(), sameClose, freed, stored }))
