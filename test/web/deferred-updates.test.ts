import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { BIG_UPDATE, DeferredUpdates } from '../../web/app/deferred-updates.ts'

/**
 * A doc whose update listener (recording what it is handed and feeding a replica) runs behind a
 * DeferredUpdates; its later tasks run when `runLater` is called.
 */
function setUp() {
  const doc = new Y.Doc()
  const replica = new Y.Doc()
  const seen: { bytes: number; origin: unknown }[] = []
  const listener = (update: Uint8Array, origin: unknown): void => {
    seen.push({ bytes: update.byteLength, origin })
    Y.applyUpdate(replica, update)
  }
  doc.on('update', listener)
  const tasks: (() => void)[] = []
  const relay = new DeferredUpdates(doc, listener, (callback) => tasks.push(callback))
  const runLater = (): void => {
    for (const task of tasks.splice(0)) task()
  }
  return { doc, seen, relay, runLater, replica }
}

describe('DeferredUpdates', () => {
  it('hands a small update on at once and a big one in a later task, with every update after it in order', () => {
    const { doc, seen, relay, runLater, replica } = setUp()
    const text = doc.getText('text')
    text.insert(0, 'ab', undefined)
    expect(seen.length).toBe(1)
    expect(replica.getText('text').toString()).toBe('ab')
    doc.transact(() => text.insert(2, 'x'.repeat(BIG_UPDATE)), 'paste')
    // A keystroke right after the paste waits behind it.
    doc.transact(() => text.insert(0, 'k'), 'key')
    expect(seen.length).toBe(1)
    expect(relay.isPending()).toBe(true)
    runLater()
    expect(seen.map((s) => s.origin)).toEqual([null, 'paste', 'key'])
    expect(seen[1]!.bytes).toBeGreaterThan(BIG_UPDATE)
    expect(replica.getText('text').toString()).toBe(text.toString())
    expect(relay.isPending()).toBe(false)
    // Then small updates go at once again.
    text.delete(0, 1)
    expect(seen.length).toBe(4)
    expect(replica.getText('text').toString()).toBe(text.toString())
  })

  it('hands waiting updates on when disposed with flush, drops them without, and stops relaying', () => {
    const { doc, seen, relay, runLater, replica } = setUp()
    const text = doc.getText('text')
    text.insert(0, 'y'.repeat(BIG_UPDATE))
    relay.dispose(true)
    expect(seen.length).toBe(1)
    expect(replica.getText('text').length).toBe(BIG_UPDATE)
    text.insert(0, 'z')
    runLater()
    expect(seen.length).toBe(1)

    const other = setUp()
    other.doc.getText('text').insert(0, 'w'.repeat(BIG_UPDATE))
    other.relay.dispose(false)
    other.runLater()
    expect(other.seen.length).toBe(0)
    expect(other.replica.getText('text').length).toBe(0)
  })
})
