import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../web/browser/harness.ts'
import { ConsumerProject, ROOT, startBin, type BinProcess } from './consumer-project.ts'
import { ENGINE, SERVER, TSCONFIG, WEB, WRONG, WRONG_ERROR } from './typed-consumer.ts'
import { connectSynced, destroyAllClients } from '../server/helpers/clients.ts'

/**
 * Cotext as an app gets it from npm: `npm pack`, the tarball installed with yjs, y-protocols and
 * y-websocket into a fresh project, and there each entry point used the way the README says.
 * Slow (a build, an install, a bundle, a browser): a few minutes on a loaded machine.
 */

// Until the web component (web/index.ts, `cotext/web`) is in this tree, its parts are skipped.
const HAS_WEB = existsSync(join(ROOT, 'web', 'index.ts'))
if (!HAS_WEB) console.log('pack test: web/index.ts is absent, so cotext/web is not built: its type check and the browser check are skipped')

const project = new ConsumerProject()
const dataDirs: string[] = []
const bins: BinProcess[] = []

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cotext-pack-data-'))
  dataDirs.push(dir)
  return dir
}

/** The installed bin on a free port (logging at info: startBin waits for its "listening" line). */
async function bin(args: string[]): Promise<BinProcess> {
  const started = await startBin(project, ['--host', '127.0.0.1', '--port', '0', '--data-dir', tempDataDir(), '--log-level', 'info', ...args])
  bins.push(started)
  return started
}

beforeAll(async () => {
  const pack = await project.packRepository()
  console.log(`pack test: ${pack.tarball.slice(project.root.length + 1)}: ${pack.files.length} files, ${(pack.size / 1000).toFixed(1)} kB packed, ${(pack.unpackedSize / 1000).toFixed(1)} kB unpacked`)
  await project.install()
  project.addFixtures()
}, 15 * 60_000)

afterAll(async () => {
  destroyAllClients()
  // Each bin stores its rooms before it exits: a few seconds each on a loaded machine.
  await Promise.all(bins.map((started) => started.stop()))
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  project.dispose()
}, 120_000)

describe('the packed tarball', () => {
  it('holds the built entry points, their types and the page, and no TypeScript sources', () => {
    const files = project.pack!.files
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([])
    expect(files.filter((file) => !file.startsWith('dist/')).sort()).toEqual(['LICENSE', 'README.md', 'package.json'])
    for (const file of ['dist/core/index.js', 'dist/core/index.d.ts', 'dist/core/index.js.map', 'dist/server/index.js', 'dist/server/index.d.ts', 'dist/server/main.js', 'dist/web/style.css', 'dist/web/dist/index.html']) {
      expect(files).toContain(file)
    }
    if (HAS_WEB) expect(files).toEqual(expect.arrayContaining(['dist/web/index.js', 'dist/web/index.d.ts']))
  })

  it('installs with yjs and y-protocols as peers: one Yjs in the project', () => {
    expect(existsSync(join(project.app, 'node_modules', 'cotext', 'node_modules', 'yjs'))).toBe(false)
    expect(existsSync(join(project.app, 'node_modules', 'cotext', 'node_modules', 'y-protocols'))).toBe(false)
  })
})

describe('cotext (the engine)', () => {
  it("drives a TextEditor over the app's own Y.Doc from a plain Node ES module", { timeout: 60_000 }, async () => {
    const result = await project.node('editor.mjs')
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({
      afterInsert: 'hello!\nworld!',
      // Each cursor selects its word, 'hello' and 'world' ('!' is not part of it).
      selected: [[[0, 0], [0, 5]], [[1, 0], [1, 5]]],
      // A peer's text inserted at a selection's start does not push it: the selection takes it in.
      afterPeer: { text: '> hello!\nworld!', selected: [[[0, 0], [0, 7]], [[1, 0], [1, 5]]] },
      afterUndo: '> hello\nworld',
      sharesYjs: true,
      point: [2, 3],
      published: true,
    })
  })
})

describe('types', () => {
  it('a strict TypeScript consumer of every entry point type-checks, and a mistake is reported', async () => {
    const files = HAS_WEB ? [...TSCONFIG.files, 'web.ts'] : TSCONFIG.files
    project.write('tsconfig.json', JSON.stringify({ ...TSCONFIG, files }, null, 2))
    project.write('engine.ts', ENGINE)
    project.write('server.ts', SERVER)
    project.write('wrong.ts', WRONG)
    if (HAS_WEB) project.write('web.ts', WEB)
    const result = await project.typecheck()
    expect(result.stdout.trim().split('\n')).toEqual([WRONG_ERROR])
    expect(result.status).toBe(2)
  }, 5 * 60_000)
})

