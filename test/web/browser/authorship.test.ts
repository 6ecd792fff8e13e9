import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { openUser, roomUrl, screenshot, typeAndSee, useServerAndBrowser, waitForText, type User } from './harness.ts'

/** Who wrote what and the history panel, between two people in Chromium. */

const env = useServerAndBrowser()

const text = (page: Page) => page.evaluate(() => window.cotext!.editor.getText())

function errorsOf(user: User): string[] {
  return user.errors
}

async function twoPeople(room: string): Promise<[User, User]> {
  const ann = await openUser(env.browser, roomUrl(env.server, room, { name: 'Ann', color: '#e6194b' }))
  const ben = await openUser(env.browser, roomUrl(env.server, room, { name: 'Ben', color: '#4363d8' }))
  await typeAndSee(ann, 'hello ', ben)
  await ben.page.locator('[data-testid=editor]').focus()
  await ben.page.evaluate(() => window.cotext!.editor.moveToBottom())
  await ben.page.keyboard.type('world')
  await waitForText(ann.page, 'hello world')
  return [ann, ben]
}

describe('authorship view', () => {
  it("tints each author's text in their colour, names them on hover and on Alt+Shift+W", async () => {
    const [ann, ben] = await twoPeople('authorship-view')
    const page = ben.page
    expect(await page.locator('[data-testid=author-tint]').count()).toBe(0)
    await page.keyboard.press('Alt+Shift+A')
    await expect.poll(() => page.locator('[data-testid=author-tint]').count()).toBe(2)
    expect(await page.locator('[data-testid=authorship-toggle]').getAttribute('aria-pressed')).toBe('true')
    const tints = await page.locator('[data-testid=author-tint]').evaluateAll((els) =>
      els.map((el) => [el.getAttribute('data-author'), getComputedStyle(el).backgroundColor, getComputedStyle(el).borderBottomColor]),
    )
    // A light tint (alpha 0.2) of the author's colour behind the text, underlined in the colour itself.
    expect(tints).toEqual([
      ['Ann', 'rgba(230, 25, 75, 0.2)', 'rgb(230, 25, 75)'],
      ['Ben', 'rgba(67, 99, 216, 0.2)', 'rgb(67, 99, 216)'],
    ])
    const box = (await page.locator('[data-testid=author-tint][data-author=Ann]').boundingBox())!
    await page.mouse.move(box.x + 4, box.y + box.height / 2)
    await expect.poll(() => page.locator('[data-testid=author-tooltip]').textContent()).toMatch(/^Written by Ann at \d/)
    expect(await page.locator('[data-testid=author-tooltip]').isVisible()).toBe(true)
    await screenshot(page, 'authorship-view')
    // The keyboard gets the same answer in a status line: the cursor is after Ben's "world".
    await page.evaluate(() => window.cotext!.view.focus())
    await page.keyboard.press('Alt+Shift+W')
    await expect.poll(() => page.locator('[data-testid=author-announcer]').textContent()).toMatch(/^Written by Ben at \d/)
    expect(await text(page)).toBe('hello world')
    await page.locator('[data-testid=authorship-toggle]').click()
    await expect.poll(() => page.locator('[data-testid=author-tint]').count()).toBe(0)
    expect([...errorsOf(ann), ...errorsOf(ben)]).toEqual([])
    await Promise.all([ann.context.close(), ben.context.close()])
  })
})

