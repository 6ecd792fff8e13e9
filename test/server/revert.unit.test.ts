import { afterAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as Y from 'yjs'
import { ChangeJournal } from '../../server/change-journal.ts'
import type { ChangeEntry } from '../../server/change-journal.ts'
import { LevelStore } from '../../server/persistence.ts'
import type { RecordStore } from '../../server/records.ts'
import { applyEdits, planRestore, planRevert } from '../../server/revert.ts'
import pino from 'pino'

/** Three peers' documents kept in sync by hand, each change recorded in one journal as the server would. */
async function room(): Promise<{ docs: Y.Doc[]; journal: ChangeJournal; sync: () => void }> {
  const records = await levelRecords()
  const journal = new ChangeJournal('r', records, 't', pino({ level: 'silent' }))
  const docs = [1, 2, 3].map((clientID) => {
    const doc = new Y.Doc({ gc: false })
    doc.clientID = clientID
    return doc
  })
  let time = 0
  for (const doc of docs) {
    doc.on('afterTransaction', (transaction: Y.Transaction) => {
      if (transaction.local) journal.record({ id: `user${doc.clientID}`, name: `user${doc.clientID}`, attested: true }, transaction, (time += 1000))
    })
  }
  const sync = (): void => {
    for (const from of docs) for (const to of docs) if (from !== to) Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)), 'sync')
  }
  return { docs, journal, sync }
}

