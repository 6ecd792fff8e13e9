import { describe, expect, it } from 'vitest'
import { linesOf } from '../../core/motions/line-source.ts'
import { findAllInRange } from '../../core/motions/scan.ts'
import { DEFAULT_NON_WORD_CHARACTERS, escapeForCharacterClass, subwordRegExp, wordRegExp } from '../../core/motions/regexps.ts'
import { markRanges } from '../helpers/marked-text.ts'

function marks(text: string, regex: RegExp): string {
  return markRanges(text, findAllInRange(linesOf(text), regex, [[0, 0], [Infinity, Infinity]]))
}

describe('DEFAULT_NON_WORD_CHARACTERS', () => {
  it("is Atom's editor.nonWordCharacters default", () => {
    expect(DEFAULT_NON_WORD_CHARACTERS).toBe('/\\()"\':,.;<>~!@#$%^&*|+=[]{}`?-…')
  })
})

describe('wordRegExp', () => {
  it("has Atom's three alternatives: a blank line, a word, a run of non-word characters", () => {
    expect(wordRegExp('.-').source).toBe('^[\\t ]*$|[^\\s.\\-]+|[.\\-]+')
    expect(wordRegExp('.-', { includeNonWordCharacters: false }).source).toBe('^[\\t ]*$|[^\\s.\\-]+')
    expect(wordRegExp('.').flags).toBe('gu')
  })

  it('splits text into words and runs of non-word characters', () => {
    const regex = wordRegExp(DEFAULT_NON_WORD_CHARACTERS)
    expect(marks('foo.bar(baz) => qux…', regex)).toBe('«foo»«.»«bar»«(»«baz»«)» «=>» «qux»«…»')
    expect(marks('\t \n\nx', regex)).toBe('«\t »\n«»\n«x»')
    expect(marks('x\u00a0y', regex)).toBe('«x»\u00a0«y»')
  })

  it('leaves non-word characters out of the words when asked to', () => {
    expect(marks('foo.bar', wordRegExp(DEFAULT_NON_WORD_CHARACTERS, { includeNonWordCharacters: false }))).toBe('«foo».«bar»')
  })

  it('escapes every character that is special in a character class', () => {
    const regex = wordRegExp(']\\^-[')
    expect(marks('a]b\\c^d-e[f', regex)).toBe('«a»«]»«b»«\\\\»«c»«^»«d»«-»«e»«[»«f»') // the helper escapes the backslash
    expect(escapeForCharacterClass('a]\\^-[')).toBe('a\\]\\\\\\^\\-\\[')
  })

  it('handles astral non-word characters and keeps astral word characters whole', () => {
    expect(marks('a😀b𝒳c', wordRegExp('😀'))).toBe('«a»«😀»«b𝒳c»')
  })

  it('accepts an empty set of non-word characters', () => {
    expect(marks('a.b c', wordRegExp(''))).toBe('«a.b» «c»')
  })

  it('rejects a non-string', () => {
    expect(() => wordRegExp(5 as never)).toThrow(/nonWordCharacters must be a string; got number/)
  })
})

describe('subwordRegExp', () => {
  const forward = subwordRegExp(DEFAULT_NON_WORD_CHARACTERS)
  const backward = subwordRegExp(DEFAULT_NON_WORD_CHARACTERS, { backwards: true })

  it('splits camelCase, PascalCase and upper-case runs', () => {
    expect(marks('getPreviousWord', forward)).toBe('«get»«Previous»«Word»')
    expect(marks('XMLHttpRequest', forward)).toBe('«XML»«Http»«Request»')
    expect(marks('ALPhA', forward)).toBe('«AL»«Ph»«A»')
  })

  it('keeps underscores before a hump going forward and after it going backward', () => {
    expect(marks('sub_word __x__', forward)).toBe('«sub»«_word» «__x»«__»')
    expect(marks('sub_word __x__', backward)).toBe('«sub_»«word» «__»«x__»')
  })

  it('takes digits as their own subwords', () => {
    expect(marks('abc123def', forward)).toBe('«abc»«123»«def»')
  })

  it('takes whitespace before punctuation going forward and after it going backward', () => {
    expect(marks('e, => x', forward)).toBe('«e»«,»« =>» «x»')
    expect(marks('e, => x', backward)).toBe('«e»«, »«=> »«x»')
  })

  it('takes leading and trailing blanks of a line as subwords', () => {
    expect(marks('  ab  \n\tc ', forward)).toBe('«  »«ab»«  »\n«\t»«c»« »')
  })

  it('knows Latin-1 letters, as Atom does', () => {
    expect(marks('gétÁrevìôüsWord', forward)).toBe('«gét»«Árevìôüs»«Word»')
    expect(marks('supaÖast ÀÁÅDF', forward)).toBe('«supa»«Öast» «ÀÁÅDF»')
  })

  it('escapes the non-word characters it is given', () => {
    expect(marks('a]b-c', subwordRegExp(']-'))).toBe('«a»«]»«b»«-»«c»')
  })
})