describe('undo by choice and the history panel', () => {
  it("undoes everyone's last change with Ctrl+Alt+Z (listed in the key help) and redoes it", async () => {
    const [ann, ben] = await twoPeople('authorship-undo-everyone')
    // The document's last change is Ben's "d": her own Ctrl+Z would not touch it, Ctrl+Alt+Z does.
    await ann.page.evaluate(() => window.cotext!.view.focus())
    await ann.page.keyboard.press('Control+Alt+z')
    await waitForText(ben.page, 'hello worl')
    await ann.page.keyboard.press('Control+Alt+Shift+z')
    await waitForText(ben.page, 'hello world')
    await ann.page.keyboard.press('F1')
    const help = ann.page.locator('dialog[open]')
    await expect.poll(() => help.isVisible()).toBe(true)
    const helpText = (await help.textContent()) ?? ''
    expect(helpText).toContain('Ctrl+Alt+Z')
    expect(helpText).toContain('Undo everyone’s last change')
    expect(helpText).toContain('Alt+Shift+H')
    await ann.page.keyboard.press('Escape')
    expect([...errorsOf(ann), ...errorsOf(ben)]).toEqual([])
    await Promise.all([ann.context.close(), ben.context.close()])
  })

  it('lists recent changes newest first and reverts one by keyboard', async () => {
    const [ann, ben] = await twoPeople('authorship-history')
    const page = ben.page
    await page.keyboard.press('Alt+Shift+H')
    const panel = page.locator('[data-testid=history-panel]')
    await expect.poll(() => panel.isVisible()).toBe(true)
    expect(await page.locator('[data-testid=history-toggle]').getAttribute('aria-expanded')).toBe('true')
    const changes = page.locator('[data-testid=change]')
    // Each person's burst of typing is one entry.
    await expect.poll(() => changes.count()).toBe(2)
    const summaries = await changes.locator('span').allTextContents()
    expect(summaries[0]).toMatch(/^Ben inserted 5 characters · /)
    expect(summaries[1]).toMatch(/^Ann inserted 6 characters · /)
    await expect.poll(() => page.locator('[data-testid=version-list]').textContent()).toBe('No versions yet')
    await screenshot(page, 'history-panel')
    // Revert Ann's typing from the keyboard: focus its button, Enter.
    const annTyping = changes.last()
    await annTyping.locator('button').focus()
    expect(await annTyping.locator('button').getAttribute('aria-label')).toMatch(/^Revert: Ann inserted 6 characters/)
    await page.keyboard.press('Enter')
    await waitForText(ann.page, 'world')
    await expect.poll(() => page.locator('[data-testid=history-status]').textContent()).toBe('Change reverted')
    // The revert is in the log too (newest first), and Escape closes the panel and gives the editor its focus.
    await expect.poll(async () => (await changes.first().locator('span').textContent()) ?? '').toMatch(/^Ben reverted a change \(deleted 6 characters\) · /)
    await page.keyboard.press('Escape')
    await expect.poll(() => panel.isVisible()).toBe(false)
    expect(await page.evaluate(() => window.cotext!.view.hasFocus())).toBe(true)
    expect([...errorsOf(ann), ...errorsOf(ben)]).toEqual([])
    await Promise.all([ann.context.close(), ben.context.close()])
  })

  it("saves a version through the server's REST API, previews its differences from now and restores it", async () => {
    const [ann, ben] = await twoPeople('authorship-versions')
    const page = ben.page
    await page.locator('[data-testid=history-toggle]').click()
    await page.locator('[data-testid=version-name]').fill('greeting')
    await page.locator('[data-testid=version-name]').press('Enter')
    await expect.poll(() => page.locator('[data-testid=history-status]').textContent()).toBe('Version saved')
    await expect.poll(() => page.locator('[data-testid=version]').count()).toBe(1)
    expect(await page.locator('[data-testid=version] span').textContent()).toMatch(/^greeting · /)
    // Ann changes the text; Ben previews the version against it, then restores it for everyone.
    await ann.page.keyboard.press('End')
    await ann.page.keyboard.type('\nsecond line')
    await waitForText(page, 'hello world\nsecond line')
    await page.locator('[data-testid=version] button', { hasText: 'Preview' }).click()
    await expect.poll(() => page.locator('[data-testid=version-preview] h4').textContent()).toBe('greeting → now: 1 line added, 0 removed')
    expect(await page.locator('[data-testid=version-preview] ins').allTextContents()).toEqual(['+ second line\n'])
    expect(await page.locator('[data-testid=version-preview] del').allTextContents()).toEqual([])
    await screenshot(page, 'history-version-preview')
    await page.locator('[data-testid=version] button', { hasText: 'Restore' }).click()
    await waitForText(ann.page, 'hello world')
    await waitForText(page, 'hello world')
    expect([...errorsOf(ann), ...errorsOf(ben)]).toEqual([])
    await Promise.all([ann.context.close(), ben.context.close()])
  })
})
