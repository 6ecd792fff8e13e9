import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { ScanTooSlowError } from '../../core/buffer/regex-budget.ts'
import { findAllOffsets, mayCrossLines } from '../../core/buffer/scan.ts'
import { mayBacktrackBadly } from '../../core/buffer/regex-budget.ts'
import { Range, type RangeLike } from '../../core/point/range.ts'
import { markRanges } from '../helpers/marked-text.ts'

/** The text with every range the scan reports marked, as Atom's scanInRange reports them. */
function scanned(text: string, regex: RegExp, range?: RangeLike, backwards = false): string {
  const buffer = new TextBuffer({ text })
  const ranges: Range[] = []
  const scanRange = range ?? buffer.getRange()
  if (backwards) buffer.backwardsScanInRange(regex, scanRange, ({ range: r }) => ranges.push(r))
  else buffer.scanInRange(regex, scanRange, ({ range: r }) => ranges.push(r))
  return markRanges(text, backwards ? ranges.reverse() : ranges)
}

describe('TextBuffer scan (Atom semantics)', () => {
  it('reports every match of a global regex with its range, text and row', () => {
    const buffer = new TextBuffer({ text: 'foo bar\nbaz foo\r\nfoo' })
    const seen: string[] = []
    buffer.scan(/fo+/g, ({ range, matchText, lineText, lineTextOffset, match }) => seen.push(`${range} ${matchText} ${lineText} ${lineTextOffset} ${match.index}`))
    expect(seen).toEqual(['[(0, 0) - (0, 3)] foo foo bar 0 0', '[(1, 4) - (1, 7)] foo baz foo 0 4', '[(2, 0) - (2, 3)] foo foo 0 0'])
  })

  it('stops after the first match of a non-global regex (the last, backwards)', () => {
    expect(scanned('a a a', /a/)).toBe('«a» a a')
    expect(scanned('a a a', /a/, undefined, true)).toBe('a a «a»')
  })

  it('advances past zero-length matches: one per position, one per empty row, none inside \\r\\n', () => {
    expect(scanned('ab', /x*/g)).toBe('«»a«»b')
    expect(scanned('a\n\nb', /^/g)).toBe('«»a\n«»\n«»b')
    expect(scanned('a\r\nb', /$/g)).toBe('a«»\r\nb')
    // Atom skips a match at the range end when that end is at a column > 0.
    expect(scanned('a  b', /[\t ]*/g)).toBe('«»a«  »«»b')
    expect(scanned('a\n', /[\t ]*/g)).toBe('«»a«»\n«»')
  })

  it('finds matches across lines with patterns that cross them', () => {
    expect(scanned('ab\ncd\nef', /b\ncd?\n/g)).toBe('a«b\ncd\n»ef')
    expect(scanned('x\n\n\ny', /\n+/g)).toBe('x«\n\n\n»y')
    const long = 'a' + '\n'.repeat(30000) + 'b'
    expect(scanned(long, /a\n+b/g)).toBe('«' + long + '»')
  })

  it('does not let ^ match where a range starts mid-row, nor $ where it ends mid-row, and skips a match at a mid-row end', () => {
    expect(scanned('abc', /^\w/g, [[0, 1], [0, 3]])).toBe('abc')
    expect(scanned('abcd', /\w$/g, [[0, 0], [0, 2]])).toBe('abcd')
    expect(scanned('abcd', /\w+/g, [[0, 1], [0, 3]])).toBe('a«bc»d')
    expect(scanned('ab', /x*/g, [[0, 0], [0, 1]])).toBe('«»ab')
  })

  it('gives context lines when asked', () => {
    const buffer = new TextBuffer({ text: 'one\ntwo\nthree\nfour' })
    const got: string[][] = []
    buffer.scan(/three/g, { leadingContextLineCount: 2, trailingContextLineCount: 3 }, ({ leadingContextLines, trailingContextLines }) => got.push(leadingContextLines, trailingContextLines))
    expect(got).toEqual([['one', 'two'], ['four']])
  })

  it('stop() ends the scan after the current match', () => {
    const seen: string[] = []
    new TextBuffer({ text: 'a1 a2 a3' }).scan(/a\d/g, ({ matchText, stop }) => {
      seen.push(matchText)
      if (matchText === 'a2') stop()
    })
    expect(seen).toEqual(['a1', 'a2'])
  })

  it('replace() during a forward scan shifts the later matches, on the same row and below', () => {
    const buffer = new TextBuffer({ text: 'a a\na' })
    const ranges: string[] = []
    buffer.scan(/a/g, ({ range, replace }) => {
      ranges.push(String(range))
      replace('xyz\n')
    })
    expect(ranges).toEqual(['[(0, 0) - (0, 1)]', '[(1, 1) - (1, 2)]', '[(3, 0) - (3, 1)]'])
    expect(buffer.getText()).toBe('xyz\n xyz\n\nxyz\n')
  })

  it('replace() during a backwards scan leaves the earlier matches where they are', () => {
    const buffer = new TextBuffer({ text: 'a a a' })
    buffer.backwardsScan(/a/g, ({ replace }) => replace('bb'))
    expect(buffer.getText()).toBe('bb bb bb')
  })

  it('makes all replacements of one scan one transaction, and one undo step', () => {
    const buffer = new TextBuffer({ text: 'a a a' })
    let transactions = 0
    buffer.doc.on('afterTransaction', () => transactions++)
    const undo = new Y.UndoManager(buffer.ytext, { trackedOrigins: new Set([buffer.origin]) })
    buffer.scan(/a/g, ({ replace }) => replace('b'))
    expect(buffer.getText()).toBe('b b b')
    expect(transactions).toBe(1)
    undo.undo()
    expect(buffer.getText()).toBe('a a a')
  })

  it('replace(regex, text) expands $1 like String#replace and returns the count', () => {
    const buffer = new TextBuffer({ text: 'key=1 key=22' })
    expect(buffer.replace(/key=(\d+)/g, '$1:key')).toBe(2)
    expect(buffer.getText()).toBe('1:key 22:key')
    expect(buffer.replace(/nothing/g, 'x')).toBe(0)
  })

  it('keeps the i, s and u flags and never changes the caller’s regex', () => {
    const regex = /a.b/gis
    regex.lastIndex = 3
    expect(scanned('A\nB a-b', regex)).toBe('«A\nB» «a-b»')
    expect(regex.lastIndex).toBe(3)
    expect(scanned('😀😀', /(?:)/gu)).toBe('«»😀«»😀')
  })

  it('rejects a missing iterator or a non-RegExp', () => {
    const buffer = new TextBuffer({ text: 'a' })
    expect(() => buffer.scan('a' as unknown as RegExp, () => {})).toThrow(/regex must be a RegExp/)
    expect(() => buffer.scan(/a/g, {})).toThrow(/iterator/)
  })
})

