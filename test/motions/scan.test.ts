import { describe, expect, it } from 'vitest'
import { Point } from '../../core/point/point.ts'
import type { RangeLike } from '../../core/point/range.ts'
import { linesOf } from '../../core/motions/line-source.ts'
import { findAllInRange, findInRange, matchesInRange, scanInRange, scanningRegExp } from '../../core/motions/scan.ts'
import { DEFAULT_NON_WORD_CHARACTERS, subwordRegExp, wordRegExp } from '../../core/motions/regexps.ts'
import { markRanges } from '../helpers/marked-text.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

const WORD = wordRegExp(DEFAULT_NON_WORD_CHARACTERS)

/** The text with every match of `regex` in `range` marked. */
function marks(text: string, regex: RegExp, range: RangeLike = [[0, 0], [Infinity, Infinity]]): string {
  return markRanges(text, findAllInRange(linesOf(text), regex, range))
}

describe('findAllInRange', () => {
  it('finds words, runs of non-word characters and one empty match per empty row', () => {
    expect(marks('foo(bar)', WORD)).toBe('«foo»«(»«bar»«)»')
    expect(marks('a\n\n  \nb', WORD)).toBe('«a»\n«»\n«  »\n«b»')
  })

  it('does not let ^ match where a range starts mid-row', () => {
    expect(marks('   ', WORD, [[0, 1], [0, 3]])).toBe('   ')
    expect(marks('   ', WORD, [[0, 0], [0, 3]])).toBe('«   »')
  })

  it('does not let $ match where a range ends mid-row, and cuts a word short there', () => {
    expect(marks('    foo', WORD, [[0, 0], [0, 2]])).toBe('    foo')
    expect(marks('foobar', WORD, [[0, 0], [0, 3]])).toBe('«foo»bar')
    expect(marks('ab\ncd', WORD, [[0, 0], [1, 0]])).toBe('«ab»\ncd')
    expect(marks('ab\n', WORD, [[0, 0], [1, 0]])).toBe('«ab»\n«»')
  })

  it('reports no empty match at the range end right after a match that ended there', () => {
    expect(marks('ab', /\w*/, [[0, 0], [0, 2]])).toBe('«ab»')
    expect(marks('ab cd', /\w*/, [[0, 0], [0, 3]])).toBe('«ab»«» «»cd')
    expect(marks('a  b', /[\t ]*/)).toBe('«»a«  »«»b«»')
  })

  it('lets a match run across line breaks through whitespace, as the subword patterns do', () => {
    const forward = subwordRegExp(DEFAULT_NON_WORD_CHARACTERS)
    expect(marks('foo()\n  .then()', forward)).toBe('«foo»«()»«\n  .»«then»«()»')
    const backward = subwordRegExp(DEFAULT_NON_WORD_CHARACTERS, { backwards: true })
    expect(marks('a.\n\n   \n  b', backward)).toBe('«a»«.\n\n   \n  »«b»')
  })

  it('finds a match across more than 256 blank rows from a later row (the documented limit)', () => {
    const text = 'a' + '\n'.repeat(300) + '.'
    const matches = findAllInRange(linesOf(text), subwordRegExp(DEFAULT_NON_WORD_CHARACTERS), [[0, 0], [300, 1]])
    expect(matches.map(String)).toEqual(['[(0, 0) - (0, 1)]', '[(256, 0) - (300, 1)]'])
  })

  it('widens its window when a match reaches the end of it', () => {
    expect(marks('a' + '\n'.repeat(600) + 'b', /\s+/)).toBe('a«' + '\n'.repeat(600) + '»b')
    expect(marks('ab\ncd\nef', /b[\s\S]*/)).toBe('a«b\ncd\nef»')
  })

  it('keeps the i and u flags, drops y, and never changes the caller’s RegExp', () => {
    expect(marks('aA', /a/i)).toBe('«a»«A»')
    expect(marks('😀x', /./u)).toBe('«😀»«x»')
    const sticky = /b/y
    sticky.lastIndex = 1
    expect(marks('ab b', sticky)).toBe('a«b» «b»')
    expect(sticky.lastIndex).toBe(1)
    expect(scanningRegExp(/x/imsuy).flags).toBe('gimsu')
  })

  it('steps over a whole surrogate pair after an empty match', () => {
    expect(marks('😀', /(?:)/)).toBe('«»😀«»')
  })

  it('clips the range to the text and accepts it in either order', () => {
    expect(marks('ab\ncd', WORD, [[5, 0], [-1, 0]])).toBe('«ab»\n«cd»')
  })

  it('rejects arguments of the wrong type', () => {
    const lines = linesOf('a')
    expect(() => findAllInRange({} as never, WORD, [[0, 0], [0, 1]])).toThrow(TypeError)
    expect(() => findAllInRange(lines, 'a' as never, [[0, 0], [0, 1]])).toThrow(/regex must be a RegExp/)
    expect(() => findAllInRange(lines, WORD, 'x' as never)).toThrow(/range must be a Range/)
    expect(() => matchesInRange(lines, /a/, null as never)).toThrow(/range must be a Range/)
    expect(() => scanInRange(lines, null as never, [[0, 0], [0, 1]])).toThrow(/regex must be a RegExp/)
  })
})

