import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import pg from 'pg'
import * as Y from 'yjs'
import { PgLogStore, PgStore } from '../../../server/cluster/pg-store.ts'
import { insertUpdate, textOf } from '../helpers/clients.ts'
import { startPostgres } from '../helpers/services.ts'
import type { Postgres } from '../helpers/services.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 })

/** Bytes that are no Yjs update. */
const GARBAGE = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])

let postgres: Postgres
let store: PgLogStore

beforeAll(async () => {
  postgres = await startPostgres()
  store = new PgLogStore(await PgStore.open(postgres.url, () => {}))
})
afterAll(async () => {
  await store?.close()
  await postgres?.remove()
})

async function sql<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: postgres.url })
  await client.connect()
  try {
    return (await client.query<Row>(text, values)).rows
  } finally {
    await client.end()
  }
}

const bytes = (records: Array<{ update: Uint8Array }>): number[][] => records.map(({ update }) => [...update])

describe('PgLogStore (DATABASE_URL without Redis)', () => {
  it('appends the entries of several rooms in one call and loads each room\'s in order, with increasing sequence numbers', async () => {
    const [a1, b1, a2] = [insertUpdate('a1', 1), insertUpdate('b1', 2), insertUpdate('a2', 3)]
    await store.append([{ room: 'log/a', update: a1 }, { room: 'log/b', update: b1 }])
    await store.append([{ room: 'log/a', update: a2 }])
    const a = await store.load('log/a')
    expect(bytes(a)).toEqual(bytes([{ update: a1 }, { update: a2 }]))
    expect(a[0]!.seq).toBeGreaterThan(0)
    expect(a[1]!.seq).toBeGreaterThan(a[0]!.seq)
    expect(bytes(await store.load('log/b'))).toEqual(bytes([{ update: b1 }]))
    expect(await store.load('log/none')).toEqual([])
  })

  it('replaces the updates up to a sequence number by their merge and keeps the later ones', async () => {
    const room = 'log/replace'
    await store.append([{ room, update: insertUpdate('one', 1) }])
    await store.append([{ room, update: insertUpdate('two', 2) }])
    const before = await store.load(room)
    await store.append([{ room, update: insertUpdate('three', 3) }])
    const merged = Y.mergeUpdates(before.map(({ update }) => update))
    await store.replace(room, before[1]!.seq, [merged])
    const after = await store.load(room)
    expect(bytes(after)).toEqual(bytes([{ update: insertUpdate('three', 3) }, { update: merged }]))
    expect(textOf(Y.mergeUpdates(after.map(({ update }) => update)))).toBe(textOf(Y.mergeUpdates([merged, insertUpdate('three', 3)])))
  })

  it('sets a stored update aside, out of the room\'s log, with its reason', async () => {
    const room = 'log/aside'
    await store.append([{ room, update: insertUpdate('kept', 1) }])
    await store.append([{ room, update: GARBAGE }])
    const loaded = await store.load(room)
    await store.setAside(room, loaded[1]!.seq, 'Error: Unexpected end of array')
    expect(bytes(await store.load(room))).toEqual(bytes([loaded[0]!]))
    const aside = await sql<{ data: Buffer; reason: string }>('SELECT data, reason FROM cotext_aside WHERE room = $1', [room])
    expect(aside.map(({ data, reason }) => ({ data: [...data], reason }))).toEqual([{ data: [...GARBAGE], reason: 'Error: Unexpected end of array' }])
  })

  it('hands out a cluster snapshot as sequence number 0 and sets it aside too', async () => {
    const room = 'log/snapshot'
    await sql("INSERT INTO cotext_rooms (room, state, stream_id) VALUES ($1, $2, '0-0')", [room, Buffer.from(GARBAGE)])
    await store.append([{ room, update: insertUpdate('after', 1) }])
    const loaded = await store.load(room)
    expect(loaded.map(({ seq }) => seq === 0)).toEqual([true, false])
    await store.setAside(room, 0, 'bad snapshot')
    expect(bytes(await store.load(room))).toEqual(bytes([loaded[1]!]))
    expect(await sql('SELECT room FROM cotext_rooms WHERE room = $1', [room])).toEqual([])
    expect((await sql<{ reason: string }>('SELECT reason FROM cotext_aside WHERE room = $1', [room])).map(({ reason }) => reason)).toEqual(['bad snapshot'])
  })
})

describe('PostgreSQL records', () => {
  it('puts a batch larger than one INSERT, a key given twice keeping its last value, and overwrites what was there', async () => {
    const records = store.pg.records()
    const key = (i: number): string => String(i).padStart(5, '0')
    await records.put('records/r', 'change', [{ key: key(7), value: new Uint8Array([0]) }])
    const batch = Array.from({ length: 2500 }, (_, i) => ({ key: key(i), value: new Uint8Array([i % 256, 1]) }))
    batch.push({ key: key(3), value: new Uint8Array([9, 9]) })
    await records.put('records/r', 'change', batch)
    const listed = await records.list('records/r', 'change')
    expect(listed.length).toBe(2500)
    expect(listed[0]!.key).toBe(key(0))
    expect(listed.at(-1)!.key).toBe(key(2499))
    expect([...(await records.get('records/r', 'change', key(3)))!]).toEqual([9, 9])
    expect([...(await records.get('records/r', 'change', key(7)))!]).toEqual([7, 1])
    expect([...(await records.get('records/r', 'change', key(1300)))!]).toEqual([1300 % 256, 1])
    expect(await records.list('records/r', 'version')).toEqual([])
  })
})
