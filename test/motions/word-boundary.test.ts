import { describe, expect, it } from 'vitest'
import { linesOf } from '../../core/motions/line-source.ts'
import {
  nextSubwordBoundary,
  nextWordBoundary,
  previousSubwordBoundary,
  previousWordBoundary,
  type WordOptions,
} from '../../core/motions/word.ts'
import { type Motion, step, stops } from './step.ts'

const next: Motion = (lines, p) => nextWordBoundary(lines, p)
const previous: Motion = (lines, p) => previousWordBoundary(lines, p)
const nextSub: Motion = (lines, p) => nextSubwordBoundary(lines, p)
const previousSub: Motion = (lines, p) => previousSubwordBoundary(lines, p)
const withOptions =
  (fn: typeof nextWordBoundary, options: WordOptions): Motion =>
  (lines, p) =>
    fn(lines, p, options)

describe('nextWordBoundary', () => {
  it('goes to the end of the word under the cursor, then to the start of the next one', () => {
    expect(step('foo |bar-baz', next)).toBe('foo bar|-baz')
    expect(stops('|foo bar', next)).toBe('|foo| |bar|')
    expect(stops('|foo->bar(baz)', next)).toBe('|foo|->|bar|(|baz|)|')
  })

  it('stops at the start of the next row rather than at its first word', () => {
    expect(stops('foo|\n  bar', next)).toBe('foo|\n|  |bar|')
  })

  it('counts a whitespace-only row as a word', () => {
    expect(stops('|a\n  \nb', next)).toBe('|a|\n|  |\n|b|')
  })

  it('stays on an empty row, as Atom does: the empty match there is its answer', () => {
    expect(stops('|foo\n\nbar', next)).toBe('|foo|\n|\nbar')
    expect(step('\n|\nbar', next)).toBe('\n|\nbar')
  })

  it('does not move at the end of the text', () => {
    expect(step('foo|', next)).toBe('foo|')
    expect(step('|', next)).toBe('|')
    expect(step('foo  |', next)).toBe('foo  |')
  })

  it('treats non-ASCII letters and astral characters as word characters, Unicode spaces as spaces', () => {
    expect(stops('|é😀x y', next)).toBe('|é😀x| |y|')
    expect(step('a|\u00a0b', next)).toBe('a\u00a0|b')
  })

  it('uses the given non-word characters', () => {
    expect(stops('|foo.bar-baz', withOptions(nextWordBoundary, { nonWordCharacters: '-' }))).toBe('|foo.bar|-|baz|')
  })

  it('uses a custom word pattern', () => {
    expect(stops('|foo.bar', withOptions(nextWordBoundary, { wordRegex: /\w+/g }))).toBe('|foo|.|bar|')
  })

  it('reads only the rows near the cursor in a long text', () => {
    let reads = 0
    const rows = Array.from({ length: 100000 }, (_, i) => `row ${i}`)
    const lines = { getLineCount: () => rows.length, lineForRow: (row: number) => (reads++, rows[row]) }
    expect(nextWordBoundary(lines, [50000, 5]).toString()).toBe('(50000, 9)')
    expect(reads).toBeLessThan(10)
    reads = 0
    expect(nextWordBoundary(lines, [50000, 9]).toString()).toBe('(50001, 0)')
    expect(reads).toBeLessThan(10)
  })
})

