import { describe, expect, it } from 'vitest'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'
import { markPoints, markRanges, markText, parseMarked } from '../helpers/marked-text.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

describe('parseMarked', () => {
  it('reads cursors as points in the unmarked text', () => {
    expect(parseMarked('foo |bar')).toEqual({ text: 'foo bar', cursors: [new Point(0, 4)], ranges: [] })
    expect(parseMarked('|a\nb|c|')).toEqual({ text: 'a\nbc', cursors: [new Point(0, 0), new Point(1, 1), new Point(1, 2)], ranges: [] })
  })

  it('reads ranges between « and », with cursors inside them', () => {
    const parsed = parseMarked('one\n«two\nth|r»ee «»')
    expect(parsed.text).toBe('one\ntwo\nthree ')
    expect(parsed.ranges).toEqual([new Range([1, 0], [2, 3]), new Range([2, 6], [2, 6])])
    expect(parsed.cursors).toEqual([new Point(2, 2)])
  })

  it('counts \\r\\n and \\r as one line ending each, and columns in UTF-16 units', () => {
    expect(parseMarked('a\r\n|b\rc|').cursors).toEqual([new Point(1, 0), new Point(2, 1)])
    expect(parseMarked('😀|x').cursors).toEqual([new Point(0, 2)])
  })

  it('makes an escaped marker literal and leaves other backslashes alone', () => {
    expect(parseMarked('a\\|b|')).toEqual({ text: 'a|b', cursors: [new Point(0, 3)], ranges: [] })
    expect(parseMarked('\\«x\\»\\\\|').text).toBe('«x»\\')
    expect(parseMarked('\\\\|').cursors).toEqual([new Point(0, 1)])
    expect(parseMarked('\\d+|').text).toBe('\\d+')
    expect(parseMarked('end\\').text).toBe('end\\')
  })

  it('accepts other marker characters', () => {
    expect(parseMarked('a || b^', { cursor: '^' })).toEqual({ text: 'a || b', cursors: [new Point(0, 6)], ranges: [] })
  })

  it('rejects unbalanced or nested ranges, markers inside \\r\\n and bad marker sets', () => {
    expect(() => parseMarked('«a')).toThrow(/never closed/)
    expect(() => parseMarked('a»')).toThrow(/has no start/)
    expect(() => parseMarked('«a«b»»')).toThrow(/still open/)
    expect(() => parseMarked('a\r|\nb')).toThrow(/split a '\\r\\n'/)
    expect(() => parseMarked('a', { cursor: '«' })).toThrow(/different/)
    expect(() => parseMarked('a', { cursor: '||' })).toThrow(/single/)
  })
})

describe('markPoints and markRanges', () => {
  it('insert markers and escape marker characters of the text', () => {
    expect(markPoints('foo bar', [[0, 4]])).toBe('foo |bar')
    expect(markPoints('a|b\\', [[0, 3], [0, 0], [0, 3]])).toBe('|a\\|b||\\\\')
    expect(markRanges('one\ntwo', [[[0, 1], [1, 2]]])).toBe('o«ne\ntw»o')
    expect(markText('abc', { cursors: [[0, 1]], ranges: [[[0, 1], [0, 1]], [[0, 0], [0, 1]], [[0, 1], [0, 3]]] })).toBe('«a»«»|«bc»')
  })

  it('never put a marker inside \\r\\n', () => {
    expect(markPoints('a\r\nb', [[1, 0]])).toBe('a\r\n|b')
  })

  it('reject points outside the text and overlapping ranges', () => {
    expect(() => markPoints('ab', [[0, 3]])).toThrow(/outside the text: \(0, 3\)/)
    expect(() => markPoints('ab', [[1, 0]])).toThrow(/outside/)
    expect(() => markRanges('abcd', [[[0, 0], [0, 2]], [[0, 1], [0, 3]]])).toThrow(/overlap/)
  })

  it('round-trip through parseMarked (seeded)', () => {
    const alphabet = ['a', ' ', '\n', '\r\n', '\r', '|', '«', '»', '\\', '😀', 'é']
    for (const seed of fuzzSeeds(30)) {
      const random = new Random(seed)
      const text = random.string(12, alphabet)
      const rows = text.split(/\r\n|\r|\n/)
      const points: Point[] = []
      for (let i = random.int(4); i > 0; i--) {
        const row = random.int(rows.length)
        points.push(new Point(row, random.int(rows[row]!.length + 1)))
      }
      const marked = markPoints(text, points)
      const parsed = parseMarked(marked)
      const sorted = [...points].sort((a, b) => a.compare(b))
      expect({ seed, text: parsed.text, cursors: parsed.cursors }).toEqual({ seed, text, cursors: sorted })
    }
  })
})
