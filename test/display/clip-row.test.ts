import { describe, expect, it } from 'vitest'
import { clipColumnDelta, clipRowColumn, type AtomicClipSettings } from '../../core/display/clip.ts'
import { clipColumn, type ClipDirection } from '../../core/point/unicode.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

function whole(line: string, column: number, direction: ClipDirection, settings: AtomicClipSettings): number {
  const clipped = clipColumn(line, column)
  return clipped + clipColumnDelta(line, clipped, direction, settings)
}

describe('clipRowColumn', () => {
  it('reads a long row around the column only, and the whole row when leading spaces reach past the window', () => {
    const settings: AtomicClipSettings = { tabLength: 4, atomicSoftTabs: true, wrapColumn: Infinity }
    const line = 'a'.repeat(1000) + '😀' + 'b'.repeat(1000)
    const reads: number[] = []
    const read = (from: number, to: number): string => {
      reads.push(to - from)
      return line.slice(from, to)
    }
    expect(clipRowColumn(read, line.length, 1003, 'forward', settings)).toBe(1003)
    expect(clipRowColumn(read, line.length, 1001, 'backward', settings)).toBe(1000)
    expect(clipRowColumn(read, line.length, Infinity, 'backward', settings)).toBe(2002)
    expect(reads).toEqual([512, 512, 256])
    const spaces = ' '.repeat(2000) + 'x'
    const spaceReads: number[] = []
    const readSpaces = (from: number, to: number): string => {
      spaceReads.push(to - from)
      return spaces.slice(from, to)
    }
    expect(clipRowColumn(readSpaces, spaces.length, 1001, 'backward', settings)).toBe(1000)
    expect(spaceReads).toEqual([512, 2001])
  })

  for (const seed of fuzzSeeds(10)) {
    it(`answers as clipping on the whole row does (seed ${seed})`, () => {
      console.log(`clipRowColumn fuzz seed ${seed}`)
      const random = new Random(seed)
      const pieces = ['a', ' ', '    ', '\t', '😀', 'e\u0301\u0301', '👨\u200d👩\u200d👧', '🇫🇷', '日']
      for (let step = 0; step < 200; step++) {
        const line = random.string(random.bool(0.5) ? 1500 : 40, pieces) + (random.bool(0.2) ? ' '.repeat(random.int(600)) : '')
        const settings: AtomicClipSettings = { tabLength: 1 + random.int(4), atomicSoftTabs: random.bool(0.7), wrapColumn: random.bool() ? Infinity : 20 + random.int(2000) }
        const column = random.bool(0.05) ? Infinity : random.int(line.length + 3)
        const direction = random.pick<ClipDirection>(['backward', 'forward', 'closest'])
        const answer = clipRowColumn((from, to) => line.slice(from, to), line.length, column, direction, settings)
        expect(answer, `seed ${seed}, step ${step}`).toBe(whole(line, column, direction, settings))
        // Without the surrogate clip first (a whole column of the row).
        const inside = Math.min(line.length, column)
        const unclipped = clipRowColumn((from, to) => line.slice(from, to), line.length, inside, direction, settings, false)
        expect(unclipped, `seed ${seed}, step ${step} (unclipped)`).toBe(inside + clipColumnDelta(line, inside, direction, settings))
      }
    })
  }
})
