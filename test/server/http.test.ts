import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { SETTINGS } from '../../server/config.ts'
import { connectSynced, destroyAllClients } from './helpers/clients.ts'
import { ROOT, getJson, makeTempDir, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

let server: ServerProcess
let webDir: string

beforeAll(async () => {
  // The page is built later than the server starts: the folder does not exist yet.
  webDir = join(makeTempDir(), 'dist')
  server = await startServer({ args: ['--web-dir', webDir] })
})
afterEach(destroyAllClients)
afterAll(stopAllServers)

/** A request with the path sent as written (fetch would normalise `..` away). */
function rawGet(path: string, method = 'GET'): Promise<{ status: number; type: string | undefined; cache: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () =>
        resolve({ status: response.statusCode!, type: response.headers['content-type'], cache: response.headers['cache-control'], body }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

describe('starting without AUTH_SECRET', () => {
  it('says in its log that the server is open', () => {
    const listening = server.logs.find((line) => line.msg === 'listening')!
    expect({ auth: listening.auth, port: listening.port, url: listening.url }).toEqual({ auth: false, port: server.port, url: server.url })
    const warning = server.logs.find((line) => line.level === 40)!
    expect(warning.msg).toBe('AUTH_SECRET is not set: the server is OPEN, anyone who can reach it can read and write every room')
  })
})

describe('GET /healthz', () => {
  it('reports rooms, connections and uptime as JSON', async () => {
    const response = await fetch(`${server.url}/healthz`)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const idle = (await response.json()) as Record<string, unknown>
    expect(Object.keys(idle)).toEqual(['status', 'rooms', 'connections', 'uptime'])
    expect({ ...idle, uptime: typeof idle.uptime }).toEqual({ status: 'ok', rooms: 0, connections: 0, uptime: 'number' })
    await connectSynced(server.wsUrl, 'health-1')
    await connectSynced(server.wsUrl, 'health-1')
    await connectSynced(server.wsUrl, 'health-2')
    expect(await getJson(server, '/healthz')).toMatchObject({ rooms: 2, connections: 3 })
    destroyAllClients()
    await waitFor(async () => (await getJson<{ rooms: number }>(server, '/healthz')).rooms === 0, 'the rooms to unload')
  })
})

describe('GET /metrics', () => {
  it('speaks the Prometheus text format with every counter the issue names', async () => {
    const client = await connectSynced(server.wsUrl, 'metrics')
    client.text.insert(0, 'hi')
    const response = await fetch(`${server.url}/metrics`)
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    const text = await response.text()
    const types = Object.fromEntries([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1], match[2]]))
    expect(types).toMatchObject({
      cotext_connections: 'gauge',
      cotext_rooms: 'gauge',
      cotext_messages_in_total: 'counter',
      cotext_messages_out_total: 'counter',
      cotext_bytes_in_total: 'counter',
      cotext_bytes_out_total: 'counter',
      cotext_stored_updates_total: 'counter',
      cotext_connections_refused_total: 'counter',
    })
    expect(text).toMatch(/^cotext_connections 1$/m)
    expect(text).toMatch(/^cotext_rooms 1$/m)
    expect(text).toMatch(/^cotext_connections_refused_total\{reason="unauthorized"\} 0$/m)
    for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{\w+="[\w.+]+"\})? [\d.e+-]+)$/)
  })
})

describe('the web page at /', () => {
  it('is a plain page saying how to connect until web/dist exists, then the built page', async () => {
    const fallback = await rawGet('/')
    expect([fallback.status, fallback.type]).toEqual([200, 'text/html; charset=utf-8'])
    expect(fallback.body).toContain('<h1>Cotext server is up</h1>')
    expect(fallback.body).toContain(`<code>ws://127.0.0.1:${server.port}/&lt;room&gt;</code>`)
    expect(fallback.body).toContain(`new WebsocketProvider('ws://127.0.0.1:${server.port}', 'my-room', doc)`)
    expect(fallback.body).toContain('This server is open')
    expect((await rawGet('/?room=notes')).body).toBe(fallback.body)

    mkdirSync(join(webDir, 'assets'), { recursive: true })
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Cotext</title><script src="/assets/app-1a2b.js"></script>')
    writeFileSync(join(webDir, 'assets', 'app-1a2b.js'), 'console.log("editor")')
    writeFileSync(join(webDir, 'assets', 'app-1a2b.css'), 'body{}')
    writeFileSync(join(webDir, 'favicon.svg'), '<svg/>')

    expect(await rawGet('/')).toEqual({ status: 200, type: 'text/html; charset=utf-8', cache: 'no-cache', body: '<!doctype html><title>Cotext</title><script src="/assets/app-1a2b.js"></script>' })
    expect((await rawGet('/?room=notes')).body).toBe('<!doctype html><title>Cotext</title><script src="/assets/app-1a2b.js"></script>')
    expect(await rawGet('/assets/app-1a2b.js')).toEqual({ status: 200, type: 'text/javascript; charset=utf-8', cache: 'public, max-age=31536000, immutable', body: 'console.log("editor")' })
    expect((await rawGet('/assets/app-1a2b.css')).type).toBe('text/css; charset=utf-8')
    expect((await rawGet('/favicon.svg')).type).toBe('image/svg+xml')
    expect(await rawGet('/', 'HEAD')).toMatchObject({ status: 200, body: '' })
  })

  it('answers 404 outside the folder and for missing files, 405 for other methods', async () => {
    for (const path of ['/missing.js', '/../package.json', '/..%2f..%2fpackage.json', '/%2e%2e/%2e%2e/package.json', '/assets/..%2f..%2f..%2fpackage.json', '/%00']) {
      expect([path, (await rawGet(path)).status]).toEqual([path, 404])
    }
    expect((await rawGet('/', 'POST')).status).toBe(405)
  })
})

describe('the command line', () => {
  function runMain(args: string[]) {
    return spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, AUTH_SECRET: undefined } as NodeJS.ProcessEnv,
      encoding: 'utf8',
    })
  }

  it('--help lists every setting with its flag and environment variable', () => {
    const result = runMain(['--help'])
    expect(result.status).toBe(0)
    for (const setting of SETTINGS) expect(result.stdout).toMatch(new RegExp(`--${setting.flag} <value>\\s+${setting.env}\\s`))
  })

  it('refuses a bad setting with a message and exit status 2 (config.test.ts has every message)', () => {
    const badPort = runMain(['--port', '70000'])
    expect([badPort.status, badPort.stdout, badPort.stderr]).toEqual([2, '', 'cotext server: --port must be an integer from 0 to 65535, got "70000"\n'])
  })
})
