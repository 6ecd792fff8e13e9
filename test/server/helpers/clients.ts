import * as Y from 'yjs'
import * as encoding from 'lib0/encoding'
import * as decoding from 'lib0/decoding'
import * as syncProtocol from 'y-protocols/sync'
import * as awarenessProtocol from 'y-protocols/awareness'
import { WebsocketProvider } from 'y-websocket'
import { WebSocket } from 'ws'
import { waitFor } from './wait-for.ts'

/** A stock y-websocket client in Node: `ws` as its WebSocket, no BroadcastChannel shortcut. */
export interface Client {
  doc: Y.Doc
  text: Y.Text
  awareness: awarenessProtocol.Awareness
  provider: WebsocketProvider
  /** Close events the provider saw, in order (code and reason). */
  closes: Array<{ code: number; reason: string }>
  destroy(): void
}

const clients = new Set<Client>()

export function connectClient(wsUrl: string, room: string, options: { token?: string; user?: string } = {}): Client {
  const doc = new Y.Doc()
  const awareness = new awarenessProtocol.Awareness(doc)
  if (options.user !== undefined) awareness.setLocalState({ user: { name: options.user } })
  const provider = new WebsocketProvider(wsUrl, room, doc, {
    awareness,
    // Two providers of one room in one process would otherwise sync over BroadcastChannel,
    // around the server under test.
    disableBc: true,
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params: options.token === undefined ? {} : { token: options.token },
    maxBackoffTime: 100,
  })
  const closes: Array<{ code: number; reason: string }> = []
  provider.on('connection-close', (event) => {
    if (event !== null) closes.push({ code: event.code, reason: event.reason })
  })
  const client: Client = {
    doc,
    text: doc.getText('text'),
    awareness,
    provider,
    closes,
    destroy() {
      clients.delete(client)
      provider.destroy()
      awareness.destroy()
      doc.destroy()
    },
  }
  clients.add(client)
  return client
}

export async function connectSynced(wsUrl: string, room: string, options: { token?: string; user?: string } = {}): Promise<Client> {
  const client = connectClient(wsUrl, room, options)
  await waitFor(() => client.provider.synced, `client of ${room} to sync`)
  return client
}

export function destroyAllClients(): void {
  for (const client of [...clients]) client.destroy()
}

export function syncStep1(doc: Y.Doc): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, 0)
  syncProtocol.writeSyncStep1(encoder, doc)
  return encoding.toUint8Array(encoder)
}

export function updateMessage(update: Uint8Array, step: 'update' | 'sync-step-2' = 'update'): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, 0)
  encoding.writeVarUint(encoder, step === 'update' ? syncProtocol.messageYjsUpdate : syncProtocol.messageYjsSyncStep2)
  encoding.writeVarUint8Array(encoder, update)
  return encoding.toUint8Array(encoder)
}

export function awarenessMessage(update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, 1)
  encoding.writeVarUint8Array(encoder, update)
  return encoding.toUint8Array(encoder)
}

/** An update that inserts `text` at the start of a fresh document's `text`. */
export function insertUpdate(text: string, clientID?: number): Uint8Array {
  const doc = new Y.Doc()
  if (clientID !== undefined) doc.clientID = clientID
  doc.getText('text').insert(0, text)
  const update = Y.encodeStateAsUpdate(doc)
  doc.destroy()
  return update
}

/**
 * Sends a sync step 1 for an empty document on `ws` and resolves with the server's sync step 2.
 * The server handles a socket's frames in order and sends on it in order, so once this resolves
 * every frame sent before has been handled and everything the server sent before has arrived.
 */
export function roundTrip(ws: WebSocket): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: Buffer | ArrayBuffer): void => {
      const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data)
      const decoder = decoding.createDecoder(bytes)
      if (decoding.readVarUint(decoder) !== 0 || decoding.readVarUint(decoder) !== syncProtocol.messageYjsSyncStep2) return
      ws.off('message', onMessage)
      ws.off('close', onClose)
      resolve(decoding.readVarUint8Array(decoder))
    }
    const onClose = (code: number): void => {
      ws.off('message', onMessage)
      reject(new Error(`socket closed with ${code} during a round trip`))
    }
    ws.on('message', onMessage)
    ws.on('close', onClose)
    ws.send(syncStep1(new Y.Doc()))
  })
}

/** A bare WebSocket that records what it receives, for tests below the provider. */
export interface RawSocket {
  ws: WebSocket
  received: Uint8Array[]
  closed: Promise<{ code: number; reason: string }>
}

export async function openRaw(url: string, options: { autoPong?: boolean } = {}): Promise<RawSocket> {
  const ws = new WebSocket(url, { autoPong: options.autoPong ?? true })
  const received: Uint8Array[] = []
  ws.on('message', (data: Buffer) => received.push(new Uint8Array(data)))
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }))
  })
  ws.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)))
    void closed.then(({ code }) => reject(new Error(`closed with ${code} before opening`)))
  })
  return { ws, received, closed }
}

/** The text of a document made from one update. */
export function textOf(update: Uint8Array): string {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, update)
  const text = doc.getText('text').toString()
  doc.destroy()
  return text
}

/** The text a fresh client sees in `room` once synced (it disconnects afterwards). */
export async function textIn(server: { wsUrl: string }, room: string): Promise<string> {
  const client = await connectSynced(server.wsUrl, room)
  const text = client.text.toString()
  client.destroy()
  return text
}
