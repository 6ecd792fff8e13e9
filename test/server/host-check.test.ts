import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { request } from 'node:http'
import { connect } from 'node:net'
import { WebSocket } from 'ws'
import { destroyAllClients } from './helpers/clients.ts'
import { metric, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

/**
 * Issue 19 item 5: DNS rebinding. A page on evil.example that rebinds its name to 127.0.0.1 sends
 * `Host: evil.example` and `Origin: http://evil.example`; they agree, so on main the Origin check
 * let it in to an open server. Without AUTH_SECRET the server now answers only Host values that
 * name it.
 */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

afterEach(destroyAllClients)
afterAll(stopAllServers)

/** GET `path` with this Host header; resolves with the status and body. */
function get(server: ServerProcess, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { Host: host } }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode!, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Opens a WebSocket to `room` as a page at `origin` whose address is named `host` would; resolves with the HTTP status or 101. */
function upgrade(server: ServerProcess, room: string, host: string, origin: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${server.wsUrl}/${room}`, { headers: { Host: host }, origin })
    ws.on('open', () => {
      ws.close()
      resolve({ status: 101, body: '' })
    })
    ws.on('unexpected-response', (_request, response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode!, body }))
    })
    ws.on('error', () => {})
  })
}

describe('without AUTH_SECRET', () => {
  it('refuses a rebinding page\'s WebSocket and requests with 403 naming ALLOWED_HOSTS, and answers its own names', async () => {
    const server = await startServer()
    const lines = server.logs.length
    const rebinding = await upgrade(server, 'secret-room', `evil.example:${server.port}`, `http://evil.example:${server.port}`)
    expect(rebinding).toEqual({ status: 403, body: 'host not allowed: add it to ALLOWED_HOSTS\n' })
    const page = await get(server, '/', `evil.example:${server.port}`)
    expect(page.status).toBe(403)
    expect(page.body).toContain('ALLOWED_HOSTS')
    expect(await metric(server, 'cotext_connections_refused_total{reason="host"}')).toBe(1)
    expect(await metric(server, 'cotext_http_refused_host_total')).toBe(1)
    await waitFor(() => server.logs.length >= lines + 2, 'the log lines')
    const refusals = server.logs.slice(lines).filter((line) => line.kind === 'host')
    expect(refusals.map((line) => [line.host, line.status, (line.msg as string).includes('ALLOWED_HOSTS')])).toEqual([
      [`evil.example:${server.port}`, 403, true],
      [`evil.example:${server.port}`, 403, true],
    ])

    // Its own names: IP addresses, localhost names.
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `app.localhost:${server.port}`, `[::1]:${server.port}`]) {
      expect([host, (await upgrade(server, 'room', host, `http://${host}`)).status]).toEqual([host, 101])
      expect([host, (await get(server, '/healthz', host)).status]).toEqual([host, 200])
    }
    // A request without Host at all (HTTP/1.0) names nothing.
    const raw = await new Promise<string>((resolve) => {
      let answer = ''
      const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.0\r\n\r\n'))
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()))
      socket.on('close', () => resolve(answer))
    })
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 403 Forbidden')
  })

  it('answers the names in ALLOWED_HOSTS (a leading dot covers every name under it), no others', async () => {
    const server = await startServer({ env: { ALLOWED_HOSTS: 'editor.example.com, .corp.example' } })
    const port = server.port
    for (const host of ['editor.example.com', 'corp.example', 'docs.corp.example']) {
      expect([host, (await upgrade(server, 'room', `${host}:${port}`, `http://${host}:${port}`)).status]).toEqual([host, 101])
    }
    for (const host of ['example.com', 'evil.example', 'corp.example.evil.example']) {
      expect([host, (await upgrade(server, 'room', `${host}:${port}`, `http://${host}:${port}`)).status]).toEqual([host, 403])
    }
  })
})

describe('with AUTH_SECRET', () => {
  it('answers any Host: a page still needs a token', async () => {
    const server = await startServer({ env: { AUTH_SECRET: 's'.repeat(32) } })
    expect((await get(server, '/healthz', 'anything.example')).status).toBe(200)
    // Let in as far as the token check, which refuses it.
    const ws = new WebSocket(`${server.wsUrl}/room`, { headers: { Host: 'anything.example' }, origin: 'http://anything.example' })
    ws.on('error', () => {})
    const code = await new Promise<number>((resolve) => ws.on('close', (closeCode) => resolve(closeCode)))
    expect(code).toBe(4401)
  })
})
