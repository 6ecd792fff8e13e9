import { afterEach, describe, expect, it, vi } from 'vitest'
import { pino } from 'pino'
import * as Y from 'yjs'
import * as encoding from 'lib0/encoding'
import { ApplyBudget } from '../../server/apply-budget.ts'
import { AwarenessThrottle } from '../../server/awareness-throttle.ts'
import { hostName, hostPolicy, isHostAllowed } from '../../server/host-check.ts'
import { RefusalLog } from '../../server/log-once.ts'
import { FrameMeter, UnfinishedBudget } from '../../server/memory-budget.ts'
import { RateLimit } from '../../server/rate-limit.ts'
import { measureUpdate } from '../../server/update-budget.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/** The pure parts behind issue 19's guards; the behaviours are tested against the real server in the other files. */

/** A client-to-server WebSocket frame (masked, mask of zeros), as a browser or `ws` would send it. */
function frame(opcode: number, payload: number, fin: boolean): Uint8Array {
  const length = payload < 126 ? [payload] : payload < 65536 ? [126, payload >> 8, payload & 0xff] : [127, 0, 0, 0, 0, (payload >>> 24) & 0xff, (payload >> 16) & 0xff, (payload >> 8) & 0xff, payload & 0xff]
  const header = [(fin ? 0x80 : 0) | opcode, 0x80 | length[0]!, ...length.slice(1), 0, 0, 0, 0]
  const bytes = new Uint8Array(header.length + payload)
  bytes.set(header)
  return bytes
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

describe('FrameMeter', () => {
  it('counts the payload of an unfinished message across fragments, not control frames, and drops it once the message ends', () => {
    const meter = new FrameMeter()
    expect(meter.feed(frame(2, 1000, false))).toBe(1000)
    expect(meter.feed(frame(9, 50, true))).toBe(0) // a ping between fragments
    expect(meter.feed(frame(0, 70_000, false))).toBe(70_000)
    expect(meter.held).toBe(71_000)
    expect(meter.feed(frame(0, 10, true))).toBe(-71_000)
    expect(meter.held).toBe(0)
    meter.feed(frame(2, 5, true))
    expect(meter.held).toBe(0)
  })

  it('counts what has arrived of a frame split anywhere, byte by byte included (seeded splits)', () => {
    const seeds = fuzzSeeds(20)
    console.log(`FrameMeter: seeds ${seeds[0]}…${seeds.at(-1)} (FUZZ_SEED=N replays one)`)
    for (const seed of seeds) {
      const random = new Random(seed)
      const frames: Array<{ bytes: Uint8Array; data: boolean; fin: boolean; payload: number }> = []
      let open = false
      for (let i = 0; i < 12; i++) {
        const control: boolean = open && random.bool(0.2)
        const payload = control ? random.int(126) : random.pick([0, 1, 125, 126, 300, 65_535, 65_536, 70_000])
        const fin: boolean = control || random.bool(0.4)
        const opcode = control ? 9 : open ? 0 : 2
        frames.push({ bytes: frame(opcode, payload, fin), data: !control, fin, payload })
        if (!control) open = !fin
      }
      // Expected `held` after each byte: the payload bytes of the message in progress.
      const expected: number[] = []
      let held = 0
      for (const { bytes, data, fin, payload } of frames) {
        const header = bytes.length - payload
        for (let i = 0; i < bytes.length; i++) {
          if (data && i >= header) held += 1
          if (data && fin && i === bytes.length - 1) held = 0
          expected.push(held)
        }
      }
      const stream = concat(frames.map((entry) => entry.bytes))
      const meter = new FrameMeter()
      const seen: number[] = []
      let at = 0
      while (at < stream.length) {
        const size = random.bool(0.3) ? 1 : 1 + random.int(3000)
        const chunk = stream.subarray(at, at + size)
        meter.feed(chunk)
        at += chunk.length
        seen.push(meter.held)
        expect(meter.held, `seed ${seed} at byte ${at}`).toBe(expected[at - 1])
      }
    }
  })
})

describe('UnfinishedBudget', () => {
  it('says which budget a chunk passes and forgets a connection once released', () => {
    const budget = new UnfinishedBudget(1000, 1500)
    const a = new FrameMeter()
    const b = new FrameMeter()
    expect(budget.account(a, frame(2, 900, false))).toBe(null)
    expect(budget.account(a, frame(0, 200, false))).toBe('connection')
    budget.release(a)
    expect(budget.total).toBe(0)
    const c = new FrameMeter()
    expect(budget.account(b, frame(2, 800, false))).toBe(null)
    expect(budget.account(c, frame(2, 800, false))).toBe('process')
    expect([budget.total, budget.peak]).toEqual([1600, 1600])
    // b finishes its message: what it held no longer counts, and the total is under the budget again.
    expect(budget.account(b, frame(0, 0, true))).toBe(null)
    expect([budget.total, budget.peak]).toEqual([800, 1600])
  })
})

describe('UnfinishedBudget.meter', () => {
  it('counts as one meter per connection would, while a connection between whole frames holds no meter (seeded splits, interleaved)', () => {
    const seeds = fuzzSeeds(20)
    console.log(`UnfinishedBudget.meter: seeds ${seeds[0]}…${seeds.at(-1)} (FUZZ_SEED=N replays one)`)
    for (const seed of seeds) {
      const random = new Random(seed)
      const lazy = new UnfinishedBudget(100_000, 150_000)
      const eager = new UnfinishedBudget(100_000, 150_000)
      const connections = Array.from({ length: 4 }, () => ({ lazy: { meter: null as FrameMeter | null }, eager: new FrameMeter(), bytes: [] as number[] }))
      // Each connection's stream: messages of one to three fragments, some with a ping between fragments.
      for (const connection of connections) {
        const frames: Uint8Array[] = []
        for (let message = 0; message < 6; message++) {
          const fragments = 1 + random.int(3)
          for (let i = 0; i < fragments; i++) {
            frames.push(frame(i === 0 ? 2 : 0, random.pick([0, 3, 125, 126, 300, 70_000]), i === fragments - 1))
            if (i < fragments - 1 && random.bool(0.3)) frames.push(frame(9, random.int(126), true))
          }
        }
        connection.bytes = [...concat(frames)]
      }
      while (connections.some((connection) => connection.bytes.length > 0)) {
        const connection = random.pick(connections.filter((c) => c.bytes.length > 0))
        const chunk = Uint8Array.from(connection.bytes.splice(0, 1 + random.int(random.bool(0.5) ? 20 : 90_000)))
        const where = `seed ${seed}`
        expect(lazy.meter(connection.lazy, chunk), where).toBe(eager.account(connection.eager, chunk))
        expect(connection.lazy.meter?.held ?? 0, where).toBe(connection.eager.held)
        expect(lazy.total, where).toBe(eager.total)
        // Between whole frames with nothing held, a connection keeps no meter.
        expect(connection.lazy.meter === null, where).toBe(connection.eager.atRest)
      }
      expect(connections.every((connection) => connection.lazy.meter === null), `seed ${seed}`).toBe(true)
    }
  })
})

/** A v1 update with `ranges` deleted ranges of client 4242 over clocks that do not exist, and no structs. */
function ghostDeletes(ranges: number): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, 0)
  encoding.writeVarUint(encoder, 1)
  encoding.writeVarUint(encoder, 4242)
  encoding.writeVarUint(encoder, ranges)
  for (let i = 0; i < ranges; i++) {
    encoding.writeVarUint(encoder, 10 + 2 * i)
    encoding.writeVarUint(encoder, 1)
  }
  return encoding.toUint8Array(encoder)
}

