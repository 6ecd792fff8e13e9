import { describe, expect, it } from 'vitest'
import { linesOf } from '../../core/motions/line-source.ts'
import {
  beginningOfCurrentWord,
  beginningOfNextWord,
  currentWordPrefix,
  currentWordRange,
  endOfCurrentWord,
  isBetweenWordAndNonWord,
  isInsideWord,
  isSurroundedByWhitespace,
  selectWordRange,
  type WordOptions,
} from '../../core/motions/word.ts'
import { at, type Motion, rangeAt, step } from './step.ts'

const begin =
  (options: WordOptions = {}): Motion =>
  (lines, p) =>
    beginningOfCurrentWord(lines, p, options)
const end =
  (options: WordOptions = {}): Motion =>
  (lines, p) =>
    endOfCurrentWord(lines, p, options)
const nextWord =
  (options: WordOptions = {}): Motion =>
  (lines, p) =>
    beginningOfNextWord(lines, p, options)

describe('beginningOfCurrentWord', () => {
  it('goes to the start of the word the cursor is in or after', () => {
    expect(step('foo ba|r', begin())).toBe('foo |bar')
    expect(step('foo bar|', begin())).toBe('foo |bar')
    expect(step('  foo  |', begin())).toBe('  |foo  ')
    expect(step('a 😀|b', begin())).toBe('a |😀b')
  })

  it('reaches back to the previous word from a word start (allowPrevious)', () => {
    expect(step('foo |bar', begin())).toBe('|foo bar')
    expect(step('foo\n|bar', begin())).toBe('|foo\nbar')
  })

  it('stays within the word that touches the cursor when allowPrevious is false', () => {
    expect(step('foo |bar', begin({ allowPrevious: false }))).toBe('foo |bar')
    expect(step('foo| bar', begin({ allowPrevious: false }))).toBe('|foo bar')
    expect(step('foo\n|bar', begin({ allowPrevious: false }))).toBe('foo\n|bar')
  })

  it('stops on an empty row above', () => {
    expect(step('foo\n\n|bar', begin())).toBe('foo\n|\nbar')
  })

  it('falls back to the start of the text when nothing is found, as Atom does', () => {
    expect(step('    |foo', begin())).toBe('|    foo')
    expect(step('a\n\u00a0\n  |b', begin())).toBe('|a\n\u00a0\n  b')
    expect(step('|foo', begin())).toBe('|foo')
  })

  it('counts punctuation runs as words unless told otherwise', () => {
    expect(step('foo.|bar', begin())).toBe('foo|.bar')
    expect(step('foo.|bar', begin({ includeNonWordCharacters: false }))).toBe('|foo.bar')
    expect(step('foo-b|ar', begin({ nonWordCharacters: '.' }))).toBe('|foo-bar')
    expect(step('foo.b|ar', begin({ wordRegex: /[a-z]+/g }))).toBe('foo.|bar')
  })
})

describe('endOfCurrentWord', () => {
  it('goes to the end of the word the cursor is in or before', () => {
    expect(step('f|oo bar', end())).toBe('foo| bar')
    expect(step('foo| bar', end())).toBe('foo bar|')
    expect(step('foo |  bar', end())).toBe('foo   bar|')
  })

  it('looks at most two rows down, and stops on an empty row', () => {
    expect(step('foo|\nbar', end())).toBe('foo\nbar|')
    expect(step('foo|\n\nbar', end())).toBe('foo\n|\nbar')
    expect(step('foo|\n\u00a0\n\u00a0\nbar', end())).toBe('foo\n\u00a0\n\u00a0\nbar|')
  })

  it('stays on the row when allowNext is false', () => {
    expect(step('foo| bar', end({ allowNext: false }))).toBe('foo| bar')
    expect(step('f|oo bar', end({ allowNext: false }))).toBe('foo| bar')
    expect(step('foo|\nbar', end({ allowNext: false }))).toBe('foo|\nbar')
  })

  it('goes to the end of the text when nothing is found', () => {
    expect(step('foo|', end())).toBe('foo|')
    expect(step('foo|  ', end())).toBe('foo  |')
  })

  it('honours includeNonWordCharacters and nonWordCharacters', () => {
    expect(step('foo|.bar', end())).toBe('foo.|bar')
    expect(step('foo|.bar', end({ includeNonWordCharacters: false }))).toBe('foo.bar|')
    expect(step('f|oo.bar', end({ nonWordCharacters: '-' }))).toBe('foo.bar|')
  })
})

