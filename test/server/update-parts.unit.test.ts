import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { updateParts } from '../../server/update-parts.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { edit } from './helpers/random-edits.ts'

/** Issue 24: a room loads a long stored update in parts; applied in order, they must give what the update gives. */

/** What a document holds: its state vector, its content and what is deleted, as bytes comparable across documents. */
function stateOf(doc: Y.Doc): { stateVector: Uint8Array; update: Uint8Array; pending: boolean } {
  return { stateVector: Y.encodeStateVector(doc), update: Y.encodeStateAsUpdate(doc), pending: doc.store.pendingStructs !== null || doc.store.pendingDs !== null }
}

describe('update-parts', () => {
  it('cuts one client\'s update into parts that, applied in order, give the document the whole update gives, and leaves several clients\' whole (seeded)', () => {
    const seeds = fuzzSeeds(6)
    let cutUpdates = 0
    console.log(`update-parts: seeds ${seeds[0]}…${seeds.at(-1)} (FUZZ_SEED=N replays one)`)
    for (const seed of seeds) {
      const random = new Random(seed)
      for (const gc of [true, false]) {
        const base = new Y.Doc({ gc })
        const writers = Array.from({ length: 2 + random.int(4) }, (_, i) => {
          const doc = new Y.Doc({ gc })
          doc.clientID = 1000 + i * 7 + random.int(5)
          return doc
        })
        // Shared history, so that the updates point into each other's items and delete them.
        for (let round = 0; round < 3; round++) {
          for (const writer of writers) {
            Y.applyUpdate(writer, Y.encodeStateAsUpdate(base))
            for (let n = random.int(6); n >= 0; n--) edit(writer, random)
            Y.applyUpdate(base, Y.encodeStateAsUpdate(writer))
          }
        }
        // What a room stores: one client's transaction of many edits (cut), several clients' updates merged (a
        // compacted part) and a whole document's state (a recovery), both left whole.
        const updates = writers.map((writer) => {
          Y.applyUpdate(writer, Y.encodeStateAsUpdate(base))
          const before = Y.encodeStateVector(writer)
          writer.transact(() => {
            for (let n = 5 + random.int(20); n >= 0; n--) edit(writer, random)
          })
          return Y.encodeStateAsUpdate(writer, before)
        })
        // Two updates of one client with a gap between them: merged, a skip stands for the gap (and what follows it waits).
        const gap = [0, 1, 2].map(() => {
          const before = Y.encodeStateVector(writers[0]!)
          for (let n = 2 + random.int(4); n >= 0; n--) edit(writers[0]!, random)
          return Y.encodeStateAsUpdate(writers[0]!, before)
        })
        const stored = [...updates, Y.mergeUpdates(updates), Y.mergeUpdates(updates.filter((_, i) => i % 2 === 0)), Y.encodeStateAsUpdate(writers[0]!), Y.mergeUpdates([gap[0]!, gap[2]!])]
        const structs = (update: Uint8Array): number => Y.decodeUpdate(update).structs.length
        const clients = (update: Uint8Array): number => new Set(Y.decodeUpdate(update).structs.map((struct) => struct.id.client)).size
        for (const [index, update] of stored.entries()) {
          for (const maxStructs of [1, 8]) {
            const parts = updateParts(update, maxStructs)
            const label = `seed ${seed}, gc ${gc}, update ${index}, parts of ${maxStructs}`
            // An update of several clients, or no longer than a part, is left whole.
            if (clients(update) > 1 || structs(update) <= maxStructs) {
              expect(parts, label).toBe(null)
              continue
            }
            expect(parts, label).not.toBe(null)
            cutUpdates += 1
            const whole = new Y.Doc({ gc })
            const cut = new Y.Doc({ gc })
            Y.applyUpdate(whole, Y.encodeStateAsUpdate(base))
            Y.applyUpdate(cut, Y.encodeStateAsUpdate(base))
            Y.applyUpdate(whole, update)
            for (const part of parts!) Y.applyUpdate(cut, part)
            expect(stateOf(cut), label).toEqual(stateOf(whole))
            expect(cut.getText('text').toDelta(), label).toEqual(whole.getText('text').toDelta())
            // No part larger than asked, and together they hold every struct once.
            for (const part of parts!) expect(structs(part), label).toBeLessThanOrEqual(maxStructs)
            expect(parts!.reduce((n, part) => n + structs(part), 0), label).toBe(structs(update))
          }
        }
      }
    }
    // Most of one client's updates were cut (the test is about them).
    expect(cutUpdates).toBeGreaterThan(seeds.length * 4)
  }, 60_000)

  it('cuts a long run of one client at the clock of each part, strings of any width counted as Yjs counts them', () => {
    const doc = new Y.Doc()
    doc.clientID = 9
    const text = doc.getText('text')
    text.insert(0, 'x'.repeat(100))
    const initial = Y.encodeStateAsUpdate(doc)
    const before = Y.encodeStateVector(doc)
    doc.transact(() => {
      for (let i = 0; i < 10; i++) text.insert(i * 10, ['é', '😀', 'ab', '日本'][i % 4]!)
    })
    const update = Y.encodeStateAsUpdate(doc, before)
    const parts = updateParts(update, 3)!
    expect(parts.length).toBe(4)
    // Each part starts where the one before it ended: 'é' is one clock tick, '😀' two (a surrogate pair), 'ab' and '日本' two.
    expect(parts.map((part) => Y.parseUpdateMeta(part).from.get(9))).toEqual([100, 105, 110, 115])
    const copy = new Y.Doc()
    Y.applyUpdate(copy, initial)
    for (const part of parts) Y.applyUpdate(copy, part)
    expect(copy.getText('text').toString()).toBe(text.toString())
    expect(copy.store.pendingStructs).toBe(null)
  })

  it('leaves whole what is short, of several clients, or not readable: Yjs applies it, or refuses it', () => {
    const doc = new Y.Doc()
    doc.getText('text').insert(0, 'short')
    const update = Y.encodeStateAsUpdate(doc)
    expect(updateParts(update, 1)).toBe(null) // one struct
    const other = new Y.Doc()
    Y.applyUpdate(other, update)
    other.getText('text').insert(0, 'a')
    other.getText('text').insert(6, 'b')
    expect(updateParts(Y.encodeStateAsUpdate(other), 1)).toBe(null) // two clients' sections
    expect(updateParts(new Uint8Array([1, 2, 5, 0, 31, 31]), 1)).toBe(null) // a struct of an unknown kind
    // Two strings at the start of root text 'text', by hand: with well-formed UTF-8 they are cut; with a stray
    // continuation byte (Yjs would read a replacement character: one clock tick this reader does not count) not.
    const twoStrings = (second: number[]): Uint8Array =>
      new Uint8Array([1, 2, 5, 0, ...[4, 1, 4, 116, 101, 120, 116, 1, 97], ...[4, 1, 4, 116, 101, 120, 116, second.length, ...second], 0])
    const wellFormed = updateParts(twoStrings([0xc3, 0xa9]), 1)
    expect(wellFormed?.length).toBe(2)
    const whole = new Y.Doc()
    const cut = new Y.Doc()
    Y.applyUpdate(whole, twoStrings([0xc3, 0xa9]))
    for (const part of wellFormed!) Y.applyUpdate(cut, part)
    expect(Y.encodeStateAsUpdate(cut)).toEqual(Y.encodeStateAsUpdate(whole))
    expect(updateParts(twoStrings([0x80]), 1)).toBe(null)
    expect(updateParts(twoStrings([0xed, 0xa0, 0x80]), 1)).toBe(null) // a surrogate, encoded
    expect(updateParts(twoStrings([0xe6, 0x97]), 1)).toBe(null) // cut short
    expect(updateParts(new Uint8Array([1, 3]), 1)).toBe(null) // cut short
    expect(updateParts(new Uint8Array([1, 2, 5, 0, 0, 1, 0, 1, 0, 7]), 1)).toBe(null) // bytes after the delete set
  })
})
