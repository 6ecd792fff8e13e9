import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CDPSession, Page } from 'playwright-core'
import { ROOT, screenshot, useServerAndBrowser } from './harness.ts'

/**
 * mountEditor as an app uses it: a page of its own (fixtures/mount, bundled here by Vite) mounts two
 * editors, each over its own Y.Doc and stock WebsocketProvider, and they co-edit through the server.
 */

let outDir: string

// Registered before useServerAndBrowser's hooks, so (vitest stacks hooks) the page is built before
// the server starts and removed after it stops.
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'cotext-mount-page-'))
  await build({ configFile: false, root: join(ROOT, 'test/web/browser/fixtures/mount'), logLevel: 'warn', build: { outDir, emptyOutDir: true, target: 'es2022' } })
})

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true })
})

const env = useServerAndBrowser(() => ({ webDir: outDir }))

async function openApp(room: string): Promise<{ page: Page; errors: string[] }> {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 500 } })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${env.server.url}/?room=${room}`)
  await page.waitForFunction(() => window.mounted !== undefined)
  return { page, errors }
}

/** Event listeners on window and document, counted by the DevTools protocol. */
async function listenerCount(cdp: CDPSession, expression: string): Promise<number> {
  const { result } = await cdp.send('Runtime.evaluate', { expression })
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! })
  return listeners.length
}

describe('mountEditor', () => {
  it('puts two co-editing editors in one page, each showing the other’s cursor', async () => {
    const { page, errors } = await openApp('mounted-pair')
    const left = page.locator('#left [data-testid=editor]')
    const right = page.locator('#right [data-testid=editor]')
    expect(await left.getAttribute('aria-label')).toBe("Lea's editor")
    await left.click()
    await page.keyboard.type('hello from the left')
    await page.waitForFunction(() => window.mounted.right.editor.getText() === 'hello from the left')
    await right.click()
    await page.keyboard.press('Control+End')
    await page.keyboard.type('!')
    await page.waitForFunction(() => window.mounted.left.editor.getText() === 'hello from the left!')
    await expect.poll(() => page.locator('#left [data-testid=remote-cursor][data-peer-name=Rik]').getAttribute('data-column')).toBe('20')
    await expect.poll(() => page.locator('#right [data-testid=remote-cursor][data-peer-name=Lea]').count()).toBe(1)
    // The key help lists the keymap, inside the component.
    await page.keyboard.press('F1')
    expect(await page.locator('#right [data-testid=key-help]').isVisible()).toBe(true)
    await page.keyboard.press('Escape')
    await screenshot(page, 'mount-two-editors')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('removes every element and listener it added when destroyed', async () => {
    const { page, errors } = await openApp('mounted-destroy')
    const cdp = await page.context().newCDPSession(page)
    const counts = () => Promise.all([listenerCount(cdp, 'window'), listenerCount(cdp, 'document')])
    const before = await counts()
    // Mount a third editor and use it (drag, keys, peers), then destroy it.
    await page.evaluate(() => {
      const host = document.createElement('div')
      host.id = 'third'
      host.style.height = '200px'
      document.body.appendChild(host)
      const doc = window.mounted.left.editor.getBuffer().ytext.doc!
      const third = window.mountEditor(host, { doc, textName: 'other', user: { name: 'Tess', color: '#3cb44b' } })
      ;(window as unknown as { third: typeof third }).third = third
    })
    const third = page.locator('#third [data-testid=editor]')
    await third.click()
    await page.keyboard.type('abc')
    const box = (await third.boundingBox())!
    await page.mouse.move(box.x + 5, box.y + 5)
    await page.mouse.down()
    await page.mouse.move(box.x + 60, box.y + 8)
    await page.mouse.up()
    expect(await page.evaluate(() => window.mounted.left.editor.getBuffer().ytext.doc!.getText('other').toString())).toBe('abc')
    expect(await page.evaluate(() => window.mounted.left.editor.getText())).toBe('')
    await page.evaluate(() => (window as unknown as { third: { destroy(): void } }).third.destroy())
    expect(await page.locator('#third').evaluate((el) => el.childNodes.length)).toBe(0)
    expect(await page.evaluate(() => (window as unknown as { third: { editor: { isDestroyed(): boolean } } }).third.editor.isDestroyed())).toBe(true)
    expect(await counts()).toEqual(before)
    expect(errors).toEqual([])
    await page.context().close()
  })
})
