import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { captureTransactionUpdate, encodeTransactionUpdate } from '../../core/buffer/yjs-internals.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/** Issue 24: the room writes each transaction's update itself, for the changed clients only; it must be Yjs's update, byte for byte. */

/** One random edit of `doc`: text, formats, embeds, map values, nested types, array values, deletions. */
function edit(doc: Y.Doc, random: Random): void {
  const text = doc.getText('text')
  const map = doc.getMap('map')
  const array = doc.getArray<unknown>('array')
  switch (random.int(8)) {
    case 0:
    case 1:
      text.insert(random.int(text.length + 1), random.pick(['a', 'bc', 'héllo ', '\n', '😀']))
      break
    case 2:
      if (text.length > 0) text.delete(random.int(text.length), 1 + random.int(Math.min(3, text.length)))
      break
    case 3:
      if (text.length > 0) text.format(random.int(text.length), 1, { bold: random.pick([true, null]) })
      else text.insertEmbed(0, { image: 'a.png' })
      break
    case 4:
      map.set(`k${random.int(4)}`, random.pick<unknown>([1, 'two', null, { nested: [1, 2] }]))
      break
    case 5: {
      const inner = new Y.Text()
      map.set(`t${random.int(2)}`, inner)
      inner.insert(0, 'inner')
      break
    }
    case 6:
      array.insert(random.int(array.length + 1), [random.int(100), 'x'])
      break
    default:
      if (array.length > 0) array.delete(random.int(array.length))
      else array.push([1])
  }
}

describe('encodeTransactionUpdate', () => {
  it('writes what Yjs emits as the update of every transaction: remote updates in any order (some wait for others), repeats, local edits (seeded)', () => {
    const seeds = fuzzSeeds(40)
    console.log(`transaction-update: seeds ${seeds[0]}…${seeds.at(-1)} (FUZZ_SEED=N replays one)`)
    for (const seed of seeds) {
      const random = new Random(seed)
      const room = new Y.Doc({ gc: random.int(2) === 0 })
      room.clientID = 1
      const ours: Array<Uint8Array | null> = []
      const theirs: Array<Uint8Array | null> = []
      room.on('afterTransactionCleanup', (transaction: Y.Transaction) => {
        ours.push(encodeTransactionUpdate(transaction))
        theirs.push(null) // replaced by the update Yjs emits right after, if it emits one
      })
      room.on('update', (update: Uint8Array) => {
        theirs[theirs.length - 1] = update
      })
      const clients = Array.from({ length: 2 + random.int(4) }, (_, i) => {
        const doc = new Y.Doc()
        doc.clientID = 10 + i
        return doc
      })
      // Every client's updates, held back and delivered to the room shuffled, some twice.
      const queued: Uint8Array[] = []
      for (const client of clients) client.on('update', (update: Uint8Array) => queued.push(update))
      for (let step = 0; step < 60; step++) {
        const choice = random.int(10)
        if (choice < 5) {
          const client = random.pick(clients)
          Y.applyUpdate(client, Y.encodeStateAsUpdate(room)) // usually up to date: edits refer to what others wrote
          edit(client, random)
        } else if (choice < 7 && queued.length > 1) {
          // Several clients' updates in one transaction.
          const batch = queued.splice(0, 2 + random.int(Math.min(3, queued.length - 1)))
          Y.applyUpdate(room, Y.mergeUpdates(batch), 'client')
        } else if (choice < 9 && queued.length > 0) {
          const index = random.int(queued.length)
          const update = queued[index]!
          if (random.int(4) !== 0) queued.splice(index, 1)
          Y.applyUpdate(room, update, 'client')
        } else {
          room.transact(() => edit(room, random), 'server')
        }
      }
      for (const update of queued) Y.applyUpdate(room, update, 'client')
      expect(ours.length, `seed ${seed}`).toBeGreaterThan(0)
      for (let i = 0; i < ours.length; i++) expect(ours[i], `seed ${seed}, transaction ${i}`).toEqual(theirs[i])
    }
  })
})

describe('captureTransactionUpdate', () => {
  it('writes, after any later edits (items split, merged, deleted and collected), what Yjs emitted as the update of the transaction it captured (seeded)', () => {
    const seeds = fuzzSeeds(20)
    console.log(`transaction-update (captured): seeds ${seeds[0]}…${seeds.at(-1)} (FUZZ_SEED=N replays one)`)
    for (const seed of seeds) {
      const random = new Random(seed)
      const doc = new Y.Doc({ gc: random.int(2) === 0 })
      doc.clientID = 1
      const other = new Y.Doc()
      other.clientID = 2
      const captured: Array<(() => Uint8Array) | null> = []
      const theirs: Array<Uint8Array | null> = []
      doc.on('afterTransactionCleanup', (transaction: Y.Transaction) => {
        captured.push(captureTransactionUpdate(transaction))
        theirs.push(null)
      })
      doc.on('update', (update: Uint8Array) => {
        theirs[theirs.length - 1] = update
      })
      other.on('update', (update: Uint8Array) => Y.applyUpdate(doc, update, 'remote'))
      const written: Array<Uint8Array | null> = []
      for (let step = 0; step < 80; step++) {
        const choice = random.int(10)
        if (choice < 6) doc.transact(() => edit(doc, random), 'local')
        else if (choice < 8) {
          Y.applyUpdate(other, Y.encodeStateAsUpdate(doc))
          edit(other, random)
        } else {
          // A long insert, then edits inside it split it and collect parts of it.
          const text = doc.getText('text')
          doc.transact(() => text.insert(random.int(text.length + 1), 'pasted line\n'.repeat(1 + random.int(40))), 'paste')
        }
        // Some captures are written at once (and must then not change), most only at the end.
        if (random.int(5) === 0) for (let i = written.length; i < captured.length; i++) written[i] = captured[i]?.() ?? null
      }
      expect(captured.length, `seed ${seed}`).toBeGreaterThan(0)
      for (let i = 0; i < captured.length; i++) {
        expect(captured[i]?.() ?? null, `seed ${seed}, transaction ${i}`).toEqual(theirs[i])
        if (i < written.length) expect(written[i], `seed ${seed}, transaction ${i}, written early`).toEqual(theirs[i])
      }
    }
  }, 60_000)
})
