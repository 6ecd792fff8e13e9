import { describe, expect, it } from 'vitest'
import { buildPieces, layoutDisplayLine, measureEditedRow, measureRow, rewrapEditedLine, type LineMeasure } from '../../core/display/layout.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

const ALPHABET = ['a', 'b', ' ', '\t', 'word', '日', '😀', 'xy\tz']

function measure(line: string, tabLength: number): LineMeasure {
  const out: LineMeasure = { rowCount: 0, width: 0, hasTab: false }
  measureRow(0, line, { tabLength, wrapColumn: Infinity, hangingIndent: 0 }, out)
  return out
}

describe('measureEditedRow', () => {
  it('moves the first tab after the edit to its new stop', () => {
    // 'ab\tc' with tab length 4: the tab spans columns 2-3; typing 'x' before it leaves it one column.
    const out: LineMeasure = { rowCount: 1, width: 0, hasTab: false }
    expect(measureEditedRow('axb\tc', 5, true, 1, '', 'x', 4, out)).toBe(true)
    expect(out).toEqual({ rowCount: 1, width: 5, hasTab: true })
    expect(measure('axb\tc', 4)).toEqual({ rowCount: 1, width: 5, hasTab: true })
  })

  it('notices when the deleted text held the row’s last tab', () => {
    const out: LineMeasure = { rowCount: 1, width: 0, hasTab: false }
    expect(measureEditedRow('ab', 5, true, 1, '\t', '', 4, out)).toBe(true)
    expect(out).toEqual({ rowCount: 1, width: 2, hasTab: false })
  })

  it('declines an edit whose edge splits a surrogate pair', () => {
    const out: LineMeasure = { rowCount: 1, width: 0, hasTab: false }
    expect(measureEditedRow('a😀', 3, false, 2, '', '\udc00', 4, out)).toBe(false)
  })

  for (const seed of fuzzSeeds(20)) {
    it(`gives the width and tab bit of measuring the whole row (seed ${seed})`, () => {
      const random = new Random(seed)
      for (let step = 0; step < 300; step++) {
        const tabLength = 1 + random.int(5)
        const before = random.string(12, ALPHABET)
        const start = random.int(before.length + 1)
        const end = Math.min(before.length, start + random.int(5))
        const oldText = before.slice(start, end)
        const newText = random.string(3, ALPHABET)
        const after = before.slice(0, start) + newText + before.slice(end)
        const old = measure(before, tabLength)
        const out: LineMeasure = { rowCount: 1, width: 0, hasTab: false }
        if (!measureEditedRow(after, old.width, old.hasTab, start, oldText, newText, tabLength, out)) continue
        const fresh = measure(after, tabLength)
        const what = `seed ${seed}: ${JSON.stringify(before)} -> ${JSON.stringify(after)} (tab ${tabLength})`
        expect({ width: out.width, hasTab: out.hasTab }, what).toEqual({ width: fresh.width, hasTab: fresh.hasTab })
      }
    })
  }
})

describe('rewrapEditedLine', () => {
  const WORDS = ['a', 'bb', 'word', ' ', ' ', '  ', '\t', '日本', '😀', 'x\ty', 'longerword']

  for (const seed of fuzzSeeds(20)) {
    it(`gives the rows of laying the line out whole (seed ${seed})`, () => {
      const random = new Random(seed)
      for (let step = 0; step < 200; step++) {
        const settings = { tabLength: 1 + random.int(4), wrapColumn: 4 + random.int(12), hangingIndent: random.int(3) }
        const before = random.string(60, WORDS)
        const start = random.int(before.length + 1)
        const end = Math.min(before.length, start + random.int(4))
        const oldText = before.slice(start, end)
        const newText = random.string(3, WORDS)
        const after = before.slice(0, start) + newText + before.slice(end)
        const old = layoutDisplayLine(buildPieces(0, () => before, []), settings)
        const out: LineMeasure = { rowCount: 1, width: 0, hasTab: false }
        if (!measureEditedRow(after, old.width, old.hasTab, start, oldText, newText, settings.tabLength, out)) continue
        const rewrapped = rewrapEditedLine(old, after, 0, start, end, start + newText.length, out, settings)
        if (rewrapped === null) continue
        const fresh = layoutDisplayLine(buildPieces(0, () => after, []), settings)
        const what = `seed ${seed}: ${JSON.stringify(before)} -> ${JSON.stringify(after)} (${JSON.stringify(settings)})`
        expect(rewrapped.rows, what).toEqual(fresh.rows)
        expect([rewrapped.width, rewrapped.hasTab, out.rowCount], what).toEqual([fresh.width, fresh.hasTab, fresh.rows.length])
      }
    })
  }
})
