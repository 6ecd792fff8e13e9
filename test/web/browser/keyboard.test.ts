import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { openUser, roomUrl, screenshot, textOf, typeAndSee, useServerAndBrowser, waitForText } from './harness.ts'

/** Keyboard users can leave the editor, find the keys and follow people; axe-core finds nothing serious. */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const env = useServerAndBrowser()

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null)

/** axe-core's serious and critical violations on the page as it is now: rule id and the elements. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the server's CSP (rightly) refuses an injected <script>.
  await page.evaluate(AXE_SOURCE)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe
    const { violations } = await axe.run(document)
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`)
  })
}

describe('keyboard and screen-reader users', () => {
  it('leave the editor with Escape then Tab, and Ctrl+Shift+M makes Tab move focus', async () => {
    const user = await openUser(env.browser, roomUrl(env.server, 'keys-leave', { name: 'Kay' }))
    const { page } = user
    const editor = page.locator('[data-testid=editor]')
    await editor.click()
    await page.keyboard.type('ab')
    await page.keyboard.press('Tab')
    await waitForText(page, 'ab  ')
    expect(await focused(page)).toBe('editor')
    // Escape, then Tab: focus goes to the next control, nothing is typed.
    await page.keyboard.press('Escape')
    await page.keyboard.press('Tab')
    expect(await focused(page)).not.toBe('editor')
    expect(await textOf(page)).toBe('ab  ')
    // Shift+Tab comes back; Escape then Shift+Tab leaves backwards, to the top bar.
    await page.keyboard.press('Shift+Tab')
    expect(await focused(page)).toBe('editor')
    await page.keyboard.press('Escape')
    await page.keyboard.press('Shift+Tab')
    expect(await page.evaluate(() => document.activeElement?.closest('.cx-toolbar') !== null)).toBe(true)
    await editor.focus()
    // Ctrl+Shift+M: every Tab moves focus until Ctrl+Shift+M again.
    await page.keyboard.press('Control+Shift+M')
    expect(await page.locator('[data-testid=hint]').textContent()).toBe('Tab moves focus (Ctrl+Shift+M: Tab indents again)')
    await page.keyboard.press('Tab')
    expect(await focused(page)).not.toBe('editor')
    await editor.focus()
    await page.keyboard.press('Tab')
    expect(await focused(page)).not.toBe('editor')
    await editor.focus()
    await page.keyboard.press('Control+Shift+M')
    await page.keyboard.press('Tab')
    expect(await focused(page)).toBe('editor')
    expect(await textOf(page)).toBe('ab    ')
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('open the key help with F1 or "?", listing the keymap, and close it back to the editor', async () => {
    const user = await openUser(env.browser, roomUrl(env.server, 'keys-help', { name: 'Kay' }))
    const { page } = user
    await page.locator('[data-testid=editor]').click()
    await page.keyboard.press('F1')
    const help = page.locator('[data-testid=key-help]')
    expect(await help.isVisible()).toBe(true)
    const rows = await help.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))
    // The keymap table's own entries, as people read them, and the page's keys.
    expect(rows).toContainEqual(['Ctrl+Shift+K', 'Delete line'])
    expect(rows).toContainEqual(['Ctrl+Alt+↑, Alt+Shift+↑', 'Add selection above'])
    expect(rows).toContainEqual(['Escape, then Tab / Shift+Tab', 'Leave the editor (to the next / previous control)'])
    expect(rows).toContainEqual(['Ctrl+Shift+M', 'Toggle Tab moves focus (instead of indenting)'])
    await screenshot(page, 'keys-help')
    await page.keyboard.press('Escape')
    expect(await help.isVisible()).toBe(false)
    expect(await focused(page)).toBe('editor')
    await page.keyboard.type('x')
    await waitForText(page, 'x')
    // From the top bar too.
    await page.locator('[data-testid=soft-wrap]').focus()
    await page.keyboard.press('F1')
    expect(await help.isVisible()).toBe(true)
    await page.keyboard.press('Escape')
    expect(await focused(page)).toBe('soft-wrap')
    await page.locator('[data-testid=key-help-button]').click()
    expect(await help.isVisible()).toBe(true)
    await help.locator('button', { hasText: 'Close' }).click()
    expect(await help.isVisible()).toBe(false)
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('follow someone by keyboard without losing focus, and type on after a click on Follow', async () => {
    const room = 'keys-follow'
    const ann = await openUser(env.browser, roomUrl(env.server, room, { name: 'Ann' }))
    const ben = await openUser(env.browser, roomUrl(env.server, room, { name: 'Ben' }))
    await typeAndSee(ann, 'hello', ben)
    const chip = ben.page.locator('[data-testid=peer][data-peer-name=Ann]')
    await chip.focus()
    await ben.page.keyboard.press('Enter')
    await expect.poll(() => chip.getAttribute('aria-pressed')).toBe('true')
    // Focus stays on Ann's button (re-rendered, not lost to the page), so Enter again stops following.
    expect(await ben.page.evaluate(() => document.activeElement?.getAttribute('data-peer-name'))).toBe('Ann')
    await ann.page.keyboard.type('!')
    await ben.page.keyboard.press('Enter')
    await expect.poll(() => chip.getAttribute('aria-pressed')).toBe('false')
    expect(await ben.page.evaluate(() => document.activeElement?.getAttribute('data-peer-name'))).toBe('Ann')
    // A click follows and hands focus back to the editor: typing goes on.
    await chip.click()
    await expect.poll(() => chip.getAttribute('aria-pressed')).toBe('true')
    expect(await focused(ben.page)).toBe('editor')
    await ben.page.keyboard.press('Control+End')
    await ben.page.keyboard.type(' ben')
    await waitForText(ann.page, 'hello! ben')
    expect([...ann.errors, ...ben.errors]).toEqual([])
    await Promise.all([ann.context.close(), ben.context.close()])
  })

  it('meet no serious or critical axe-core violations on the home and room pages', async () => {
    const context = await env.browser.newContext()
    const home = await context.newPage()
    await home.goto(`${env.server.url}/`)
    expect(await seriousViolations(home)).toEqual([])
    const room = 'keys-axe'
    // Two-word names, as people have: the avatar shows initials ("AL") and must be named starting with them.
    const ann = await openUser(env.browser, roomUrl(env.server, room, { name: 'Ann Lee' }))
    const ben = await openUser(env.browser, roomUrl(env.server, room, { name: 'Ben Okafor' }))
    await typeAndSee(ann, 'const a = 1 // text', ben)
    await expect.poll(() => ben.page.locator('[data-testid=remote-cursor]').count()).toBe(1)
    expect(await seriousViolations(ben.page)).toEqual([])
    await ben.page.keyboard.press('F1')
    expect(await seriousViolations(ben.page)).toEqual([])
    expect(await ben.page.locator('[data-testid=editor]').getAttribute('aria-label')).toBe(`Document ${room}`)
    await Promise.all([context.close(), ann.context.close(), ben.context.close()])
  })
})
