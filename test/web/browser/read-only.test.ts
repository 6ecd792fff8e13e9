import { describe, expect, it } from 'vitest'
import { signToken } from '../../../server/auth.ts'
import { openUser, pointFor, roomUrl, screenshot, textOf, typeAndSee, useServerAndBrowser } from './harness.ts'

/** A page opened with a read-only token follows the room and shows its cursor, but cannot edit. */

const SECRET = 'web-browser-test-secret-0123456789abcdef'
const env = useServerAndBrowser({ authSecret: SECRET })

describe('a read-only page', () => {
  it('shows the text, refuses edits with a hint, and shows its cursor to others', async () => {
    const room = 'read-only-room'
    const [rw, ro] = await Promise.all([
      signToken(SECRET, { room, mode: 'rw', ttlSeconds: 600 }),
      signToken(SECRET, { room, mode: 'ro', ttlSeconds: 600 }),
    ])
    const writer = await openUser(env.browser, roomUrl(env.server, room, { token: rw, name: 'Writer' }))
    const reader = await openUser(env.browser, roomUrl(env.server, room, { token: ro, name: 'Reader' }))
    await typeAndSee(writer, 'read me\nsecond line', reader)
    await expect.poll(() => reader.page.locator('[data-testid=connection]').textContent()).toBe('connected')
    expect(await reader.page.locator('[data-testid=read-only]').isVisible()).toBe(true)
    expect(await reader.page.locator('[data-testid=editor]').getAttribute('aria-readonly')).toBe('true')
    expect(await writer.page.locator('[data-testid=editor]').getAttribute('aria-readonly')).toBe('false')

    // The reader moves its cursor; the writer sees it there, labelled.
    const spot = await pointFor(reader.page, 1, 3)
    await reader.page.mouse.click(spot.x, spot.y)
    const readerCursor = writer.page.locator('[data-testid=remote-cursor][data-peer-name=Reader]')
    await expect.poll(() => readerCursor.getAttribute('data-row')).toBe('1')
    expect(await readerCursor.getAttribute('data-column')).toBe('3')
    expect(await readerCursor.locator('[data-testid=remote-cursor-label]').textContent()).toBe('Reader')
    expect(await readerCursor.locator('[data-testid=remote-cursor-label]').isVisible()).toBe(true)

    // Every way of editing is refused with a visible hint, never an exception.
    const hint = reader.page.locator('[data-testid=hint]')
    await reader.page.keyboard.type('xyz')
    await expect.poll(() => hint.textContent()).toContain('Read-only')
    expect(await hint.evaluate((el) => el.classList.contains('cx-visible'))).toBe(true)
    for (const key of ['Backspace', 'Delete', 'Enter', 'Tab', 'Control+Shift+k', 'Control+z', 'Control+x', 'Control+v', 'Control+j']) {
      await reader.page.keyboard.press(key)
    }
    await screenshot(reader.page, 'read-only-reader-hint')
    expect(await textOf(reader.page)).toBe('read me\nsecond line')
    // Moving, selecting and copying still work.
    await reader.page.keyboard.press('Shift+End')
    expect(await reader.page.evaluate(() => window.cotext!.editor.getSelectedText())).toBe('ond line')
    await reader.page.keyboard.press('Control+c')

    // Even an edit forced past the page's guard is dropped by the server: the writer never sees it.
    await reader.page.evaluate(() => window.cotext!.editor.setText('forced', { bypassReadOnly: true }))
    await writer.page.keyboard.type('!')
    await reader.page.waitForFunction(() => window.cotext!.editor.getText().includes('!'))
    await expect.poll(() => textOf(writer.page)).toBe('read me\nsecond line!')
    await screenshot(writer.page, 'read-only-writer-sees-reader-cursor')
    expect([...writer.errors, ...reader.errors]).toEqual([])
    await Promise.all([writer.context.close(), reader.context.close()])
  })
})
