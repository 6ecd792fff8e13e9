import { describe, expect, it } from 'vitest'
import { MatchOffsets } from '../../core/editor/match-offsets.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/** A live query's match offsets with a pending shift, against plain arrays rewritten on every operation. */

function read(matches: MatchOffsets): [number, number][] {
  return Array.from({ length: matches.length }, (_, i) => [matches.start(i), matches.end(i)])
}

function of(pairs: [number, number][]): MatchOffsets {
  const matches = new MatchOffsets()
  for (const [s, e] of pairs) matches.push(s, e)
  return matches
}

describe('MatchOffsets', () => {
  it('shifts the matches after an index, settling only those between two shifts', () => {
    const matches = of([[0, 1], [10, 12], [20, 22], [30, 33]])
    matches.shiftFrom(2, 5)
    expect(read(matches)).toEqual([[0, 1], [10, 12], [25, 27], [35, 38]])
    matches.shiftFrom(1, -3)
    expect(read(matches)).toEqual([[0, 1], [7, 9], [22, 24], [32, 35]])
    matches.shiftFrom(3, 1)
    expect(read(matches)).toEqual([[0, 1], [7, 9], [22, 24], [33, 36]])
    expect([matches.firstStartingAtOrAfter(23), matches.firstEndingAtOrAfter(24), matches.firstStartingAtOrAfter(40)]).toEqual([3, 2, 4])
  })

  it('splices, pushes and truncates around a pending shift', () => {
    const matches = of([[0, 1], [10, 12], [20, 22], [30, 33]])
    matches.shiftFrom(1, 2)
    matches.splice(1, 2, [13, 16], [14, 17])
    expect(read(matches)).toEqual([[0, 1], [13, 14], [16, 17], [22, 24], [32, 35]])
    matches.push(40, 41)
    matches.truncate(4)
    expect(read(matches)).toEqual([[0, 1], [13, 14], [16, 17], [22, 24]])
  })

  for (const seed of fuzzSeeds(4)) {
    it(`agrees with plain arrays through random operations (seed ${seed}; rerun with FUZZ_SEED=${seed})`, () => {
      console.log(`MatchOffsets fuzz seed ${seed}`)
      const random = new Random(seed)
      const matches = new MatchOffsets()
      let plain: [number, number][] = []
      for (let step = 0; step < 400; step++) {
        const n = plain.length
        const op = random.int(5)
        if (op === 0 || n === 0) {
          const last = n === 0 ? 0 : plain[n - 1]![1]
          const start = last + random.int(5)
          const end = start + random.int(3)
          matches.push(start, end)
          plain.push([start, end])
        } else if (op === 1) {
          // An edit shifts what follows index `from` (by no more than the gap before it, to stay sorted).
          const from = random.int(n + 1)
          const gap = from === 0 ? plain[0]![0] : from < n ? plain[from]![0] - plain[from - 1]![1] : 0
          const delta = random.int(6) - Math.min(gap, 2)
          matches.shiftFrom(from, delta)
          plain = plain.map(([s, e], i) => (i >= from ? [s + delta, e + delta] : [s, e]))
        } else if (op === 2) {
          const from = random.int(n)
          const to = from + random.int(Math.min(3, n - from) + 1)
          const low = from === 0 ? 0 : plain[from - 1]![1]
          const high = to < n ? plain[to]![0] : low + 10
          const found: [number, number][] = []
          let at = low
          for (let k = random.int(3); k > 0 && at < high; k--) {
            const s = at + random.int(Math.max(1, Math.floor((high - at) / 2)))
            const e = Math.min(high, s + random.int(2))
            if (s > high) break
            found.push([s, e])
            at = e
          }
          matches.splice(from, to, found.map((p) => p[0]), found.map((p) => p[1]))
          plain.splice(from, to - from, ...found)
        } else if (op === 3) {
          const i = random.int(n)
          const low = i === 0 ? 0 : plain[i - 1]![1]
          const high = i + 1 < n ? plain[i + 1]![0] : plain[i]![1] + 3
          const s = low + random.int(Math.max(1, high - low))
          const e = Math.min(high, s + random.int(2))
          matches.set(i, s, Math.max(s, e))
          plain[i] = [s, Math.max(s, e)]
        } else {
          const keep = random.int(n + 1)
          matches.truncate(keep)
          plain.length = keep
        }
        expect(read(matches), `step ${step}`).toEqual(plain)
        const probe = random.int((plain[plain.length - 1]?.[1] ?? 0) + 2)
        expect(matches.firstStartingAtOrAfter(probe)).toBe(firstIndex(plain, (p) => p[0] >= probe))
        expect(matches.firstEndingAtOrAfter(probe)).toBe(firstIndex(plain, (p) => p[1] >= probe))
      }
    })
  }
})

function firstIndex(pairs: [number, number][], test: (pair: [number, number]) => boolean): number {
  const i = pairs.findIndex(test)
  return i < 0 ? pairs.length : i
}
