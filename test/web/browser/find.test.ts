import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { openUser, openUserWithText, roomUrl, screenshot, selectedRanges, textOf, useServerAndBrowser, waitForText } from './harness.ts'

/** The find bar's keys in Chromium: find, step, select all, replace, go to line, and counts that follow peers. */

const env = useServerAndBrowser()

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null)
const status = (page: Page) => page.locator('[data-testid=find-status]')

/** 2,000 rows; NEEDLE on row 1,500 and `foo` on rows 3, 10 and 1,800. */
function longText(): string {
  const rows = Array.from({ length: 2000 }, (_, i) => `row ${i} some text`)
  rows[1500] = 'here is the NEEDLE we want'
  for (const row of [3, 10, 1800]) rows[row] = `foo on row ${row}`
  return rows.join('\n')
}

describe('the find bar', () => {
  it('Ctrl+F finds a match far below, Enter selects it, Escape returns to the text', async () => {
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'find-keys', { name: 'Fay' }), longText())
    const { page } = user
    await page.keyboard.press('Control+f')
    await expect.poll(() => focused(page)).toBe('find-input')
    await page.keyboard.type('needle')
    await expect.poll(() => status(page).textContent()).toBe('1 of 1')
    expect(await status(page).getAttribute('aria-live')).toBe('polite')
    // The current match is drawn (the view scrolled to row 1,500), distinct from the others.
    await expect.poll(() => page.locator('[data-testid=find-match].cx-find-current').count()).toBe(1)
    await page.keyboard.press('Enter')
    expect(await selectedRanges(page)).toEqual([[1500, 12, 1500, 18]])
    await screenshot(page, 'find-bar')
    await page.keyboard.press('Escape')
    expect(await page.locator('[data-testid=find-bar]').isHidden()).toBe(true)
    expect(await focused(page)).toBe('editor')
    expect(await page.locator('[data-testid=find-match]').count()).toBe(0)
    expect(user.errors).toEqual([])
  })

  it('steps with Enter / Shift+Enter and F3 / Shift+F3, and Alt+Enter selects every match', async () => {
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'find-step', { name: 'Sam' }), longText())
    const { page } = user
    await page.keyboard.press('Control+f')
    await page.keyboard.type('foo')
    await expect.poll(() => status(page).textContent()).toBe('1 of 3')
    await page.keyboard.press('Enter')
    expect(await selectedRanges(page)).toEqual([[10, 0, 10, 3]])
    await expect.poll(() => status(page).textContent()).toBe('2 of 3')
    await page.keyboard.press('Shift+Enter')
    expect(await selectedRanges(page)).toEqual([[3, 0, 3, 3]])
    await page.keyboard.press('Shift+Enter')
    expect(await selectedRanges(page)).toEqual([[1800, 0, 1800, 3]])
    await page.keyboard.press('F3')
    expect(await selectedRanges(page)).toEqual([[3, 0, 3, 3]])
    await page.keyboard.press('Shift+F3')
    expect(await selectedRanges(page)).toEqual([[1800, 0, 1800, 3]])
    await page.keyboard.press('Alt+Enter')
    expect(await selectedRanges(page)).toEqual([[3, 0, 3, 3], [10, 0, 10, 3], [1800, 0, 1800, 3]])
    expect(await focused(page)).toBe('editor')
    expect(user.errors).toEqual([])
  })

  it('toggles regex and match case, and says when a regex is invalid', async () => {
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'find-toggles', { name: 'Tom' }), 'Foo foo f.o\nfxo')
    const { page } = user
    await page.keyboard.press('Control+f')
    await page.keyboard.type('f.o')
    await expect.poll(() => status(page).textContent()).toBe('1 of 1')
    await page.locator('[data-testid=find-regex]').click()
    expect(await page.locator('[data-testid=find-regex]').getAttribute('aria-pressed')).toBe('true')
    await expect.poll(() => status(page).textContent()).toBe('1 of 4')
    await page.locator('[data-testid=find-caseSensitive]').click()
    await expect.poll(() => status(page).textContent()).toBe('1 of 3')
    await page.locator('[data-testid=find-input]').fill('f(o')
    await expect.poll(() => status(page).textContent()).toMatch(/^Invalid regular expression \/f\(o\/: /)
    expect(await page.locator('[data-testid=find-input]').getAttribute('aria-invalid')).toBe('true')
    expect(await textOf(page)).toBe('Foo foo f.o\nfxo')
    expect(user.errors).toEqual([])
  })

  it('Ctrl+H replaces one match, then all in one undo step', async () => {
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'find-replace', { name: 'Rae' }), 'cat dog cat\ncat')
    const { page } = user
    await page.keyboard.press('Control+h')
    await page.keyboard.type('cat')
    await expect.poll(() => status(page).textContent()).toBe('1 of 3')
    await page.locator('[data-testid=replace-input]').focus()
    await page.keyboard.type('cow')
    await page.keyboard.press('Enter')
    await waitForText(page, 'cow dog cat\ncat')
    await page.keyboard.press('Control+Enter')
    await waitForText(page, 'cow dog cow\ncow')
    expect(await status(page).textContent()).toBe('Replaced 2 matches')
    await page.keyboard.press('Escape')
    await page.keyboard.press('Control+z')
    await waitForText(page, 'cow dog cat\ncat')
    expect(user.errors).toEqual([])
  })

  it('Ctrl+G goes to a line, or line:column', async () => {
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'find-line', { name: 'Lin' }), longText())
    const { page } = user
    await page.keyboard.press('Control+g')
    await expect.poll(() => focused(page)).toBe('line-input')
    await page.keyboard.type('1501:13')
    await page.keyboard.press('Enter')
    expect(await selectedRanges(page)).toEqual([[1500, 12, 1500, 12]])
    expect(await focused(page)).toBe('editor')
    await page.keyboard.press('Control+g')
    await page.keyboard.type('4')
    await page.keyboard.press('Enter')
    expect(await selectedRanges(page)).toEqual([[3, 0, 3, 0]])
    expect(user.errors).toEqual([])
  })

  it('updates the count and the highlights as a peer types', async () => {
    const url = roomUrl(env.server, 'find-peers', { name: 'Ann' })
    const ann = await openUserWithText(env.browser, url, 'foo bar\nbaz foo\n')
    const bob = await openUser(env.browser, roomUrl(env.server, 'find-peers', { name: 'Bob' }))
    await waitForText(bob.page, 'foo bar\nbaz foo\n')
    await ann.page.keyboard.press('Control+f')
    await ann.page.keyboard.type('foo')
    await expect.poll(() => status(ann.page).textContent()).toBe('1 of 2')
    await bob.page.evaluate(() => window.cotext!.editor.setCursorBufferPosition([2, 0]))
    await bob.page.locator('[data-testid=editor]').focus()
    await bob.page.keyboard.type('more foo and foo')
    await expect.poll(() => status(ann.page).textContent()).toBe('1 of 4')
    await expect.poll(() => ann.page.locator('[data-testid=find-match]').count()).toBe(4)
    expect(ann.errors).toEqual([])
    expect(bob.errors).toEqual([])
  })
})
