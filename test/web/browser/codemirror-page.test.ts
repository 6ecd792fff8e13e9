import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, openUser, roomUrl, screenshot, textOf, useServerAndBrowser, waitForText } from './harness.ts'

/**
 * The CodeMirror page bench/web-vs-codemirror.bench.ts measures ours against (web/bench/codemirror.html,
 * built in vite mode `bench` beside the page global-setup.ts built): it loads styled and highlighted
 * under our server's Content-Security-Policy, and co-edits with our page in the same room, each
 * showing the other's caret. So the benchmark's baseline cannot quietly stop working.
 */

let webDir = ''
beforeAll(async () => {
  webDir = mkdtempSync(join(tmpdir(), 'cotext-web-codemirror-'))
  cpSync(join(ROOT, 'web', 'dist'), webDir, { recursive: true })
  await build({ configFile: join(ROOT, 'web', 'vite.config.ts'), mode: 'bench', logLevel: 'warn', build: { outDir: webDir, sourcemap: false } })
})
afterAll(() => rmSync(webDir, { recursive: true, force: true }))

const env = useServerAndBrowser(() => ({ webDir }))

describe('the CodeMirror benchmark page', () => {
  it('loads styled and highlighted, and co-edits with our page in one room', async () => {
    const room = 'codemirror-page.js'
    const cotext = await openUser(env.browser, roomUrl(env.server, room, { name: 'Alice' }))
    const context = await env.browser.newContext({ viewport: { width: 900, height: 520 }, deviceScaleFactor: 1 })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
    await page.goto(`${env.server.url}/bench/codemirror.html?room=${room}&name=Bob`)
    await page.waitForFunction(() => window.codemirror?.provider.synced === true)
    const codemirrorText = () => page.evaluate(() => window.codemirror!.view.state.doc.toString())

    // Our page types; CodeMirror shows the text, highlighted as JavaScript, and Alice's caret after it.
    await cotext.page.locator('[data-testid=editor]').click()
    await cotext.page.keyboard.type('const answer = 42')
    await expect.poll(codemirrorText).toBe('const answer = 42')
    await expect.poll(() => page.locator('.cm-ySelectionCaret').count()).toBe(1)
    expect(await page.locator('.cm-ySelectionInfo').textContent()).toBe('Alice')
    // CodeMirror's own style sheet reached the page (its theme: a flex editor, a gutter; the keyword's colour).
    expect(await page.locator('.cm-editor').evaluate((el) => getComputedStyle(el).display)).toBe('flex')
    expect(await page.locator('.cm-gutters').count()).toBe(1)
    const keyword = page.locator('.cm-line span', { hasText: /^const$/ })
    expect(await keyword.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(119, 0, 136)')

    // CodeMirror types; our page shows the text, and Bob's cursor after it: y-codemirror.next publishes the
    // very end as the end of the text (bound to what follows) and does not publish it again as he types,
    // so our page must move it with his text. Then where he moves it.
    await page.locator('.cm-content').click()
    await page.keyboard.press('End')
    await page.keyboard.type(' // typed in CodeMirror')
    await waitForText(cotext.page, 'const answer = 42 // typed in CodeMirror')
    await expect.poll(() => cotext.page.locator('[data-testid=remote-cursor][data-peer-name=Bob]').getAttribute('data-column')).toBe('40')
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft')
    await expect.poll(() => cotext.page.locator('[data-testid=remote-cursor][data-peer-name=Bob]').getAttribute('data-column')).toBe('37')
    expect(await textOf(cotext.page)).toBe(await codemirrorText())
    await screenshot(page, 'codemirror-page')
    expect([...cotext.errors, ...errors]).toEqual([])
    await context.close()
    await cotext.context.close()
  })
})
