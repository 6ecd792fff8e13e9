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

async function journaled(dir = makeTempDir(), gatherMs?: number): Promise<{ store: JournaledStore; gated: GatedStore; dir: string }> {
  const gated = new GatedStore(await LevelStore.open(dir))
  const store = await JournaledStore.open(gated, dir, gatherMs === undefined ? {} : { gatherMs })
  cleanups.push(() => store.close())
  return { store, gated, dir }
}

/** What each of the inner store's appends held, as room:text. */
const innerAppends = (gated: GatedStore): string[][] =>
  gated.calls.filter(({ operation }) => operation === 'append').map(({ entries }) => entries!.map(({ room, update }) => `${room}:${textOf(update)}`))

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

  it('moves the appends that gathered into LevelDB as one write, at once when a read waits for them', async () => {
    // A gathering longer than any test: only the read can start the move.
    const { store, gated } = await journaled(makeTempDir(), 600_000)
    await store.append([{ room: 'r', update: insertUpdate('a', 1) }])
    await store.append([{ room: 'r', update: insertUpdate('b', 2) }, { room: 's', update: insertUpdate('c', 3) }])
    await store.append([{ room: 'r', update: insertUpdate('d', 4) }])
    expect(innerAppends(gated)).toEqual([])
    expect(await textOfLog(store, 's')).toBe('c')
    expect(innerAppends(gated)).toEqual([['r:a', 'r:b', 's:c', 'r:d']])
  })

  it('lets a read wait only for the appends made before it, not for a move of later ones', async () => {
    const { store, gated, dir } = await journaled(makeTempDir(), 600_000)
    await store.append([{ room: 'r', update: insertUpdate('a', 1) }])
    const release = gated.hold('append')
    const first = store.load('r')
    await gated.called('append')
    // Appended while the first move is held: the read above must not wait for it.
    await store.append([{ room: 'r', update: insertUpdate('b', 2) }])
    release()
    expect(textOf(Y.mergeUpdates((await first).map(({ update }) => update)))).toBe('a')
    expect(innerAppends(gated)).toEqual([['r:a']])
    expect(decodeJournal(readFileSync(join(dir, 'cotext-journal-0'))).map(({ update }) => textOf(update))).toEqual(['a', 'b'])
    // A read now waits for the second, and the file is emptied once LevelDB has both.
    expect(await textOfLog(store, 'r')).toBe(textOf(Y.mergeUpdates([insertUpdate('a', 1), insertUpdate('b', 2)])))
    expect(innerAppends(gated)).toEqual([['r:a'], ['r:b']])
    expect(statSync(join(dir, 'cotext-journal-0')).size).toBe(0)
  })

  it('lets a compaction replace a room\'s log while appends keep coming', async () => {
    const { store } = await journaled(makeTempDir(), 0)
    await store.append([{ room: 'r', update: insertUpdate('a', 1) }])
    // An append in every turn, as a busy room makes them: a move is nearly always running.
    let appending = true
    let clock = 2
    const appends = (async () => {
      while (appending) {
        await store.append([{ room: 'busy', update: insertUpdate('x', clock++) }])
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    const stored = await store.load('r')
    await store.replace('r', stored.at(-1)!.seq, [insertUpdate('z', 99)])
    appending = false
    await appends
    expect(await textOfLog(store, 'r')).toBe('z')
    expect((await store.load('busy')).length).toBe(clock - 2)
  })
})