const tempDirs: string[] = []
const stores: LevelStore[] = []
afterAll(async () => {
  for (const store of stores) await store.close()
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

/** The records of a LevelStore in a temporary directory: where a LevelDB server keeps the change log. */
async function levelRecords(): Promise<RecordStore> {
  const dir = mkdtempSync(join(tmpdir(), 'cotext-records-'))
  tempDirs.push(dir)
  const store = await LevelStore.open(dir)
  stores.push(store)
  return store.records()
}

function revert(doc: Y.Doc, entries: ChangeEntry[]): ReturnType<typeof planRevert> {
  const text = doc.getText('text')
  const edits = planRevert(text, entries.flatMap((entry) => entry.inserted), entries.flatMap((entry) => entry.deleted))
  applyEdits(text, edits, 'revert')
  return edits
}

describe('planRevert', () => {
  it('undoes "ABCDEFG" around a peer\'s "***" inside it, leaving "***", and brings it back on the revert of the revert', async () => {
    const { docs, journal, sync } = await room()
    const [a, b, c] = docs as [Y.Doc, Y.Doc, Y.Doc]
    a.getText('text').insert(0, 'ABCDEFG')
    sync()
    b.getText('text').insert(3, '***')
    sync()
    const edits = revert(c, await journal.query({ by: 'user1' }))
    expect(edits).toEqual({ deletes: [{ index: 0, length: 3 }, { index: 6, length: 4 }], inserts: [], unrevertable: 0 })
    sync()
    expect(docs.map((doc) => doc.getText('text').toString())).toEqual(['***', '***', '***'])
    // user3's revert is in the log too: reverting it is the redo.
    revert(a, await journal.query({ by: 'user3' }))
    sync()
    expect(docs.map((doc) => doc.getText('text').toString())).toEqual(['ABC***DEFG', 'ABC***DEFG', 'ABC***DEFG'])
  })

  it('brings back what a user deleted, but not what others deleted inside it, nor what the window inserted and deleted', async () => {
    const { docs, journal, sync } = await room()
    const [a, b, c] = docs as [Y.Doc, Y.Doc, Y.Doc]
    a.getText('text').insert(0, 'one two three')
    sync()
    c.getText('text').delete(4, 1) // "t" of two, deleted by user3 first
    sync()
    b.getText('text').insert(0, 'tmp ')
    b.getText('text').delete(0, 4) // inserted and deleted by user2
    b.getText('text').delete(3, 6) // " wo th", user2
    sync()
    expect(a.getText('text').toString()).toBe('oneree')
    revert(a, await journal.query({ by: 'user2' }))
    sync()
    expect(docs.map((doc) => doc.getText('text').toString())).toEqual(['one wo three', 'one wo three', 'one wo three'])
  })

  it('counts deleted text whose content was collected as unrevertable', async () => {
    const doc = new Y.Doc()
    const text = doc.getText('text')
    text.insert(0, 'abcdef')
    const before = Y.getState(doc.store, doc.clientID)
    text.delete(1, 3)
    expect(before).toBe(6)
    const edits = planRevert(text, [], [{ client: doc.clientID, clock: 1, length: 3 }])
    expect(edits).toEqual({ deletes: [], inserts: [], unrevertable: 3 })
  })
})

describe('planRestore', () => {
  it('deletes and inserts around the common prefix and suffix, never splitting a surrogate pair', () => {
    expect(planRestore('0 one three', 'one two three')).toEqual({ deletes: [{ index: 0, length: 5 }], inserts: [{ index: 0, text: 'one two' }], unrevertable: 0 })
    expect(planRestore('same', 'same')).toEqual({ deletes: [], inserts: [], unrevertable: 0 })
    expect(planRestore('a😀b', 'a😃b')).toEqual({ deletes: [{ index: 1, length: 2 }], inserts: [{ index: 1, text: '😃' }], unrevertable: 0 })
    const doc = new Y.Doc()
    doc.getText('text').insert(0, 'hello world')
    applyEdits(doc.getText('text'), planRestore('hello world', 'yellow word'), 'restore')
    expect(doc.getText('text').toString()).toBe('yellow word')
  })
})

describe('ChangeJournal', () => {
  it('keeps records in key order, whatever their lengths, with ranges, get and delete', async () => {
    const records = await levelRecords()
    await records.put('r', 'change', [{ key: '00000000000002-b-10', value: new Uint8Array([2]) }, { key: '00000000000001-a-1', value: new Uint8Array([1]) }, { key: '00000000000003-c', value: new Uint8Array([3]) }])
    await records.put('r', 'version', [{ key: '00000000000001-x', value: new Uint8Array([9]) }])
    await records.put('r2', 'change', [{ key: '00000000000001-z', value: new Uint8Array([8]) }])
    expect((await records.list('r', 'change')).map((record) => record.key)).toEqual(['00000000000001-a-1', '00000000000002-b-10', '00000000000003-c'])
    expect((await records.list('r', 'change', { gte: '00000000000002', lt: '00000000000003' })).map((record) => [record.key, [...record.value]])).toEqual([['00000000000002-b-10', [2]]])
    expect([...(await records.get('r', 'version', '00000000000001-x'))!]).toEqual([9])
    expect(await records.get('r', 'version', '00000000000001')).toBeNull()
    await records.delete('r', 'change', ['00000000000001-a-1'])
    expect((await records.list('r', 'change')).map((record) => record.key)).toEqual(['00000000000002-b-10', '00000000000003-c'])
  })

  it('joins one author\'s updates within a minute into one entry with merged ranges, interleaved with others', async () => {
    const records = await levelRecords()
    const journal = new ChangeJournal('r', records, 't', pino({ level: 'silent' }))
    const doc = new Y.Doc()
    doc.clientID = 5
    const alice = { id: 'alice', name: 'alice', attested: true }
    const bob = { id: 'bob', name: 'bob', attested: true }
    let time = 1_000_000
    let author = alice
    doc.on('afterTransaction', (transaction: Y.Transaction) => void journal.record(author, transaction, time))
    doc.getText('text').insert(0, 'ab')
    time += 10_000
    doc.getText('text').insert(2, 'c')
    author = bob
    doc.getText('text').delete(0, 1)
    author = alice
    time += 59_999
    doc.getText('text').insert(3, 'd')
    time += 60_000
    doc.getText('text').insert(4, 'e')
    const entries = await journal.query()
    expect(entries.map(({ author: who, time: start, until, inserted, deleted }) => [who.id, start, until, inserted, deleted])).toEqual([
      ['alice', 1_000_000, 1_069_999, [{ client: 5, clock: 0, length: 4 }], []],
      ['bob', 1_010_000, 1_010_000, [], [{ client: 5, clock: 0, length: 1 }]],
      ['alice', 1_129_999, 1_129_999, [{ client: 5, clock: 4, length: 1 }], []],
    ])
    expect((await journal.query({ by: 'bob' })).length).toBe(1)
    expect((await journal.query({ since: 1_100_000 })).map((entry) => entry.time)).toEqual([1_129_999])
    expect((await journal.query({ until: 1_005_000 })).map((entry) => entry.author.id)).toEqual(['alice'])
  })
})