describe('beginningOfNextWord', () => {
  it('goes from inside a word to the start of the next one', () => {
    expect(step('f|oo bar', nextWord())).toBe('foo |bar')
    expect(step('foo| bar', nextWord())).toBe('foo |bar')
    expect(step('foo |  bar', nextWord())).toBe('foo   |bar')
    expect(step('ab| cde- ', nextWord())).toBe('ab |cde- ')
  })

  it('skips the first word of the next row from a row end, as Atom does (the row end counts as inside a word)', () => {
    expect(step('foo|\nbar baz', nextWord())).toBe('foo\nbar |baz')
    expect(step('foo|\n  bar baz', nextWord())).toBe('foo\n  bar |baz')
  })

  it('goes from an empty row past the first word below to the next one', () => {
    expect(step('|\nfoo bar', nextWord())).toBe('\nfoo |bar')
    expect(step('|\n\nfoo', nextWord())).toBe('\n|\nfoo')
  })

  it('stays put when no word start is left', () => {
    expect(step('foo|', nextWord())).toBe('foo|')
    expect(step('foo  |', nextWord())).toBe('foo  |')
    expect(step('foo |  \nbar', nextWord())).toBe('foo |  \nbar')
  })

  it('uses a custom word pattern for every step', () => {
    expect(step('f|oo.bar', nextWord({ wordRegex: /[a-z]+/g }))).toBe('foo.|bar')
  })
})

describe('currentWordRange', () => {
  it('is the first word touching the cursor', () => {
    expect(rangeAt('foo b|ar baz', currentWordRange)).toBe('foo «bar» baz')
    expect(rangeAt('foo |bar', currentWordRange)).toBe('foo «bar»')
    expect(rangeAt('foo| bar', currentWordRange)).toBe('«foo» bar')
    expect(rangeAt('a.|b', currentWordRange)).toBe('a«.»b')
    expect(rangeAt('a.|b', (lines, p) => currentWordRange(lines, p, { includeNonWordCharacters: false }))).toBe('a.«b»')
  })

  it('is empty in the middle of whitespace and on an empty row', () => {
    expect(rangeAt('foo |  bar', currentWordRange)).toBe('foo «»  bar')
    expect(rangeAt('|', currentWordRange)).toBe('«»')
  })

  it('covers a whole whitespace-only row', () => {
    expect(rangeAt('x\n  |  ', currentWordRange)).toBe('x\n«    »')
  })
})

describe('selectWordRange', () => {
  it('selects the word, or the word rather than the punctuation next to it', () => {
    expect(rangeAt('foo.|bar', selectWordRange)).toBe('foo.«bar»')
    expect(rangeAt('foo|.bar', selectWordRange)).toBe('«foo».bar')
    expect(rangeAt('foo|', selectWordRange)).toBe('«foo»')
    expect(rangeAt('(|.)', selectWordRange)).toBe('«(.)»')
  })

  it('selects the run of blanks around a cursor surrounded by whitespace', () => {
    expect(rangeAt('a  |  b', selectWordRange)).toBe('a«    »b')
    expect(rangeAt('|  foo', selectWordRange)).toBe('«  »foo')
  })

  it('uses the non-word characters it is given', () => {
    const text = "one-one; 'two-two'; three-three"
    expect(rangeAt(text.replace('one-one', 'o|ne-one'), (l, p) => selectWordRange(l, p, { nonWordCharacters: "/()\"':,.;<>~!@#$%^&*|+=[]{}`?-" }))).toBe(
      "«one»-one; 'two-two'; three-three",
    )
    expect(rangeAt(text.replace('two-two', 'two-|two'), (l, p) => selectWordRange(l, p, { nonWordCharacters: "/()\"':,.;<>~!@#$%^&*|+=[]{}`?" }))).toBe(
      "one-one; '«two-two»'; three-three",
    )
  })
})

