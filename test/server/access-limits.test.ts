import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { connect } from 'node:net'
import { WebSocket } from 'ws'
import { signToken } from '../../server/auth.ts'
import { Random } from '../helpers/random.ts'
import { connectClient, connectSynced, destroyAllClients, openRaw, roundTrip, textOf, updateMessage } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

/** Issue 10, who gets in: Origin (10), token lifetime (11), prefix claims (12), no token in the logs (13), connection caps (8). */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const SECRET = 'access-limits-secret-long-enough-for-hs256'
const ALLOWED = 'https://editor.example.com'
let server: ServerProcess

beforeAll(async () => {
  server = await startServer({ env: { AUTH_SECRET: SECRET, ALLOWED_ORIGINS: `${ALLOWED}, http://localhost:5173` } })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

function token(room: string, options: { mode?: 'rw' | 'ro'; ttlSeconds?: number; now?: number; sub?: string } = {}): Promise<string> {
  const { mode = 'rw', ttlSeconds = 60, now, sub } = options
  return signToken(SECRET, { room, mode, ttlSeconds, ...(now === undefined ? {} : { now }), ...(sub === undefined ? {} : { sub }) })
}

/** Opens a WebSocket with the given headers; resolves with the HTTP status of a refused upgrade, or 101. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers })
    ws.on('error', () => {})
    ws.once('open', () => {
      ws.close()
      resolve(101)
    })
    ws.once('unexpected-response', (_request, response) => resolve(response.statusCode!))
    setTimeout(() => reject(new Error('no answer to the upgrade')), 10_000).unref()
  })
}

describe('the Origin of a WebSocket upgrade (item 10)', () => {
  it('admits no Origin, the same origin and listed origins; refuses others with 403 before anything else', async () => {
    const url = `${server.wsUrl}/origin-room?token=${await token('origin-room')}`
    const before = await metric(server, 'cotext_connections_refused_total{reason="origin"}')
    expect(await upgradeStatus(url, {})).toBe(101)
    expect(await upgradeStatus(url, { Origin: server.url })).toBe(101)
    expect(await upgradeStatus(url, { Origin: ALLOWED })).toBe(101)
    expect(await upgradeStatus(url, { Origin: 'http://localhost:5173' })).toBe(101)
    expect(await upgradeStatus(url, { Origin: 'https://evil.example' })).toBe(403)
    expect(await upgradeStatus(url, { Origin: `http://127.0.0.1:${server.port + 1}` })).toBe(403)
    expect(await upgradeStatus(url, { Origin: `https://editor.example.com.evil.example` })).toBe(403)
    expect(await upgradeStatus(url, { Origin: 'null' })).toBe(403)
    // Refused before the token is even looked at: a foreign page learns nothing about it.
    expect(await upgradeStatus(`${server.wsUrl}/origin-room`, { Origin: 'https://evil.example' })).toBe(403)
    expect(await metric(server, 'cotext_connections_refused_total{reason="origin"}')).toBe(before + 5)
  })
})

describe('token lifetime (item 11)', () => {
  it('closes a live stock client with 4401 when its token expires, and it stops reconnecting', async () => {
    const client = connectClient(server.wsUrl, 'expiring', { token: await token('expiring', { ttlSeconds: 3 }) })
    let synced = false
    client.provider.once('sync', () => (synced = true))
    const closed = new Promise<{ code: number; reason: string }>((resolve) => client.provider.on('closed', (event) => resolve(event)))
    expect(await closed).toEqual({ code: 4401, reason: 'token expired' })
    expect(synced).toBe(true)
    expect(client.provider.shouldConnect).toBe(false)
    expect(await metric(server, 'cotext_connections_closed_total{reason="token_expired"}')).toBeGreaterThanOrEqual(1)
  })

  it('applies no update sent after the expiry (random send times, seeded)', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 4401)
    console.log(`token lifetime: seed ${seed}`)
    const random = new Random(seed)
    const now = Math.floor(Date.now() / 1000)
    const expiresAt = (now + 2) * 1000
    const raw = await openRaw(`${server.wsUrl}/expiry-writes?token=${await token('expiry-writes', { ttlSeconds: 2, now })}`)
    const doc = new Y.Doc()
    const sentAt: number[] = []
    doc.on('update', (update: Uint8Array) => {
      sentAt.push(Date.now())
      raw.ws.send(updateMessage(update))
    })
    let closed: { code: number; reason: string } | null = null
    void raw.closed.then((event) => (closed = event))
    // Sparse at first, then dense around the expiry, so some updates are in flight when it passes.
    for (let i = 0; closed === null; i++) {
      doc.getText('text').insert(i, String.fromCharCode(97 + (i % 26)))
      const dense = Math.abs(Date.now() - expiresAt) < 100
      await new Promise((resolve) => setTimeout(resolve, dense ? random.int(3) : 5 + random.int(60)))
    }
    expect(closed).toEqual({ code: 4401, reason: 'token expired' })
    const reader = await connectSynced(server.wsUrl, 'expiry-writes', { token: await token('expiry-writes', { mode: 'ro' }) })
    const applied = reader.text.toString().length
    const sentBeforeExpiry = sentAt.filter((time) => time < expiresAt).length
    console.log(`token lifetime: ${sentAt.length} updates sent, ${sentBeforeExpiry} before expiry, ${applied} applied`)
    expect(applied).toBeGreaterThan(0)
    expect(applied).toBeLessThanOrEqual(sentBeforeExpiry)
    expect(reader.text.toString()).toBe(doc.getText('text').toString().slice(0, applied))
  })
})

describe('prefix claims (item 12)', () => {
  it('open rooms under the prefix, never a room that merely starts with the same letters', async () => {
    const team = await token('team/*')
    const inside = await connectSynced(server.wsUrl, 'team/a', { token: team })
    const deeper = await connectSynced(server.wsUrl, 'team/a/b', { token: team })
    expect([inside.closes, deeper.closes]).toEqual([[], []])
    for (const room of ['teammate', 'team']) {
      const raw = await openRaw(`${server.wsUrl}/${room}?token=${team}`)
      expect(await raw.closed).toEqual({ code: 4403, reason: 'token is for another room' })
      expect(raw.received).toEqual([])
    }
  })

  it('refuses a token whose prefix claim does not end in /* as invalid', async () => {
    const key = new TextEncoder().encode(SECRET)
    const { SignJWT } = await import('jose')
    for (const claim of ['team*', 'team/a*']) {
      const bad = await new SignJWT({ room: claim, mode: 'rw' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key)
      const raw = await openRaw(`${server.wsUrl}/teammate?token=${bad}`)
      expect(await raw.closed).toEqual({ code: 4401, reason: 'invalid token claims' })
    }
  })
})

describe('tokens and the logs (item 13, server side)', () => {
  /** Sends a WebSocket upgrade for `target` (written as is) and resolves with the first line of the answer. */
  function rawUpgrade(target: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(
          `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        )
      })
      let answer = ''
      socket.on('data', (chunk) => {
        answer += chunk.toString('latin1')
        if (answer.includes('\r\n')) {
          resolve(answer.split('\r\n')[0]!)
          socket.destroy()
        }
      })
      socket.on('error', reject)
      socket.on('close', () => resolve(answer.split('\r\n')[0]!))
    })
  }

  it('never writes a token into a log line, even from a URL that does not parse', async () => {
    const secretToken = await token('logged')
    const lines = server.logs.length
    // Each of these once reached the log with its query: unparsable, refused, and a token spelled %74oken.
    expect(await rawUpgrade(`//%?token=${secretToken}`)).toBe('HTTP/1.1 101 Switching Protocols')
    expect(await rawUpgrade(`/other-room?token=${secretToken}`)).toBe('HTTP/1.1 101 Switching Protocols')
    expect(await rawUpgrade(`/a%2?%74oken=${secretToken}`)).toBe('HTTP/1.1 101 Switching Protocols')
    await waitFor(() => server.logs.slice(lines).filter((line) => line.msg === 'refused connection').length === 3, 'three refusals in the log')
    const written = server.logs.slice(lines)
    expect(written.filter((line) => line.msg === 'refused connection').map((line) => [line.path, line.code, line.reason])).toEqual([
      ['//%?…', 4400, 'invalid URL'],
      ['/other-room?…', 4403, 'token is for another room'],
      ['/a%2?…', 4400, 'invalid room name'],
    ])
    expect(JSON.stringify(written)).not.toContain(secretToken.split('.')[2])
    expect(JSON.stringify(server.logs)).not.toContain(secretToken.split('.')[1])
  })
})

