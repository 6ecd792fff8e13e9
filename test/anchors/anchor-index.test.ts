import { describe, expect, it } from 'vitest'
import { AnchorIndex } from '../../core/anchors/anchor-index.ts'
import { ChangeSet, type MapMode } from '../../core/buffer/change-set.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

const MODES: readonly MapMode[] = ['simple', 'track-del', 'track-before', 'track-after']

/** One entry at each offset given, all with the same assoc and mode. */
function entries(index: AnchorIndex, offsets: number[], assoc: -1 | 1, mode: MapMode = 'simple'): number[] {
  return offsets.map((offset) => index.add(offset, assoc, mode))
}

describe('AnchorIndex: one replacement, each association and mode', () => {
  it('an insertion: assoc -1 stays in front of text inserted at it, assoc 1 goes after it', () => {
    const index = new AnchorIndex()
    const before = entries(index, [2, 5, 8], -1)
    const after = entries(index, [2, 5, 8], 1)
    index.splice(5, 0, 3)
    expect(before.map((e) => index.offset(e))).toEqual([2, 5, 11])
    expect(after.map((e) => index.offset(e))).toEqual([2, 8, 11])
  })

  it('a deletion: inside goes to its start; at its end, to the end of the (empty) replacement', () => {
    const index = new AnchorIndex()
    const before = entries(index, [1, 2, 4, 6, 9], -1)
    const after = entries(index, [1, 2, 4, 6, 9], 1)
    index.splice(2, 4, 0)
    expect(before.map((e) => index.offset(e))).toEqual([1, 2, 2, 2, 5])
    expect(after.map((e) => index.offset(e))).toEqual([1, 2, 2, 2, 5])
  })

  it('a replacement: inside goes to its start (assoc -1) or end (assoc 1); at its start, to its start', () => {
    const index = new AnchorIndex()
    const before = entries(index, [2, 4, 6, 7], -1)
    const after = entries(index, [2, 4, 6, 7], 1)
    index.splice(2, 4, 1)
    expect(before.map((e) => index.offset(e))).toEqual([2, 2, 3, 4])
    expect(after.map((e) => index.offset(e))).toEqual([2, 3, 3, 4])
  })

  it('track-del loses an entry the deletion spans; track-before one whose preceding character goes; track-after one whose next character goes', () => {
    const lostAt = (mode: MapMode) => {
      const index = new AnchorIndex()
      const ids = entries(index, [1, 2, 4, 6, 7], -1, mode)
      index.splice(2, 4, 0)
      return { lost: ids.map((e) => index.isLost(e)), offsets: ids.map((e) => index.offset(e)) }
    }
    expect(lostAt('simple').lost).toEqual([false, false, false, false, false])
    expect(lostAt('track-del').lost).toEqual([false, false, true, false, false])
    expect(lostAt('track-before').lost).toEqual([false, false, true, true, false])
    expect(lostAt('track-after').lost).toEqual([false, true, true, false, false])
    // A lost entry still has the position 'simple' gives it.
    expect(lostAt('track-before').offsets).toEqual([1, 2, 2, 2, 3])
  })

  it('an insertion loses nothing, whatever the mode', () => {
    const index = new AnchorIndex()
    const ids = MODES.map((mode) => index.add(3, 1, mode))
    index.splice(3, 0, 2)
    expect(ids.map((e) => index.isLost(e))).toEqual([false, false, false, false])
    expect(ids.map((e) => index.offset(e))).toEqual([5, 5, 5, 5])
  })

  it('an owner moves the entries a replacement reached, within the replacement, and they stay ordered', () => {
    const index = new AnchorIndex()
    const [a, b, c] = entries(index, [3, 4, 10], -1)
    const reached: number[] = []
    index.splice(3, 2, 4, (splice) => {
      for (let i = 0; i < splice.touchedCount; i++) {
        reached.push(splice.touchedEntry(i), splice.touchedOldOffset(i), splice.touchedNewOffset(i))
        // Atom's rule for a covered position: the end of the new text; a request outside is clamped.
        splice.moveTouched(i, splice.touchedEntry(i) === a ? 100 : 7)
      }
    })
    expect(reached).toEqual([a, 3, 3, b, 4, 3])
    expect([index.offset(a!), index.offset(b!), index.offset(c!)]).toEqual([7, 7, 12])
    // A new entry finds its place among them.
    const d = index.add(6)
    index.splice(6, 0, 1)
    expect([index.offset(d), index.offset(a!), index.offset(c!)]).toEqual([6, 8, 13])
  })

  it('set moves an entry and clears lost; remove frees its number for the next entry', () => {
    const index = new AnchorIndex()
    const e = index.add(5, -1, 'track-del')
    index.splice(4, 3, 0)
    expect(index.isLost(e)).toBe(true)
    index.set(e, 9)
    expect([index.offset(e), index.isLost(e)]).toEqual([9, false])
    index.remove(e)
    expect(index.count).toBe(0)
    expect(() => index.offset(e)).toThrow('AnchorIndex: no entry')
    expect(index.add(1)).toBe(e)
  })

  it('shifts thousands of entries after an edit through the chunks’ lazy deltas', () => {
    const index = new AnchorIndex()
    const ids = Array.from({ length: 5000 }, (_, i) => index.add(i * 2))
    index.splice(1, 0, 10)
    index.splice(3001, 2, 0)
    expect(index.offset(ids[0]!)).toBe(0)
    expect(index.offset(ids[1]!)).toBe(12)
    expect(index.offset(ids[1495]!)).toBe(3000)
    expect(index.offset(ids[1496]!)).toBe(3001)
    expect(index.offset(ids[1497]!)).toBe(3002)
    expect(index.offset(ids[4999]!)).toBe(9998 + 8)
  })
})

