import { describe, expect, it } from 'vitest'
import { openUserWithText, roomUrl, useServerAndBrowser, waitForText, type User } from './harness.ts'

/** The keys for Atom's line, case and fold commands, pressed on the real page. */

let room = 0
const env = useServerAndBrowser()

const freshPage = (text: string): Promise<User> => openUserWithText(env.browser, roomUrl(env.server, `atom-keys-${++room}`, { name: 'Ada' }), text)

const cursor = (user: User) => user.page.evaluate(() => window.cotext!.editor.getCursorBufferPosition().toArray())
const screenLines = (user: User) =>
  user.page.evaluate(() => {
    const editor = window.cotext!.editor
    return Array.from({ length: editor.getScreenLineCount() }, (_, row) => editor.lineTextForScreenRow(row))
  })

describe("Atom's Linux keys for the editor commands", () => {
  it('moves, duplicates and opens lines, transposes and changes case', async () => {
    const user = await freshPage('one\ntwo\nthree')
    const { page } = user
    await page.keyboard.press('Control+ArrowDown')
    await waitForText(page, 'two\none\nthree')
    expect(await cursor(user)).toEqual([1, 0])
    await page.keyboard.press('Control+ArrowUp')
    await waitForText(page, 'one\ntwo\nthree')
    await page.keyboard.press('Control+Shift+D')
    await waitForText(page, 'one\none\ntwo\nthree')
    expect(await cursor(user)).toEqual([1, 0])
    await page.keyboard.press('Control+Enter')
    await waitForText(page, 'one\none\n\ntwo\nthree')
    await page.keyboard.type('x')
    await page.keyboard.press('Control+Shift+Enter')
    await page.keyboard.type('y')
    await waitForText(page, 'one\none\ny\nx\ntwo\nthree')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('End')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('Control+t')
    await waitForText(page, 'one\none\ny\nx\ntow\nthree')
    await page.keyboard.press('Control+t')
    await waitForText(page, 'one\none\ny\nx\ntwo\nthree')
    await page.keyboard.press('Control+k')
    await page.keyboard.press('Control+u')
    await waitForText(page, 'one\none\ny\nx\nTWO\nthree')
    await page.keyboard.press('Control+k')
    await page.keyboard.press('Control+l')
    await waitForText(page, 'one\none\ny\nx\ntwo\nthree')
    // A key that completes no chord counts on its own: ctrl-k then ctrl-z undoes.
    await page.keyboard.press('Control+k')
    await page.keyboard.press('Control+z')
    await waitForText(page, 'one\none\ny\nx\nTWO\nthree')
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('folds and unfolds the current row, everything, and by level', async () => {
    const user = await freshPage('function f() {\n  if (a) {\n    b()\n  }\n}\nc()')
    const { page } = user
    await page.locator('[data-testid=language]').selectOption('javascript')
    await expect.poll(() => page.evaluate(() => window.cotext!.editor.getLanguage())).toBe('javascript')
    await page.locator('[data-testid=editor]').focus()
    await page.evaluate(() => window.cotext!.editor.setCursorBufferPosition([1, 3]))
    await page.keyboard.press('Control+Alt+BracketLeft')
    await expect.poll(() => screenLines(user)).toEqual(['function f() {', '  if (a) {⋯}', '}', 'c()'])
    await page.keyboard.press('Control+Alt+BracketRight')
    await expect.poll(() => screenLines(user)).toEqual(['function f() {', '  if (a) {', '    b()', '  }', '}', 'c()'])
    await page.keyboard.press('Control+k')
    await page.keyboard.press('Control+0')
    await expect.poll(() => screenLines(user)).toEqual(['function f() {⋯}', 'c()'])
    await page.keyboard.press('Control+k')
    await page.keyboard.press('Control+j')
    await expect.poll(() => screenLines(user)).toEqual(['function f() {', '  if (a) {', '    b()', '  }', '}', 'c()'])
    await page.keyboard.press('Control+k')
    await page.keyboard.press('Control+2')
    await expect.poll(() => screenLines(user)).toEqual(['function f() {', '  if (a) {⋯}', '}', 'c()'])
    // The view shows the folded rows.
    await expect.poll(() => page.locator('.cx-text').innerText().then((t) => t.includes('if (a) {⋯}'))).toBe(true)
    expect(user.errors).toEqual([])
    await user.context.close()
  })
})
