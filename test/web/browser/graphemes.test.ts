import { describe, expect, it } from 'vitest'
import { openUserWithText, pointFor, roomUrl, selectedRanges, textOf, useServerAndBrowser, waitForText, type User } from './harness.ts'

/**
 * Characters that render as one, under the real keyboard, mouse and IME: the page must use the
 * engine's cluster-aware motions, deletion and clipping, and draw carets and selections between clusters.
 */

const FAMILY = '👨‍👩‍👧' // man ZWJ woman ZWJ girl: 8 code units
const FLAG = '🇫🇷' // two regional indicators: 4 code units
const E_ACUTE = 'e\u0301' // e + combining acute: 2 code units
const HANGUL = '\u1100\u1161' // leading consonant + vowel jamo: 2 code units
const LINE = `a${FAMILY}${FLAG}${E_ACUTE}${HANGUL}z`
/** The column after each cluster of LINE. */
const STOPS = [1, 9, 13, 15, 17, 18]

let room = 0
const env = useServerAndBrowser()

const freshPage = (text: string, column = 0): Promise<User> =>
  openUserWithText(env.browser, roomUrl(env.server, `graphemes-${++room}`, { name: 'Ada' }), text, column)

const ranges = (user: User) => selectedRanges(user.page)

const cursorColumn = (user: User) => user.page.evaluate(() => window.cotext!.editor.getCursorBufferPosition().column)

/** Where the rendered text puts the edges of `text[start, end)` on the first row, in window pixels. */
function glyphEdges(user: User, start: number, end: number): Promise<{ left: number; right: number; y: number }> {
  return user.page.evaluate(
    ([s, e]) => {
      const view = window.cotext!.view
      view.renderNow()
      const span = view.content.querySelector<HTMLElement>('.cx-line')!
      const walker = document.createTreeWalker(span, NodeFilter.SHOW_TEXT)
      const range = document.createRange()
      let offset = 0
      for (let node = walker.nextNode() as Text | null; node !== null; node = walker.nextNode() as Text | null) {
        const length = node.data.length
        if (s! >= offset && s! <= offset + length) range.setStart(node, s! - offset)
        if (e! >= offset && e! <= offset + length) {
          range.setEnd(node, e! - offset)
          break
        }
        offset += length
      }
      const rect = range.getBoundingClientRect()
      return { left: rect.left, right: rect.right, y: rect.top + rect.height / 2 }
    },
    [start, end],
  )
}

/** The middle of the last cursor (a 2 px bar centred on its position) in window pixels. */
const caretX = (user: User) =>
  user.page.evaluate(() => {
    window.cotext!.view.renderNow()
    const box = document.querySelector('.cx-cursor')!.getBoundingClientRect()
    return (box.left + box.right) / 2
  })

