import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { javascriptSource } from '../../../bench/documents.ts'
import { openUser, openUserWithText, roomUrl, useServerAndBrowser } from './harness.ts'

/** Big documents in Chromium: a 2 MB paste, colours and fold toggles that follow it, queries far down. */

const env = useServerAndBrowser()

/** Pastes `text` the way the system clipboard does: a paste event on the focused editor. */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => {
    const data = new DataTransfer()
    data.setData('text/plain', t)
    document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
  }, text)
}

/** The drawn rows' text, top to bottom (without the line break each row's text ends with). */
function drawnRows(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.cx-line')]
      .sort((a, b) => a.offsetTop - b.offsetTop)
      .map((line) => (line.querySelector('.cx-text')?.textContent ?? line.textContent ?? '').replace(/\n$/, '')),
  )
}

describe('big files', () => {
  it('a 2 MB paste shows at once, its colours and fold toggles follow, and typing then pauses are reported', async () => {
    const user = await openUser(env.browser, roomUrl(env.server, 'paste-2mb.js', { name: 'Pat' }))
    const { page } = user
    await page.locator('[data-testid=editor]').focus()
    await page.evaluate(() => {
      const w = window as unknown as { stopped: number }
      w.stopped = 0
      window.cotext!.editor.onDidStopChanging(() => w.stopped++)
    })
    const text = javascriptSource({ bytes: 2 * 1024 * 1024 })
    await paste(page, text)
    expect(await page.evaluate(() => window.cotext!.editor.getText().length)).toBe(text.length)
    // The caret is at the end of the paste and the view shows the last rows of it.
    const lastRow = text.trimEnd().split('\n').at(-1)!
    await expect.poll(() => drawnRows(page), { timeout: 30_000 }).toContain(lastRow)
    expect(await page.evaluate(() => window.cotext!.editor.getCursorBufferPosition().row)).toBe(text.split('\n').length - 1)
    // The page passes a timer to the editor: the pause after the paste is reported (core keeps no timer).
    await expect.poll(() => page.evaluate(() => (window as unknown as { stopped: number }).stopped), { timeout: 30_000 }).toBeGreaterThan(0)
    // The whole file gets highlighted in slices, then the rows in view have colours and fold toggles.
    await page.waitForFunction(() => window.cotext!.view.isHighlightComplete(), undefined, { timeout: 300_000, polling: 250 })
    await expect.poll(() => page.locator('.cx-line .tok-keyword').count(), { timeout: 30_000 }).toBeGreaterThan(0)
    await expect.poll(() => page.locator('.cx-fold', { hasText: '▾' }).count(), { timeout: 30_000 }).toBeGreaterThan(0)
    // The language mode reads the tree the page built: it covers the whole text.
    expect(await page.evaluate(() => window.cotext!.editor.getLanguageMode().parsedUpTo())).toBe(text.length)
    // The paste is one undo step.
    await page.evaluate(() => window.cotext!.editor.undo())
    expect(await page.evaluate(() => window.cotext!.editor.getText())).toBe('')
    expect(user.errors).toEqual([])
    await user.context.close()
  }, 600_000)

  it('a 2 MB paste and the keystroke typed right after it reach another user (the send leaves the paste task)', async () => {
    const url = roomUrl(env.server, 'paste-relay.js', { name: 'Pia' })
    const user = await openUser(env.browser, url)
    const other = await openUser(env.browser, roomUrl(env.server, 'paste-relay.js', { name: 'Oto' }))
    const { page } = user
    await page.locator('[data-testid=editor]').focus()
    const text = javascriptSource({ bytes: 2 * 1024 * 1024 })
    // The other user's buffer changes: the paste arrives as one change, whose update was written after the paste's task.
    await other.page.evaluate(() => {
      const w = window as unknown as { inserted: number[] }
      w.inserted = []
      window.cotext!.editor.getBuffer().onDidChange(({ changes }) => w.inserted.push(...changes.map((c) => c.newText.length)))
    })
    // The paste and a keystroke in the same task: the keystroke's update is sent after the paste's.
    await page.evaluate((t) => {
      const data = new DataTransfer()
      data.setData('text/plain', t)
      document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
      window.cotext!.editor.insertText('!')
    }, text)
    const expected = `${text}!`
    expect(await page.evaluate(() => window.cotext!.editor.getText().length)).toBe(expected.length)
    await expect.poll(() => other.page.evaluate(() => window.cotext!.editor.getText().length), { timeout: 60_000 }).toBe(expected.length)
    expect(await other.page.evaluate(() => window.cotext!.editor.getText())).toBe(expected)
    expect(await other.page.evaluate(() => (window as unknown as { inserted: number[] }).inserted)).toEqual([text.length, 1])
    // The other user's view shows the first rows of it, unmeasured rows and all.
    await expect.poll(() => drawnRows(other.page), { timeout: 30_000 }).toContain(text.split('\n')[0])
    expect([...user.errors, ...other.errors]).toEqual([])
    await Promise.all([user.context.close(), other.context.close()])
  }, 300_000)

  it('a new line in the middle of a 1 MB file is indented from the code around it', async () => {
    const text = javascriptSource({ bytes: 1024 * 1024 })
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'middle-1mb.js', { name: 'Mia' }), text)
    const { page } = user
    // A row inside a function body (`  let sum = 0`), far below the top.
    const rows = text.split('\n')
    const row = rows.findIndex((line, i) => i > rows.length / 2 && line === '  let sum = 0')
    await page.evaluate((r) => window.cotext!.editor.setCursorBufferPosition([r, 13]), row)
    await page.keyboard.press('Enter')
    await page.keyboard.type('sum++')
    expect(await page.evaluate((r) => [window.cotext!.editor.lineTextForBufferRow(r), window.cotext!.editor.lineTextForBufferRow(r + 1)], row)).toEqual([
      '  let sum = 0',
      '  sum++',
    ])
    // Inside the `for` block one row further down, one level deeper; then `}` goes back out.
    await page.evaluate((r) => window.cotext!.editor.setCursorBufferPosition([r + 2, 32]), row)
    await page.keyboard.press('Enter')
    await page.keyboard.type('x()')
    expect(await page.evaluate((r) => window.cotext!.editor.lineTextForBufferRow(r + 3), row)).toBe('    x()')
    expect(user.errors).toEqual([])
    await user.context.close()
  }, 300_000)
})
