import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { CHROMIUM_ARGS, ensureChromium } from './chromium.ts'

/**
 * What the browser tests share: the real server as a child process (on a free port, with a temporary
 * DATA_DIR, serving the page built by global-setup.ts), Debian's Chromium through playwright-core,
 * one browser context per user (so each has its own IndexedDB and none shares a BroadcastChannel),
 * and screenshots under test-results/web/.
 */

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const WEB_DIST = join(ROOT, 'web', 'dist')
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'web')

export class ServerProcess {
  private child: ChildProcess | null = null
  port = 0
  readonly dataDir: string
  private readonly ownsDataDir: boolean

  constructor(private readonly options: { authSecret?: string; dataDir?: string; webDir?: string } = {}) {
    this.ownsDataDir = options.dataDir === undefined
    this.dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'cotext-web-test-'))
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** Starts the server (on the port it had before, after a stop) and resolves once it listens. */
  async start(): Promise<void> {
    if (this.child !== null) throw new Error('the server is already running')
    const args = ['--import', 'tsx', 'server/main.ts', '--host', '127.0.0.1', '--port', String(this.port), '--data-dir', this.dataDir, '--web-dir', this.options.webDir ?? WEB_DIST]
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, AUTH_SECRET: this.options.authSecret ?? '', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.child = child
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    this.port = await new Promise<number>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! })
      lines.on('line', (line) => {
        try {
          const entry = JSON.parse(line) as { msg?: string; port?: number }
          if (entry.msg === 'listening' && typeof entry.port === 'number') resolve(entry.port)
        } catch {
          // Not a log line.
        }
      })
      child.once('exit', (code) => reject(new Error(`the server exited with ${String(code)} before listening:\n${stderr}`)))
    })
  }

  /** Stops the server as an operator would (SIGTERM: it stores every room, then exits). */
  async stop(): Promise<void> {
    const child = this.child
    if (child === null) return
    this.child = null
    if (child.exitCode !== null) return
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  }

  async dispose(): Promise<void> {
    await this.stop()
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true })
  }
}

export async function startServer(options: { authSecret?: string; webDir?: string } = {}): Promise<ServerProcess> {
  const server = new ServerProcess(options)
  await server.start()
  return server
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS })
}

export interface ServerOptions {
  authSecret?: string
  webDir?: string
}

export interface ServerAndBrowser {
  readonly server: ServerProcess
  readonly browser: Browser
}

/**
 * Starts a server and Chromium before a file's tests and stops both after them. The options may be a
 * function, read when the server starts, for a file whose own beforeAll (registered earlier) makes them.
 */
export function useServerAndBrowser(options: ServerOptions | (() => ServerOptions) = {}): ServerAndBrowser {
  let server: ServerProcess | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startServer(typeof options === 'function' ? options() : options), launchChromium()])
  })
  afterAll(async () => {
    await browser?.close()
    await server?.dispose()
  })
  return {
    get server() {
      if (server === undefined) throw new Error('the server starts in beforeAll: use it inside a test')
      return server
    },
    get browser() {
      if (browser === undefined) throw new Error('the browser starts in beforeAll: use it inside a test')
      return browser
    },
  }
}

export interface User {
  context: BrowserContext
  page: Page
  /** Uncaught exceptions and console errors on the page: a test ends by expecting none. */
  errors: string[]
}

/** A person in their own browser profile, with the room page open and its editor ready. */
export async function openUser(browser: Browser, url: string): Promise<User> {
  const context = await browser.newContext({ viewport: { width: 900, height: 520 }, deviceScaleFactor: 1 })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    // A refused or dropped WebSocket is logged by Chromium itself; the page reports it in its state.
    if (message.type() === 'error' && !/WebSocket|ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_REFUSED/.test(message.text())) {
      errors.push(`console: ${message.text()}`)
    }
  })
  await page.goto(url)
  await page.waitForFunction(() => window.cotext !== undefined)
  return { context, page, errors }
}

/**
 * A user on a room page holding `text` (unless empty), with the cursor at [0, column] and the editor
 * focused, ready for keys.
 */
export async function openUserWithText(browser: Browser, url: string, text: string, column = 0): Promise<User> {
  const user = await openUser(browser, url)
  if (text !== '') {
    await user.page.evaluate(
      ([t, c]) => {
        const editor = window.cotext!.editor
        editor.setText(t)
        editor.setCursorBufferPosition([0, c])
      },
      [text, column] as [string, number],
    )
  }
  await user.page.locator('[data-testid=editor]').focus()
  return user
}

export function roomUrl(server: ServerProcess, room: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams({ room, ...params })
  return `${server.url}/?${query.toString()}`
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) })
}

/** The editor's text, read through the API the page exposes. */
export function textOf(page: Page): Promise<string> {
  return page.evaluate(() => window.cotext!.editor.getText())
}

/** The page's selections as [startRow, startColumn, endRow, endColumn], in the editor's order. */
export function selectedRanges(page: Page): Promise<number[][]> {
  return page.evaluate(() => window.cotext!.editor.getSelectedBufferRanges().map((r) => [r.start.row, r.start.column, r.end.row, r.end.column]))
}

/** Waits until the page's text is exactly `text`. */
export async function waitForText(page: Page, text: string): Promise<void> {
  await page.waitForFunction((expected) => window.cotext!.editor.getText() === expected, text)
}

/** `writer` clicks into its editor and types `text`; resolves once `reader`'s page holds exactly `text`. */
export async function typeAndSee(writer: User, text: string, reader: User): Promise<void> {
  await writer.page.locator('[data-testid=editor]').click()
  await writer.page.keyboard.type(text)
  await waitForText(reader.page, text)
}

/** Window coordinates of a screen position's left edge, vertically centred on its row. */
export async function pointFor(page: Page, row: number, column: number): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ([r, c]) => {
      const view = window.cotext!.view
      view.renderNow()
      const { top, left } = view.pixelPositionForScreenPosition(r!, c!)
      const box = view.content.getBoundingClientRect()
      return { x: box.left + left, y: box.top + top + view.getLineHeight() / 2 }
    },
    [row, column],
  )
}
