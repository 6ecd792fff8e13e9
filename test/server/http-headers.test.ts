import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { makeTempDir, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'

/** Issue 10 item 14: the headers of every response, and static files that stay inside the page's folder. */

vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 })

let server: ServerProcess
let withMaps: ServerProcess
let outside: string

function buildSite(): string {
  const webDir = join(makeTempDir(), 'dist')
  outside = makeTempDir()
  mkdirSync(join(webDir, 'assets'), { recursive: true })
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Cotext</title>')
  writeFileSync(join(webDir, 'assets', 'app-1a2b.js'), 'console.log("editor")\n//# sourceMappingURL=app-1a2b.js.map')
  writeFileSync(join(webDir, 'assets', 'app-1a2b.js.map'), '{"version":3}')
  writeFileSync(join(outside, 'secret.txt'), 'outside the folder')
  // Links out of the folder (to a file, to a folder) and one that stays inside it.
  symlinkSync(join(outside, 'secret.txt'), join(webDir, 'leak.txt'))
  symlinkSync('/etc', join(webDir, 'etc'))
  symlinkSync(outside, join(webDir, 'assets', 'out'))
  symlinkSync(join(webDir, 'assets', 'app-1a2b.js'), join(webDir, 'app.js'))
  return webDir
}

beforeAll(async () => {
  const webDir = buildSite()
  server = await startServer({ args: ['--web-dir', webDir] })
  withMaps = await startServer({ args: ['--web-dir', webDir], env: { SERVE_SOURCE_MAPS: 'true' } })
})
afterAll(stopAllServers)

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function get(target: ServerProcess, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: target.port, path, method, headers }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('response headers', () => {
  it('every response says nosniff, and pages get a policy that allows only this server', async () => {
    const csp =
      "default-src 'self'; img-src 'self' data:; " +
      `connect-src 'self' ws://127.0.0.1:${server.port} wss://127.0.0.1:${server.port}; ` +
      "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    const answers = {
      page: await get(server, '/'),
      asset: await get(server, '/assets/app-1a2b.js'),
      health: await get(server, '/healthz'),
      metrics: await get(server, '/metrics'),
      missing: await get(server, '/missing'),
      method: await get(server, '/', 'POST'),
    }
    expect(Object.values(answers).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 404, 405])
    for (const [name, answer] of Object.entries(answers)) {
      expect([name, answer.headers['x-content-type-options']]).toEqual([name, 'nosniff'])
    }
    const page = answers.page.headers
    expect([page['content-security-policy'], page['x-frame-options'], page['referrer-policy']]).toEqual([csp, 'DENY', 'no-referrer'])
  })

  it('leaves a Host that is not a plain host:port out of the policy', async () => {
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/', headers: { Host: "evil; script-src 'unsafe-inline'" } }, (response) => {
        response.resume()
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: '' }))
      })
      req.on('error', reject)
      req.end()
    })
    expect(answer.headers['content-security-policy']).toContain("connect-src 'self'; ")
    expect(answer.headers['content-security-policy']).not.toContain('unsafe-inline')
  })
})

describe('static files', () => {
  it('never serve a file whose real path is outside the folder, symlinked or not', async () => {
    for (const path of ['/leak.txt', '/etc/hostname', '/etc/passwd', '/assets/out/secret.txt']) {
      const answer = await get(server, path)
      expect([path, answer.status, answer.body]).toEqual([path, 404, 'not found\n'])
    }
    // A link that stays inside the folder is served.
    expect((await get(server, '/app.js')).body).toBe('console.log("editor")\n//# sourceMappingURL=app-1a2b.js.map')
  })

  it('answer a revalidation of an unchanged file with 304 and no body', async () => {
    const first = await get(server, '/')
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/)
    const again = await get(server, '/', 'GET', { 'If-None-Match': etag })
    expect([again.status, again.body, again.headers['x-content-type-options']]).toEqual([304, '', 'nosniff'])
    expect((await get(server, '/', 'GET', { 'If-None-Match': 'W/"0-0"' })).status).toBe(200)
  })

  it('serve source maps only with SERVE_SOURCE_MAPS', async () => {
    expect((await get(server, '/assets/app-1a2b.js.map')).status).toBe(404)
    const served = await get(withMaps, '/assets/app-1a2b.js.map')
    expect([served.status, served.body, served.headers['x-content-type-options']]).toEqual([200, '{"version":3}', 'nosniff'])
  })
})
