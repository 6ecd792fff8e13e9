import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'
import { openUser, openUserWithText, pointFor, roomUrl, screenshot, selectedRanges, textOf, useServerAndBrowser, waitForText, type User } from './harness.ts'

/** What people expect of an editor's surface: the gutter, column selection, the cursor kept, IME, room names. */

const env = useServerAndBrowser()

const pageWith = (room: string, text: string): Promise<User> => openUserWithText(env.browser, roomUrl(env.server, room, { name: 'Gil' }), text)

describe('gestures and surface', () => {
  it('keeps the line numbers in place at any horizontal scroll', async () => {
    const user = await pageWith('gestures-gutter', `${'long '.repeat(600)}\nshort`)
    const { page } = user
    const gutterLeft = () => page.locator('.cx-gutter').evaluate((el) => el.getBoundingClientRect().left)
    const start = await gutterLeft()
    for (const scrollLeft of [400, 1500, 2900]) {
      await page.evaluate((x) => (window.cotext!.view.scroller.scrollLeft = x), scrollLeft)
      expect(await page.evaluate(() => window.cotext!.view.scroller.scrollLeft)).toBe(scrollLeft)
      expect(await gutterLeft()).toBe(start)
      expect(await page.locator('.cx-line-number').first().isVisible()).toBe(true)
    }
    await screenshot(page, 'gestures-gutter-scrolled')
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('selects a column with Shift+Alt+drag and with a middle-button drag', async () => {
    const user = await pageWith('gestures-box', 'abcdefgh\nab\nabcdefgh\nabcdefgh')
    const { page } = user
    const from = await pointFor(page, 0, 2)
    const to = await pointFor(page, 3, 5)
    await page.keyboard.down('Shift')
    await page.keyboard.down('Alt')
    await page.mouse.move(from.x, from.y)
    await page.mouse.down()
    await page.mouse.move(to.x, to.y, { steps: 4 })
    await page.mouse.up()
    await page.keyboard.up('Alt')
    await page.keyboard.up('Shift')
    expect(await selectedRanges(page)).toEqual([[0, 2, 0, 5], [1, 2, 1, 2], [2, 2, 2, 5], [3, 2, 3, 5]])
    await page.keyboard.type('_')
    await waitForText(page, 'ab_fgh\nab_\nab_fgh\nab_fgh')

    // The middle button, right to left and bottom to top.
    const start = await pointFor(page, 3, 5)
    const end = await pointFor(page, 2, 1)
    await page.mouse.move(start.x, start.y)
    await page.mouse.down({ button: 'middle' })
    await page.mouse.move(end.x, end.y, { steps: 4 })
    await page.mouse.up({ button: 'middle' })
    expect(await selectedRanges(page)).toEqual([[3, 1, 3, 5], [2, 1, 2, 5]])
    expect(await page.evaluate(() => window.cotext!.editor.getLastSelection()!.isReversed())).toBe(true)
    expect(await textOf(page)).toBe('ab_fgh\nab_\nab_fgh\nab_fgh')
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('puts the cursor back where it was after a reload', async () => {
    const user = await pageWith('gestures-cursor', Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n'))
    const { page } = user
    await page.evaluate(() => window.cotext!.editor.setCursorBufferPosition([150, 3]))
    await page.keyboard.press('ArrowRight')
    expect(await selectedRanges(page)).toEqual([[150, 4, 150, 4]])
    await page.reload()
    await page.waitForFunction(() => window.cotext !== undefined)
    await expect.poll(() => selectedRanges(page)).toEqual([[150, 4, 150, 4]])
    // Scrolled to it, too.
    await expect.poll(() => page.locator('.cx-line', { hasText: 'line 150' }).isVisible()).toBe(true)
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('shows an IME composition inline, moving the following text, and peers see it only once committed', async () => {
    const room = 'gestures-ime'
    const user = await pageWith(room, 'Hello world')
    const peer = await openUser(env.browser, roomUrl(env.server, room, { name: 'Pia' }))
    await waitForText(peer.page, 'Hello world')
    const { page } = user
    await page.evaluate(() => window.cotext!.editor.setCursorBufferPosition([0, 6]))
    const worldX = () => page.locator('.cx-line').first().evaluate((line) => {
      const text = line.querySelector('span')!
      const range = document.createRange()
      const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT)
      let node = walker.nextNode() as Text | null
      while (node && !node.data.includes('w')) node = walker.nextNode() as Text | null
      range.setStart(node!, node!.data.indexOf('w'))
      range.setEnd(node!, node!.data.indexOf('w') + 1)
      return range.getBoundingClientRect().left
    })
    const before = await worldX()
    const cdp = await user.context.newCDPSession(page)
    await cdp.send('Input.imeSetComposition', { text: 'にほん', selectionStart: 3, selectionEnd: 3 })
    const composition = page.locator('.cx-input.cx-composing')
    expect(await composition.textContent()).toBe('\u200bにほん')
    const box = (await composition.boundingBox())!
    // "world" moved right by the composition's width, so nothing covers it.
    await expect.poll(async () => Math.round((await worldX()) - before)).toBe(Math.round(box.width))
    expect(box.x + box.width).toBeLessThanOrEqual((await worldX()) + 0.5)
    expect(await composition.evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe('underline')
    await screenshot(page, 'gestures-ime-inline')
    expect(await textOf(page)).toBe('Hello world')
    expect(await textOf(peer.page)).toBe('Hello world')
    await cdp.send('Input.insertText', { text: '日本' })
    await waitForText(page, 'Hello 日本world')
    await waitForText(peer.page, 'Hello 日本world')
    await expect.poll(async () => Math.round((await worldX()) - before)).toBeGreaterThan(0)
    expect(await page.locator('.cx-composition-gap').count()).toBe(0)
    expect([...user.errors, ...peer.errors]).toEqual([])
    await Promise.all([user.context.close(), peer.context.close()])
  })

  it('edits the room the address names, refusing names that cannot be used with the reason', async () => {
    const context = await env.browser.newContext()
    const page = await context.newPage()
    await page.goto(roomUrl(env.server, '../alias1'))
    const error = page.locator('[data-testid=room-name-error]')
    expect(await error.textContent()).toBe('“../alias1” cannot be a room name. A room name cannot have “.” or “..” as a part between slashes.')
    expect(await page.evaluate(() => window.cotext)).toBeUndefined()
    expect(await page.locator('#cx-room-name').inputValue()).toBe('alias1')

    // Non-ASCII letters are kept: the address bar, the page and the server name the same room.
    const user = await openUser(env.browser, roomUrl(env.server, 'ünï.md', { name: 'Una' }))
    expect(new URL(user.page.url()).searchParams.get('room')).toBe('ünï.md')
    expect(await user.page.locator('[data-testid=room]').textContent()).toBe('ünï.md')
    await user.page.locator('[data-testid=editor]').click()
    await user.page.keyboard.type('# umlauts')
    const doc = new Y.Doc()
    const provider = new WebsocketProvider(`ws://127.0.0.1:${env.server.port}`, 'ünï.md', doc, { WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket, disableBc: true })
    try {
      await expect.poll(() => doc.getText('text').toString()).toBe('# umlauts')
    } finally {
      provider.destroy()
      provider.awareness.destroy()
      doc.destroy()
    }
    expect(user.errors).toEqual([])
    await Promise.all([context.close(), user.context.close()])
  })
})