describe('cotext/server', () => {
  it('startServer({port: 0}) syncs two stock y-websocket clients, and close() stores, stops and frees the port', async () => {
    const result = await project.node('sync.mjs', [tempDataDir()])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ url: true, a: 'from a, from b', b: 'from a, from b', sameClose: true, freed: true, stored: 'from a, from b' })
  }, 120_000)
})

describe('the cotext-server bin', () => {
  it('serves /healthz and the built page at /, and stops cleanly on SIGTERM', async () => {
    const server = await bin([])
    const base = `http://127.0.0.1:${server.port}`
    const health = await fetch(`${base}/healthz`)
    expect(health.status).toBe(200)
    const body = (await health.json()) as Record<string, unknown>
    expect({ status: body.status, rooms: body.rooms, connections: body.connections }).toEqual({ status: 'ok', rooms: 0, connections: 0 })
    const page = await fetch(`${base}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    // The built page (its bundled script), not the "not built yet" notice.
    expect(await page.text()).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/)
    expect(await server.stop()).toBe(0)
    expect(server.logs.map((line) => line.msg)).toContain('stopped')
  }, 60_000)
})

describe.skipIf(!HAS_WEB)('cotext/web in a page bundled by the app', () => {
  let browser: Browser
  let base: string

  beforeAll(async () => {
    const webDir = await project.bundlePage()
    const [server, launched] = await Promise.all([bin(['--web-dir', webDir]), launchChromium()])
    browser = launched
    base = `http://127.0.0.1:${server.port}`
  }, 5 * 60_000)

  afterAll(async () => {
    await browser?.close()
  })

  async function open(name: string, color: string): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 800, height: 500 } })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await page.goto(`${base}/?${new URLSearchParams({ room: 'embedded', name, color }).toString()}`)
    await page.waitForFunction(() => (window as unknown as { app?: unknown }).app !== undefined)
    return { page, errors }
  }

  const textOf = (page: Page) => page.evaluate(() => (window as unknown as { app: { editor: { getText(): string } } }).app.editor.getText())
  const docTextOf = (page: Page) => page.evaluate(() => (window as unknown as { app: { doc: { getText(name: string): { toString(): string } } } }).app.doc.getText('text').toString())
  const remoteCursor = (page: Page, name: string) => page.locator(`#editor [data-testid=remote-cursor][data-peer-name="${name}"]`)

  it("two pages co-edit through the app's providers and see each other's cursor", async () => {
    const ada = await open('Ada', '#d81b60')
    const bob = await open('Bob', '#1e88e5')

    await ada.page.locator('#editor [data-testid=editor]').click()
    await ada.page.keyboard.type('hello from Ada')
    await expect.poll(() => textOf(bob.page)).toBe('hello from Ada')
    expect(await docTextOf(bob.page)).toBe('hello from Ada')
    await expect.poll(() => remoteCursor(bob.page, 'Ada').count()).toBe(1)
    expect(await remoteCursor(bob.page, 'Ada').locator('[data-testid=remote-cursor-label]').textContent()).toBe('Ada')

    await bob.page.locator('#editor [data-testid=editor]').click()
    await bob.page.keyboard.press('Control+End')
    await bob.page.keyboard.type('\nand Bob')
    await expect.poll(() => textOf(ada.page)).toBe('hello from Ada\nand Bob')
    await expect.poll(() => remoteCursor(ada.page, 'Bob').count()).toBe(1)
    expect(await remoteCursor(ada.page, 'Bob').getAttribute('data-row')).toBe('1')
    expect(await remoteCursor(ada.page, 'Bob').getAttribute('data-column')).toBe('7')
    expect([...ada.errors, ...bob.errors]).toEqual([])
  }, 120_000)
})

/**
 * The README's code block (```ts) that follows `heading`: what a reader copies. The tests below run
 * it as written, changing only the server's address (and what they need to look inside).
 */
function readmeSnippet(heading: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const at = readme.indexOf(`\n${heading}\n`)
  if (at < 0) throw new Error(`README.md has no heading ${JSON.stringify(heading)}`)
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(at))
  if (block === null) throw new Error(`README.md has no ts block after ${JSON.stringify(heading)}`)
  return block[1]!
}

/** The address the README's snippets connect to; the tests swap in the server they started. */
const README_WS_URL = "'ws://127.0.0.1:1234'"

function withServer(snippet: string, expression: string): string {
  expect(snippet).toContain(README_WS_URL)
  return snippet.replaceAll(README_WS_URL, expression)
}

