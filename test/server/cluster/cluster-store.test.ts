import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { Awareness } from 'y-protocols/awareness'
import pino from 'pino'
import pg from 'pg'
import { ClusterStore } from '../../../server/cluster/cluster-store.ts'
import type { StoredUpdate } from '../../../server/persistence.ts'
import { insertUpdate, textOf } from '../helpers/clients.ts'
import { startPostgres, startRedis } from '../helpers/services.ts'
import { waitFor } from '../helpers/wait-for.ts'
import type { Postgres, Redis } from '../helpers/services.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 })

let redis: Redis
let postgres: Postgres
const logger = pino({ level: 'silent' })

beforeAll(async () => {
  ;[redis, postgres] = await Promise.all([startRedis(), startPostgres()])
})
afterAll(async () => {
  await Promise.all([redis?.remove(), postgres?.remove()])
})

function open(): Promise<ClusterStore> {
  return ClusterStore.open({ redisUrl: redis.url, databaseUrl: postgres.url, logger, trimMarginMs: 0 })
}

async function storedRow(room: string): Promise<{ text: string; streamId: string } | null> {
  const client = new pg.Client({ connectionString: postgres.url })
  await client.connect()
  const result = await client.query<{ state: Buffer; stream_id: string }>('SELECT state, stream_id FROM cotext_rooms WHERE room = $1', [room])
  await client.end()
  const row = result.rows[0]
  return row === undefined ? null : { text: textOf(row.state), streamId: row.stream_id }
}

/** Bytes that are no Yjs update. */
const GARBAGE = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])

/** The text of what a load handed out. */
function loadedText(records: StoredUpdate[]): string {
  return textOf(Y.mergeUpdates(records.map((record) => record.update)))
}

/** One update that appends `text` to what `after` holds, from a client of its own. */
function appendUpdate(after: Uint8Array, text: string): Uint8Array {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, after)
  const before = Y.encodeStateVector(doc)
  doc.getText('text').insert(doc.getText('text').length, text)
  const update = Y.encodeStateAsUpdate(doc, before)
  doc.destroy()
  return update
}

