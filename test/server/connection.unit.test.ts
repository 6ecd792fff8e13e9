import { describe, expect, it } from 'vitest'
import { createRequire } from 'node:module'
import { pino } from 'pino'
import { WebSocket } from 'ws'
import { Connection, binaryFrame } from '../../server/connection.ts'
import { Metrics } from '../../server/metrics.ts'
import { RateLimit } from '../../server/rate-limit.ts'
import { WriteBatcher } from '../../server/write-batcher.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/** ws's own framing, which its typings do not declare. */
const { Sender } = createRequire(import.meta.url)('ws') as {
  Sender: { frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; rsv1: boolean; readOnly: boolean }): Buffer[] }
}

/** A relay is framed once for all its recipients (binaryFrame) and written under ws: the bytes must be the frame ws would write. */

describe('binaryFrame', () => {
  it('is the frame ws makes for a binary message, at every length encoding', () => {
    for (const length of [0, 1, 125, 126, 127, 65_535, 65_536, 70_000]) {
      const payload = Uint8Array.from({ length }, (_, i) => (i * 31) & 0xff)
      const ws = Buffer.concat(Sender.frame(Buffer.from(payload), { fin: true, opcode: 2, mask: false, rsv1: false, readOnly: false }))
      expect(Buffer.from(binaryFrame(payload)).equals(ws), `length ${length}`).toBe(true)
    }
  })
})

describe('Connection.takeSyncRequest', () => {
  it('answers as the rate limit its first request made would, though it makes none before the second request (seeded request times)', () => {
    const seeds = fuzzSeeds(50)
    console.log(`takeSyncRequest: seeds ${seeds[0]}…${seeds.at(-1)} (FUZZ_SEED=N replays one)`)
    const context = { maxBufferedBytes: 1024, metrics: new Metrics(), batcher: new WriteBatcher(), logger: pino({ level: 'silent' }), onSlowReader: () => {} }
    for (const seed of seeds) {
      const random = new Random(seed)
      // A server-side socket (no address, as ws makes them for a server; its typings do not declare it): nothing is sent on it here.
      const connection = new Connection(1, new WebSocket(null as unknown as string, undefined, {}), { mode: 'rw', subject: null, expiresAt: null }, context)
      let now = random.int(5000)
      // What the connection did before: its bucket made by its first request.
      const bucket = new RateLimit(8, 1000, now)
      for (let request = 0; request < 80; request++) {
        expect(connection.takeSyncRequest(now), `seed ${seed}, request ${request} at ${now} ms`).toBe(bucket.take(now))
        now += random.bool(0.7) ? random.int(50) : random.int(4000)
      }
    }
  })
})
