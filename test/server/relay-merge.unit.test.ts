import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { disjointClients, inYjsOrder, joinUpdates, mergeUpdates, sectionCount, splitUpdate } from '../../server/relay-merge.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { edit } from './helpers/random-edits.ts'

/** Issue 24: the fan-out's merge of a batch by copying bytes must equal Yjs's merge, for every kind of content. */

/** An update's structs as client:clock+length and its deleted ranges by client, in the order they are written. */
function layout(update: Uint8Array): { structs: string[]; deletes: Array<[number, Array<[number, number]>]> } {
  const { structs, ds } = Y.decodeUpdate(update)
  return {
    structs: structs.map((struct) => `${struct.id.client}:${struct.id.clock}+${struct.length}`),
    deletes: [...ds.clients].map(([client, ranges]) => [client, ranges.map(({ clock, len }) => [clock, len] as [number, number])]),
  }
}

/** The bytes of a one-client update's only section (struct count, client, clock, structs). */
function sectionBytes(update: Uint8Array): Uint8Array {
  return splitUpdate(update)!.sections[0]!.bytes
}

/** The bytes of a one-client update's delete set entry (client, ranges). */
function deleteBytes(update: Uint8Array): number[] {
  const [[client, ranges]] = [...splitUpdate(update)!.deletes]
  return [client!, ranges!.length, ...ranges!.flat()]
}

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
        // The structs and deletions Yjs writes, in its order (higher client ids first).
        expect(layout(ours), `seed ${seed}`).toEqual(layout(theirs))
        expect(Y.encodeStateAsUpdate(a), `seed ${seed}`).toEqual(Y.encodeStateAsUpdate(b))
        expect(Y.encodeStateVector(a)).toEqual(Y.encodeStateVector(b))
        // Nothing waits for a missing dependency in one and not the other.
        expect([a.store.pendingStructs === null, a.store.pendingDs === null]).toEqual([b.store.pendingStructs === null, b.store.pendingDs === null])
      }
    }
  }, 60_000)

  it('writes clients in Yjs\'s order, so that Yjs merging a join with a later update keeps every struct of both (seeded)', () => {
    const seeds = fuzzSeeds(20)
    console.log(`relay-merge order: seeds ${seeds[0]}…${seeds.at(-1)} (FUZZ_SEED=N replays one)`)
    for (const seed of seeds) {
      const random = new Random(seed)
      // Clients joined in arrival order, lower ids first as often as not: Yjs reads an update's clients from high to
      // low and dropped a struct it met after a higher client's (a stored join, compacted with the update after it).
      const writers = Array.from({ length: 2 + random.int(6) }, () => new Y.Doc())
      const hub = new Y.Doc()
      const stored: Uint8Array[] = []
      for (let round = 0; round < 6; round++) {
        const batch = writers.filter(() => random.bool(0.7)).map((writer) => {
          Y.applyUpdate(writer, Y.encodeStateAsUpdate(hub))
          const before = Y.encodeStateVector(writer)
          for (let n = random.int(3); n >= 0; n--) edit(writer, random)
          return Y.encodeStateAsUpdate(writer, before)
        })
        if (batch.length === 0) continue
        const update = mergeUpdates(batch)
        Y.applyUpdate(hub, update)
        stored.push(update)
      }
      const compacted = new Y.Doc()
      Y.applyUpdate(compacted, Y.mergeUpdates(stored))
      expect(Y.encodeStateVector(compacted), `seed ${seed}`).toEqual(Y.encodeStateVector(hub))
      expect(compacted.store.pendingStructs, `seed ${seed}`).toBe(null)
      expect(compacted.getText('text').toString(), `seed ${seed}`).toBe(hub.getText('text').toString())
    }
  })

  it('puts an update stored out of Yjs\'s client order back in order, and leaves one in order as it is', () => {
    const low = new Y.Doc()
    const high = new Y.Doc()
    low.clientID = 5
    high.clientID = 9
    low.getText('text').insert(0, 'low ')
    high.getText('text').insert(0, 'high ')
    high.getText('text').delete(0, 1)
    low.getText('text').delete(0, 1)
    const [fromLow, fromHigh] = [Y.encodeStateAsUpdate(low), Y.encodeStateAsUpdate(high)]
    // What an earlier version joined and stored: sections and deletions of client 5, then of client 9.
    const outOfOrder = new Uint8Array([2, ...sectionBytes(fromLow), ...sectionBytes(fromHigh), 2, ...deleteBytes(fromLow), ...deleteBytes(fromHigh)])
    expect(layout(outOfOrder)).toEqual({ structs: ['5:0+1', '5:1+3', '9:0+1', '9:1+4'], deletes: [[5, [[0, 1]]], [9, [[0, 1]]]] })
    const next = (() => {
      const before = Y.encodeStateVector(high)
      high.getText('text').insert(0, '!')
      return Y.encodeStateAsUpdate(high, before)
    })()
    const ordered = inYjsOrder(outOfOrder)
    expect(layout(ordered)).toEqual({ structs: ['9:0+1', '9:1+4', '5:0+1', '5:1+3'], deletes: [[9, [[0, 1]]], [5, [[0, 1]]]] })
    expect(inYjsOrder(ordered)).toBe(ordered)
    // Merged with the next update of client 9: out of order, Yjs loses client 9's first struct; in order, nothing.
    expect(layout(Y.mergeUpdates([outOfOrder, next])).structs).toEqual(['9:5+1', '5:0+1', '5:1+3', '9:1+4'])
    expect(layout(Y.mergeUpdates([ordered, next])).structs).toEqual(['9:0+1', '9:1+4', '9:5+1', '5:0+1', '5:1+3'])
  })

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
