import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { SignJWT, UnsecuredJWT, decodeJwt } from 'jose'
import { spawnSync } from 'node:child_process'
import { signToken } from '../../server/auth.ts'
import { connectClient, connectSynced, destroyAllClients, openRaw } from './helpers/clients.ts'
import { ROOT, metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

const SECRET = 'test-secret-that-is-long-enough-for-hs256!'
let server: ServerProcess

beforeAll(async () => {
  server = await startServer({ env: { AUTH_SECRET: SECRET } })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

function token(room: string, mode: 'rw' | 'ro' = 'rw', ttlSeconds = 60, now?: number): Promise<string> {
  return signToken(SECRET, { room, mode, ttlSeconds, now })
}

/** Opens `room` with `query` and resolves with the close, and how many messages came before it. */
async function refusal(room: string, query: string): Promise<{ code: number; reason: string; messages: number }> {
  const raw = await openRaw(`${server.wsUrl}/${room}${query}`)
  const { code, reason } = await raw.closed
  return { code, reason, messages: raw.received.length }
}

describe('with AUTH_SECRET set', () => {
  it('says so when it starts, without the open-server warning', () => {
    expect(server.logs.find((line) => line.msg === 'listening')!.auth).toBe(true)
    expect(server.logs.filter((line) => line.level >= 40)).toEqual([])
  })

  it('refuses a connection without a token with 4401 before sending anything', async () => {
    expect(await refusal('notes', '')).toEqual({ code: 4401, reason: 'missing token', messages: 0 })
    expect(await refusal('notes', '?token=')).toEqual({ code: 4401, reason: 'missing token', messages: 0 })
  })

  it('refuses malformed, tampered, foreign, unsigned, expiry-less and expired tokens with 4401', async () => {
    const good = await token('notes', 'ro')
    const [header, , signature] = good.split('.')
    const forgedPayload = Buffer.from(JSON.stringify({ ...decodeJwt(good), mode: 'rw' })).toString('base64url')
    const tampered = `${header}.${forgedPayload}.${signature}`
    const otherSecret = await signToken('another-secret-that-is-long-enough-too!', { room: 'notes', mode: 'rw', ttlSeconds: 60 })
    const unsigned = new UnsecuredJWT({ room: 'notes', mode: 'rw' }).setExpirationTime('1h').encode()
    const key = new TextEncoder().encode(SECRET)
    const noExpiry = await new SignJWT({ room: 'notes', mode: 'rw' }).setProtectedHeader({ alg: 'HS256' }).sign(key)
    const badMode = await new SignJWT({ room: 'notes', mode: 'admin' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key)
    const expired = await token('notes', 'rw', 60, Math.floor(Date.now() / 1000) - 3600)

    const invalid = { code: 4401, reason: 'invalid token', messages: 0 }
    expect(await refusal('notes', '?token=not-a-jwt')).toEqual(invalid)
    expect(await refusal('notes', `?token=${tampered}`)).toEqual(invalid)
    expect(await refusal('notes', `?token=${otherSecret}`)).toEqual(invalid)
    expect(await refusal('notes', `?token=${unsigned}`)).toEqual(invalid)
    expect(await refusal('notes', `?token=${noExpiry}`)).toEqual(invalid)
    expect(await refusal('notes', `?token=${badMode}`)).toEqual({ code: 4401, reason: 'invalid token claims', messages: 0 })
    expect(await refusal('notes', `?token=${expired}`)).toEqual({ code: 4401, reason: 'token expired', messages: 0 })
  })

  it('refuses a token for another room or another prefix with 4403', async () => {
    const forbidden = { code: 4403, reason: 'token is for another room', messages: 0 }
    expect(await refusal('notes', `?token=${await token('other')}`)).toEqual(forbidden)
    expect(await refusal('notes2', `?token=${await token('notes')}`)).toEqual(forbidden)
    expect(await refusal('teamwork', `?token=${await token('team/*')}`)).toEqual(forbidden)
  })

  it('admits a token for the room, for a prefix of it, or for every room', async () => {
    const exact = await connectSynced(server.wsUrl, 'team/notes', { token: await token('team/notes') })
    const prefixed = await connectSynced(server.wsUrl, 'team/notes', { token: await token('team/*') })
    const everything = await connectSynced(server.wsUrl, 'team/notes', { token: await token('*') })
    exact.text.insert(0, 'shared')
    await waitFor(() => prefixed.text.toString() === 'shared' && everything.text.toString() === 'shared', 'all three to share the text')
    expect([exact.closes, prefixed.closes, everything.closes]).toEqual([[], [], []])
  })

  it('makes the stock client stop at a 44xx close instead of retrying', async () => {
    const before = await metric(server, 'cotext_connections_refused_total{reason="unauthorized"}')
    const client = connectClient(server.wsUrl, 'notes', { token: 'bad' })
    const closed = new Promise<{ code: number; reason: string }>((resolve) => client.provider.on('closed', (event) => resolve(event)))
    expect(await closed).toEqual({ code: 4401, reason: 'invalid token' })
    expect(client.provider.shouldConnect).toBe(false)
    expect(await metric(server, 'cotext_connections_refused_total{reason="unauthorized"}')).toBe(before + 1)
  })
})

describe('npm run token', () => {
  function runToken(args: string[], env: Record<string, string | undefined> = { AUTH_SECRET: SECRET }) {
    return spawnSync(process.execPath, ['--import', 'tsx', 'server/token.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, AUTH_SECRET: undefined, ...env } as NodeJS.ProcessEnv,
      encoding: 'utf8',
    })
  }

  it('prints a token that names the room, the mode and an expiry, and the server takes it', async () => {
    const result = runToken(['--room', 'cli-room', '--mode', 'ro', '--ttl', '1h'])
    expect(result.status).toBe(0)
    const printed = result.stdout.trim()
    expect(result.stdout).toBe(`${printed}\n`)
    const claims = decodeJwt(printed)
    expect({ room: claims.room, mode: claims.mode, lifetime: claims.exp! - claims.iat! }).toEqual({ room: 'cli-room', mode: 'ro', lifetime: 3600 })
    const client = await connectSynced(server.wsUrl, 'cli-room', { token: printed })
    expect(client.closes).toEqual([])
  })

  it('names the user with --user (the token\'s sub)', () => {
    const result = runToken(['--room', 'team/*', '--user', 'alice'])
    expect(result.status).toBe(0)
    expect(decodeJwt(result.stdout.trim())).toMatchObject({ room: 'team/*', mode: 'rw', sub: 'alice' })
    const badRoom = runToken(['--room', 'team*'])
    expect([badRoom.status, badRoom.stderr.split('\n')[0]]).toEqual([2, 'token: room: "team*" is neither a room name, * nor a prefix ending in /*'])
  })

  it('explains what is missing or wrong and exits 2', () => {
    const noRoom = runToken(['--mode', 'ro'])
    expect([noRoom.status, noRoom.stdout, noRoom.stderr.split('\n')[0]]).toEqual([2, '', 'token: --room is required'])
    const badMode = runToken(['--room', 'a', '--mode', 'admin'])
    expect([badMode.status, badMode.stderr.split('\n')[0]]).toEqual([2, 'token: --mode must be rw or ro, got "admin"'])
    const badTtl = runToken(['--room', 'a', '--ttl', 'soon'])
    expect([badTtl.status, badTtl.stderr.split('\n')[0]]).toEqual([2, 'token: --ttl must look like 90, 90s, 15m, 1h or 7d, got "soon"'])
    const noSecret = runToken(['--room', 'a'], {})
    expect([noSecret.status, noSecret.stderr.split('\n')[0]]).toEqual([2, "token: AUTH_SECRET is not set. Tokens are signed with the server's secret: run this with the AUTH_SECRET the server runs with (or pass --secret). A server without AUTH_SECRET is open and needs no token."])
    expect(noSecret.stderr.split('\n').slice(1, 3)).toEqual(['', 'Usage: npm run token -- --room NAME [--mode rw|ro] [--ttl 1h] [--user NAME] [--secret S]'])
  })
})