describe('measureUpdate', () => {
  it('counts what Yjs decodes: structs (and values in arrays and maps) and deleted ranges (seeded documents)', () => {
    const seeds = fuzzSeeds(25)
    console.log(`measureUpdate: seeds ${seeds[0]}…${seeds.at(-1)} (FUZZ_SEED=N replays one)`)
    for (const seed of seeds) {
      const random = new Random(seed)
      const docs = [new Y.Doc(), new Y.Doc()]
      docs.forEach((doc, index) => (doc.clientID = 100 + index))
      for (let step = 0; step < 60; step++) {
        const doc = random.pick(docs)
        const text = doc.getText('text')
        const roll = random.int(6)
        if (roll < 3 || text.length === 0) text.insert(random.int(text.length + 1), 'abcdef'.slice(0, 1 + random.int(6)), random.bool(0.2) ? { bold: true } : undefined)
        else if (roll === 3) text.delete(random.int(text.length), 1)
        else if (roll === 4) doc.getMap('meta').set(`k${random.int(5)}`, random.bool() ? random.int(1000) : { nested: [1, 'two', null, 2.5, true] })
        else doc.getArray('list').insert(0, [random.int(9), 'x', new Uint8Array([1, 2])])
        if (random.bool(0.3)) Y.applyUpdate(docs[0]!, Y.encodeStateAsUpdate(docs[1]!))
      }
      const update = Y.encodeStateAsUpdate(docs[0]!)
      const decoded = Y.decodeUpdate(update)
      let values = 0
      for (const struct of decoded.structs) {
        if (!(struct instanceof Y.Item)) continue
        const content = struct.content as unknown as { arr?: unknown[] }
        if (struct.content instanceof Y.ContentAny && content.arr !== undefined) values += content.arr.length + content.arr.filter((value) => typeof value === 'object' && value !== null && !(value instanceof Uint8Array)).reduce<number>((sum, value) => sum + 1 + ((value as { nested: unknown[] }).nested?.length ?? 0), 0)
      }
      const ranges = [...decoded.ds.clients.values()].reduce((sum, list) => sum + list.length, 0)
      expect(measureUpdate(update, 1_000_000), `seed ${seed}`).toEqual({ structs: decoded.structs.length + values, deletes: ranges })
    }
  })

  it('stops as soon as the count passes the limit, and leaves malformed updates to Yjs', () => {
    const doc = new Y.Doc()
    doc.transact(() => {
      for (let i = 0; i < 300; i++) doc.getText('text').insert(0, 'x')
    })
    const update = Y.encodeStateAsUpdate(doc)
    expect(measureUpdate(update, 300)).toEqual({ structs: 300, deletes: 0 })
    expect(measureUpdate(update, 299)).toBe('too-large')
    expect(measureUpdate(ghostDeletes(500), 499)).toBe('too-large')
    expect(measureUpdate(ghostDeletes(500), 500)).toEqual({ structs: 0, deletes: 500 })
    expect(measureUpdate(update.subarray(0, update.length - 3), 1000)).toBe(null)
    expect(measureUpdate(new Uint8Array([0xff, 0xff, 0xff]), 1000)).toBe(null)
    expect(measureUpdate(new Uint8Array([1, 1, 5, 0, 31]), 1000)).toBe(null) // content type 31 does not exist
  })
})