describe('grapheme clusters in the page', () => {
  it('steps over whole clusters with the arrow keys, drawing the caret at each edge', async () => {
    const user = await freshPage(LINE)
    const { page } = user
    const right: number[] = []
    for (const stop of STOPS) {
      await page.keyboard.press('ArrowRight')
      right.push(await cursorColumn(user))
      // The caret sits on the rendered edge of the cluster just passed (within half a pixel).
      const edges = await glyphEdges(user, 0, stop)
      expect(Math.abs((await caretX(user)) - edges.right)).toBeLessThan(0.6)
    }
    expect(right).toEqual(STOPS)
    const left: number[] = []
    for (let i = 0; i < STOPS.length; i++) {
      await page.keyboard.press('ArrowLeft')
      left.push(await cursorColumn(user))
    }
    expect(left).toEqual([17, 15, 13, 9, 1, 0])
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('draws a cursor put inside a cluster through the API at the nearer edge, and steps on from there', async () => {
    const user = await freshPage(LINE, 4)
    const { page } = user
    // Atom keeps an explicit buffer position inside a cluster; on screen it is at the nearer edge (column 1).
    expect(await cursorColumn(user)).toBe(4)
    const family = await glyphEdges(user, 1, 9)
    expect(Math.abs((await caretX(user)) - family.left)).toBeLessThan(0.6)
    await page.keyboard.press('ArrowRight')
    expect(await cursorColumn(user)).toBe(9)
    await page.evaluate(() => window.cotext!.editor.setCursorBufferPosition([0, 4]))
    // The cursor is on screen (and drawn) at the family's left edge, so one step left is the `a`'s left edge.
    await page.keyboard.press('ArrowLeft')
    expect(await cursorColumn(user)).toBe(0)
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('selects whole clusters with shift+arrows and draws the selection over whole glyphs', async () => {
    const user = await freshPage(LINE, 1)
    const { page } = user
    await page.keyboard.press('Shift+ArrowRight')
    expect(await ranges(user)).toEqual([[0, 1, 0, 9]])
    expect(await page.evaluate(() => window.cotext!.editor.getSelectedText())).toBe(FAMILY)
    // The selection's highlight covers the family emoji exactly.
    const edges = await glyphEdges(user, 1, 9)
    const box = await page.evaluate(() => {
      window.cotext!.view.renderNow()
      const rects = [...document.querySelectorAll('.cx-selection')].map((element) => element.getBoundingClientRect())
      return { left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)) }
    })
    expect(Math.abs(box.left - edges.left)).toBeLessThan(0.6)
    expect(Math.abs(box.right - edges.right)).toBeLessThan(0.6)
    await page.keyboard.press('Shift+ArrowRight')
    await page.keyboard.press('Shift+ArrowRight')
    expect(await page.evaluate(() => window.cotext!.editor.getSelectedText())).toBe(`${FAMILY}${FLAG}${E_ACUTE}`)
    await page.keyboard.press('Shift+ArrowLeft')
    expect(await ranges(user)).toEqual([[0, 1, 0, 13]])
    await page.keyboard.press('End')
    await page.keyboard.press('Shift+ArrowLeft')
    await page.keyboard.press('Shift+ArrowLeft')
    expect(await ranges(user)).toEqual([[0, 15, 0, 18]])
    expect(await page.evaluate(() => window.cotext!.editor.getSelectedText())).toBe(`${HANGUL}z`)
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('deletes whole clusters with backspace and delete', async () => {
    const user = await freshPage(LINE, LINE.length)
    const { page } = user
    const texts: string[] = []
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Backspace')
      texts.push(await textOf(page))
    }
    expect(texts).toEqual([
      `a${FAMILY}${FLAG}${E_ACUTE}${HANGUL}`,
      `a${FAMILY}${FLAG}${E_ACUTE}`,
      `a${FAMILY}${FLAG}`,
      `a${FAMILY}`,
      'a',
    ])
    await page.evaluate((t) => {
      window.cotext!.editor.setText(t)
      window.cotext!.editor.setCursorBufferPosition([0, 1])
    }, LINE)
    const forward: string[] = []
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Delete')
      forward.push(await textOf(page))
    }
    expect(forward).toEqual([`a${FLAG}${E_ACUTE}${HANGUL}z`, `a${E_ACUTE}${HANGUL}z`, `a${HANGUL}z`, 'az'])
    expect(await cursorColumn(user)).toBe(1)
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('puts a click inside a cluster before or after it, whichever edge is nearer', async () => {
    const user = await freshPage(LINE)
    const { page } = user
    const family = await glyphEdges(user, 1, 9)
    const width = family.right - family.left
    expect(width).toBeGreaterThan(4)
    const landed: number[] = []
    for (const fraction of [0.1, 0.3, 0.45, 0.55, 0.7, 0.9]) {
      await page.mouse.click(family.left + width * fraction, family.y)
      landed.push(await cursorColumn(user))
    }
    expect(landed).toEqual([1, 1, 1, 9, 9, 9])
    // The other clusters too: a click just left or right of the middle of each.
    const clusters: [number, number][] = [[9, 13], [13, 15], [15, 17]]
    for (const [start, end] of clusters) {
      const edges = await glyphEdges(user, start, end)
      const middle = (edges.left + edges.right) / 2
      await page.mouse.click(middle - 1, edges.y)
      expect(await cursorColumn(user)).toBe(start)
      await page.mouse.click(middle + 1, edges.y)
      expect(await cursorColumn(user)).toBe(end)
    }
    // Shift+click and drags end at boundaries too.
    await page.mouse.click(family.left + width * 0.2, family.y)
    await page.keyboard.down('Shift')
    await page.mouse.click(family.left + width * 0.8, family.y)
    await page.keyboard.up('Shift')
    expect(await ranges(user)).toEqual([[0, 1, 0, 9]])
    const start = await pointFor(page, 0, 0)
    await page.mouse.move(start.x, start.y)
    await page.mouse.down()
    await page.mouse.move(family.left + width * 0.6, family.y, { steps: 4 })
    await page.mouse.up()
    expect(await ranges(user)).toEqual([[0, 0, 0, 9]])
    expect(user.errors).toEqual([])
    await user.context.close()
  })

  it('commits an IME composition next to a cluster without splitting it', async () => {
    const user = await freshPage(`${FAMILY}${E_ACUTE}`, 8)
    const { page } = user
    const cdp = await user.context.newCDPSession(page)
    await cdp.send('Input.imeSetComposition', { text: 'に', selectionStart: 1, selectionEnd: 1 })
    expect(await textOf(page)).toBe(`${FAMILY}${E_ACUTE}`)
    await cdp.send('Input.insertText', { text: '日' })
    await waitForText(page, `${FAMILY}日${E_ACUTE}`)
    expect(await ranges(user)).toEqual([[0, 9, 0, 9]])
    await page.keyboard.press('ArrowRight')
    expect(await cursorColumn(user)).toBe(11)
    await page.keyboard.press('Home')
    await page.keyboard.press('ArrowRight')
    await cdp.send('Input.imeSetComposition', { text: 'ほ', selectionStart: 1, selectionEnd: 1 })
    await cdp.send('Input.insertText', { text: '本' })
    await waitForText(page, `${FAMILY}本日${E_ACUTE}`)
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Backspace')
    await waitForText(page, `日${E_ACUTE}`)
    expect(await cursorColumn(user)).toBe(0)
    expect(user.errors).toEqual([])
    await user.context.close()
  })
})
