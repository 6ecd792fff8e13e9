import { describe, expect, it } from 'vitest'
import { RowIndex, metaHasTab, metaWidth, packMeta } from '../../core/display/row-index.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/** The same questions answered from plain arrays. */
class NaiveRows {
  constructor(
    public counts: number[],
    public metas: number[],
  ) {}
  screenStart(row: number): number {
    return this.counts.slice(0, row).reduce((a, b) => a + b, 0)
  }
  rowForScreen(screen: number): number {
    let start = 0
    for (let row = 0; row < this.counts.length; row++) {
      if (screen < start + this.counts[row]!) return row
      start += this.counts[row]!
    }
    return this.counts.length
  }
}

function randomEntries(random: Random, n: number): { counts: number[]; metas: number[] } {
  const counts: number[] = []
  const metas: number[] = []
  for (let i = 0; i < n; i++) {
    // Hidden rows (0) only follow a visible row, as folds make them.
    counts.push(i > 0 && random.bool(0.2) ? 0 : 1 + random.int(3))
    metas.push(packMeta(random.int(200), random.bool(0.1)))
  }
  return { counts, metas }
}

describe('RowIndex', () => {
  it('packs width and tab flag into meta', () => {
    expect([metaWidth(packMeta(37, true)), metaHasTab(packMeta(37, true)), metaHasTab(packMeta(37, false))]).toEqual([37, true, false])
  })

  it('answers like plain arrays through random splices', () => {
    for (const seed of fuzzSeeds(12)) {
      const random = new Random(seed)
      const initial = randomEntries(random, 1 + random.int(600))
      const naive = new NaiveRows(initial.counts.slice(), initial.metas.slice())
      const index = new RowIndex(initial.counts.slice(), initial.metas.slice())
      for (let step = 0; step < 60; step++) {
        const from = random.int(naive.counts.length)
        const to = Math.min(naive.counts.length, from + random.int(random.bool(0.1) ? 300 : 4))
        const inserted = randomEntries(random, random.bool(0.5) ? to - from : random.int(random.bool(0.1) ? 400 : 5))
        if (inserted.counts.length === 0 && to - from === naive.counts.length) continue
        if (from === 0 && inserted.counts.length > 0) inserted.counts[0] ||= 1
        naive.counts.splice(from, to - from, ...inserted.counts)
        naive.metas.splice(from, to - from, ...inserted.metas)
        index.splice(from, to, inserted.counts, inserted.metas)
        const total = naive.counts.reduce((a, b) => a + b, 0)
        const context = `seed ${seed} step ${step}`
        expect([index.rowCount, index.screenCount], context).toEqual([naive.counts.length, total])
        for (let probe = 0; probe < 20; probe++) {
          const row = random.int(naive.counts.length)
          const entry = index.lookup(row)
          expect([entry.screenStart, entry.count, entry.meta], context).toEqual([naive.screenStart(row), naive.counts[row], naive.metas[row]])
          let owner = row
          while (owner > 0 && naive.counts[owner] === 0) owner--
          let end = row
          while (end + 1 < naive.counts.length && naive.counts[end + 1] === 0) end++
          expect([index.ownerRow(row), index.displayLineEnd(row)], context).toEqual([owner, end])
          const screen = random.int(total + 1)
          const found = index.rowForScreen(screen)
          expect(found.row, context).toBe(naive.rowForScreen(screen))
          if (found.row < naive.counts.length) expect(found.screenStart, context).toBe(naive.screenStart(found.row))
        }
      }
    }
  })

  it('finds the display line around hidden rows', () => {
    const index = new RowIndex([2, 0, 0, 1, 3, 0], [0, 0, 0, 0, 0, 0])
    expect([0, 1, 2, 3, 4, 5].map((row) => index.ownerRow(row))).toEqual([0, 0, 0, 3, 4, 4])
    expect([0, 1, 2, 3, 4, 5].map((row) => index.displayLineEnd(row))).toEqual([2, 2, 2, 3, 5, 5])
    expect(index.rowForScreen(9)).toEqual({ row: 6, screenStart: 6, count: 0, meta: 0 })
  })

  it('visits only the subtrees that may match and reports screen starts after earlier updates', () => {
    const counts = new Array<number>(5000).fill(1)
    const metas = counts.map((_, row) => packMeta(row === 10 || row === 4000 ? 90 : 20, row === 2500))
    const index = new RowIndex(counts, metas)
    const visited: [number, number][] = []
    index.update(
      (maxWidth) => maxWidth > 80,
      (row, count, meta, screenStart) => {
        if (metaWidth(meta) <= 80) return undefined
        visited.push([row, screenStart])
        return { count: count + 1, meta }
      },
    )
    expect(visited).toEqual([
      [10, 10],
      [4000, 4001],
    ])
    expect(index.screenCount).toBe(5002)
    const tabs: number[] = []
    index.update(
      (_maxWidth, anyTab) => anyTab,
      (row, _count, meta) => {
        if (metaHasTab(meta)) tabs.push(row)
        return undefined
      },
    )
    expect(tabs).toEqual([2500])
  })
})