describe('bad patterns', () => {
  it('stops a catastrophically backtracking pattern with "too slow", having changed nothing', () => {
    const text = 'a'.repeat(50000) + 'b'
    const buffer = new TextBuffer({ text })
    let calls = 0
    expect(() => buffer.replace(/(a+)+$/g, 'x')).toThrow(ScanTooSlowError)
    expect(() => buffer.scan(/(a+)+$/g, { timeLimit: 100 }, () => calls++)).toThrow(/too slow/)
    expect(calls).toBe(0)
    expect(buffer.getText()).toBe(text)
  })

  it('counts the time on the clock it is given', () => {
    let now = 0
    const clock = () => (now += 10)
    const buffer = new TextBuffer({ text: ('x'.repeat(60) + '\n').repeat(5000) })
    expect(() => buffer.scan(/y/g, { now: clock, timeLimit: 25 }, () => {})).toThrow(ScanTooSlowError)
    expect(() => buffer.scan(/y/g, { now: clock, timeLimit: 1e9 }, () => {})).not.toThrow()
  })

  it('still finds the matches of a pattern flagged as risky when it is fast', () => {
    expect(scanned('ab ab ab', /(ab|c)+/g)).toBe('«ab» «ab» «ab»')
    expect(findAllOffsets(new TextBuffer({ text: 'xx aaa aa' }), /(a+)+/g, 0, 9)).toEqual([3, 6, 7, 9])
  })

  it('tells risky and line-crossing patterns apart', () => {
    expect(mayBacktrackBadly('(a+)+$')).toBe(true)
    expect(mayBacktrackBadly('(\\w+\\s?)*x')).toBe(true)
    expect(mayBacktrackBadly('(a|ab)*c')).toBe(true)
    expect(mayBacktrackBadly('(\\w)\\1')).toBe(true)
    expect(mayBacktrackBadly('foo(bar)+')).toBe(false)
    expect(mayBacktrackBadly('[(a+)+]')).toBe(false)
    expect(mayCrossLines(/a\nb/)).toBe(true)
    expect(mayCrossLines(/a\s+b/)).toBe(true)
    expect(mayCrossLines(/a[^x]b/)).toBe(true)
    expect(mayCrossLines(/a.b/s)).toBe(true)
    expect(mayCrossLines(/a.b\w/)).toBe(false)
  })
})
