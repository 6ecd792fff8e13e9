import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { disjointClients, joinUpdates, mergeUpdates, sectionCount, splitUpdate } from '../../server/relay-merge.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { edit } from './helpers/random-edits.ts'

/** Issue 24: the fan-out's merge of a batch by copying bytes must equal Yjs's merge, for every kind of content. */

describe('relay-merge', () => {
  it('merges updates of different clients as Y.mergeUpdates does, whatever they hold (seeded)', () => {
    const seeds = fuzzSeeds(20)
    console.log(`relay-merge: seeds ${seeds[0]}…${seeds.at(-1)} (FUZZ_SEED=N replays one)`)
    for (const seed of seeds) {
      const random = new Random(seed)
      const base = new Y.Doc()
      const writers = Array.from({ length: 2 + random.int(6) }, (_, i) => {
        const doc = new Y.Doc()
        doc.clientID = 1000 + i * 7 + random.int(5)
        return doc
      })
      // Some shared history, so that updates point into each other's items and delete them.
      for (let round = 0; round < 3; round++) {
        for (const writer of writers) {
          Y.applyUpdate(writer, Y.encodeStateAsUpdate(base))
          for (let n = random.int(4); n >= 0; n--) edit(writer, random)
          Y.applyUpdate(base, Y.encodeStateAsUpdate(writer))
        }
      }
      // The batch: one update from each writer, made concurrently.
      const updates = writers.map((writer) => {
        Y.applyUpdate(writer, Y.encodeStateAsUpdate(base))
        const before = Y.encodeStateVector(writer)
        for (let n = random.int(4); n >= 0; n--) edit(writer, random)
        return Y.encodeStateAsUpdate(writer, before)
      })
      const split = updates.map(splitUpdate)
      expect(split.every((parts) => parts !== null), `seed ${seed}: every update read`).toBe(true)
      expect(disjointClients(split.map((parts) => parts!))).toBe(true)
      for (const keep of [() => true, (i: number) => i !== 0, (i: number) => i % 2 === 1]) {
        const subset = updates.filter((_, i) => keep(i))
        const ours = joinUpdates(split.filter((_, i) => keep(i)).map((parts) => parts!))
        const theirs = Y.mergeUpdates(subset)
        const a = new Y.Doc()
        const b = new Y.Doc()
        Y.applyUpdate(a, Y.encodeStateAsUpdate(base))
        Y.applyUpdate(b, Y.encodeStateAsUpdate(base))
        Y.applyUpdate(a, ours)
        Y.applyUpdate(b, theirs)
        expect(Y.encodeStateAsUpdate(a), `seed ${seed}`).toEqual(Y.encodeStateAsUpdate(b))
        expect(Y.encodeStateVector(a)).toEqual(Y.encodeStateVector(b))
        // Nothing waits for a missing dependency in one and not the other.
        expect([a.store.pendingStructs === null, a.store.pendingDs === null]).toEqual([b.store.pendingStructs === null, b.store.pendingDs === null])
      }
    }
  }, 60_000)

  it('leaves to Yjs what it cannot copy: two updates of one client, and bytes that are not an update', () => {
    const doc = new Y.Doc()
    doc.clientID = 5
    const updates: Uint8Array[] = []
    doc.on('update', (update: Uint8Array) => updates.push(update))
    doc.getText('text').insert(0, 'a')
    doc.getText('text').insert(1, 'b')
    const split = updates.map(splitUpdate)
    expect(split.every((parts) => parts !== null)).toBe(true)
    expect(disjointClients(split.map((parts) => parts!))).toBe(false)
    expect(splitUpdate(new Uint8Array([1, 1, 5, 0, 31]))).toBe(null) // a struct of an unknown kind
    expect(splitUpdate(new Uint8Array([1, 1]))).toBe(null) // cut short
    expect(splitUpdate(Y.mergeUpdates([...updates, new Uint8Array([0, 0])]).slice(0, -1))).toBe(null) // no delete set
    // mergeUpdates (what the store writes) hands such batches to Yjs: the same bytes.
    expect(mergeUpdates(updates)).toEqual(Y.mergeUpdates(updates))
  })

  it('mergeUpdates copies the updates of different clients into what Yjs would store', () => {
    const writers = [3, 4, 5].map((clientID) => {
      const doc = new Y.Doc()
      doc.clientID = clientID
      return doc
    })
    const updates = writers.map((doc, i) => {
      doc.getText('text').insert(0, `writer ${i} `)
      doc.getText('text').delete(0, 1)
      return Y.encodeStateAsUpdate(doc)
    })
    const merged = mergeUpdates(updates)
    const ours = new Y.Doc()
    const theirs = new Y.Doc()
    Y.applyUpdate(ours, merged)
    Y.applyUpdate(theirs, Y.mergeUpdates(updates))
    expect(ours.getText('text').toString()).toBe(theirs.getText('text').toString())
    expect(Y.encodeStateAsUpdate(ours)).toEqual(Y.encodeStateAsUpdate(theirs))
    expect(Y.parseUpdateMeta(merged)).toEqual(Y.parseUpdateMeta(Y.mergeUpdates(updates)))
  })
})

describe('sectionCount', () => {
  it('counts the clients an update holds sections for, at least 1', () => {
    const docs = [3, 5, 9].map((clientID) => {
      const doc = new Y.Doc()
      doc.clientID = clientID
      doc.getText('text').insert(0, 'ab')
      return Y.encodeStateAsUpdate(doc)
    })
    expect(sectionCount(docs[0]!)).toBe(1)
    expect(sectionCount(mergeUpdates(docs))).toBe(3)
    expect(sectionCount(new Uint8Array([0, 0]))).toBe(1)
    expect(sectionCount(new Uint8Array([]))).toBe(1)
  })
})