describe('findInRange, scanInRange and laziness', () => {
  it('findInRange returns the first match or null', () => {
    const lines = linesOf('  foo bar')
    expect(findInRange(lines, WORD, [[0, 0], [0, 9]])?.toString()).toBe('[(0, 2) - (0, 5)]')
    expect(findInRange(lines, /z/, [[0, 0], [0, 9]])).toBeNull()
  })

  it('scanInRange skips a match starting at a range end that is not at column 0', () => {
    const lines = linesOf('ab\n\ncd')
    expect([...scanInRange(lines, WORD, [[0, 2], [0, 2]])]).toEqual([])
    expect([...scanInRange(lines, WORD, [[1, 0], [1, 0]])].map(String)).toEqual(['[(1, 0) - (1, 0)]'])
    expect([...scanInRange(lines, /(?:)/, [[0, 0], [0, 2]])].map(String)).toEqual(['[(0, 0) - (0, 0)]', '[(0, 1) - (0, 1)]'])
  })

  it('reads only the rows it needs for the first match', () => {
    let reads = 0
    const rows = Array.from({ length: 10000 }, (_, i) => `word${i} other`)
    const lines = { getLineCount: () => rows.length, lineForRow: (row: number) => (reads++, rows[row]) }
    const first = matchesInRange(lines, WORD, [[0, 0], [9999, 10]]).next()
    expect(first.value?.toString()).toBe('[(0, 0) - (0, 5)]')
    expect(reads).toBeLessThanOrEqual(4) // two to clip the range, two for the first window
  })
})

/** The same search on the whole joined text, with no windows: what the windowed search must equal. */
function referenceFindAll(rows: string[], regex: RegExp, start: Point, end: Point): string[] {
  const rowStarts: number[] = []
  let offset = 0
  for (const row of rows) {
    rowStarts.push(offset)
    offset += row.length + 1
  }
  const text = rows.join('\n')
  const startOffset = rowStarts[start.row]! + start.column
  const endOffset = rowStarts[end.row]! + end.column
  const subject = text.slice(0, endOffset) + (end.column < rows[end.row]!.length ? '\u0000' : '')
  const pointAt = (o: number) => {
    let row = 0
    while (row + 1 < rowStarts.length && rowStarts[row + 1]! <= o) row++
    return new Point(row, o - rowStarts[row]!)
  }
  const pattern = scanningRegExp(regex)
  const found: string[] = []
  let index = startOffset
  let previousEnd = -1
  while (index <= endOffset) {
    pattern.lastIndex = index
    const match = pattern.exec(subject)
    if (match === null || match.index > endOffset) break
    const s = match.index
    if (s === endOffset && match[0].length > 0) break
    const e = Math.min(s + match[0].length, endOffset)
    if (s === e && s === endOffset && previousEnd === endOffset) break
    found.push(`${pointAt(s).toString()}-${pointAt(e).toString()}`)
    previousEnd = e
    const pair = /[\ud800-\udbff]/.test(subject[s] ?? '') && /[\udc00-\udfff]/.test(subject[s + 1] ?? '')
    index = e > s ? e : s + (pair ? 2 : 1)
  }
  return found
}

describe('windowed search (seeded, against a whole-text search)', () => {
  const alphabet = ['a', 'B', 'c', '1', '_', ' ', ' ', '\t', '.', '(', '-', '\n', '\n', '\n', '😀', 'é', '\u00a0']
  const patterns = [
    WORD,
    wordRegExp(DEFAULT_NON_WORD_CHARACTERS, { includeNonWordCharacters: false }),
    subwordRegExp(DEFAULT_NON_WORD_CHARACTERS),
    subwordRegExp(DEFAULT_NON_WORD_CHARACTERS, { backwards: true }),
    /[\t ]*/,
    /\s+/,
    /^$/,
    /\s*\.+/,
  ]
  it('finds the same matches for every pattern and range', () => {
    for (const seed of fuzzSeeds(150)) {
      const random = new Random(seed)
      const text = random.string(40, alphabet)
      const rows = text.split('\n')
      const lines = linesOf(text)
      const pick = () => {
        const row = random.int(rows.length)
        let column = random.int(rows[row]!.length + 1)
        if (/[\udc00-\udfff]/.test(rows[row]![column] ?? '') && column > 0) column--
        return new Point(row, column)
      }
      const a = pick()
      const b = pick()
      const [start, end] = a.isLessThanOrEqual(b) ? [a, b] : [b, a]
      for (const pattern of patterns) {
        const actual = findAllInRange(lines, pattern, [start, end]).map((r) => `${r.start.toString()}-${r.end.toString()}`)
        expect({ seed, pattern: String(pattern), actual }).toEqual({ seed, pattern: String(pattern), actual: referenceFindAll(rows, pattern, start, end) })
      }
    }
  })
})