describe('connection caps (item 8)', () => {
  let capped: ServerProcess
  beforeAll(async () => {
    capped = await startServer({ env: { MAX_CONNECTIONS_PER_ROOM: '3', MAX_CONNECTIONS_PER_ADDRESS: '5' } })
  })

  it('closes a connection over the room cap or the address cap with 4429, before sending anything', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 8)
    console.log(`connection caps: seed ${seed}`)
    const random = new Random(seed)
    const room = await Promise.all([0, 1, 2].map(() => openRaw(`${capped.wsUrl}/crowded`)))
    const overRoom = await openRaw(`${capped.wsUrl}/crowded`)
    expect(await overRoom.closed).toEqual({ code: 4429, reason: 'too many connections to this room' })
    expect(overRoom.received).toEqual([])
    const others = [await openRaw(`${capped.wsUrl}/quiet`), await openRaw(`${capped.wsUrl}/quieter`)]
    const overAddress = await openRaw(`${capped.wsUrl}/empty`)
    expect(await overAddress.closed).toEqual({ code: 4429, reason: 'too many connections from this address' })
    expect(overAddress.received).toEqual([])
    // The stock client gives up on 4429 rather than hammering the server.
    const stock = connectClient(capped.wsUrl, 'crowded')
    const stockClosed = new Promise<{ code: number; reason: string }>((resolve) => stock.provider.on('closed', (event) => resolve(event)))
    expect(await stockClosed).toEqual({ code: 4429, reason: 'too many connections to this room' })
    expect(await metric(capped, 'cotext_connections_refused_total{reason="too_many_connections"}')).toBe(3)

    // A closed connection frees its place, in its room and for its address.
    const leaving = random.pick(room)
    leaving.ws.close()
    await leaving.closed
    await waitFor(async () => (await metric(capped, 'cotext_connections')) === 4, 'the connection to leave')
    const admitted = await openRaw(`${capped.wsUrl}/crowded`)
    // A refused socket is never answered; this one is.
    expect(textOf(await roundTrip(admitted.ws))).toBe('')
    for (const raw of [...room, ...others, admitted]) raw.ws.close()
  })
})
