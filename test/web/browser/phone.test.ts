import { describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { pointFor, roomUrl, screenshot, selectedRanges, useServerAndBrowser, waitForText } from './harness.ts'

/**
 * A phone: 360 × 740 CSS px, touch, the page at its device width. The bar fits (settings under
 * "Menu"), nothing is off-screen, swiping never pans the page, a tap places the caret, a double tap
 * selects a word, and the caret stays above the on-screen keyboard.
 */

const env = useServerAndBrowser()
const WIDTH = 360
const HEIGHT = 740

async function openPhone(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  await page.goto(url)
  await page.waitForFunction(() => window.cotext !== undefined)
  await expect.poll(() => page.locator('[data-testid=connection]').getAttribute('data-state')).toBe('connected')
  return page
}

/** Elements of the bar (and what is open under it) that are visible but reach past the screen's edges. */
function offScreen(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(([sel, width]) => {
    const out: string[] = []
    for (const element of document.querySelectorAll<HTMLElement>(sel)) {
      const box = element.getBoundingClientRect()
      if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden') continue
      if (box.left < 0 || box.right > width) out.push(`${element.className || element.tagName} ${Math.round(box.left)}..${Math.round(box.right)}`)
    }
    return out
  }, [selector, WIDTH] as [string, number])
}

/** A touch drag through the DevTools protocol, as a finger swiping from one point to another. */
async function swipe(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  const session = await page.context().newCDPSession(page)
  await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] })
  for (let step = 1; step <= 8; step++) {
    const x = from.x + ((to.x - from.x) * step) / 8
    const y = from.y + ((to.y - from.y) * step) / 8
    await session.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] })
  }
  await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await session.detach()
}

const pageScroll = (page: Page) => page.evaluate(() => ({ x: window.scrollX, y: window.scrollY, width: document.documentElement.scrollWidth }))

describe('on a 360 px phone', () => {
  it('fits the bar on the screen, with the settings under Menu, and never pans sideways', async () => {
    const room = 'phone-bar.js'
    const ann = await openPhone(env.browser, roomUrl(env.server, room, { name: 'Ann Lee' }))
    const others = await Promise.all(['Kind Seal', 'Brave Otter', 'Quiet Heron'].map((name) => openPhone(env.browser, roomUrl(env.server, room, { name }))))
    await expect.poll(() => ann.locator('[data-testid=peer]').count()).toBe(3)
    await ann.evaluate(() => window.cotext!.editor.setText('const greeting = "hello"\n'.repeat(3) + 'x'.repeat(300)))
    expect(await offScreen(ann, '.cx-toolbar, .cx-toolbar *')).toEqual([])
    for (const testid of ['connection', 'menu-button', 'room']) expect(await ann.locator(`[data-testid=${testid}]`).isVisible()).toBe(true)
    expect(await ann.locator('[data-testid=language]').isVisible()).toBe(false)
    expect(await ann.locator('.cx-toolbar').evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(50)
    expect((await pageScroll(ann)).width).toBe(WIDTH)

    // The menu opens under the bar, inside the screen, with every setting.
    await ann.locator('[data-testid=menu-button]').tap()
    expect(await ann.locator('[data-testid=menu-button]').getAttribute('aria-expanded')).toBe('true')
    for (const testid of ['language', 'soft-wrap', 'user-name', 'user-color', 'key-help-button']) expect(await ann.locator(`[data-testid=${testid}]`).isVisible()).toBe(true)
    expect(await offScreen(ann, '.cx-menu, .cx-menu *')).toEqual([])
    await screenshot(ann, 'phone-menu')
    await ann.locator('[data-testid=soft-wrap]').tap()
    expect(await ann.evaluate(() => window.cotext!.editor.isSoftWrapped())).toBe(true)
    await ann.locator('[data-testid=menu-button]').tap()
    expect(await ann.locator('[data-testid=language]').isVisible()).toBe(false)

    // Swiping the bar or the text sideways moves no page: the editor stays in view, showing text.
    await swipe(ann, { x: 330, y: 20 }, { x: 30, y: 24 })
    await swipe(ann, { x: 330, y: 200 }, { x: 20, y: 210 })
    expect(await pageScroll(ann)).toEqual({ x: 0, y: 0, width: WIDTH })
    const editorBox = await ann.locator('.cx-scroller').boundingBox()
    expect(editorBox!.x).toBe(0)
    expect(await ann.locator('.cx-line').first().isVisible()).toBe(true)
    await screenshot(ann, 'phone-bar')
    await Promise.all([ann, ...others].map((page) => page.context().close()))
  })

  it('places the caret with a tap and selects a word with a double tap', async () => {
    const page = await openPhone(env.browser, roomUrl(env.server, 'phone-tap', { name: 'Tao Wu' }))
    await page.evaluate(() => window.cotext!.editor.setText('first line\nsecond words here\nthird'))
    await waitForText(page, 'first line\nsecond words here\nthird')
    const at = await pointFor(page, 1, 3)
    await page.touchscreen.tap(at.x, at.y)
    await expect.poll(() => selectedRanges(page)).toEqual([[1, 3, 1, 3]])
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('editor')
    const word = await pointFor(page, 1, 9)
    const session = await page.context().newCDPSession(page)
    // Two taps in quick succession at one place: Chromium's gesture detector makes them a double tap.
    for (let tap = 0; tap < 2; tap++) {
      await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: word.x, y: word.y }] })
      await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
    }
    await session.detach()
    await expect.poll(() => selectedRanges(page)).toEqual([[1, 7, 1, 12]])
    await page.context().close()
  })

  it('keeps the caret above the on-screen keyboard (the visual viewport shrinks)', async () => {
    const page = await openPhone(env.browser, roomUrl(env.server, 'phone-keyboard', { name: 'Kim Ode' }))
    const lines = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n')
    await page.evaluate((text) => window.cotext!.editor.setText(text), lines)
    const at = await pointFor(page, 30, 2)
    await page.touchscreen.tap(at.x, at.y)
    await expect.poll(() => selectedRanges(page)).toEqual([[30, 2, 30, 2]])
    // The keyboard takes the lower 400 px: the browser shrinks the visual viewport and says so.
    await page.evaluate(() => {
      Object.defineProperty(window.visualViewport!, 'height', { configurable: true, get: () => 340 })
      window.visualViewport!.dispatchEvent(new Event('resize'))
    })
    await expect.poll(() => page.locator('.cx-page').evaluate((el) => el.getBoundingClientRect().height)).toBe(340)
    // The caret's row is inside the editor's visible part, and that part is above the keyboard.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const cursor = document.querySelector('.cx-cursors .cx-cursor')!.getBoundingClientRect()
          const scroller = document.querySelector('.cx-scroller')!.getBoundingClientRect()
          return cursor.top >= scroller.top && cursor.bottom <= scroller.bottom && scroller.bottom <= 340
        }),
      )
      .toBe(true)
    await page.keyboard.type('!')
    await expect.poll(() => page.evaluate(() => window.cotext!.editor.lineTextForBufferRow(30))).toBe('li!ne 30')
    await page.context().close()
  })
})