describe('AnchorIndex: storage', () => {
  it('keeps offsets beyond 2^31 and 2^32 exact, through shifts and reached entries', () => {
    const index = new AnchorIndex()
    const big = 2 ** 31
    const [a, b, c] = entries(index, [big - 1, big + 5, 2 ** 32 + 7], -1)
    index.splice(10, 0, 3)
    expect([index.offset(a!), index.offset(b!), index.offset(c!)]).toEqual([big + 2, big + 8, 2 ** 32 + 10])
    // A deletion across 2^31 reaches b and sends it to the deletion's start; c shifts back.
    index.splice(big, 2 ** 31 + 1, 1)
    expect([index.offset(a!), index.offset(b!), index.offset(c!)]).toEqual([big, big, 2 ** 31 + 10])
    index.set(a!, 2 ** 40)
    expect(index.offset(a!)).toBe(2 ** 40)
  })

  it('empties and refills chunks: numbers and chunks are reused, offsets stay right', () => {
    const index = new AnchorIndex()
    const ids = Array.from({ length: 1000 }, (_, i) => index.add(i))
    // Remove all but every 100th entry, so that most chunks empty and leave the order.
    for (let i = 0; i < 1000; i++) if (i % 100 !== 0) index.remove(ids[i]!)
    expect(index.count).toBe(10)
    // The first stays in front of text inserted at it (assoc -1); the others shift.
    index.splice(0, 0, 5)
    // New entries reuse the last freed numbers first and fill chunks again.
    const again = Array.from({ length: 1000 }, (_, i) => index.add(2000 + i, 1))
    expect(again[0]).toBe(999)
    expect(again[1]).toBe(998)
    index.splice(2500, 0, 7)
    expect(ids.filter((_, i) => i % 100 === 0).map((id) => index.offset(id))).toEqual([0, 105, 205, 305, 405, 505, 605, 705, 805, 905])
    expect(again.map((id) => index.offset(id))).toEqual(Array.from({ length: 1000 }, (_, i) => (2000 + i >= 2500 ? 2007 + i : 2000 + i)))
    expect(index.count).toBe(1010)
  })

  it('refuses an unknown entry or mode, changing nothing', () => {
    const index = new AnchorIndex()
    const e = index.add(4)
    expect(() => index.remove(e + 1)).toThrow('AnchorIndex: no entry 1')
    expect(() => index.set(-1, 3)).toThrow('AnchorIndex: no entry -1')
    expect(() => index.add(2, -1, 'track-nothing' as MapMode)).toThrow('AnchorIndex: no map mode track-nothing')
    expect([index.count, index.offset(e)]).toEqual([1, 4])
  })
})

