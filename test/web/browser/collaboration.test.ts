import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { openUser, pointFor, roomUrl, screenshot, typeAndSee, useServerAndBrowser, waitForText, type User } from './harness.ts'

/** Two people in one room: each sees the other's text and cursors, in the other's colour, live. */

const env = useServerAndBrowser()

async function pair(room: string): Promise<[User, User]> {
  const alice = await openUser(env.browser, roomUrl(env.server, room, { name: 'Alice', color: '#d81b60' }))
  const bob = await openUser(env.browser, roomUrl(env.server, room, { name: 'Bob', color: '#1e88e5' }))
  return [alice, bob]
}

const remoteCursors = (page: Page, name: string) => page.locator(`[data-testid=remote-cursor][data-peer-name="${name}"]`)

/** Where a remote cursor sits, as [row, column]. */
async function placeOf(page: Page, name: string): Promise<[number, number][]> {
  const cursors = remoteCursors(page, name)
  const places: [number, number][] = []
  for (let i = 0; i < (await cursors.count()); i++) {
    const cursor = cursors.nth(i)
    places.push([Number(await cursor.getAttribute('data-row')), Number(await cursor.getAttribute('data-column'))])
  }
  return places.sort((a, b) => a[0] - b[0] || a[1] - b[1])
}

