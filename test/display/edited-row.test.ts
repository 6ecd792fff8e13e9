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
        const rewrapped = rewrapEditedLine(old, (from, to) => after.slice(from, to), after.length, 0, start, end, start + newText.length, out, settings)
        if (rewrapped === null) continue
        const fresh = layoutDisplayLine(buildPieces(0, () => after, []), settings)
        const what = `seed ${seed}: ${JSON.stringify(before)} -> ${JSON.stringify(after)} (${JSON.stringify(settings)})`
        expect(rewrapped.rows, what).toEqual(fresh.rows)
        expect([rewrapped.width, rewrapped.hasTab, out.rowCount], what).toEqual([fresh.width, fresh.hasTab, fresh.rows.length])
      }
    })
  }
})

describe('rewrapEditedLine in a long row', () => {
  const WORDS = ['a', 'bb', 'word', ' ', ' ', 'function', '(', ')', '日本', '😀', 'e\u0301', 'longerword']

  for (const seed of fuzzSeeds(10)) {
    it(`re-wraps around each edit as laying the row out from scratch does, reading only near it (seed ${seed})`, () => {
      console.log(`long-row rewrap fuzz seed ${seed}`)
      const random = new Random(seed)
      const settings = { tabLength: 4, wrapColumn: 10 + random.int(70), hangingIndent: random.int(3) }
      let text = random.string(6000, WORDS)
      // A long row, so that most edits have rows around them to re-wrap (a short one is laid out afresh).
      while (text.length < 3000) text += random.string(6000, WORDS)
      let layout = layoutDisplayLine(buildPieces(0, () => text, []), settings)
      let rewraps = 0
      for (let step = 0; step < 80; step++) {
        const start = 1 + random.int(text.length)
        const end = Math.min(text.length, start + (random.bool(0.3) ? random.int(200) : random.int(3)))
        const oldText = text.slice(start, end)
        const newText = random.bool(0.1) ? random.string(100, WORDS) : random.string(2, WORDS)
        const after = text.slice(0, start) + newText + text.slice(end)
        const out: LineMeasure = { rowCount: 1, width: 0, hasTab: false }
        const what = `seed ${seed}, step ${step} (${JSON.stringify(settings)})`
        if (!measureEditedRow(after, layout.width, layout.hasTab, start, oldText, newText, settings.tabLength, out)) {
          text = after
          layout = layoutDisplayLine(buildPieces(0, () => text, []), settings)
          continue
        }
        let read = 0
        const reader = (from: number, to: number): string => {
          read += to - from
          return after.slice(from, to)
        }
        const rewrapped = rewrapEditedLine(layout, reader, after.length, 0, start, end, start + newText.length, out, settings)
        const fresh = layoutDisplayLine(buildPieces(0, () => after, []), settings)
        text = after
        if (rewrapped === null) {
          layout = fresh
          continue
        }
        expect(rewrapped.rows, what).toEqual(fresh.rows)
        expect([rewrapped.width, rewrapped.hasTab, out.rowCount], what).toEqual([fresh.width, fresh.hasTab, fresh.rows.length])
        // The edit, a window of rows around it, and the leading whitespace up to the second row.
        expect(read, what).toBeLessThan(newText.length + 8 * (2 * settings.wrapColumn + 82) + settings.wrapColumn * 3 + 400)
        expect(rewrapped.pieces[0]!.kind === 'text' && rewrapped.pieces[0]!.line, what).toBe(after)
        layout = rewrapped
        rewraps++
      }
      console.log(`seed ${seed}: ${rewraps} of 80 edits re-wrapped around the edit`)
      expect(rewraps).toBeGreaterThan(60)
    })
  }
})