describe('host check', () => {
  it('reads the name of a Host header', () => {
    expect(['Example.COM.:8080', 'localhost', '[::1]:1234', '127.0.0.1:80', '', ':80', '[::1', 'a:b:c', undefined].map(hostName)).toEqual([
      'example.com', 'localhost', '::1', '127.0.0.1', null, null, null, null, null,
    ])
  })

  it('allows IP addresses, localhost names, the configured host and ALLOWED_HOSTS; nothing else', () => {
    const policy = hostPolicy('cotext.internal', ['editor.example.com', '.corp.example'])
    const allowed = (host: string): boolean => isHostAllowed(host, policy)
    expect(['127.0.0.1:1234', '[::1]:1234', '10.0.0.7', 'localhost:1234', 'app.localhost', 'Cotext.Internal:80', 'editor.example.com.', 'corp.example', 'a.b.corp.example'].filter((host) => !allowed(host))).toEqual([])
    expect(['evil.example', 'example.com', 'xeditor.example.com', 'evilcorp.example', 'localhost.evil.example', 'cotext.internal.evil.example', '', 'rebind.127.0.0.1.nip.io'].filter(allowed)).toEqual([])
    expect(isHostAllowed(undefined, policy)).toBe(false)
    expect(isHostAllowed('anything.example', hostPolicy('0.0.0.0', ['*']))).toBe(true)
    expect(isHostAllowed('evil.example', hostPolicy('0.0.0.0', []))).toBe(false)
  })
})

