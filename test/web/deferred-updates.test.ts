import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { BIG_UPDATE, DeferredUpdates } from '../../web/app/deferred-updates.ts'

/** A listener recording what it is handed (bytes and origin) and feeding a replica with it. */
function recorder() {
  const replica = new Y.Doc()
  const seen: { update: Uint8Array; origin: unknown }[] = []
  const listener = (update: Uint8Array, origin: unknown): void => {
    seen.push({ update, origin })
    Y.applyUpdate(replica, update)
  }
  return { replica, seen, listener }
}

/**
 * A doc whose update listener runs behind a DeferredUpdates; its later tasks run when `runLater` is
 * called. `yjs` records the update Yjs itself writes for each transaction, when `withYjsUpdates` (a
 * listener of its own, which makes Yjs write every update in the transaction's task, as without the relay).
 */
function setUp(withYjsUpdates = false) {
  const doc = new Y.Doc()
  const { replica, seen, listener } = recorder()
  doc.on('update', listener)
  const tasks: (() => void)[] = []
  const relay = new DeferredUpdates(doc, (callback: () => void) => tasks.push(callback))
  relay.relay(listener)
  const yjs: { update: Uint8Array; origin: unknown }[] = []
  if (withYjsUpdates) doc.on('update', (update: Uint8Array, origin: unknown) => yjs.push({ update, origin }))
  const runLater = (): void => {
    while (tasks.length > 0) tasks.shift()!()
  }
  return { doc, seen, relay, runLater, replica, yjs, tasks }
}

/** Whether Yjs will write the update of the transaction ending now (it does while the doc has an 'update' listener). */
function writesUpdate(doc: Y.Doc): boolean {
  return doc._observers.has('update')
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
    expect(seen[1]!.update.byteLength).toBeGreaterThan(BIG_UPDATE)
    expect(replica.getText('text').toString()).toBe(text.toString())
    expect(relay.isPending()).toBe(false)
    // Then small updates go at once again.
    text.delete(0, 1)
    expect(seen.length).toBe(4)
    expect(replica.getText('text').toString()).toBe(text.toString())
  })

  it('does not let Yjs write a big update in its transaction, and later hands on the very bytes Yjs writes', () => {
    const { doc, seen, runLater } = setUp()
    const text = doc.getText('text')
    const writes: boolean[] = []
    // Registered after the relay's: sees what Yjs will do right after the transaction's end.
    doc.on('afterTransactionCleanup', () => writes.push(writesUpdate(doc)))
    text.insert(0, 'small')
    doc.transact(() => text.insert(3, 'line\n'.repeat(BIG_UPDATE / 4)), 'paste')
    text.insert(1, 'k')
    expect(writes).toEqual([true, false, true])
    // The same transactions on a doc with Yjs's own listener: the bytes the relay hands on are Yjs's.
    const twin = setUp(true)
    twin.doc.clientID = doc.clientID
    const twinText = twin.doc.getText('text')
    twinText.insert(0, 'small')
    twin.doc.transact(() => twinText.insert(3, 'line\n'.repeat(BIG_UPDATE / 4)), 'paste')
    twinText.insert(1, 'k')
    runLater()
    twin.runLater()
    expect(twin.yjs.length).toBe(3)
    expect(seen.map((s) => s.update)).toEqual(twin.yjs.map((s) => s.update))
    expect(twin.seen.map((s) => s.update)).toEqual(twin.yjs.map((s) => s.update))
  })

  it('writes a big update once, in a task of its own before the listeners run, for every listener that wants it', () => {
    const { doc, seen, relay, tasks, runLater } = setUp()
    const second = recorder()
    const third = recorder()
    relay.relay(second.listener)
    relay.relay(third.listener, (origin) => origin === 'mine')
    doc.transact(() => doc.getText('text').insert(0, 'y'.repeat(BIG_UPDATE)), 'paste')
    // The writing, then each listener's turn.
    expect(tasks.length).toBe(4)
    runLater()
    expect(seen[0]!.update).toBe(second.seen[0]!.update)
    expect(seen[0]!.update).toBe(third.seen[0]!.update)
    // An update a listener ignores is not handed to it.
    doc.transact(() => doc.getText('text').insert(0, 'z'.repeat(BIG_UPDATE)), 'mine')
    runLater()
    expect(third.seen.length).toBe(1)
    expect(second.seen.length).toBe(2)
    expect(second.replica.getText('text').toString()).toBe(doc.getText('text').toString())
  })

  it("neither writes nor schedules anything for a big update every listener ignores (a room's first sync)", () => {
    const doc = new Y.Doc()
    const tasks: (() => void)[] = []
    const relay = new DeferredUpdates(doc, (callback: () => void) => tasks.push(callback))
    const { seen, listener } = recorder()
    relay.relay(listener, (origin) => origin === 'sync')
    const writes: boolean[] = []
    doc.on('afterTransactionCleanup', () => writes.push(writesUpdate(doc)))
    doc.transact(() => doc.getText('text').insert(0, 's'.repeat(BIG_UPDATE)), 'sync')
    expect(writes).toEqual([false])
    expect(tasks.length).toBe(0)
    expect(seen.length).toBe(0)
  })

  it('hands waiting updates on when stopped or disposed with flush, drops them without, and stops relaying', () => {
    const { doc, seen, relay, runLater, replica } = setUp()
    const text = doc.getText('text')
    text.insert(0, 'y'.repeat(BIG_UPDATE))
    relay.dispose(true)
    expect(seen.length).toBe(1)
    expect(replica.getText('text').length).toBe(BIG_UPDATE)
    text.insert(0, 'z')
    runLater()
    expect(seen.length).toBe(1)
    expect(writesUpdate(doc)).toBe(false)

    const other = setUp()
    const kept = recorder()
    other.relay.relay(kept.listener)
    other.doc.getText('text').insert(0, 'w'.repeat(BIG_UPDATE))
    other.relay.stop(kept.listener, false)
    other.relay.dispose(false)
    other.runLater()
    expect(other.seen.length).toBe(0)
    expect(kept.seen.length).toBe(0)
    expect(other.replica.getText('text').length).toBe(0)
  })
})
