import { describe, expect, it } from 'vitest'
import { ScreenPatch } from '../../core/display/screen-patch.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

describe('ScreenPatch', () => {
  it('merges touching splices and keeps distant ones apart', () => {
    const patch = new ScreenPatch()
    patch.splice(2, 1, 3)
    patch.splice(10, 2, 0)
    patch.splice(5, 1, 1)
    expect(patch.changes()).toEqual([
      { start: 2, oldCount: 2, newCount: 4 },
      { start: 10, oldCount: 2, newCount: 0 },
    ])
  })

  it('reports nothing for rows inserted and removed again', () => {
    // Found with FUZZ_RUNS=100: the composed span of 0 old and 0 new rows was reported.
    const patch = new ScreenPatch()
    patch.splice(5, 0, 2)
    patch.splice(9, 1, 1)
    patch.splice(5, 2, 0)
    expect(patch.changes()).toEqual([{ start: 7, oldCount: 1, newCount: 1 }])
    patch.splice(7, 1, 0)
    patch.splice(7, 0, 1)
    expect(patch.changes()).toEqual([{ start: 7, oldCount: 1, newCount: 1 }])
  })

  it('replays to the same rows as the splices it composed', () => {
    for (const seed of fuzzSeeds(30)) {
      const random = new Random(seed)
      const original = Array.from({ length: 30 }, (_, i) => `old${i}`)
      let current = original.slice()
      const patch = new ScreenPatch()
      let fresh = 0
      for (let step = 0; step < 8; step++) {
        const start = random.int(current.length + 1)
        const oldCount = random.int(Math.min(4, current.length - start) + 1)
        const inserted = Array.from({ length: random.int(4) }, () => `new${fresh++}`)
        current.splice(start, oldCount, ...inserted)
        patch.splice(start, oldCount, inserted.length)
      }
      // Replaying the composed spans on the original must give the final rows, with every row outside
      // the spans kept as it was.
      const replayed = original.slice()
      for (const { start, oldCount, newCount } of patch.changes()) {
        replayed.splice(start, oldCount, ...current.slice(start, start + newCount))
      }
      expect(replayed, `seed ${seed}`).toEqual(current)
      expect(patch.changes().every((change) => change.oldCount > 0 || change.newCount > 0)).toBe(true)
    }
  })
})