interface Reference {
  offset: number
  assoc: -1 | 1
  mode: MapMode
  lost: boolean
  /** Moved by the owner as Atom does: a covered position goes to the end of the new text. */
  atom: boolean
}

describe('AnchorIndex fuzz: against every position mapped through every change', () => {
  for (const seed of fuzzSeeds(12)) {
    it(`agrees with ChangeSet#mapPos per position (seed ${seed})`, () => {
      try {
        const random = new Random(seed)
        const index = new AnchorIndex()
        const reference = new Map<number, Reference>()
        let length = 200 + random.int(2000)
        for (let step = 0; step < 600; step++) {
          const roll = random.next()
          if (roll < 0.3 || reference.size < 5) {
            const n = 1 + random.int(random.bool(0.1) ? 200 : 5)
            for (let k = 0; k < n; k++) {
              const offset = random.int(length + 1)
              const assoc = random.bool() ? 1 : -1
              const mode = random.pick(MODES)
              const id = index.add(offset, assoc, mode)
              expect(reference.has(id)).toBe(false)
              reference.set(id, { offset, assoc, mode, lost: false, atom: random.bool(0.3) })
            }
          } else if (roll < 0.4) {
            const ids = [...reference.keys()]
            for (let k = random.int(Math.min(20, ids.length)); k >= 0; k--) {
              const id = random.pick(ids)
              if (!reference.has(id)) continue
              index.remove(id)
              reference.delete(id)
            }
          } else if (roll < 0.45) {
            const id = random.pick([...reference.keys()])
            const offset = random.int(length + 1)
            index.set(id, offset)
            Object.assign(reference.get(id)!, { offset, lost: false })
          } else {
            const start = random.int(length + 1)
            const oldLength = random.int(Math.min(random.bool(0.1) ? 500 : 6, length - start) + 1)
            const newLength = random.int(random.bool(0.2) ? 0 : 5)
            const change = ChangeSet.fromEdits(length, [{ offset: start, deleteLength: oldLength, insertText: 'x'.repeat(newLength) }])
            for (const entry of reference.values()) {
              const mapped = change.mapPos(entry.offset, entry.assoc, entry.mode)
              if (mapped === null) entry.lost = true
              const simple = change.mapPos(entry.offset, entry.assoc)!
              entry.offset = entry.atom && entry.offset > start && entry.offset <= start + oldLength ? start + newLength : simple
            }
            index.splice(start, oldLength, newLength, (splice) => {
              for (let i = 0; i < splice.touchedCount; i++) {
                const old = splice.touchedOldOffset(i)
                if (reference.get(splice.touchedEntry(i))!.atom && old > start) splice.moveTouched(i, start + newLength)
              }
            })
            length += newLength - oldLength
          }
          expect(index.count).toBe(reference.size)
          for (const [id, entry] of reference) {
            if (index.offset(id) !== entry.offset || index.isLost(id) !== entry.lost) {
              throw new Error(`step ${step}: entry ${id} at ${index.offset(id)} (lost ${index.isLost(id)}), expected ${entry.offset} (lost ${entry.lost})`)
            }
          }
        }
      } catch (error) {
        throw new Error(`anchor index fuzz failed for seed ${seed} (rerun with FUZZ_SEED=${seed}): ${(error as Error).message}`, { cause: error })
      }
    })
  }
})
