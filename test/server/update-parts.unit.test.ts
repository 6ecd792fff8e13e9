import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { loadSteps, PREPARING } from '../../server/update-parts.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { edit } from './helpers/random-edits.ts'

/** `update`'s parts all at once (the steps of loadSteps that apply something), or null when it is applied whole. */
function updateParts(update: Uint8Array, maxStructs: number, state: () => ReadonlyMap<number, number>): Uint8Array[] | null {
  const parts: Uint8Array[] = []
  for (const step of loadSteps(update, maxStructs, state)) if (step !== PREPARING) parts.push(step)
  return parts.length === 1 && parts[0] === update ? null : parts
}

/** Issue 24: a room loads a long stored update in parts; applied in order, they must give what the update gives. */

/** What a document holds: its state vector, its content and what is deleted, as bytes comparable across documents. */
function stateOf(doc: Y.Doc): { stateVector: Uint8Array; update: Uint8Array; pending: boolean } {
  return { stateVector: Y.encodeStateVector(doc), update: Y.encodeStateAsUpdate(doc), pending: doc.store.pendingStructs !== null || doc.store.pendingDs !== null }
}

describe('update-parts', () => {
  it('cuts one client\'s and several clients\' updates into parts that, applied in order, never wait in Yjs\'s pending structs and give the document the whole update gives (seeded)', () => {
    const seeds = fuzzSeeds(6)
    let cutUpdates = 0
    let severalClients = 0
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
        // What a room stores: one client's transaction of many edits, several clients' updates merged (a
        // compacted part) and a whole document's state (a recovery): all cut.
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
        const deletions = (update: Uint8Array): number => [...Y.decodeUpdate(update).ds.clients.values()].reduce((n, ranges) => n + ranges.length, 0)
        const hasGap = (update: Uint8Array): boolean => Y.decodeUpdate(update).structs.some((struct) => struct instanceof Y.Skip)
        const clients = (update: Uint8Array): number => new Set(Y.decodeUpdate(update).structs.map((struct) => struct.id.client)).size
        // A client's structs starting past the document's clock for it wait for what is missing, as after a gap.
        const startsPastDocument = (update: Uint8Array, doc: Y.Doc): boolean => {
          const state = Y.decodeStateVector(Y.encodeStateVector(doc))
          return [...Y.parseUpdateMeta(update).from].some(([client, clock]) => clock > (state.get(client) ?? 0))
        }
        for (const [index, update] of stored.entries()) {
          for (const maxStructs of [1, 8]) {
            const whole = new Y.Doc({ gc })
            const cut = new Y.Doc({ gc })
            Y.applyUpdate(whole, Y.encodeStateAsUpdate(base))
            Y.applyUpdate(cut, Y.encodeStateAsUpdate(base))
            const parts = updateParts(update, maxStructs, () => Y.decodeStateVector(Y.encodeStateVector(cut)))
            const label = `seed ${seed}, gc ${gc}, update ${index}, parts of ${maxStructs}`
            // An update with a gap (Yjs holds what follows it pending), one that starts past what the document
            // holds (the gaps' merge when the middle update only deleted: its clocks follow on, but from past the
            // first writer's transaction, which the document lacks), or one no longer than a part, is left whole.
            if (hasGap(update) || startsPastDocument(update, cut) || structs(update) + deletions(update) <= maxStructs) {
              expect(parts, label).toBe(null)
              continue
            }
            expect(parts, label).not.toBe(null)
            cutUpdates += 1
            if (clients(update) > 1) severalClients += 1
            Y.applyUpdate(whole, update)
            for (const part of parts!) {
              Y.applyUpdate(cut, part)
              // Each part holds only what the document or an earlier part points at: nothing waits.
              expect(cut.store.pendingStructs, label).toBe(null)
              expect(cut.store.pendingDs, label).toBe(null)
            }
            expect(stateOf(cut), label).toEqual(stateOf(whole))
            expect(cut.getText('text').toDelta(), label).toEqual(whole.getText('text').toDelta())
            // No part larger than asked, and together they hold every struct and every deletion once.
            for (const part of parts!) expect(structs(part) + deletions(part), label).toBeLessThanOrEqual(maxStructs)
            expect(parts!.reduce((n, part) => n + structs(part), 0), label).toBe(structs(update))
            expect(parts!.reduce((n, part) => n + deletions(part), 0), label).toBe(deletions(update))
          }
        }
      }
    }
    // Most updates were cut, several clients' among them (the test is about them).
    expect(cutUpdates).toBeGreaterThan(seeds.length * 8)
    expect(severalClients).toBeGreaterThan(seeds.length * 4)
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
    const parts = updateParts(update, 3, () => Y.decodeStateVector(Y.encodeStateVectorFromUpdate(initial)))!
    expect(parts.length).toBe(4)
    // Each part starts where the one before it ended: 'é' is one clock tick, '😀' two (a surrogate pair), 'ab' and '日本' two.
    expect(parts.map((part) => Y.parseUpdateMeta(part).from.get(9))).toEqual([100, 105, 110, 115])
    const copy = new Y.Doc()
    Y.applyUpdate(copy, initial)
    for (const part of parts) Y.applyUpdate(copy, part)
    expect(copy.getText('text').toString()).toBe(text.toString())
    expect(copy.store.pendingStructs).toBe(null)
  })

  it('puts several clients\' structs in parts each after what it points at, whichever client wrote it', () => {
    // Three clients, each inserting between the others' text: client 1's later structs point at client 3's.
    const docs = [1, 2, 3].map((clientID) => {
      const doc = new Y.Doc()
      doc.clientID = clientID
      return doc
    })
    const sync = (): void => {
      for (const from of docs) for (const to of docs) if (from !== to) Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)))
    }
    for (let round = 0; round < 4; round++) {
      for (const [i, doc] of docs.entries()) doc.getText('text').insert(doc.getText('text').length === 0 ? 0 : round + i, `${i}${round}`)
      sync()
    }
    const update = Y.encodeStateAsUpdate(docs[0]!)
    const empty = new Map<number, number>()
    const parts = updateParts(update, 2, () => empty)!
    const ids = parts.map((part) => Y.decodeUpdate(part).structs.map((struct) => `${struct.id.client}:${struct.id.clock}`))
    // The update writes client 3's section first, then 2's, then 1's; 3:2 points at 2:1 (its right origin) and 3:4
    // at 1:1, so those come before them: the walk goes to the client a struct waits for, as Yjs's integration does.
    expect(ids).toEqual([['3:0', '2:0'], ['2:1', '3:2'], ['1:0', '1:1'], ['2:2', '3:4'], ['1:2', '1:3'], ['2:4', '3:6'], ['1:4', '1:5'], ['2:6', '1:6']])
    const cut = new Y.Doc()
    for (const part of parts) {
      Y.applyUpdate(cut, part)
      expect(cut.store.pendingStructs).toBe(null)
    }
    expect(cut.getText('text').toString()).toBe(docs[0]!.getText('text').toString())
    expect(Y.encodeStateAsUpdate(cut)).toEqual(update)
  })

  it('leaves whole what is short, points at what the document does not hold, or is not readable: Yjs applies it, or refuses it', () => {
    const doc = new Y.Doc()
    doc.getText('text').insert(0, 'short')
    const update = Y.encodeStateAsUpdate(doc)
    const none = (): Map<number, number> => new Map()
    expect(updateParts(update, 1, none)).toBe(null) // one struct
    const other = new Y.Doc()
    Y.applyUpdate(other, update)
    const before = Y.encodeStateVector(other)
    other.getText('text').insert(0, 'a')
    other.getText('text').insert(6, 'b')
    // Its two inserts point at 'short', which a fresh document does not hold: Yjs would wait for it, whole or in parts.
    const since = Y.encodeStateAsUpdate(other, before)
    expect(updateParts(since, 1, none)).toBe(null)
    expect(updateParts(since, 1, () => Y.decodeStateVector(Y.encodeStateVector(doc)))?.length).toBe(2)
    expect(updateParts(new Uint8Array([1, 2, 5, 0, 31, 31]), 1, none)).toBe(null) // a struct of an unknown kind
    // Two strings at the start of root text 'text', by hand: with well-formed UTF-8 they are cut; with a stray
    // continuation byte (Yjs would read a replacement character: one clock tick this reader does not count) not.
    const twoStrings = (second: number[]): Uint8Array =>
      new Uint8Array([1, 2, 5, 0, ...[4, 1, 4, 116, 101, 120, 116, 1, 97], ...[4, 1, 4, 116, 101, 120, 116, second.length, ...second], 0])
    const wellFormed = updateParts(twoStrings([0xc3, 0xa9]), 1, none)
    expect(wellFormed?.length).toBe(2)
    const whole = new Y.Doc()
    const cut = new Y.Doc()
    Y.applyUpdate(whole, twoStrings([0xc3, 0xa9]))
    for (const part of wellFormed!) Y.applyUpdate(cut, part)
    expect(Y.encodeStateAsUpdate(cut)).toEqual(Y.encodeStateAsUpdate(whole))
    expect(updateParts(twoStrings([0x80]), 1, none)).toBe(null)
    expect(updateParts(twoStrings([0xed, 0xa0, 0x80]), 1, none)).toBe(null) // a surrogate, encoded
    expect(updateParts(twoStrings([0xe6, 0x97]), 1, none)).toBe(null) // cut short
    expect(updateParts(new Uint8Array([1, 3]), 1, none)).toBe(null) // cut short
    expect(updateParts(new Uint8Array([1, 2, 5, 0, 0, 1, 0, 1, 0, 7]), 1, none)).toBe(null) // bytes after the delete set
  })

  it('reads and orders a long update in steps of their own before its first part, and gives it whole, after them, when it cannot be cut', () => {
    const doc = new Y.Doc()
    doc.clientID = 5
    const text = doc.getText('text')
    text.insert(0, 'x')
    const initial = Y.encodeStateAsUpdate(doc)
    const before = Y.encodeStateVector(doc)
    // 5,000 one-character inserts, each before the last: 5,000 structs that Yjs cannot merge.
    doc.transact(() => {
      for (let i = 0; i < 5000; i++) text.insert(0, 'a')
    })
    const update = Y.encodeStateAsUpdate(doc, before)
    const kinds = (steps: Iterable<unknown>): string[] => [...steps].map((step) => (step === PREPARING ? 'preparing' : step === update ? 'whole' : 'part'))
    // Against a document holding 'x': two steps reading (2,048 structs each), two ordering, then 20 parts of 256.
    const cut = kinds(loadSteps(update, 256, () => Y.decodeStateVector(Y.encodeStateVectorFromUpdate(initial))))
    expect(cut).toEqual([...Array(4).fill('preparing'), ...Array(20).fill('part')])
    // Against an empty document its inserts point at 'x', which nothing holds: after reading, the update whole.
    expect(kinds(loadSteps(update, 256, () => new Map()))).toEqual(['preparing', 'preparing', 'whole'])
  })
})