describe('two people in a room', () => {
  it("see each other's text and cursor labels at the right places", async () => {
    const [alice, bob] = await pair('collab-text')
    await typeAndSee(alice, 'Hello from Alice', bob)
    await expect.poll(() => placeOf(bob.page, 'Alice')).toEqual([[0, 16]])
    const aliceOnBob = remoteCursors(bob.page, 'Alice')
    const label = aliceOnBob.locator('[data-testid=remote-cursor-label]')
    expect(await label.textContent()).toBe('Alice')
    expect(await label.isVisible()).toBe(true)
    // Drawn where column 16 of row 0 is on Bob's screen, in Alice's colour.
    const expected = await pointFor(bob.page, 0, 16)
    const box = (await aliceOnBob.boundingBox())!
    expect(Math.abs(box.x + box.width / 2 - expected.x)).toBeLessThan(2)
    expect(box.y).toBeLessThan(expected.y)
    expect(box.y + box.height).toBeGreaterThan(expected.y)
    expect(await aliceOnBob.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(216, 27, 96)')
    await expect.poll(() => bob.page.locator('[data-testid=peer][data-peer-name=Alice]').count()).toBe(1)

    await bob.page.locator('[data-testid=editor]').click()
    await bob.page.keyboard.press('Control+End')
    await bob.page.keyboard.type('\nBob was here')
    await waitForText(alice.page, 'Hello from Alice\nBob was here')
    await expect.poll(() => placeOf(alice.page, 'Bob')).toEqual([[1, 12]])
    expect(await remoteCursors(alice.page, 'Bob').locator('[data-testid=remote-cursor-label]').isVisible()).toBe(true)
    await expect.poll(() => alice.page.locator('.cx-text').textContent()).toContain('Bob was here')

    // Alice selects a word; Bob sees the selection in her colour.
    await alice.page.keyboard.press('Control+Home')
    await alice.page.keyboard.press('Control+Shift+ArrowRight')
    await expect.poll(() => bob.page.locator('.cx-peer-selection').count()).toBe(1)
    await screenshot(alice.page, 'collab-alice')
    await screenshot(bob.page, 'collab-bob')
    expect([...alice.errors, ...bob.errors]).toEqual([])
    await Promise.all([alice.context.close(), bob.context.close()])
  })

  it('type with several cursors, and the other sees every cursor with one label', async () => {
    const [alice, bob] = await pair('collab-multi')
    await alice.page.locator('[data-testid=editor]').click()
    await alice.page.keyboard.type('one\ntwo\nthree')
    await alice.page.keyboard.press('Control+Home')
    await alice.page.keyboard.press('Control+Alt+ArrowDown')
    await alice.page.keyboard.press('Control+Alt+ArrowDown')
    await alice.page.keyboard.type('- ')
    await waitForText(bob.page, '- one\n- two\n- three')
    await expect.poll(() => placeOf(bob.page, 'Alice')).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ])
    const labels = remoteCursors(bob.page, 'Alice').locator('[data-testid=remote-cursor-label]')
    const visible = async () => {
      const shown: boolean[] = []
      for (let i = 0; i < 3; i++) shown.push(await labels.nth(i).isVisible())
      return shown.filter(Boolean).length
    }
    expect(await visible()).toBe(1)
    // Hovering another cursor shows its label too.
    const unlabeled = remoteCursors(bob.page, 'Alice').and(bob.page.locator(':not(.cx-labeled)')).first()
    await unlabeled.hover()
    expect(await unlabeled.locator('[data-testid=remote-cursor-label]').isVisible()).toBe(true)
    await screenshot(bob.page, 'collab-multi-cursor')

    // Bob types with two cursors of his own; Alice sees both edits.
    await bob.page.locator('[data-testid=editor]').click()
    await bob.page.keyboard.press('Control+Home')
    await bob.page.keyboard.press('End')
    await bob.page.keyboard.press('Control+Alt+ArrowDown')
    await bob.page.keyboard.type('!')
    await waitForText(alice.page, '- one!\n- two!\n- three')
    await expect.poll(() => placeOf(alice.page, 'Bob')).toEqual([
      [0, 6],
      [1, 6],
    ])
    expect([...alice.errors, ...bob.errors]).toEqual([])
    await Promise.all([alice.context.close(), bob.context.close()])
  })

  it('keeps two cursors at the same spot both visible', async () => {
    const [alice, bob] = await pair('collab-same-spot')
    await typeAndSee(alice, 'same spot', bob)
    await bob.page.locator('[data-testid=editor]').click()
    await bob.page.keyboard.press('Control+End')
    await expect.poll(() => placeOf(bob.page, 'Alice')).toEqual([[0, 9]])
    await expect.poll(() => placeOf(alice.page, 'Bob')).toEqual([[0, 9]])
    const local = (await bob.page.locator('[data-testid=cursor]').boundingBox())!
    const remote = (await remoteCursors(bob.page, 'Alice').boundingBox())!
    expect(Math.abs(remote.x - local.x)).toBeGreaterThanOrEqual(2)
    expect(await remoteCursors(bob.page, 'Alice').isVisible()).toBe(true)
    await screenshot(bob.page, 'collab-same-spot')

    // A third person at the same spot: both peers' cursors and labels stay apart on Alice's screen.
    const carol = await openUser(env.browser, roomUrl(env.server, 'collab-same-spot', { name: 'Carol', color: '#43a047' }))
    await carol.page.locator('[data-testid=editor]').click()
    await carol.page.keyboard.press('Control+End')
    await expect.poll(() => placeOf(alice.page, 'Carol')).toEqual([[0, 9]])
    const bobBox = (await remoteCursors(alice.page, 'Bob').boundingBox())!
    const carolBox = (await remoteCursors(alice.page, 'Carol').boundingBox())!
    expect(Math.abs(bobBox.x - carolBox.x)).toBeGreaterThanOrEqual(2)
    // Labels show only while their person is active (or hovered), so compare where each would stand.
    const labelShift = (name: string) => remoteCursors(alice.page, name).locator('[data-testid=remote-cursor-label]').evaluate((el) => (el as HTMLElement).style.transform)
    // One stacks onto the other, below the cursors since this is the first row; Alice's own cursor
    // there (which has no label) pushes neither away from its caret.
    expect([await labelShift('Bob'), await labelShift('Carol')].sort()).toEqual(['', 'translateY(16px)'])
    await screenshot(alice.page, 'collab-three-at-one-spot')
    expect([...alice.errors, ...bob.errors, ...carol.errors]).toEqual([])
    await Promise.all([alice.context.close(), bob.context.close(), carol.context.close()])
  })

  it('shows a renamed or recoloured peer at once', async () => {
    const [alice, bob] = await pair('collab-rename')
    await alice.page.locator('[data-testid=editor]').click()
    await alice.page.keyboard.type('hi')
    await expect.poll(() => placeOf(bob.page, 'Alice')).toEqual([[0, 2]])
    const name = alice.page.locator('[data-testid=user-name]')
    await name.fill('Alice L.')
    await name.press('Enter')
    await alice.page.locator('[data-testid=user-color]').fill('#00897b')
    await expect.poll(() => placeOf(bob.page, 'Alice L.')).toEqual([[0, 2]])
    await expect.poll(() => remoteCursors(bob.page, 'Alice L.').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 137, 123)')
    expect(await bob.page.locator('[data-testid=peer][data-peer-name="Alice L."]').count()).toBe(1)
    // Remembered for the next visit.
    expect(JSON.parse((await alice.page.evaluate(() => localStorage.getItem('cotext.user')))!)).toEqual({ name: 'Alice L.', color: '#00897b', colorChosen: true })
    expect([...alice.errors, ...bob.errors]).toEqual([])
    await Promise.all([alice.context.close(), bob.context.close()])
  })

  it("keeps the reader's text in place while someone inserts lines above it", async () => {
    const [alice, bob] = await pair('collab-anchor')
    await alice.page.evaluate(() => window.cotext!.editor.setText(Array.from({ length: 300 }, (_, i) => `row ${i + 1}`).join('\n')))
    await bob.page.waitForFunction(() => window.cotext!.editor.getLineCount() === 300)
    // The view sizes its scroller on its next frame: scrolling before that would be clipped to the old height.
    await bob.page.waitForFunction(() => {
      const view = window.cotext!.view
      return view.scroller.scrollHeight >= 290 * view.getLineHeight()
    })
    await bob.page.evaluate(() => {
      const view = window.cotext!.view
      view.scroller.scrollTop = 200 * view.getLineHeight()
    })
    const firstVisible = () =>
      bob.page.evaluate(() => {
        const view = window.cotext!.view
        const top = view.scroller.getBoundingClientRect().top
        const line = [...document.querySelectorAll('.cx-line')].find((el) => el.getBoundingClientRect().top >= top)
        return line?.textContent?.trim()
      })
    await expect.poll(firstVisible).toBe('row 201')
    await alice.page.evaluate(() => window.cotext!.editor.setTextInBufferRange([[0, 0], [0, 0]], 'new\n'.repeat(10)))
    await bob.page.waitForFunction(() => window.cotext!.editor.getLineCount() === 310)
    await expect.poll(firstVisible).toBe('row 201')
    expect([...alice.errors, ...bob.errors]).toEqual([])
    await Promise.all([alice.context.close(), bob.context.close()])
  })

  it("follows a peer from the peer list until the local user moves", async () => {
    const [alice, bob] = await pair('collab-follow')
    await alice.page.evaluate(() => {
      window.cotext!.editor.setText(Array.from({ length: 400 }, (_, i) => `row ${i + 1}`).join('\n'))
      window.cotext!.editor.setCursorBufferPosition([0, 0])
    })
    await bob.page.waitForFunction(() => window.cotext!.editor.getLineCount() === 400)
    const chip = bob.page.locator('[data-testid=peer][data-peer-name=Alice]')
    await chip.click()
    expect(await chip.getAttribute('aria-pressed')).toBe('true')
    await alice.page.locator('[data-testid=editor]').focus()
    await alice.page.keyboard.press('Control+End')
    const inView = async (page: Page, name: string) => {
      const cursor = remoteCursors(page, name)
      if ((await cursor.count()) === 0) return false
      const box = await cursor.boundingBox()
      const view = (await page.locator('.cx-scroller').boundingBox())!
      return box !== null && box.y >= view.y && box.y + box.height <= view.y + view.height
    }
    await expect.poll(() => inView(bob.page, 'Alice')).toBe(true)
    await alice.page.keyboard.press('Control+Home')
    await expect.poll(() => inView(bob.page, 'Alice')).toBe(true)
    await screenshot(bob.page, 'collab-following')
    // Bob moves: following stops, and Alice's moves no longer scroll his view.
    await bob.page.locator('[data-testid=editor]').focus()
    await bob.page.keyboard.press('ArrowDown')
    await expect.poll(() => chip.getAttribute('aria-pressed')).toBe('false')
    const scrollTop = await bob.page.evaluate(() => window.cotext!.view.scroller.scrollTop)
    await alice.page.keyboard.press('Control+End')
    await expect.poll(() => placeOf(bob.page, 'Alice')).toEqual([])
    expect(await bob.page.evaluate(() => window.cotext!.view.scroller.scrollTop)).toBe(scrollTop)
    expect([...alice.errors, ...bob.errors]).toEqual([])
    await Promise.all([alice.context.close(), bob.context.close()])
  })
})
