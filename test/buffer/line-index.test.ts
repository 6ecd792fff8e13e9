import { describe, expect, it } from 'vitest'
import { LineIndex, splitLines, endingLength } from '../../core/buffer/line-index.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

function naiveRows(text: string): string[] {
  return splitLines(text)
}

function check(index: LineIndex, text: string): void {
  const rows = naiveRows(text)
  const expected: string[] = []
  const actual: string[] = []
  let offset = 0
  for (let row = 0; row < rows.length; row++) {
    expected.push(`${row}:${offset}:${rows[row]}`)
    const found = index.rowForOffset(offset)
    actual.push(`${found.row}:${index.offsetForRow(row)}:${index.lineWithEnding(row)}`)
    offset += rows[row]!.length
  }
  expect({ lineCount: index.lineCount, length: index.length, text: index.getText() }).toEqual({
    lineCount: rows.length,
    length: text.length,
    text,
  })
  expect(actual).toEqual(expected)
}

describe('splitLines', () => {
  it('keeps each ending with its line and treats \\r\\n as one ending', () => {
    expect(splitLines('a\nb\r\nc\rd')).toEqual(['a\n', 'b\r\n', 'c\r', 'd'])
    expect(splitLines('')).toEqual([''])
    expect(splitLines('x\n')).toEqual(['x\n', ''])
    expect(splitLines('\r\r\n\n')).toEqual(['\r', '\r\n', '\n', ''])
  })

  it('measures endings', () => {
    expect(endingLength('ab\r\n')).toBe(2)
    expect(endingLength('ab\r')).toBe(1)
    expect(endingLength('ab\n')).toBe(1)
    expect(endingLength('ab')).toBe(0)
    expect(endingLength('')).toBe(0)
  })
})

describe('LineIndex', () => {
  it('joins \\r and \\n when an edit brings them together, and splits them apart', () => {
    const index = new LineIndex('a\rb\nc')
    index.edit(2, 1, '')
    expect(index.getText()).toBe('a\r\nc')
    expect(index.lineCount).toBe(2)
    expect(index.lineWithEnding(0)).toBe('a\r\n')
    index.edit(2, 0, 'X')
    expect(index.lineCount).toBe(3)
    expect(index.lineWithEnding(1)).toBe('X\n')
  })

  it('locates rows by offset at line ends, in \\r\\n pairs and past the end', () => {
    const index = new LineIndex('ab\r\ncd')
    expect(index.rowForOffset(2)).toEqual({ row: 0, rowStart: 0 })
    expect(index.rowForOffset(3)).toEqual({ row: 0, rowStart: 0 })
    expect(index.rowForOffset(4)).toEqual({ row: 1, rowStart: 4 })
    expect(index.rowForOffset(99)).toEqual({ row: 1, rowStart: 4 })
    expect(index.textBetween(1, 5)).toBe('b\r\nc')
  })

  it('builds and edits a large document with a balanced tree', () => {
    const text = Array.from({ length: 20000 }, (_, i) => `line ${i}`).join('\n')
    const index = new LineIndex(text)
    expect(index.lineCount).toBe(20000)
    expect(index.offsetForRow(12345)).toBe(text.indexOf('line 12345'))
    index.edit(index.offsetForRow(100), index.offsetForRow(19900) - index.offsetForRow(100), '')
    expect(index.lineCount).toBe(200)
    expect(index.lineWithEnding(100)).toBe('line 19900\n')
  })

  for (const seed of fuzzSeeds(20)) {
    it(`matches a naive model under random edits (seed ${seed})`, () => {
      const random = new Random(seed)
      const alphabet = ['a', 'b', ' ', '\n', '\r', '\r\n', 'é', '😀']
      let text = random.string(50, alphabet)
      const index = new LineIndex(text)
      for (let step = 0; step < 150; step++) {
        const at = random.int(text.length + 1)
        const del = random.int(Math.min(12, text.length - at) + 1)
        const ins = random.bool(0.1) ? random.string(300, alphabet) : random.string(6, alphabet)
        text = text.slice(0, at) + ins + text.slice(at + del)
        index.edit(at, del, ins)
        try {
          check(index, text)
        } catch (error) {
          throw new Error(`seed ${seed}, step ${step}: ${(error as Error).message}`)
        }
      }
    })
  }
})