describe('the README, followed from the packed tarball', () => {
  it("the engine snippet runs on this Node, writing into the room, and fails without `ws` where Node has no WebSocket", { timeout: 120_000 }, async () => {
    const server = await bin([])
    const ws = `ws://127.0.0.1:${server.port}`
    const snippet = withServer(readmeSnippet('### The engine: `cotext`'), JSON.stringify(ws))
    project.write('readme-engine.mjs', snippet)
    const result = await project.node('readme-engine.mjs')
    expect([result.status, result.stderr]).toEqual([0, ''])
    expect(result.stdout).toBe('[]\n')
    const reader = await connectSynced(ws, 'team/notes.md')
    expect(reader.text.toString()).toMatch(/^\nbuilt at \d{4}-\d\d-\d\dT[\d:.]+Z$/)

    // Without the polyfill: the README says Node 20 and 21 need it (a global WebSocket came in 22.4).
    const bare = snippet.split('\n').filter((line) => !line.includes("from 'ws'")).join('\n').replace(', { WebSocketPolyfill: WebSocket }', '')
    project.write('readme-engine-bare.mjs', bare)
    const withoutWs = await project.node('readme-engine-bare.mjs', [], 15_000).catch((error: Error) => ({ status: null, stdout: '', stderr: error.message }))
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number]
    if (major < 22 || (major === 22 && minor < 4)) {
      expect(withoutWs.stderr).toContain('WebSocket is not defined')
    } else {
      expect([withoutWs.status, withoutWs.stderr]).toEqual([0, ''])
    }
  })
})

describe.skipIf(!HAS_WEB)("the README's cotext/web snippet in an app served from another origin", () => {
  let browser: Browser
  let appBase: string
  let appServer: HttpServer

  beforeAll(async () => {
    // The snippet as the README shows it, connecting to the server named in the address, and
    // telling the test what it made (the README's last line, destroy(), is left for the test).
    const snippet = withServer(readmeSnippet('### The editor in your page: `cotext/web`'), "new URLSearchParams(location.search).get('server')!")
    const lines = snippet.split('\n')
    expect(lines.filter((line) => line.startsWith('destroy()'))).toHaveLength(1)
    project.write('readme-page/main.ts', `${lines.filter((line) => !line.startsWith('destroy()')).join('\n')}\n;(window as unknown as { readme: unknown }).readme = { editor, provider, doc, destroy }\n`)
    const webDir = await project.bundlePage('readme-page')
    // The app's own server, as a dev server would be: its files, on another port (another origin),
    // with no Content-Security-Policy of Cotext's.
    appServer = createHttpServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://app').pathname
      const file = join(webDir, path === '/' ? 'index.html' : path)
      if (!file.startsWith(webDir) || !existsSync(file)) {
        response.writeHead(404).end()
        return
      }
      const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'application/octet-stream'
      response.writeHead(200, { 'content-type': type }).end(readFileSync(file))
    })
    await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve))
    browser = await launchChromium()
    appBase = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`
  }, 5 * 60_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => appServer?.close(resolve))
  })

  async function openApp(roomsPort: number): Promise<{ page: Page; console: string[] }> {
    const context = await browser.newContext({ viewport: { width: 800, height: 500 } })
    const page = await context.newPage()
    const console: string[] = []
    page.on('console', (message) => console.push(message.text()))
    page.on('pageerror', (error) => console.push(error.message))
    await page.goto(`${appBase}/?server=${encodeURIComponent(`ws://127.0.0.1:${roomsPort}`)}`)
    await page.waitForFunction(() => (window as unknown as { readme?: unknown }).readme !== undefined)
    return { page, console }
  }

  const synced = (page: Page) => page.evaluate(() => (window as unknown as { readme: { provider: { synced: boolean } } }).readme.provider.synced)

  it('is refused with 403 by a server that does not list the origin, as the README warns', { timeout: 120_000 }, async () => {
    const rooms = await bin([])
    const { page, console } = await openApp(rooms.port)
    await expect.poll(() => console.some((line) => line.includes('403')), { timeout: 30_000 }).toBe(true)
    expect(await synced(page)).toBe(false)
    expect(rooms.logs.some((line) => line.reason === 'origin' || String(line.msg).includes('origin'))).toBe(true)
  })

  it('co-edits through a server started with --allowed-origins for the app', { timeout: 120_000 }, async () => {
    const rooms = await bin(['--allowed-origins', appBase])
    const { page, console } = await openApp(rooms.port)
    await expect.poll(() => synced(page), { timeout: 30_000 }).toBe(true)
    // The snippet typed 'hello' once synced... or before: either way the room has it.
    const reader = await connectSynced(`ws://127.0.0.1:${rooms.port}`, 'team/notes.md')
    await expect.poll(() => reader.text.toString()).toBe('hello')
    await page.locator('#editor [data-testid=editor]').click()
    await page.keyboard.press('Control+End')
    await page.keyboard.type(' from the app')
    await expect.poll(() => reader.text.toString()).toBe('hello from the app')
    expect(console.filter((line) => /error|403/i.test(line))).toEqual([])
  })
})