describe('RefusalLog', () => {
  function capture(): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (text: string) => lines.push(JSON.parse(text) as Record<string, unknown>) })
    return { logger, lines }
  }

  it('writes once per owner and reason, then within its budget, and counts the lines it left out into the next', () => {
    let now = 0
    const log = new RefusalLog(2, 100, () => now)
    const { logger, lines } = capture()
    const a = {}
    const b = {}
    expect(log.write(logger, 'warn', a, 'malformed', { conn: 1 }, 'closing')).toBe(true)
    expect(log.write(logger, 'warn', a, 'malformed', { conn: 1 }, 'closing')).toBe(false)
    expect(log.write(logger, 'warn', a, 'slow_reader', { conn: 1 }, 'dropping')).toBe(true)
    expect(log.write(logger, 'warn', b, 'malformed', { conn: 2 }, 'closing')).toBe(false) // budget spent
    expect(log.write(logger, 'info', null, 'origin', {}, 'refused')).toBe(false)
    now = 100
    expect(log.write(logger, 'info', null, 'origin', { remote: 'x' }, 'refused')).toBe(true)
    expect(lines.map(({ msg, kind, conn, suppressed, level }) => ({ msg, kind, conn, suppressed, level }))).toEqual([
      { msg: 'closing', kind: 'malformed', conn: 1, suppressed: undefined, level: 40 },
      { msg: 'dropping', kind: 'slow_reader', conn: 1, suppressed: undefined, level: 40 },
      { msg: 'refused', kind: 'origin', conn: undefined, suppressed: 2, level: 30 },
    ])
  })
})

describe('AwarenessThrottle', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('hands on a burst, then holds the latest update and hands it on when the limit allows; never loses the last', () => {
    vi.useFakeTimers()
    const delivered: number[] = []
    let coalesced = 0
    const throttle = new AwarenessThrottle((frame) => delivered.push(frame[0]!), () => (coalesced += 1), 3, 100)
    const passed = [1, 2, 3, 4, 5, 6].map((n) => throttle.offer(new Uint8Array([n]))?.[0] ?? null)
    expect(passed).toEqual([1, 2, 3, null, null, null])
    expect(coalesced).toBe(2)
    vi.advanceTimersByTime(150)
    expect(delivered).toEqual([6])
    expect(throttle.offer(new Uint8Array([7]))).toBe(null)
    vi.advanceTimersByTime(100)
    expect(delivered).toEqual([6, 7])
    throttle.offer(new Uint8Array([8]))
    throttle.dispose()
    vi.advanceTimersByTime(1000)
    expect(delivered).toEqual([6, 7])
  })
})

describe('RateLimit.msUntilNext', () => {
  it('is 0 while a token is left, else the time until the next one', () => {
    const limit = new RateLimit(1, 100, 0)
    expect(limit.msUntilNext(0)).toBe(0)
    limit.take(0)
    expect([limit.msUntilNext(30), limit.take(99), limit.take(100), limit.msUntilNext(100)]).toEqual([70, false, true, 100])
  })
})

describe('ApplyBudget', () => {
  it('allows a burst of milliseconds, earns back 100 per second up to the burst, and says when it is spent', () => {
    const budget = new ApplyBudget(300, 0)
    expect([budget.charge(200, 0), budget.charge(100, 0), budget.charge(1, 0)]).toEqual([true, true, false])
    expect(budget.charge(0, 1000)).toBe(true) // 99 left
    expect([budget.charge(99, 1000), budget.charge(0.5, 1000)]).toEqual([true, false])
    expect([budget.charge(300, 100_000), budget.charge(1, 100_000)]).toEqual([true, false])
  })
})
