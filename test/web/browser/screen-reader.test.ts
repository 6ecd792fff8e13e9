import { describe, expect, it } from 'vitest'
import type { CDPSession, Page } from 'playwright-core'
import { openUser, openUserWithText, roomUrl, typeAndSee, useServerAndBrowser } from './harness.ts'

/**
 * What a screen reader gets: the focused editing surface holds the cursor's line (or the selection)
 * with the DOM caret at the cursor's place in it, as read from Chromium's accessibility tree; every
 * control is named starting with what it shows; arrivals and departures are announced politely.
 */

const env = useServerAndBrowser()

interface AXNode {
  nodeId: string
  ignored: boolean
  role?: { value: string }
  name?: { value: string }
  value?: { value: string }
  properties?: { name: string; value: { value: unknown } }[]
  childIds?: string[]
  backendDOMNodeId?: number
}

/** Chromium's accessibility tree of the page, through the DevTools protocol. */
async function axTree(page: Page): Promise<{ nodes: AXNode[]; session: CDPSession }> {
  const session = await page.context().newCDPSession(page)
  await session.send('Accessibility.enable')
  const { nodes } = (await session.send('Accessibility.getFullAXTree')) as unknown as { nodes: AXNode[] }
  return { nodes, session }
}

/** The focused node of the accessibility tree: its role, name and value (the text it holds). */
async function focusedNode(page: Page): Promise<{ role: string; name: string; value: string }> {
  const { nodes, session } = await axTree(page)
  await session.detach()
  // The document is focused too: the focused element is the innermost focused node (nodes come in tree order).
  const focused = [...nodes].reverse().find((node) => !node.ignored && node.properties?.some((p) => p.name === 'focused' && p.value.value === true))
  if (focused === undefined) throw new Error('nothing is focused in the accessibility tree')
  return { role: focused.role?.value ?? '', name: focused.name?.value ?? '', value: (focused.value?.value ?? '').replaceAll('\u200b', '') }
}

/** The DOM selection as a screen reader sees it: its text, and the caret's offset in the line it is in. */
function domSelection(page: Page): Promise<{ text: string; line: string; caret: number; collapsed: boolean }> {
  return page.evaluate(() => {
    const selection = document.getSelection()!
    const line = document.querySelector('[data-testid=caret-line]')!
    const range = document.createRange()
    range.setStart(line, 0)
    range.setEnd(selection.focusNode!, selection.focusOffset)
    const strip = (text: string) => text.replaceAll('\u200b', '')
    return { text: strip(selection.toString()), line: strip(line.textContent!), caret: strip(range.toString()).length, collapsed: selection.isCollapsed }
  })
}

describe('screen readers', () => {
  it('read the line the caret is on, and the caret moves in it as the cursor does', async () => {
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'sr-line', { name: 'Sam Reed' }), 'first line\nsecond line here\nthird', 0)
    const { page } = user
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => domSelection(page)).toEqual({ text: '', line: 'second line here', caret: 2, collapsed: true })
    const node = await focusedNode(page)
    expect(node).toEqual({ role: 'textbox', name: 'Document sr-line', value: 'second line here' })
    // A word to the right: the caret moves within the line; a line down: the next line is read.
    await page.keyboard.press('Control+ArrowRight')
    await expect.poll(() => domSelection(page)).toEqual({ text: '', line: 'second line here', caret: 6, collapsed: true })
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => domSelection(page)).toEqual({ text: '', line: 'third', caret: 5, collapsed: true })
    expect((await focusedNode(page)).value).toBe('third')
    // Typing still goes into the document at the cursor, not into the copy.
    await page.keyboard.type('!')
    await expect.poll(() => page.evaluate(() => window.cotext!.editor.getText())).toBe('first line\nsecond line here\nthird!')
    await expect.poll(() => domSelection(page)).toEqual({ text: '', line: 'third!', caret: 6, collapsed: true })
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('read the selected text as the selection, forwards and backwards', async () => {
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'sr-selection', { name: 'Sam Reed' }), 'alpha beta gamma\ndelta', 6)
    const { page } = user
    await page.keyboard.press('Shift+Control+ArrowRight')
    await expect.poll(() => domSelection(page).then((s) => [s.text, s.collapsed])).toEqual(['beta', false])
    expect(await page.evaluate(() => window.getSelection()!.toString())).toBe('beta')
    // Backwards across the line end: the selection's text, read from its start.
    await page.keyboard.press('Control+End')
    await page.keyboard.press('Shift+ArrowUp')
    await expect.poll(() => domSelection(page).then((s) => s.text)).toBe(' beta gamma\ndelta')
    // Typing replaces the selection in the document.
    await page.keyboard.type('X')
    await expect.poll(() => page.evaluate(() => window.cotext!.editor.getText())).toBe('alphaX')
    await expect.poll(() => domSelection(page)).toEqual({ text: '', line: 'alphaX', caret: 6, collapsed: true })
    await user.context.close()
  })

  it('name every avatar starting with the initials it shows, and announce who joins and leaves', async () => {
    const room = 'sr-people'
    const ann = await openUser(env.browser, roomUrl(env.server, room, { name: 'Ann Lee' }))
    // Past the quiet start (people already there when the page opens are not announced).
    await ann.page.waitForTimeout(2500)
    const ben = await openUser(env.browser, roomUrl(env.server, room, { name: 'Kind Seal' }))
    await typeAndSee(ben, 'hi', ann)
    const announcements = ann.page.locator('[data-testid=peer-announcements]')
    expect(await announcements.getAttribute('aria-live')).toBe('polite')
    await expect.poll(() => announcements.textContent()).toBe('Kind Seal joined.')

    const avatar = ann.page.locator('[data-testid=peer][data-peer-name="Kind Seal"]')
    expect(await avatar.locator('.cx-initials').innerText()).toBe('KS')
    expect(await avatar.locator('.cx-peer-name').boundingBox().then((box) => box!.width <= 1)).toBe(true)
    const { nodes, session } = await axTree(ann.page)
    await session.detach()
    const buttons = nodes.filter((node) => !node.ignored && node.role?.value === 'button').map((node) => node.name?.value ?? '')
    expect(buttons).toContain('KS Kind Seal')
    expect(await avatar.getAttribute('aria-pressed')).toBe('false')

    await ben.context.close()
    await expect.poll(() => announcements.textContent(), { timeout: 20_000 }).toBe('Kind Seal left.')
    expect(ann.errors).toEqual([])
    await ann.context.close()
  })
})
