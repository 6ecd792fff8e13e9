import { describe, expect, it } from 'vitest'
import { openUser, pointFor, roomUrl, screenshot, textOf, useServerAndBrowser, waitForText, type User } from './harness.ts'

/** One user editing with the real keyboard, mouse, clipboard and IME; no peers. */

let room = 0
const env = useServerAndBrowser()

async function freshPage(text = ''): Promise<User> {
  const user = await openUser(env.browser, roomUrl(env.server, `editing-${++room}`, { name: 'Ada' }))
  if (text !== '') {
    await user.page.evaluate((t) => {
      const editor = window.cotext!.editor
      editor.setText(t)
      editor.setCursorBufferPosition([0, 0])
    }, text)
  }
  await user.page.locator('[data-testid=editor]').focus()
  return user
}

const selections = (user: User) =>
  user.page.evaluate(() => window.cotext!.editor.getSelectedBufferRanges().map((r) => [r.start.row, r.start.column, r.end.row, r.end.column]))

describe('the editing surface', () => {
  it('is a focusable multi-line textbox holding the rendered text', async () => {
    const user = await freshPage()
    const surface = user.page.locator('[data-testid=editor]')
    await expect.poll(() => surface.getAttribute('role')).toBe('textbox')
    expect(await surface.getAttribute('aria-multiline')).toBe('true')
    await surface.click()
    expect(await surface.evaluate((el) => el === document.activeElement)).toBe(true)
    await user.page.keyboard.type('one\ntwo')
    await waitForText(user.page, 'one\ntwo')
    // The surface's text is the document's (plus the input span's zero-width space).
    await expect.poll(() => surface.textContent().then((t) => t!.replace('\u200b', ''))).toBe('one\ntwo')
    await expect.poll(() => surface.innerText().then((t) => t.replace('\u200b', '').trimEnd())).toBe('one\ntwo')
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('has a home page that opens a room by name and remembers it', async () => {
    const context = await env.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${env.server.url}/`)
    const input = page.locator('#cx-room-name')
    expect(await input.inputValue()).toMatch(/^room-[a-z2-9]{6}$/)
    await input.fill('Plans for May.md')
    await page.locator('button[type=submit]').click()
    await page.waitForFunction(() => window.cotext !== undefined)
    expect(new URL(page.url()).searchParams.get('room')).toBe('Plans-for-May.md')
    expect(await page.locator('[data-testid=room]').textContent()).toBe('Plans-for-May.md')
    expect(await page.locator('[data-testid=language]').inputValue()).toBe('markdown')
    // The name chosen on this first visit is the one the home page shows next time.
    const user = JSON.parse((await page.evaluate(() => localStorage.getItem('cotext.user')))!) as { name: string }
    expect(await page.locator('[data-testid=user-name]').inputValue()).toBe(user.name)
    await page.goto(`${env.server.url}/`)
    expect(await page.locator('.cx-recent a').allTextContents()).toEqual(['Plans-for-May.md'])
    expect(await page.locator('.cx-you-name').textContent()).toBe(user.name)
    await context.close()
  })

  it('runs Atom Linux keys through core commands', async () => {
    const user = await freshPage('getFooBar baz\n  second line')
    const { page } = user
    await page.keyboard.press('End')
    await page.keyboard.press('Control+ArrowLeft')
    expect(await selections(user)).toEqual([[0, 10, 0, 10]])
    await page.keyboard.press('Control+Shift+ArrowLeft')
    expect(await selections(user)).toEqual([[0, 0, 0, 10]])
    await page.keyboard.press('ArrowRight')
    expect(await selections(user)).toEqual([[0, 10, 0, 10]])
    await page.keyboard.press('Alt+ArrowLeft')
    expect(await selections(user)).toEqual([[0, 9, 0, 9]])
    await page.keyboard.press('Alt+ArrowLeft')
    expect(await selections(user)).toEqual([[0, 6, 0, 6]])
    await page.keyboard.press('Alt+Backspace')
    await waitForText(page, 'getBar baz\n  second line')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Home')
    expect(await selections(user)).toEqual([[1, 2, 1, 2]])
    await page.keyboard.press('Shift+End')
    expect(await selections(user)).toEqual([[1, 2, 1, 13]])
    await page.keyboard.press('Control+Shift+k')
    await waitForText(page, 'getBar baz')
    await page.keyboard.press('Control+z')
    await waitForText(page, 'getBar baz\n  second line')
    await page.keyboard.press('Control+y')
    await waitForText(page, 'getBar baz')
    await page.keyboard.press('Control+a')
    expect(await selections(user)).toEqual([[0, 0, 0, 10]])
    await page.keyboard.press('Tab')
    await waitForText(page, '  getBar baz')
    await page.keyboard.press('Shift+Tab')
    await waitForText(page, 'getBar baz')
    await page.keyboard.press('Control+End')
    await page.keyboard.press('Enter')
    await page.keyboard.type('x')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('Control+j')
    await waitForText(page, 'getBar baz x')
    await page.keyboard.press('Control+Home')
    await page.keyboard.press('Control+d')
    expect(await selections(user)).toEqual([[0, 0, 0, 6]])
    await page.keyboard.press('Control+Backspace')
    await waitForText(page, ' baz x')
    await page.keyboard.press('Control+Delete')
    await waitForText(page, ' x')
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('types with several cursors added by ctrl+alt+down and ctrl+click', async () => {
    const user = await freshPage('alpha\nbeta\ngamma\ndelta')
    const { page } = user
    await page.keyboard.press('Control+Alt+ArrowDown')
    await page.keyboard.press('Control+Alt+ArrowDown')
    const end = await pointFor(page, 3, 5)
    await page.keyboard.down('Control')
    await page.mouse.click(end.x + 1, end.y)
    await page.keyboard.up('Control')
    expect(await selections(user)).toEqual([
      [0, 0, 0, 0],
      [1, 0, 1, 0],
      [2, 0, 2, 0],
      [3, 5, 3, 5],
    ])
    await page.keyboard.type('> ')
    await waitForText(page, '> alpha\n> beta\n> gamma\ndelta> ')
    await expect.poll(() => page.locator('[data-testid=cursor]').count()).toBe(4)
    await screenshot(page, 'editing-multi-cursor')
    // ctrl+click on an existing cursor removes it
    const second = await pointFor(page, 1, 2)
    await page.keyboard.down('Control')
    await page.mouse.click(second.x, second.y)
    await page.keyboard.up('Control')
    expect((await selections(user)).length).toBe(3)
    await page.keyboard.press('Escape')
    expect((await selections(user)).length).toBe(1)
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('selects with the mouse: click, shift+click, double, triple click and drag', async () => {
    const user = await freshPage('hello wide world\nsecond line here\nthird')
    const { page } = user
    let p = await pointFor(page, 0, 8)
    await page.mouse.click(p.x, p.y)
    expect(await selections(user)).toEqual([[0, 8, 0, 8]])
    p = await pointFor(page, 1, 6)
    await page.keyboard.down('Shift')
    await page.mouse.click(p.x, p.y)
    await page.keyboard.up('Shift')
    expect(await selections(user)).toEqual([[0, 8, 1, 6]])
    p = await pointFor(page, 0, 8)
    await page.mouse.dblclick(p.x, p.y)
    expect(await selections(user)).toEqual([[0, 6, 0, 10]])
    await page.mouse.click(p.x, p.y, { clickCount: 3 })
    expect(await selections(user)).toEqual([[0, 0, 1, 0]])
    const from = await pointFor(page, 1, 2)
    const to = await pointFor(page, 2, 3)
    await page.mouse.move(from.x, from.y)
    await page.mouse.down()
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 3 })
    await page.mouse.move(to.x, to.y, { steps: 3 })
    await page.mouse.up()
    expect(await selections(user)).toEqual([[1, 2, 2, 3]])
    // a click below the last line puts the cursor at the end of the text
    const box = (await page.locator('[data-testid=editor]').boundingBox())!
    await page.mouse.click(box.x + 40, box.y + 300)
    expect(await selections(user)).toEqual([[2, 5, 2, 5]])
    await screenshot(page, 'editing-mouse')
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('copies, cuts and pastes through the system clipboard, keeping whole-line copies', async () => {
    const user = await freshPage('first\nsecond')
    const { page } = user
    await page.keyboard.press('Control+c')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Control+v')
    await waitForText(page, 'first\nfirst\nsecond')
    expect(await selections(user)).toEqual([[2, 0, 2, 0]])
    await page.keyboard.press('Shift+End')
    await page.keyboard.press('Control+x')
    await waitForText(page, 'first\nfirst\n')
    await page.keyboard.press('Control+Home')
    await page.keyboard.press('Control+v')
    await waitForText(page, 'secondfirst\nfirst\n')
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('inserts IME compositions when they end, showing them at the cursor meanwhile', async () => {
    const user = await freshPage('ab')
    const { page } = user
    await page.keyboard.press('ArrowRight')
    const cdp = await user.context.newCDPSession(page)
    await cdp.send('Input.imeSetComposition', { text: 'に', selectionStart: 1, selectionEnd: 1 })
    await cdp.send('Input.imeSetComposition', { text: 'にほん', selectionStart: 3, selectionEnd: 3 })
    expect(await page.locator('.cx-input.cx-composing').textContent()).toBe('\u200bにほん')
    expect(await textOf(page)).toBe('ab')
    await cdp.send('Input.insertText', { text: '日本' })
    await waitForText(page, 'a日本b')
    expect(await selections(user)).toEqual([[0, 3, 0, 3]])
    expect(await page.locator('.cx-input').textContent()).toBe('\u200b')
    await page.keyboard.type('!')
    await waitForText(page, 'a日本!b')
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('picks the language from the room name, and a selector changes it', async () => {
    const user = await openUser(env.browser, roomUrl(env.server, 'scripts/tool.py', { name: 'Ada' }))
    const select = user.page.locator('[data-testid=language]')
    expect(await select.inputValue()).toBe('python')
    expect(await user.page.evaluate(() => window.cotext!.editor.getLanguage())).toBe('python')
    await select.selectOption('javascript')
    expect(await user.page.evaluate(() => window.cotext!.editor.getLanguage())).toBe('javascript')
    await user.page.locator('[data-testid=editor]').click()
    await user.page.keyboard.type('let a = 1')
    await user.page.keyboard.press('Control+/')
    await waitForText(user.page, '// let a = 1')
    // Painted from the language mode's tree: a comment now, a keyword once uncommented.
    await expect.poll(() => user.page.locator('.cx-line .tok-comment').textContent()).toBe('// let a = 1')
    await user.page.keyboard.press('Control+/')
    await expect.poll(() => user.page.locator('.cx-line .tok-keyword').first().textContent()).toBe('let')
    await user.page.keyboard.press('End')
    await user.page.keyboard.type('\n\tconst s = "x"')
    await expect.poll(() => user.page.locator('.cx-line .tok-string').textContent()).toBe('"x"')
    // Tab indents (two spaces); the string is drawn where the view places its column.
    const stringBox = (await user.page.locator('.cx-line .tok-string').boundingBox())!
    const at = await pointFor(user.page, 1, 12)
    expect(Math.abs(stringBox.x - at.x)).toBeLessThan(1)
    await screenshot(user.page, 'editing-highlight')
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('soft wraps at the view width when toggled, and back', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ')
    const user = await freshPage(`${long}\nshort`)
    const { page } = user
    const screenLines = () => page.evaluate(() => window.cotext!.editor.getScreenLineCount())
    const overflow = () => page.evaluate(() => window.cotext!.view.scroller.scrollWidth - window.cotext!.view.scroller.clientWidth)
    expect(await screenLines()).toBe(2)
    expect(await overflow()).toBeGreaterThan(0)
    const toggle = page.locator('[data-testid=soft-wrap]')
    await toggle.click()
    expect(await toggle.getAttribute('aria-pressed')).toBe('true')
    await expect.poll(screenLines).toBeGreaterThan(2)
    const rows = await screenLines()
    await expect.poll(() => page.locator('.cx-line').count()).toBe(rows)
    await expect.poll(overflow).toBe(0)
    // Line numbers on each buffer row's first screen row only.
    await expect.poll(() => page.locator('.cx-line-number').allTextContents()).toEqual(['1', ...Array(rows - 2).fill(''), '2'])
    await page.keyboard.press('Control+Home')
    await page.keyboard.press('End')
    const firstRowEnd = await page.evaluate(() => window.cotext!.editor.getCursorScreenPosition().toArray())
    expect(firstRowEnd[0]).toBe(0)
    await screenshot(page, 'editing-soft-wrap')
    await toggle.click()
    await expect.poll(screenLines).toBe(2)
    await expect.poll(() => page.locator('.cx-line').count()).toBe(2)
    expect(await page.evaluate(() => localStorage.getItem('cotext.softWrap'))).toBe('false')
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('folds and unfolds from the gutter', async () => {
    const user = await freshPage('function a() {\n  one\n  two\n}\nafter')
    const { page } = user
    const toggle = page.locator('.cx-gutter-row[data-buffer-row="0"] .cx-fold')
    await expect.poll(() => toggle.textContent()).toBe('▾')
    await toggle.click()
    expect(await page.evaluate(() => window.cotext!.editor.isFoldedAtBufferRow(0))).toBe(true)
    await expect.poll(() => page.locator('.cx-line').allTextContents()).toEqual(['function a() {⋯\n', '}\n', 'after'])
    expect(await page.locator('.cx-line-number').allTextContents()).toEqual(['1', '4', '5'])
    expect(await toggle.textContent()).toBe('▸')
    await screenshot(page, 'editing-folded')
    await toggle.click()
    await expect.poll(() => page.locator('.cx-line').count()).toBe(5)
    expect(await page.evaluate(() => window.cotext!.editor.isFoldedAtBufferRow(0))).toBe(false)
    // ctrl+alt+[ folds at the cursor, as in Atom.
    await page.keyboard.press('Control+Alt+BracketLeft')
    await expect.poll(() => page.locator('.cx-line').count()).toBe(3)
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('opens a 100,000-line document rendering only the rows in view, and scrolls to its end', async () => {
    const user = await freshPage()
    const { page } = user
    const lines = await page.evaluate(() => {
      const text = Array.from({ length: 100_000 }, (_, i) => `line ${i + 1} of the long document`).join('\n')
      window.cotext!.editor.setText(text)
      window.cotext!.view.renderNow()
      return document.querySelectorAll('.cx-line').length
    })
    expect(lines).toBeGreaterThan(20)
    expect(lines).toBeLessThan(80)
    await page.keyboard.press('Control+End')
    await expect.poll(() => page.locator('.cx-line', { hasText: 'line 100000 of' }).isVisible()).toBe(true)
    expect(await page.locator('.cx-gutter-row', { hasText: '100000' }).isVisible()).toBe(true)
    expect(await page.locator('.cx-line').count()).toBeLessThan(80)
    const scroller = (await page.locator('.cx-scroller').boundingBox())!
    await page.mouse.move(scroller.x + 200, scroller.y + 100)
    await page.mouse.wheel(0, -2000)
    await expect.poll(() => page.locator('.cx-line', { hasText: 'line 99890 of' }).isVisible()).toBe(true)
    expect(await page.locator('.cx-line', { hasText: 'line 100000 of' }).count()).toBe(0)
    await screenshot(page, 'editing-100k-lines')
    expect(user.errors).toEqual([])
    await user.context.close()
  })
})
