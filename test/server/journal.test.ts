import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { JournaledStore, decodeJournal } from '../../server/journal.ts'
import { LevelStore } from '../../server/persistence.ts'
import { insertUpdate, textOf } from './helpers/clients.ts'
import { GatedStore } from './helpers/gated-store.ts'
import { makeTempDir, stopAllServers } from './helpers/server-process.ts'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await stopAllServers()
})

async function journaled(dir = makeTempDir()): Promise<{ store: JournaledStore; gated: GatedStore; dir: string }> {
  const gated = new GatedStore(await LevelStore.open(dir))
  const store = await JournaledStore.open(gated, dir)
  cleanups.push(() => store.close())
  return { store, gated, dir }
}

const textOfLog = async (store: { load(room: string): Promise<Array<{ update: Uint8Array }>> }, room: string): Promise<string> =>
  textOf(Y.mergeUpdates((await store.load(room)).map(({ update }) => update)))

describe('JournaledStore', () => {
  it('has an append in its journal file before LevelDB has it, and empties the file once LevelDB does', async () => {
    const { store, gated, dir } = await journaled()
    const release = gated.hold('append')
    await store.append([{ room: 'r', update: insertUpdate('a', 1) }, { room: 's', update: insertUpdate('b', 2) }])
    const journal = readFileSync(join(dir, 'cotext-journal-0'))
    expect(decodeJournal(journal).map(({ room, update }) => `${room}:${textOf(update)}`)).toEqual(['r:a', 's:b'])
    release()
    expect(await textOfLog(store, 'r')).toBe('a')
    expect(statSync(join(dir, 'cotext-journal-0')).size).toBe(0)
  })

  it('replays a journal left by a killed process on open, up to a torn last record', async () => {
    const first = await journaled()
    const release = first.gated.hold('append')
    await first.store.append([{ room: 'r', update: insertUpdate('kept', 1) }])
    await first.store.append([{ room: 'r', update: insertUpdate('torn', 2) }])
    const journal = readFileSync(join(first.dir, 'cotext-journal-0'))
    release()

    const dir = makeTempDir()
    writeFileSync(join(dir, 'cotext-journal-0'), journal.subarray(0, journal.length - 3))
    const { store } = await journaled(dir)
    expect(await textOfLog(store, 'r')).toBe('kept')
    expect(statSync(join(dir, 'cotext-journal-0')).size).toBe(0)
  })

  it('refuses appends after LevelDB failed until reopened, and then has every journaled append', async () => {
    const { store, gated } = await journaled()
    gated.failAppends = 1
    await store.append([{ room: 'r', update: insertUpdate('x', 1) }])
    await expect(store.load('r')).rejects.toThrow('disk full')
    await expect(store.append([{ room: 'r', update: insertUpdate('y', 2) }])).rejects.toThrow('disk full')
    await store.reopen()
    await store.append([{ room: 'r', update: insertUpdate('z', 3) }])
    expect(await textOfLog(store, 'r')).toBe(textOf(Y.mergeUpdates([insertUpdate('x', 1), insertUpdate('z', 3)])))
  })
})
