import { describe, expect, it } from 'vitest'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { clipColumn } from '../../core/point/unicode.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

// Row/column <-> offset read the index's "plain" leaves (strings without surrogates, '\n' endings) from
// the line's length alone; every other leaf is clipped by reading the code units around the column.

/** The rows of `text` with their endings. */
function rowsOf(text: string): string[] {
  const rows: string[] = []
  let start = 0
  for (const match of text.matchAll(/\r\n|\r|\n/g)) {
    rows.push(text.slice(start, match.index + match[0].length))
    start = match.index + match[0].length
  }
  rows.push(text.slice(start))
  return rows
}

/** characterIndexForPosition as the whole text says it should be. */
function naiveIndex(text: string, row: number, column: number): number {
  const rows = rowsOf(text)
  if (!(row >= 0)) return 0
  if (row > rows.length - 1) return text.length
  const r = Math.floor(row)
  let offset = 0
  for (let i = 0; i < r; i++) offset += rows[i]!.length
  const content = rows[r]!.replace(/(\r\n|\r|\n)$/, '')
  return offset + clipColumn(content, Math.floor(Number.isNaN(column) ? 0 : column))
}

/** positionForCharacterIndex as the whole text says it should be. */
function naivePosition(text: string, offset: number): [number, number] {
  const clamped = Math.max(0, Math.min(text.length, Math.floor(Number.isNaN(offset) ? 0 : offset)))
  const rows = rowsOf(text)
  let start = 0
  for (let row = 0; row < rows.length; row++) {
    const line = rows[row]!
    if (clamped < start + line.length || row === rows.length - 1) {
      const content = line.replace(/(\r\n|\r|\n)$/, '')
      return [row, clipColumn(content, Math.min(clamped - start, content.length))]
    }
    start += line.length
  }
  throw new Error('unreachable')
}

describe('TextBuffer row/column <-> offset', () => {
  it('clips a plain row from its length, the last row having no ending', () => {
    const buffer = new TextBuffer({ text: 'ab\ncd\nef' })
    expect([0, 1, 2, 3, 9, Infinity, -1].map((column) => buffer.characterIndexForPosition([1, column]))).toEqual([3, 4, 5, 5, 5, 5, 3])
    expect(buffer.characterIndexForPosition([2, 9])).toBe(8)
    expect(buffer.characterIndexForPosition([9, 0])).toBe(8)
    expect(buffer.characterIndexForPosition([-1, 5])).toBe(0)
    expect(buffer.characterIndexForPosition([NaN, 1])).toBe(1)
    expect([0, 2, 3, 5, 6, 8, 99, -4, NaN].map((offset) => buffer.positionForCharacterIndex(offset).toArray())).toEqual([
      [0, 0], [0, 2], [1, 0], [1, 2], [2, 0], [2, 2], [2, 2], [0, 0], [0, 0],
    ])
  })

  it('stops reading a row from its length once typing brings a surrogate pair or a \\r into its leaf', () => {
    const buffer = new TextBuffer({ text: 'abc\ndef\nghi' })
    expect(buffer.characterIndexForPosition([1, 2])).toBe(6)
    buffer.setTextInRange([[1, 1], [1, 1]], '😀')
    // 'd😀ef': column 2 is inside the pair and clips back to 1.
    expect(buffer.characterIndexForPosition([1, 2])).toBe(5)
    expect(buffer.positionForCharacterIndex(6).toArray()).toEqual([1, 1])
    expect(buffer.positionForCharacterIndex(7).toArray()).toEqual([1, 3])
    buffer.setTextInRange([[0, 3], [1, 0]], '\r\n', { normalizeLineEndings: false })
    expect(buffer.getText()).toBe('abc\r\nd😀ef\nghi')
    // The '\r\n' ending is not part of row 0's content.
    expect(buffer.characterIndexForPosition([0, 4])).toBe(3)
    expect(buffer.positionForCharacterIndex(4).toArray()).toEqual([0, 3])
    buffer.setTextInRange([[0, 0], [2, 3]], 'xy\nz', { normalizeLineEndings: false })
    expect([buffer.characterIndexForPosition([0, 5]), buffer.characterIndexForPosition([1, 5])]).toEqual([2, 4])
    expect(buffer.positionForCharacterIndex(2).toArray()).toEqual([0, 2])
  })

  for (const seed of fuzzSeeds(10)) {
    it(`answers as the whole text does, through typing and line breaks (seed ${seed})`, () => {
      console.log(`text-buffer conversions fuzz seed ${seed}`)
      const random = new Random(seed)
      // Some seeds keep to plain text, so that whole leaves stay plain while others hold the odd pair.
      const plain = random.bool(0.4)
      const words = plain ? ['ab', ' ', 'x', 'yz', '\n'] : ['ab', ' ', 'x', '😀', 'é', '\n', '\r\n', '\r']
      const rows = Array.from({ length: 150 }, () => random.string(12, words.filter((w) => !/[\r\n]/.test(w)))).join(plain ? '\n' : random.pick(['\n', '\r\n']))
      const buffer = new TextBuffer({ text: rows })
      for (let step = 0; step < 120; step++) {
        const text = buffer.getText()
        const at = random.int(text.length + 1)
        const from = buffer.positionForCharacterIndex(at)
        const to = buffer.positionForCharacterIndex(at + (random.bool(0.3) ? random.int(40) : 0))
        const insert = random.bool(0.7) ? random.string(random.bool(0.1) ? 30 : 2, random.bool(0.8) ? words.filter((w) => w.length === 1 || w === 'ab') : words) : ''
        buffer.setTextInRange([from, to], insert, { normalizeLineEndings: false })
        const now = buffer.getText()
        expect(now, `seed ${seed}, step ${step}`).toBe(buffer.ytext.toString())
        const lineCount = buffer.getLineCount()
        for (let probe = 0; probe < 12; probe++) {
          const row = random.int(lineCount + 2) - 1
          const column = random.pick([random.int(16), random.int(4) - 1, Infinity])
          const offset = random.int(now.length + 3) - 1
          expect(
            { index: buffer.characterIndexForPosition([row, column]), position: buffer.positionForCharacterIndex(offset).toArray() },
            `seed ${seed}, step ${step}, row ${row}, column ${column}, offset ${offset}`,
          ).toEqual({ index: naiveIndex(now, row, column), position: naivePosition(now, offset) })
        }
      }
    })
  }
})
