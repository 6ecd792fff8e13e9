import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { openUserWithText, roomUrl, useServerAndBrowser, waitForText } from './harness.ts'

/**
 * Peers' name labels never sit on text for long: beside and above the caret (below it on the first
 * line), faded while the peer types where the label appeared, attached to their caret when carets
 * share a spot; and the IME caret shows after the composed text.
 */

const env = useServerAndBrowser()

/** Ann's caret and label on Ben's page: the label's box, the caret's box, its classes and opacity. */
function annOn(page: Page) {
  return page.evaluate(() => {
    window.cotext!.view.renderNow()
    const caret = document.querySelector<HTMLElement>('[data-testid=remote-cursor][data-peer-name="Ann Lee"]')
    if (caret === null) return null
    const label = caret.querySelector<HTMLElement>('[data-testid=remote-cursor-label]')!
    const c = caret.getBoundingClientRect()
    const l = label.getBoundingClientRect()
    return {
      labeled: caret.classList.contains('cx-labeled'),
      faded: caret.classList.contains('cx-label-faded'),
      opacity: Number(getComputedStyle(label).opacity),
      caret: { top: Math.round(c.top), bottom: Math.round(c.bottom), left: Math.round(c.left) },
      label: { top: Math.round(l.top), bottom: Math.round(l.bottom), left: Math.round(l.left) },
    }
  })
}

describe("peers' labels", () => {
  it('sit above the caret, below it on the first line, fade while the peer types in place, and come back on a move', async () => {
    const room = 'labels-fade'
    const text = 'first line\nsecond line\nthird line'
    const ann = await openUserWithText(env.browser, roomUrl(env.server, room, { name: 'Ann Lee' }), text)
    const ben = await openUserWithText(env.browser, roomUrl(env.server, room, { name: 'Ben Okafor' }), '')
    await waitForText(ben.page, text)
    // Ann moves to the second line: her label shows in full, above her caret, touching it.
    await ann.page.keyboard.press('ArrowDown')
    // Polled as one reading: she was labeled on the first line already (label below the caret), and her move
    // reaches Ben's page a frame or more later.
    await expect.poll(() => annOn(ben.page).then((a) => a !== null && a.labeled && a.label.bottom === a.caret.top)).toBe(true)
    let seen = (await annOn(ben.page))!
    expect([seen.faded, seen.label.bottom]).toEqual([false, seen.caret.top])
    expect(seen.label.left).toBeGreaterThanOrEqual(seen.caret.left - 1)
    // She types there: the label fades (the first line's text shows through).
    await ann.page.keyboard.type('ab')
    await waitForText(ben.page, 'first line\nabsecond line\nthird line')
    await expect.poll(() => annOn(ben.page).then((a) => a?.faded)).toBe(true)
    await expect.poll(() => annOn(ben.page).then((a) => a!.opacity)).toBeLessThan(0.5)
    // She moves to another line: the label shows in full again.
    await ann.page.keyboard.press('ArrowDown')
    await expect.poll(() => annOn(ben.page).then((a) => a && [a.labeled, a.faded, a.opacity])).toEqual([true, false, 1])
    // On the first line there is no room above: the label goes below the caret.
    await ann.page.keyboard.press('Control+Home')
    await expect.poll(() => annOn(ben.page).then((a) => a && a.label.top === a.caret.bottom)).toBe(true)
    await Promise.all([ann.context.close(), ben.context.close()])
  })

  it('stay on their caret when a local cursor shares the spot', async () => {
    const room = 'labels-shared'
    const text = 'one\ntwo three\nfour'
    const ann = await openUserWithText(env.browser, roomUrl(env.server, room, { name: 'Ann Lee' }), text)
    const ben = await openUserWithText(env.browser, roomUrl(env.server, room, { name: 'Ben Okafor' }), '')
    await waitForText(ben.page, text)
    await ben.page.evaluate(() => window.cotext!.editor.setCursorBufferPosition([1, 3]))
    await ann.page.evaluate(() => window.cotext!.editor.setCursorBufferPosition([1, 3]))
    await ann.page.keyboard.press('ArrowRight')
    await ann.page.keyboard.press('ArrowLeft')
    // Ann's caret steps aside from Ben's by a few pixels; her label stays on it, not 16 px away. Polled as
    // one reading: her move, her label and the layout reach Ben's page in separate frames.
    const benCaretLeft = () =>
      ben.page.evaluate(() => Math.round(document.querySelector('[data-testid=cursor]')!.getBoundingClientRect().left))
    await expect
      .poll(async () => {
        const a = await annOn(ben.page)
        const left = await benCaretLeft()
        return a !== null && a.labeled && Math.abs(a.caret.left - left) <= 4 ? a.label.bottom - a.caret.top : null
      })
      .toBe(0)
    await Promise.all([ann.context.close(), ben.context.close()])
  })
})

describe('IME', () => {
  it('shows the caret after the composed text while composing', async () => {
    const user = await openUserWithText(env.browser, roomUrl(env.server, 'labels-ime', { name: 'Ima Ko' }), 'ab', 1)
    const { page } = user
    const cdp = await user.context.newCDPSession(page)
    await cdp.send('Input.imeSetComposition', { text: 'にほん', selectionStart: 3, selectionEnd: 3 })
    const during = await page.evaluate(() => {
      const selection = document.getSelection()!
      const caret = selection.getRangeAt(0).getBoundingClientRect()
      const composed = document.querySelector('.cx-input.cx-composing')!.getBoundingClientRect()
      return {
        caretAtEnd: Math.abs(caret.left - composed.right) <= 1,
        caretColor: getComputedStyle(document.querySelector('[data-testid=editor]')!).caretColor,
        drawnCursors: getComputedStyle(document.querySelector('.cx-cursors')!).visibility,
      }
    })
    expect(during.caretAtEnd).toBe(true)
    expect(during.caretColor).not.toBe('rgba(0, 0, 0, 0)')
    expect(during.drawnCursors).toBe('hidden')
    await cdp.send('Input.insertText', { text: '日本' })
    await waitForText(page, 'a日本b')
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.cx-cursors')!).visibility)).toBe('visible')
    await user.context.close()
  })
})
