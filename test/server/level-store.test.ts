import { afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { LeveldbPersistence } from 'y-leveldb'
import { LevelStore } from '../../server/persistence.ts'
import { insertUpdate, textOf } from './helpers/clients.ts'
import { makeTempDir, stopAllServers } from './helpers/server-process.ts'

const open: LevelStore[] = []
afterEach(async () => {
  for (const store of open.splice(0)) await store.close()
  await stopAllServers()
})

async function openStore(dir = makeTempDir()): Promise<LevelStore> {
  const store = await LevelStore.open(dir)
  open.push(store)
  return store
}

const seqs = async (store: LevelStore, room: string): Promise<number[]> => (await store.load(room)).map(({ seq }) => seq)
const textOfLog = async (store: LevelStore, room: string): Promise<string> => textOf(Y.mergeUpdates((await store.load(room)).map(({ update }) => update)))

describe('LevelStore', () => {
  it('appends the entries of several rooms in one write, each room numbering its own log', async () => {
    const store = await openStore()
    await store.append([
      { room: 'a', update: insertUpdate('1', 1) },
      { room: 'b', update: insertUpdate('2', 2) },
      { room: 'a', update: insertUpdate('3', 3) },
    ])
    await store.append([{ room: 'b', update: insertUpdate('4', 4) }])
    expect([await seqs(store, 'a'), await seqs(store, 'b'), await seqs(store, 'c')]).toEqual([[0, 1], [0, 1], []])
  })

  it('replaces a run with its merge at the run\'s highest clocks and keeps what came after', async () => {
    const store = await openStore()
    for (let i = 0; i < 5; i++) await store.append([{ room: 'r', update: insertUpdate(String(i), i + 1) }])
    const before = await textOfLog(store, 'r')
    const merged = Y.mergeUpdates((await store.load('r')).slice(0, 4).map(({ update }) => update))
    await store.replace('r', 3, [merged])
    expect(await seqs(store, 'r')).toEqual([3, 4])
    expect(await textOfLog(store, 'r')).toBe(before)
    await store.append([{ room: 'r', update: insertUpdate('x', 9) }])
    expect(await seqs(store, 'r')).toEqual([3, 4, 5])
    // Nothing stored yet: a replace just appends.
    await store.replace('new', -1, [insertUpdate('n', 1)])
    expect(await textOfLog(store, 'new')).toBe('n')
  })

  it('sets an update aside, out of the log, where it stays', async () => {
    const store = await openStore()
    await store.append([{ room: 'r', update: insertUpdate('a', 1) }])
    await store.append([{ room: 'r', update: new Uint8Array([9, 9]) }])
    await store.setAside('r', 1, 'Error: broken')
    expect(await seqs(store, 'r')).toEqual([0])
    expect((await store.setAsideUpdates('r')).map(({ seq, update }) => [seq, [...update]])).toEqual([[1, [9, 9]]])
  })

  it('never hands out a clock twice, even when a load of an old snapshot finishes after an append', async () => {
    const store = await openStore()
    await store.append([{ room: 'r', update: insertUpdate('a', 1) }])
    const loading = store.load('r')
    await store.append([{ room: 'r', update: insertUpdate('b', 2) }])
    await loading
    await store.append([{ room: 'r', update: insertUpdate('c', 3) }])
    expect(await seqs(store, 'r')).toEqual([0, 1, 2])
  })

  it('loses nothing when a replace and appends run at the same time', async () => {
    const store = await openStore()
    for (let i = 0; i < 4; i++) await store.append([{ room: 'r', update: insertUpdate(String(i), i + 1) }])
    const merged = Y.mergeUpdates((await store.load('r')).map(({ update }) => update))
    const replacing = store.replace('r', 3, [merged])
    const appending = [store.append([{ room: 'r', update: insertUpdate('a', 10) }]), store.append([{ room: 'r', update: insertUpdate('b', 11) }])]
    await Promise.all([replacing, ...appending])
    await store.append([{ room: 'r', update: insertUpdate('c', 12) }])
    const all = [0, 1, 2, 3].map((i) => insertUpdate(String(i), i + 1)).concat([insertUpdate('a', 10), insertUpdate('b', 11), insertUpdate('c', 12)])
    expect(await textOfLog(store, 'r')).toBe(textOf(Y.mergeUpdates(all)))
    expect(await seqs(store, 'r')).toEqual([3, 4, 5, 6])
  })

  it('reads and writes y-leveldb\'s layout, and keeps working after a reopen', async () => {
    const dir = makeTempDir()
    const legacy = new LeveldbPersistence(dir)
    await legacy.storeUpdate('old', insertUpdate('from y-leveldb', 1))
    await legacy.destroy()
    const store = await openStore(dir)
    expect(await textOfLog(store, 'old')).toBe('from y-leveldb')
    await store.reopen()
    await store.append([{ room: 'old', update: insertUpdate('+', 2) }])
    await store.close()
    open.length = 0
    const again = new LeveldbPersistence(dir)
    const doc = await again.getYDoc('old')
    expect(doc!.getText('text').toString()).toBe(textOf(Y.mergeUpdates([insertUpdate('from y-leveldb', 1), insertUpdate('+', 2)])))
    await again.destroy()
  })
})