describe('ClusterStore', () => {
  it('compacts a room into PostgreSQL with its stream position and trims what is stored', async () => {
    const node = await open()
    const room = 'unit/compact'
    expect(loadedText(await node.load(room))).toBe('')
    const first = insertUpdate('one;')
    await node.append([{ room, update: first }])
    await node.append([{ room, update: appendUpdate(first, 'two;') }])
    expect(redis.cli('XLEN', `cotext:room:${room}`)).toBe('2')
    await node.compactNow(room)
    const row = await storedRow(room)
    const lastId = redis.cli('XREVRANGE', `cotext:room:${room}`, '+', '-', 'COUNT', '1').split('\n')[0]
    expect(row).toEqual({ text: 'one;two;', streamId: lastId })
    // Trimmed to the stored position (no margin here): what is left is not older than it.
    expect(Number(redis.cli('XLEN', `cotext:room:${room}`))).toBeLessThanOrEqual(2)
    expect(redis.cli('XRANGE', `cotext:room:${room}`, '-', `(${row!.streamId.split('-')[0]}-0`)).toBe('')
    expect(node.metrics.compactions).toBe(1)
    await node.close()
  })

  it('loads the stored snapshot plus the stream after its position, and nothing twice', async () => {
    const room = 'unit/load'
    const writer = await open()
    await writer.load(room)
    const first = insertUpdate('stored;')
    await writer.append([{ room, update: first }])
    await writer.compactNow(room)
    await writer.append([{ room, update: appendUpdate(first, 'streamed;') }])
    const reader = await open()
    expect(loadedText(await reader.load(room))).toBe('stored;streamed;')
    await Promise.all([writer.close(), reader.close()])
  })

  it('leaves a room alone while another process holds its compaction lease', async () => {
    const room = 'unit/lease'
    const node = await open()
    await node.load(room)
    await node.append([{ room, update: insertUpdate('held;') }])
    expect(redis.cli('SET', `cotext:lease:${room}`, 'another-process', 'PX', '60000')).toBe('OK')
    await node.compactNow(room)
    expect(await storedRow(room)).toBe(null)
    expect(redis.cli('XLEN', `cotext:room:${room}`)).toBe('1')
    redis.cli('DEL', `cotext:lease:${room}`)
    await node.compactNow(room)
    expect((await storedRow(room))?.text).toBe('held;')
    await node.close()
  })

  it('moves the stored position past awareness entries too, so that presence alone does not grow the stream', async () => {
    const room = 'unit/presence-only'
    const node = await open()
    await node.load(room)
    await node.append([{ room, update: insertUpdate('text;') }])
    await node.compactNow(room)
    const before = (await storedRow(room))!.streamId
    const id = redis.cli('XADD', `cotext:room:${room}`, '*', 'p', 'other-process', 't', 'a', 'd', Buffer.from([0]).toString('base64'))
    await node.close()
    const reopened = await open()
    await reopened.load(room)
    await reopened.compactNow(room)
    const after = await storedRow(room)
    expect(after).toEqual({ text: 'text;', streamId: id })
    expect(after!.streamId).not.toBe(before)
    await reopened.close()
  })

  it('follows a room, applies the other processes\' entries, and stores the open room from its document at the position read', async () => {
    const room = 'unit/follow'
    const [follower, writer] = await Promise.all([open(), open()])
    const doc = new Y.Doc()
    for (const { update } of await follower.load(room)) Y.applyUpdate(doc, update)
    const stop = follower.follow({ name: room, doc, awareness: new Awareness(doc) })
    await writer.load(room)
    const first = insertUpdate('from the other process;')
    await writer.append([{ room, update: first }])
    await writer.append([{ room, update: appendUpdate(first, 'and more;') }])
    await waitFor(() => doc.getText('text').toString() === 'from the other process;and more;', 'the follower to apply both entries')
    expect(follower.metrics.entriesRead).toBe(2)
    await follower.compactNow(room)
    const lastId = redis.cli('XREVRANGE', `cotext:room:${room}`, '+', '-', 'COUNT', '1').split('\n')[0]
    expect(await storedRow(room)).toEqual({ text: 'from the other process;and more;', streamId: lastId })
    stop()
    doc.destroy()
    await Promise.all([follower.close(), writer.close()])
  })

  it('stores what it appended when it closes, so that Redis can be emptied', async () => {
    const room = 'unit/close'
    const node = await open()
    await node.load(room)
    await node.append([{ room, update: insertUpdate('kept on close;') }])
    await node.close()
    expect(redis.cli('FLUSHALL')).toBe('OK')
    const again = await open()
    expect(loadedText(await again.load(room))).toBe('kept on close;')
    await again.close()
  })

  it('appends the entries of several rooms in one call, one stream entry each', async () => {
    const node = await open()
    await node.append([{ room: 'unit/multi-a', update: insertUpdate('a;') }, { room: 'unit/multi-b', update: insertUpdate('b;') }])
    expect([redis.cli('XLEN', 'cotext:room:unit/multi-a'), redis.cli('XLEN', 'cotext:room:unit/multi-b')]).toEqual(['1', '1'])
    expect(node.metrics.entriesWritten).toBe(2)
    await node.close()
  })

  it('writes a room again (the writer\'s recovery) as one more entry holding the whole state', async () => {
    const room = 'unit/replace'
    const node = await open()
    await node.load(room)
    const first = insertUpdate('one;')
    await node.append([{ room, update: first }])
    const whole = appendUpdate(first, 'two;')
    await node.replace(room, Number.MAX_SAFE_INTEGER, [Y.mergeUpdates([first, whole])])
    expect(redis.cli('XLEN', `cotext:room:${room}`)).toBe('2')
    expect(loadedText(await node.load(room))).toBe('one;two;')
    await node.close()
  })

  it('sets a stream entry that does not apply aside in PostgreSQL and deletes it from the stream', async () => {
    const room = 'unit/aside'
    const node = await open()
    await node.load(room)
    await node.append([{ room, update: insertUpdate('good;') }])
    const badId = redis.cli('XADD', `cotext:room:${room}`, '*', 'p', 'other-process', 't', 'u', 'd', Buffer.from(GARBAGE).toString('base64'))
    const loaded = await node.load(room)
    expect(loaded.map(({ update }) => update.length === GARBAGE.length && update.every((byte, index) => byte === GARBAGE[index]))).toEqual([false, true])
    await node.setAside(room, loaded[1]!.seq, 'Error: Unexpected end of array')
    expect(redis.cli('XRANGE', `cotext:room:${room}`, badId, badId)).toBe('')
    expect(redis.cli('XLEN', `cotext:room:${room}`)).toBe('1')
    const client = new pg.Client({ connectionString: postgres.url })
    await client.connect()
    const aside = await client.query<{ data: Buffer; reason: string }>('SELECT data, reason FROM cotext_aside WHERE room = $1', [room])
    await client.end()
    expect(aside.rows.map(({ data, reason }) => ({ data: [...data], reason }))).toEqual([{ data: [...GARBAGE], reason: 'Error: Unexpected end of array' }])
    expect(loadedText(await node.load(room))).toBe('good;')
    await node.close()
  })
})
