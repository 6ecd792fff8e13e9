import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { openUserWithText, roomUrl, screenshot, selectedRanges, textOf, useServerAndBrowser } from './harness.ts'

/** Atom's bracket-matcher on the page (auto-close, step over, empty-pair Backspace, highlight, Ctrl+M) and the dark theme. */

const env = useServerAndBrowser()
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

const cursor = (page: Page) => selectedRanges(page).then((ranges) => ranges.map(([row, column]) => [row, column]))
const highlighted = (page: Page) =>
  page.evaluate(() => {
    window.cotext!.view.renderNow()
    return [...document.querySelectorAll<HTMLElement>('[data-testid=bracket-match]')].map((box) => [Number(box.dataset.row), Number(box.dataset.column)])
  })

describe('brackets', () => {
  it('closes brackets and quotes as they are typed, steps over the closer, and Backspace removes an empty pair', async () => {
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'brackets-typing.js', { name: 'Bo Rae' }), '')
    const { page } = user
    await page.keyboard.type('f(')
    await expect.poll(() => textOf(page)).toBe('f()')
    expect(await cursor(page)).toEqual([[0, 2]])
    await page.keyboard.type('a, [')
    await expect.poll(() => textOf(page)).toBe('f(a, [])')
    await page.keyboard.type('"x')
    await expect.poll(() => textOf(page)).toBe('f(a, ["x"])')
    // Typing each closer steps over the one put there.
    await page.keyboard.type('"])')
    await expect.poll(() => cursor(page)).toEqual([[0, 11]])
    expect(await textOf(page)).toBe('f(a, ["x"])')
    // A quote after a word is an apostrophe; an opener before a word is not closed.
    await page.keyboard.type(" don't ")
    await page.keyboard.press('Home')
    await page.keyboard.type('(')
    await expect.poll(() => textOf(page)).toBe("(f(a, [\"x\"]) don't ")
    // Backspace between an empty pair removes both; elsewhere one character.
    await page.keyboard.press('End')
    await page.keyboard.type('{')
    await expect.poll(() => textOf(page)).toBe("(f(a, [\"x\"]) don't {}")
    await page.keyboard.press('Backspace')
    await expect.poll(() => textOf(page)).toBe("(f(a, [\"x\"]) don't ")
    await page.keyboard.press('Backspace')
    await expect.poll(() => textOf(page)).toBe("(f(a, [\"x\"]) don't")
    // An auto-closed pair is one undo step.
    await page.keyboard.type(' [')
    await expect.poll(() => textOf(page)).toBe("(f(a, [\"x\"]) don't []")
    await page.keyboard.press('Control+z')
    await expect.poll(() => textOf(page)).toBe("(f(a, [\"x\"]) don't ")
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('closes at every cursor at once', async () => {
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'brackets-cursors.js', { name: 'Bo Rae' }), 'a\nb', 1)
    const { page } = user
    await page.keyboard.press('Control+Alt+ArrowDown')
    await page.keyboard.type('(')
    await expect.poll(() => textOf(page)).toBe('a()\nb()')
    expect(await cursor(page)).toEqual([[0, 2], [1, 2]])
    await page.keyboard.press('Backspace')
    await expect.poll(() => textOf(page)).toBe('a\nb')
    await user.context.close()
  })

  it('highlights the pair at the cursor and Ctrl+M jumps to the other bracket', async () => {
    const text = 'function f(a) {\n  return [a, (a)]\n}'
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'brackets-match.js', { name: 'Bo Rae' }), text, 14)
    const { page } = user
    await expect.poll(() => highlighted(page)).toEqual([[0, 14], [2, 0]])
    await page.keyboard.press('Control+m')
    await expect.poll(() => cursor(page)).toEqual([[2, 1]])
    await expect.poll(() => highlighted(page)).toEqual([[2, 0], [0, 14]])
    await page.keyboard.press('Control+m')
    await expect.poll(() => cursor(page)).toEqual([[0, 14]])
    // Inside a pair, next to its opener: the jump lands before the closer.
    await page.evaluate(() => window.cotext!.editor.setCursorBufferPosition([1, 14]))
    await expect.poll(() => highlighted(page)).toEqual([[1, 13], [1, 15]])
    await page.keyboard.press('Control+m')
    await expect.poll(() => cursor(page)).toEqual([[1, 15]])
    await expect.poll(() => highlighted(page)).toEqual([[1, 15], [1, 13]])
    // No bracket beside the cursor: nothing highlighted, Ctrl+M stays.
    await page.evaluate(() => window.cotext!.editor.setCursorBufferPosition([1, 4]))
    await expect.poll(() => highlighted(page)).toEqual([])
    await page.keyboard.press('Control+m')
    expect(await cursor(page)).toEqual([[1, 4]])
    await screenshot(page, 'brackets')
    await user.context.close()
  })
})

describe('the dark theme', () => {
  const colors = (page: Page) =>
    page.evaluate(() => {
      const style = (selector: string) => getComputedStyle(document.querySelector(selector)!)
      return { editor: style('.cx-editor').backgroundColor, text: style('.cx-editor').color, page: style('body').backgroundColor, keyword: style('.cx-line .tok-keyword').color }
    })

  it('follows prefers-color-scheme, and stays readable (axe-core: no serious violations, contrast included)', async () => {
    const light = await openUserWithText(env.browser, roomUrl(env.server, 'theme.js', { name: 'Dee Kay' }), 'const a = "x" // note')
    await expect.poll(() => light.page.locator('.cx-line .tok-keyword').count()).toBe(1)
    expect(await colors(light.page)).toMatchObject({ editor: 'rgb(255, 255, 255)', text: 'rgb(31, 35, 40)' })
    await light.page.emulateMedia({ colorScheme: 'dark' })
    await expect.poll(() => colors(light.page)).toEqual({ editor: 'rgb(13, 17, 23)', text: 'rgb(230, 237, 243)', page: 'rgb(13, 17, 23)', keyword: 'rgb(255, 123, 114)' })
    await light.page.evaluate(AXE_SOURCE)
    const violations = await light.page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe
      const { violations } = await axe.run(document)
      return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`)
    })
    expect(violations).toEqual([])
    await screenshot(light.page, 'dark-theme')
    await light.context.close()
  })
})
