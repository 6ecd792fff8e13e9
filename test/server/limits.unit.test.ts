import { describe, expect, it } from 'vitest'
import { ConnectionCaps } from '../../server/connection-caps.ts'
import { contentSecurityPolicy } from '../../server/http.ts'
import { isOriginAllowed } from '../../server/origin.ts'
import { peekMessageType } from '../../server/protocol.ts'
import { RateLimit } from '../../server/rate-limit.ts'
import { redactUrl } from '../../server/redact.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/** The small parts behind issue 10's limits; the behaviours are tested against the real server in the other files. */

describe('RateLimit', () => {
  it('allows a burst, then one request per interval, never more than the burst saved up', () => {
    const limit = new RateLimit(3, 1000, 0)
    expect([limit.take(0), limit.take(1), limit.take(2), limit.take(3)]).toEqual([true, true, true, false])
    expect([limit.take(999), limit.take(1000), limit.take(1001)]).toEqual([false, true, false])
    expect([limit.take(10_000), limit.take(10_000), limit.take(10_000), limit.take(10_000)]).toEqual([true, true, true, false])
  })

  it('never answers more than burst + elapsed / interval requests (seeded request times)', () => {
    const seeds = fuzzSeeds(20)
    console.log(`RateLimit: seeds ${seeds[0]}…${seeds.at(-1)} (FUZZ_SEED=N replays one)`)
    for (const seed of seeds) {
      const random = new Random(seed)
      const burst = 1 + random.int(8)
      const interval = 1 + random.int(500)
      const limit = new RateLimit(burst, interval, 0)
      let now = 0
      let granted = 0
      for (let i = 0; i < 500; i++) {
        now += random.int(interval * 2)
        if (limit.take(now)) granted += 1
        expect([seed, granted <= burst + Math.floor(now / interval)]).toEqual([seed, true])
      }
    }
  })
})

describe('isOriginAllowed', () => {
  const allowed = ['https://editor.example.com']
  it('accepts no Origin, the request\'s own host and listed origins only', () => {
    expect(isOriginAllowed(undefined, 'a.example:1234', [])).toBe(true)
    expect(isOriginAllowed('http://a.example:1234', 'a.example:1234', [])).toBe(true)
    expect(isOriginAllowed('https://a.example', 'a.example:443', [])).toBe(true)
    expect(isOriginAllowed('https://editor.example.com', 'a.example:1234', allowed)).toBe(true)
    expect(isOriginAllowed('http://editor.example.com', 'a.example:1234', allowed)).toBe(false)
    expect(isOriginAllowed('http://a.example:1235', 'a.example:1234', [])).toBe(false)
    expect(isOriginAllowed('http://a.example.evil:1234', 'a.example:1234', [])).toBe(false)
    expect(isOriginAllowed('null', 'a.example:1234', [])).toBe(false)
    expect(isOriginAllowed('http://a.example:1234', undefined, [])).toBe(false)
  })
})

describe('redactUrl', () => {
  it('keeps the path and drops the query, however the token is spelled', () => {
    expect(redactUrl('/notes?token=abc.def.ghi')).toBe('/notes?…')
    expect(redactUrl('//%?%74oken=abc')).toBe('//%?…')
    expect(redactUrl('/notes#token=abc')).toBe('/notes?…')
    expect(redactUrl('/notes')).toBe('/notes')
    expect(redactUrl(`/${'x'.repeat(300)}?token=a`)).toBe(`/${'x'.repeat(199)}…?…`)
    expect(redactUrl(undefined)).toBe('')
  })
})

describe('ConnectionCaps', () => {
  it('counts per room and per address, and frees a place when a connection is released', () => {
    const caps = new ConnectionCaps(2, 3)
    expect([caps.admit('a', 'x'), caps.admit('a', 'x'), caps.admit('a', 'y'), caps.admit('b', 'x'), caps.admit('c', 'x')]).toEqual([null, null, 'room', null, 'address'])
    caps.release('a', 'x')
    expect([caps.admit('a', 'y'), caps.admit('a', 'y')]).toEqual([null, 'room'])
  })
})

describe('peekMessageType', () => {
  it('reads the type of a y-websocket frame from its first bytes', () => {
    const frames = [[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 0], [3], [0, 3], [2], [], [0]]
    expect(frames.map((frame) => peekMessageType(new Uint8Array(frame)))).toEqual(['sync-step-1', 'sync-step-2', 'update', 'awareness', 'query-awareness', null, null, null, null])
  })
})

describe('contentSecurityPolicy', () => {
  it('names the WebSocket origin of a plain Host, and nothing of any other', () => {
    expect(contentSecurityPolicy('127.0.0.1:1234')).toContain("connect-src 'self' ws://127.0.0.1:1234 wss://127.0.0.1:1234;")
    expect(contentSecurityPolicy('[::1]:80')).toContain("connect-src 'self' ws://[::1]:80 wss://[::1]:80;")
    expect(contentSecurityPolicy("x; script-src 'unsafe-inline'")).toContain("connect-src 'self';")
    expect(contentSecurityPolicy(undefined)).toContain("connect-src 'self';")
  })
})
