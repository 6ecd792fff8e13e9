import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { openUser, roomUrl, screenshot, textOf, typeAndSee, useServerAndBrowser, waitForText } from './harness.ts'

/** Edits survive going offline and reloading without a server: IndexedDB keeps them, y-websocket merges them. */

const env = useServerAndBrowser()

const connection = (page: Page) => page.locator('[data-testid=connection]')

/** The text this browser's IndexedDB holds for a room, read into a fresh doc. */
function storedText(page: Page, room: string): Promise<string | null> {
  return page.evaluate(async (name) => {
    const { session, doc } = window.cotext!
    // The copy opens once the server has accepted this browser as a writer (web/app/session.ts).
    if (session.persistence === null) return null
    const Persistence = session.persistence.constructor as new (name: string, doc: unknown) => { whenSynced: Promise<unknown>; destroy(): Promise<void> }
    const Doc = doc.constructor as new () => typeof doc
    const copy = new Doc()
    const persistence = new Persistence(`cotext:${name}`, copy)
    await persistence.whenSynced
    const text = copy.getText('text').toString()
    await persistence.destroy()
    return text
  }, room)
}

describe('offline', () => {
  it('shows edits made offline at once and merges them on reconnect', async () => {
    const room = 'offline-merge'
    const ann = await openUser(env.browser, roomUrl(env.server, room, { name: 'Ann' }))
    const ben = await openUser(env.browser, roomUrl(env.server, room, { name: 'Ben' }))
    await expect.poll(() => connection(ann.page).textContent()).toBe('connected')
    await expect.poll(() => connection(ben.page).textContent()).toBe('connected')
    await typeAndSee(ann, 'shared line', ben)

    await ann.context.setOffline(true)
    await expect.poll(() => connection(ann.page).textContent()).toBe('offline')
    await ann.page.keyboard.press('Control+End')
    await ann.page.keyboard.type(' +ann')
    await ben.page.locator('[data-testid=editor]').click()
    await ben.page.keyboard.press('Control+Home')
    await ben.page.keyboard.type('ben+ ')
    // Each sees their own edit at once, and not the other's.
    await expect.poll(() => ann.page.locator('.cx-line').first().textContent()).toBe('shared line +ann')
    await expect.poll(() => ben.page.locator('.cx-line').first().textContent()).toBe('ben+ shared line')
    expect(await textOf(ann.page)).toBe('shared line +ann')
    await screenshot(ann.page, 'offline-ann-while-offline')

    await ann.context.setOffline(false)
    await expect.poll(() => connection(ann.page).textContent(), { timeout: 15_000 }).toBe('connected')
    await waitForText(ann.page, 'ben+ shared line +ann')
    await waitForText(ben.page, 'ben+ shared line +ann')
    await expect.poll(() => ben.page.locator('.cx-line').first().textContent()).toBe('ben+ shared line +ann')
    await screenshot(ann.page, 'offline-ann-merged')
    await screenshot(ben.page, 'offline-ben-merged')
    expect([...ann.errors, ...ben.errors]).toEqual([])
    await Promise.all([ann.context.close(), ben.context.close()])
  })

  it('shows the last text after a reload while the server is down, then reconnects', async () => {
    const room = 'offline-reload'
    const cleo = await openUser(env.browser, roomUrl(env.server, room, { name: 'Cleo' }))
    await cleo.page.locator('[data-testid=editor]').click()
    await cleo.page.keyboard.type('kept in this browser\nsecond line')
    await expect.poll(() => storedText(cleo.page, room)).toBe('kept in this browser\nsecond line')
    expect(await cleo.page.evaluate(() => window.cotext!.whenOfflineReady)).toBe(true)

    await env.server.stop()
    await expect.poll(() => connection(cleo.page).textContent()).toBe('offline')
    await cleo.page.reload()
    await cleo.page.waitForFunction(() => window.cotext !== undefined)
    await waitForText(cleo.page, 'kept in this browser\nsecond line')
    await expect.poll(() => cleo.page.locator('.cx-line').nth(1).textContent()).toBe('second line')
    await expect.poll(() => connection(cleo.page).textContent()).toBe('offline')
    await screenshot(cleo.page, 'offline-reload-without-server')
    // Edits made now are kept too, and reach the server once it is back.
    await cleo.page.locator('[data-testid=editor]').click()
    await cleo.page.keyboard.press('Control+End')
    await cleo.page.keyboard.type('!')

    await env.server.start()
    await expect.poll(() => connection(cleo.page).textContent(), { timeout: 15_000 }).toBe('connected')
    const dan = await openUser(env.browser, roomUrl(env.server, room, { name: 'Dan' }))
    await waitForText(dan.page, 'kept in this browser\nsecond line!')
    expect([...cleo.errors, ...dan.errors]).toEqual([])
    await Promise.all([cleo.context.close(), dan.context.close()])
  })
})
