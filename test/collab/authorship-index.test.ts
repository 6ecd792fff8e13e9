import { describe, expect, it } from 'vitest'
import { AuthorshipIndex } from '../../core/collab/authorship-index.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/** The naive reference: one client per character. */
function spansOf(chars: number[], from = 0, to = chars.length): { from: number; to: number; client: number }[] {
  const out: { from: number; to: number; client: number }[] = []
  for (let i = from; i < to; i++) {
    const last = out[out.length - 1]
    if (last && last.client === chars[i] && last.to === i) last.to++
    else out.push({ from: i, to: i + 1, client: chars[i]! })
  }
  return out
}

describe('AuthorshipIndex', () => {
  it('extends a run when its client types next to it, and splits a run it types into', () => {
    const index = new AuthorshipIndex([{ client: 1, length: 3 }])
    for (let i = 0; i < 100; i++) index.insert(3 + i, [{ client: 1, length: 1 }])
    expect(index.runCount).toBe(1)
    index.insert(50, [{ client: 2, length: 2 }])
    expect(index.spans()).toEqual([
      { from: 0, to: 50, client: 1 },
      { from: 50, to: 52, client: 2 },
      { from: 52, to: 105, client: 1 },
    ])
    index.delete(49, 4)
    expect(index.spans()).toEqual([{ from: 0, to: 101, client: 1 }])
    expect(index.spans(10, 12)).toEqual([{ from: 10, to: 12, client: 1 }])
    expect(() => index.delete(100, 5)).toThrow(RangeError)
    expect(() => index.insert(102, [])).toThrow(RangeError)
  })

  it('joins text typed at the end of a leaf to the same client\'s run that starts the next leaf', () => {
    // 40 runs of one character, clients 1 and 2 alternating: the index keeps them in two leaves, the
    // first ending with client 2's run at offset 31, the second starting with client 1's at offset 32.
    const runs = Array.from({ length: 40 }, (_, i) => ({ client: 1 + (i % 2), length: 1 }))
    const index = new AuthorshipIndex(runs)
    index.insert(32, [{ client: 1, length: 3 }])
    expect(index.runCount).toBe(40)
    expect(index.spans(30, 37)).toEqual([
      { from: 30, to: 31, client: 1 },
      { from: 31, to: 32, client: 2 },
      { from: 32, to: 36, client: 1 },
      { from: 36, to: 37, client: 2 },
    ])
    expect(index.length).toBe(43)
    index.delete(0, 43)
    expect(index.length).toBe(0)
  })

  for (const seed of fuzzSeeds(8)) {
    it(`matches a per-character reference through random edits (seed ${seed})`, () => {
      const random = new Random(seed)
      const chars: number[] = []
      const index = new AuthorshipIndex()
      try {
        for (let step = 0; step < 3000; step++) {
          if (chars.length > 0 && random.bool(0.35)) {
            const from = random.int(chars.length)
            const length = 1 + random.int(Math.min(chars.length - from, 40))
            chars.splice(from, length)
            index.delete(from, length)
          } else {
            const at = random.int(chars.length + 1)
            const runs = Array.from({ length: 1 + random.int(3) }, () => ({ client: random.int(5), length: 1 + random.int(6) }))
            chars.splice(at, 0, ...runs.flatMap(({ client, length }) => Array<number>(length).fill(client)))
            index.insert(at, runs)
          }
          if (step % 97 === 0) {
            expect(index.spans()).toEqual(spansOf(chars))
            const from = random.int(chars.length + 1)
            const to = from + random.int(chars.length - from + 1)
            expect(index.spans(from, to)).toEqual(spansOf(chars, from, to))
          }
        }
        expect(index.length).toBe(chars.length)
        expect(index.spans()).toEqual(spansOf(chars))
        expect(index.runCount).toBe(spansOf(chars).length)
      } catch (error) {
        throw new Error(`authorship index fuzz failed for seed ${seed} (rerun with FUZZ_SEED=${seed}): ${(error as Error).message}`, { cause: error })
      }
    })
  }
})
