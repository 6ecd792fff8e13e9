import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { encodeTransactionUpdate } from '../../core/buffer/yjs-internals.ts'
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