describe('isInsideWord', () => {
  it('is true when a word (or a blank rest of row) starts at the cursor', () => {
    const inside = (marked: string, options?: WordOptions) => at(marked, (l, p) => isInsideWord(l, p, options))
    expect([inside('fo|o'), inside('foo |bar'), inside('a|.b'), inside('foo|'), inside('foo |  '), inside('|')]).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ])
    expect([inside('foo| bar'), inside('|  foo'), inside('a|.b', { wordRegex: /\w+/g })]).toEqual([false, false, false])
  })

  it("leaves the caller's RegExp as it was", () => {
    const regex = /\w+/g
    regex.lastIndex = 3
    at('ab|c', (l, p) => isInsideWord(l, p, { wordRegex: regex }))
    expect(regex.lastIndex).toBe(3)
  })
})

describe('currentWordPrefix', () => {
  it('is the text from the beginning of the current word to the cursor', () => {
    const prefix = (marked: string) => at(marked, (l, p) => currentWordPrefix(l, p))
    expect([prefix('foo ba|r'), prefix('foo |bar'), prefix('foo\n|bar'), prefix('|foo')]).toEqual(['ba', 'foo ', 'foo\n', ''])
  })
})

describe('isSurroundedByWhitespace and isBetweenWordAndNonWord', () => {
  it('isSurroundedByWhitespace looks at the characters on both sides within the row', () => {
    const surrounded = (marked: string) => at(marked, isSurroundedByWhitespace)
    // At a row's start or end only the one character inside the row is looked at.
    expect(['a | b', 'a\t|\tb', '| a', 'a |', 'a\n| b', 'a\u00a0|\u00a0b'].map(surrounded)).toEqual([true, true, true, true, true, true])
    expect(['a| b', 'a |b', '|', '|a', 'a\n|b'].map(surrounded)).toEqual([false, false, false, false, false])
  })

  it('isBetweenWordAndNonWord needs one word and one non-word neighbour, no whitespace', () => {
    const between = (marked: string, nonWord?: string) => at(marked, (l, p) => isBetweenWordAndNonWord(l, p, nonWord))
    expect(['a|.b', 'a.|b', 'a|…'].map((m) => between(m))).toEqual([true, true, true])
    expect(['a|b', '.|(', 'a| .', '|.a', 'a.|'].map((m) => between(m))).toEqual([false, false, false, false, false])
    expect(between('a|-b', '.')).toBe(false)
    expect(between('a|#b', '#')).toBe(true)
  })
})

describe('argument checking', () => {
  const lines = linesOf('foo')
  it('throws a TypeError naming the bad argument', () => {
    expect(() => beginningOfCurrentWord(null as never, [0, 0])).toThrow(/lines must be a LineSource/)
    expect(() => endOfCurrentWord(lines, 'x' as never)).toThrow(/position must be a Point/)
    expect(() => beginningOfNextWord(lines, [0, 0], 'x' as never)).toThrow(/options must be an object/)
    expect(() => currentWordRange(lines, [0, 0], { wordRegex: 'a' as never })).toThrow(/options.wordRegex must be a RegExp/)
    expect(() => isInsideWord(lines, [0, 0], { nonWordCharacters: 1 as never })).toThrow(/options.nonWordCharacters must be a string/)
    expect(() => isBetweenWordAndNonWord(lines, [0, 1], 1 as never)).toThrow(/nonWordCharacters must be a string/)
  })

  it('clips positions outside the text', () => {
    expect(endOfCurrentWord(lines, [-5, 2]).toString()).toBe('(0, 3)')
    expect(beginningOfCurrentWord(lines, [9, 9]).toString()).toBe('(0, 0)')
    expect(currentWordRange(lines, [0, 99]).toString()).toBe('[(0, 0) - (0, 3)]')
  })
})
