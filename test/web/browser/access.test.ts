import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { signToken } from '../../../server/auth.ts'
import { openUser, roomUrl, screenshot, textOf, useServerAndBrowser, waitForText } from './harness.ts'

/**
 * Links and access with AUTH_SECRET set: a refused link says so and keeps nothing; a link's token
 * leaves the address bar but keeps working for the session; the editor says it is loading until
 * the first sync.
 */

const SECRET = 'web-access-test-secret-0123456789abcdef'
const env = useServerAndBrowser({ authSecret: SECRET })

/** Names of this browser profile's IndexedDB databases. */
const databases = (page: Page) => page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name).sort())

describe('links and access', () => {
  it('shows a refused link as such, not editable, and keeps nothing it typed', async () => {
    const room = 'access-refused'
    const rw = await signToken(SECRET, { room, mode: 'rw', ttlSeconds: 600 })
    const writer = await openUser(env.browser, roomUrl(env.server, room, { token: rw, name: 'Writer' }))
    await writer.page.locator('[data-testid=editor]').click()
    await writer.page.keyboard.type('the real text')

    const stranger = await openUser(env.browser, roomUrl(env.server, room, { name: 'Stranger' }))
    const refused = stranger.page.locator('[data-testid=refused]')
    await expect.poll(() => refused.isVisible()).toBe(true)
    expect(await refused.locator('h2').textContent()).toBe('You need a link with access to this room')
    expect(await refused.textContent()).toContain('no valid access token')
    expect(await stranger.page.locator('[data-testid=editor]').getAttribute('aria-readonly')).toBe('true')
    await stranger.page.locator('[data-testid=editor]').click()
    await stranger.page.keyboard.type('typed while refused')
    expect(await textOf(stranger.page)).toBe('')
    await screenshot(stranger.page, 'access-refused')
    // Nothing of this room reaches IndexedDB, so nothing can merge into it later.
    expect(await databases(stranger.page)).toEqual([])
    expect(await stranger.page.evaluate(() => window.cotext!.session.persistence)).toBeNull()

    // A link for another room is refused with its own reason.
    const other = await signToken(SECRET, { room: 'elsewhere', mode: 'rw', ttlSeconds: 600 })
    await stranger.page.goto(roomUrl(env.server, room, { token: other }))
    await expect.poll(() => stranger.page.locator('[data-testid=refused]').textContent()).toContain('another room')
    expect(await databases(stranger.page)).toEqual([])
    expect(await textOf(writer.page)).toBe('the real text')
    expect([...writer.errors, ...stranger.errors]).toEqual([])
    await Promise.all([writer.context.close(), stranger.context.close()])
  })

  it('takes the token out of the address bar and keeps it for the session', async () => {
    const room = 'access-token-kept'
    const rw = await signToken(SECRET, { room, mode: 'rw', ttlSeconds: 600 })
    const user = await openUser(env.browser, roomUrl(env.server, room, { token: rw, name: 'Keeper' }))
    const { page } = user
    expect(new URL(page.url()).searchParams.has('token')).toBe(false)
    expect(new URL(page.url()).searchParams.get('room')).toBe(room)
    await expect.poll(() => page.locator('[data-testid=connection]').textContent()).toBe('connected')
    await page.locator('[data-testid=editor]').click()
    await page.keyboard.type('kept')
    // This writer's copy is in IndexedDB.
    await expect.poll(() => databases(page)).toEqual([`cotext:${room}`])
    await page.reload()
    await page.waitForFunction(() => window.cotext !== undefined)
    await expect.poll(() => page.locator('[data-testid=connection]').textContent()).toBe('connected')
    await waitForText(page, 'kept')
    await page.locator('[data-testid=editor]').click()
    await page.keyboard.press('Control+End')
    await page.keyboard.type('!')
    expect(await page.locator('[data-testid=refused]').count()).toBe(0)
    const reader = await openUser(env.browser, roomUrl(env.server, room, { token: await signToken(SECRET, { room, mode: 'ro', ttlSeconds: 600 }) }))
    await waitForText(reader.page, 'kept!')
    // A read-only link still opens read-only, and keeps no copy.
    expect(await reader.page.locator('[data-testid=read-only]').isVisible()).toBe(true)
    expect(await reader.page.locator('[data-testid=editor]').getAttribute('aria-readonly')).toBe('true')
    expect(await databases(reader.page)).toEqual([])
    expect([...user.errors, ...reader.errors]).toEqual([])
    await Promise.all([user.context.close(), reader.context.close()])
  })

  it('says the document is loading until the first sync', async () => {
    const room = 'access-loading'
    const rw = await signToken(SECRET, { room, mode: 'rw', ttlSeconds: 600 })
    const context = await env.browser.newContext({ viewport: { width: 900, height: 520 } })
    const page = await context.newPage()
    // The server's messages to the page wait until released: the page is connected but not yet synced.
    const held: (() => void)[] = []
    let release = false
    await page.routeWebSocket(/\/access-loading/, (ws) => {
      const upstream = ws.connectToServer()
      upstream.onMessage((message) => (release ? ws.send(message) : held.push(() => ws.send(message))))
      ws.onMessage((message) => upstream.send(message))
    })
    await page.goto(roomUrl(env.server, room, { token: rw }))
    await page.waitForFunction(() => window.cotext !== undefined)
    const loading = page.locator('[data-testid=loading]')
    await expect.poll(() => page.locator('[data-testid=connection]').textContent()).toBe('connected')
    expect(await loading.isVisible()).toBe(true)
    expect(await loading.textContent()).toBe('Loading the document…')
    await screenshot(page, 'access-loading')
    release = true
    for (const send of held.splice(0)) send()
    await expect.poll(() => loading.count()).toBe(0)
    await context.close()
  })
})
