import { afterAll, describe, expect, it, vi } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as Y from 'yjs'
import pino from 'pino'
import { LevelStore } from '../../server/persistence.ts'
import { VersionKeeper, textOfState } from '../../server/versions.ts'
import { waitFor } from './helpers/wait-for.ts'

// Building the 1 MB document takes seconds on a loaded machine.
vi.setConfig({ testTimeout: 60_000 })

const tempDirs: string[] = []
const stores: LevelStore[] = []
afterAll(async () => {
  for (const store of stores) await store.close()
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

async function keeper(doc: Y.Doc, settings = { idleMs: 120_000, maxEditingMs: 600_000, retentionMs: 0 }): Promise<VersionKeeper> {
  const dir = mkdtempSync(join(tmpdir(), 'cotext-versions-'))
  tempDirs.push(dir)
  const store = await LevelStore.open(dir)
  stores.push(store)
  return new VersionKeeper('room', doc, store.records(), settings, 'test', pino({ level: 'silent' }))
}

/** A seeded generator (mulberry32), so that the document is the same on every run. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('VersionKeeper', () => {
  it('stores a version of a 1 MB document written by 100 authors in at most twice its encoded size', async () => {
    const seed = 21
    console.log(`seed ${seed}`)
    const next = random(seed)
    // The room's document keeps deleted text (as the server's does), so its own encoding is larger.
    const room = new Y.Doc({ gc: false })
    const text = room.getText('text')
    while (text.length < 1_000_000) {
      // Each edit under one of 100 authors' client ids.
      room.clientID = 1 + Math.floor(next() * 100)
      const at = Math.floor(next() * (text.length + 1))
      text.insert(at, 'lorem ipsum dolor sit amet '.repeat(1 + Math.floor(next() * 40)))
      if (text.length > 100 && next() < 0.3) text.delete(Math.floor(next() * (text.length - 50)), 1 + Math.floor(next() * 40))
    }
    const versions = await keeper(room)
    const meta = await versions.take('request', 'big')
    const collected = new Y.Doc()
    Y.applyUpdate(collected, Y.encodeStateAsUpdate(room))
    const encoded = Y.encodeStateAsUpdate(collected).length
    const stored = (await versions.get(meta.id))!
    const metaBytes = new TextEncoder().encode(JSON.stringify(meta)).length
    console.log(`text ${text.length} chars; encoded ${encoded} B (the room's document, deleted text kept: ${Y.encodeStateAsUpdate(room).length} B); version ${stored.state.length} B + ${metaBytes} B of metadata: ${((stored.state.length + metaBytes) / encoded).toFixed(3)}x`)
    expect(stored.state.length + metaBytes).toBeLessThanOrEqual(2 * encoded)
    expect(textOfState(stored.state, 'text')).toBe(text.toString())
  })

  it('takes a version once edits have gone on for maxEditingMs, without waiting for a pause', async () => {
    const doc = new Y.Doc()
    const versions = await keeper(doc, { idleMs: 120_000, maxEditingMs: 600_000, retentionMs: 0 })
    const alice = { id: 'alice', name: 'Alice', attested: true }
    doc.getText('text').insert(0, 'a')
    versions.noteEdit(alice, 1_000)
    versions.noteEdit(alice, 300_000)
    expect(await versions.list()).toEqual([])
    versions.noteEdit(alice, 601_000)
    await waitFor(async () => (await versions.list()).length === 1, 'the version to be stored')
    const list = await versions.list()
    expect(list.map((meta) => [meta.reason, meta.authors])).toEqual([['auto', [{ id: 'alice', name: 'Alice', attested: true }]]])
    await versions.close()
  })

  it('drops automatic versions older than the retention, and keeps requested ones', async () => {
    const doc = new Y.Doc()
    const versions = await keeper(doc, { idleMs: 120_000, maxEditingMs: 600_000, retentionMs: 1000 })
    const old = await versions.take('auto', undefined, 1_000)
    const named = await versions.take('request', 'keep me', 1_500)
    const recent = await versions.take('auto', undefined, 5_000)
    expect((await versions.list()).map((meta) => meta.id)).toEqual([named.id, recent.id])
    expect(await versions.get(old.id)).toBeNull()
  })
})
