import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import WebSocket from 'ws'
import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'
import { TextEditor } from '../../../core/index.ts'
import { contrastRatio } from '../../../web/view/colors.ts'
import { openUser, roomUrl, screenshot, typeAndSee, useServerAndBrowser, type User } from './harness.ts'

/** Other people on screen: labels that give way to the text, distinct readable colours, a one-row bar. */

const env = useServerAndBrowser()

const label = (page: Page, name: string) => page.locator(`[data-testid=remote-cursor][data-peer-name="${name}"] [data-testid=remote-cursor-label]`)

/** `rgb(r, g, b)` -> `#rrggbb`. */
const hex = (rgb: string) => `#${rgb.match(/\d+/g)!.slice(0, 3).map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`

/** A person whose remembered colour is automatic (not picked), as on a first visit. */
async function openWithAutoColor(room: string, name: string, color: string): Promise<User> {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 520 } })
  await context.addInitScript((user) => localStorage.setItem('cotext.user', JSON.stringify(user)), { name, color, colorChosen: false })
  const page = await context.newPage()
  await page.goto(roomUrl(env.server, room))
  await page.waitForFunction(() => window.cotext !== undefined)
  return { context, page, errors: [] }
}

describe('presence', () => {
  it("shows a peer's name while they are active, then only the caret, and again on hover", async () => {
    const room = 'presence-labels'
    const ann = await openUser(env.browser, roomUrl(env.server, room, { name: 'Ann' }))
    const ben = await openUser(env.browser, roomUrl(env.server, room, { name: 'Ben' }))
    await typeAndSee(ann, 'one two three', ben)
    await expect.poll(() => label(ben.page, 'Ann').isVisible()).toBe(true)
    await screenshot(ben.page, 'presence-label-active')
    // Idle: the label goes, the caret and the people list stay.
    await expect.poll(() => label(ben.page, 'Ann').isVisible(), { timeout: 10_000 }).toBe(false)
    expect(await ben.page.locator('[data-testid=remote-cursor][data-peer-name=Ann]').isVisible()).toBe(true)
    expect(await ben.page.locator('[data-testid=peer][data-peer-name=Ann]').count()).toBe(1)
    await screenshot(ben.page, 'presence-label-idle')
    await ben.page.locator('[data-testid=remote-cursor][data-peer-name=Ann]').hover()
    expect(await label(ben.page, 'Ann').isVisible()).toBe(true)
    await ben.page.mouse.move(5, 300)
    // Acting again brings it back.
    await ann.page.keyboard.press('Home')
    await expect.poll(() => label(ben.page, 'Ann').isVisible()).toBe(true)
    expect([...ann.errors, ...ben.errors]).toEqual([])
    await Promise.all([ann.context.close(), ben.context.close()])
  })

  it('gives everyone a colour nobody else in the room has, with readable labels, and keeps a chosen one', async () => {
    const room = 'presence-colours'
    const users = [await openWithAutoColor(room, 'Uno', '#e6194b'), await openWithAutoColor(room, 'Dos', '#e6194b'), await openWithAutoColor(room, 'Tres', '#e6194b')]
    const picker = await openUser(env.browser, roomUrl(env.server, room, { name: 'Pick', color: '#e6194b' }))
    const colours = () => picker.page.evaluate(() => window.cotext!.editor.getPeers().map((peer) => peer.user.color).sort())
    await expect.poll(colours, { timeout: 15_000 }).toHaveLength(3)
    await expect.poll(async () => new Set(await colours()).size, { timeout: 15_000 }).toBe(3)
    // The person who picked #e6194b keeps it; nobody else has it.
    expect(await picker.page.evaluate(() => window.cotext!.awareness.getLocalState()!.user.color)).toBe('#e6194b')
    expect(await colours()).not.toContain('#e6194b')
    // Every label reads at 4.5:1 or better.
    await picker.page.locator('[data-testid=editor]').click()
    for (const user of users) {
      await user.page.locator('[data-testid=editor]').click()
      await user.page.keyboard.type('x')
    }
    await expect.poll(() => picker.page.locator('.cx-remote-cursor.cx-labeled').count()).toBe(3)
    const pairs = await picker.page.locator('[data-testid=remote-cursor-label]').evaluateAll((labels) => labels.map((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]))
    for (const [text, background] of pairs) expect(contrastRatio(hex(text!), hex(background!)), `${text} on ${background}`).toBeGreaterThanOrEqual(4.5)
    await screenshot(picker.page, 'presence-colours')
    await Promise.all([...users, picker].map((user) => user.context.close()))
  })

  it('keeps the top bar on one row with ten people, the rest behind "+N", followed and recent first', async () => {
    const room = 'presence-ten'
    const peers = Array.from({ length: 10 }, (_, i) => {
      const doc = new Y.Doc()
      const provider = new WebsocketProvider(`ws://127.0.0.1:${env.server.port}`, room, doc, { WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket, disableBc: true })
      const editor = new TextEditor({ doc, awareness: provider.awareness, user: { name: `Person ${i}`, color: '#4363d8' } })
      return { doc, provider, editor }
    })
    try {
      const me = await openUser(env.browser, roomUrl(env.server, room, { name: 'Me' }))
      const { page } = me
      await expect.poll(() => page.evaluate(() => window.cotext!.editor.getPeers().length)).toBe(10)
      const bar = page.locator('.cx-toolbar')
      const rowHeight = await page.locator('[data-testid=connection]').evaluate((el) => el.closest('.cx-toolbar')!.getBoundingClientRect().height)
      expect(rowHeight).toBeLessThan(50)
      expect(await bar.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
      const avatars = page.locator('.cx-avatars [data-testid=peer]')
      await expect.poll(() => avatars.count()).toBe(4)
      expect(await page.locator('[data-testid=peers-more]').textContent()).toBe('+6')
      // The one who acted last comes first.
      peers[7]!.editor.setCursorBufferPosition([0, 0])
      peers[7]!.editor.insertText('seven ')
      await expect.poll(() => avatars.first().getAttribute('data-peer-name')).toBe('Person 7')
      // "+6" opens everyone; following someone from there puts them first.
      await page.locator('[data-testid=peers-more]').click()
      const rows = page.locator('[data-testid=peer-row]')
      expect(await rows.count()).toBe(10)
      await screenshot(page, 'presence-ten-list')
      await page.locator('[data-testid=peer-row][data-peer-name="Person 2"]').click()
      await expect.poll(() => avatars.first().getAttribute('data-peer-name')).toBe('Person 2')
      expect(await avatars.first().getAttribute('aria-pressed')).toBe('true')
      expect(me.errors).toEqual([])
      await me.context.close()
    } finally {
      for (const peer of peers) {
        peer.editor.destroy()
        peer.provider.destroy()
        peer.provider.awareness.destroy()
        peer.doc.destroy()
      }
    }
  })
})