describe('previousWordBoundary', () => {
  it('goes to the start of the word under the cursor, then to the end of the previous one', () => {
    expect(stops('foo bar|', previous)).toBe('|foo| |bar|')
    expect(stops('foo->bar(baz)|', previous)).toBe('|foo|->|bar|(|baz|)|')
  })

  it('stops at the start of the row before going to the row above', () => {
    expect(stops('foo\n  bar|', previous)).toBe('|foo|\n|  |bar|')
  })

  it('stops on an empty row above a row start, and then stays there, as Atom does', () => {
    expect(step('foo\n\n|bar', previous)).toBe('foo\n|\nbar')
    expect(step('foo\n|\nbar', previous)).toBe('foo\n|\nbar')
  })

  it('counts a whitespace-only row as a word', () => {
    expect(stops('foo\n  \n|bar', previous)).toBe('|foo|\n|  |\n|bar')
  })

  it('skips blank rows above a row start that has text before the cursor', () => {
    expect(step('foo\n\n\nb|ar', previous)).toBe('foo\n\n\n|bar')
  })

  it('goes from leading whitespace to the start of the row', () => {
    expect(step('foo\n    |bar', previous)).toBe('foo\n|    bar')
  })

  it('does not move at the start of the text', () => {
    expect(step('|foo', previous)).toBe('|foo')
    expect(step('|', previous)).toBe('|')
  })

  it('uses the given non-word characters and custom patterns', () => {
    expect(stops('foo.bar-baz|', withOptions(previousWordBoundary, { nonWordCharacters: '-' }))).toBe('|foo.bar|-|baz|')
    expect(stops('foo.bar|', withOptions(previousWordBoundary, { wordRegex: /\w+/g }))).toBe('|foo|.|bar|')
  })
})

describe('nextSubwordBoundary', () => {
  it('stops at camelCase, snake_case, digit and punctuation boundaries', () => {
    expect(stops('|getPreviousWord', nextSub)).toBe('|get|Previous|Word|')
    expect(stops('|sub_word_x', nextSub)).toBe('|sub|_word|_x|')
    expect(stops('|abc123Def', nextSub)).toBe('|abc|123|Def|')
    expect(stops('|a, b', nextSub)).toBe('|a|,| |b|')
    expect(stops('|XMLHttp', nextSub)).toBe('|XML|Http|')
  })

  it('stops after leading blanks and before trailing ones', () => {
    expect(stops('|  foo  ', nextSub)).toBe('|  |foo|  |')
  })

  it('jumps over a line break into punctuation that starts the next row, as Atom does', () => {
    expect(step('foo()|\n  .then()', nextSub)).toBe('foo()\n  .|then()')
  })

  it('goes to the start of the next row when the next subword is there', () => {
    expect(step('foo|\nbar', nextSub)).toBe('foo\n|bar')
  })

  it('does not move in an empty text', () => {
    expect(step('|', nextSub)).toBe('|')
  })

  it('uses the given non-word characters', () => {
    expect(stops('|a#b', (lines, p) => nextSubwordBoundary(lines, p, '#'))).toBe('|a|#|b|')
    // '.' is no longer punctuation, and a lone '.' belongs to no subword
    expect(stops('|a.b', (lines, p) => nextSubwordBoundary(lines, p, '#'))).toBe('|a|.|b|')
  })
})

describe('previousSubwordBoundary', () => {
  it('stops at camelCase, snake_case, digit and punctuation boundaries', () => {
    expect(stops('getPreviousWord|', previousSub)).toBe('|get|Previous|Word|')
    expect(stops('sub_word_x|', previousSub)).toBe('|sub_|word_|x|')
    expect(stops('abc123Def|', previousSub)).toBe('|abc|123|Def|')
    expect(stops('a, b|', previousSub)).toBe('|a|, |b|')
  })

  it('stops at the start of the row before going up', () => {
    expect(stops('foo\nbar|', previousSub)).toBe('|foo|\n|bar|')
  })

  it('goes to the row start from the first subword of a row below a punctuation-ended row', () => {
    expect(step('foo.\nba|r', previousSub)).toBe('foo.\n|bar')
    expect(step('foo.\n|bar', previousSub)).toBe('foo|.\nbar')
  })

  it('does not move in an empty text', () => {
    expect(step('|', previousSub)).toBe('|')
  })

  it('rejects non-word characters that are not a string', () => {
    expect(() => previousSubwordBoundary(linesOf('a'), [0, 0], 3 as never)).toThrow(/nonWordCharacters must be a string/)
    expect(() => nextSubwordBoundary(linesOf('a'), [0, 0], null as never)).toThrow(TypeError)
  })
})
