import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { Authorship } from '../../core/collab/authorship.ts'

/** Two docs, `here` followed by an Authorship with a small revert window, `there` a peer whose edits arrive. */
function setup(window: { maxChanges?: number; maxKeptChars?: number; maxAge?: number }) {
  const here = new Y.Doc()
  here.clientID = 1
  const there = new Y.Doc()
  there.clientID = 2
  there.on('update', (update: Uint8Array) => Y.applyUpdate(here, update, 'remote'))
  let now = 1000
  const buffer = new TextBuffer({ ytext: here.getText('text'), clock: () => now })
  const selections: { anchor: number; head: number }[][] = []
  const authorship = new Authorship({
    buffer,
    awareness: null,
    run: (fn) => fn(),
    restoreSelections: (s) => selections.push(s),
    revertWindow: window,
  })
  return { here, there, buffer, authorship, selections, tick: (ms: number) => (now += ms) }
}

/** Whether the deleted text of `client`'s clocks [clock, clock + length) is still in `doc`. */
function contentKept(doc: Y.Doc, client: number, clock: number): boolean {
  const structs = doc.store.clients.get(client)!
  const item = structs[Y.findIndexSS(structs, clock)] as Y.Item
  return item.content instanceof Y.ContentString
}

describe('the revert window', () => {
  it('keeps deleted text from garbage collection for the latest changes, and lets it go after', () => {
    const { here, there, authorship, buffer } = setup({ maxChanges: 2 })
    const text = there.getText('text')
    text.insert(0, 'abcdef')
    text.delete(0, 2) // change 2: deletes "ab"
    expect(contentKept(here, 2, 0)).toBe(true)
    text.insert(4, 'X') // change 3: "ab" still in the window of 2
    expect(authorship.log.query().map((c) => c.revertible)).toEqual([false, true, true])
    text.insert(5, 'Y') // change 4: change 2 leaves the window; its text is collected
    expect(contentKept(here, 2, 0)).toBe(false)
    const [, deletion] = authorship.log.query()
    expect(deletion!.revertible).toBe(false)
    expect(() => authorship.revertChange(deletion!)).toThrow('Change 2 can no longer be reverted')
    expect(buffer.getText()).toBe('cdefXY')
  })

  it('reverts a remote deletion inside the window, selecting what came back', () => {
    const { there, authorship, buffer, selections } = setup({})
    const text = there.getText('text')
    text.insert(0, 'hello world')
    text.delete(5, 6)
    const revert = authorship.revertChange(authorship.log.query()[1]!)
    expect(buffer.getText()).toBe('hello world')
    expect(selections).toEqual([[{ anchor: 5, head: 11 }]])
    expect(revert!.author.clientID).toBe(1)
    expect(revert!.origin).toBe('local')
  })

  it('keeps each deletion\'s text across typing, transactions that delete nothing and nested ones', () => {
    const { here, there, authorship, buffer } = setup({})
    const text = there.getText('text')
    text.insert(0, 'abcdef')
    there.transact(() => {
      text.delete(0, 2) // change 2: "ab" goes and comes back as new text
      text.insert(0, 'ab')
    })
    expect(contentKept(here, 2, 0)).toBe(true)
    buffer.transact(() => {
      buffer.insert([0, 0], 'x') // inserted and deleted in one transaction: no change, nothing to keep
      buffer.delete([[0, 0], [0, 1]])
    })
    text.insert(6, 'g') // change 3: typing deletes nothing
    // change 4 deletes "ef"; a listener of its change set makes change 5, which deletes "c"
    const nested = authorship.onDidAddChange((entry) => {
      if (entry.id === '4') buffer.delete([[0, 2], [0, 3]])
    })
    text.delete(4, 2)
    nested.dispose()
    expect([contentKept(here, 2, 0), contentKept(here, 2, 2), contentKept(here, 2, 4)]).toEqual([true, true, true])
    expect(authorship.log.query().map((c) => c.revertible)).toEqual([true, true, true, true, true])
    expect(buffer.getText()).toBe('abdg')
    authorship.revertChange(authorship.log.query()[3]!)
    expect(buffer.getText()).toBe('abdefg')
  })

  it('bounds what it keeps by characters and by age', () => {
    const bytes = setup({ maxKeptChars: 4 })
    bytes.there.getText('text').insert(0, 'abcdefgh')
    bytes.there.getText('text').delete(0, 3)
    bytes.there.getText('text').delete(0, 3)
    expect(bytes.authorship.log.query().map((c) => c.revertible)).toEqual([false, false, true])
    const age = setup({ maxAge: 1000 })
    age.there.getText('text').insert(0, 'ab')
    age.tick(1500)
    age.there.getText('text').insert(0, 'c')
    expect(age.authorship.log.query().map((c) => c.revertible)).toEqual([false, true])
  })
})
