import { describe, expect, it } from 'vitest'
import type { Point } from '../../core/point/point.ts'
import { type LineSource, linesOf } from '../../core/motions/line-source.ts'
import {
  beginningOfCurrentWord,
  beginningOfNextWord,
  endOfCurrentWord,
  nextSubwordBoundary,
  nextWordBoundary,
  previousSubwordBoundary,
  previousWordBoundary,
  selectWordRange,
} from '../../core/motions/word.ts'
import { beginningOfNextParagraph, beginningOfPreviousParagraph, paragraphRowRange } from '../../core/motions/paragraph.ts'

/*
 * Expectations from Atom's own text-editor spec (spec/text-editor-spec.js), which ran against Atom's
 * editor: the same texts, positions and results, as facts about the behaviour to reproduce.
 */

// Atom's spec/fixtures/sample.js
const SAMPLE = [
  'var quicksort = function () {',
  '  var sort = function(items) {',
  '    if (items.length <= 1) return items;',
  '    var pivot = items.shift(), current, left = [], right = [];',
  '    while(items.length > 0) {',
  '      current = items.shift();',
  '      current < pivot ? left.push(current) : right.push(current);',
  '    }',
  '    return sort(left).concat(pivot).concat(sort(right));',
  '  };',
  '',
  '  return sort(Array.apply(this, arguments));',
  '};',
  '',
].join('\n')

type Fn = (lines: LineSource, position: [number, number]) => Point
type Case = [from: [number, number], to: [number, number]]

function check(text: string, fn: Fn, cases: Case[]): void {
  const lines = linesOf(text)
  const actual = cases.map(([from]) => [from, fn(lines, from).toArray()])
  expect(actual).toEqual(cases)
}

describe("Atom's spec on sample.js", () => {
  it('moveToPreviousWordBoundary', () => {
    check(SAMPLE, previousWordBoundary, [
      [[0, 8], [0, 4]],
      [[2, 0], [1, 30]],
      [[2, 4], [2, 0]],
      [[3, 14], [3, 13]],
      [[3, 4], [3, 0]],
    ])
  })

  it('moveToNextWordBoundary', () => {
    check(SAMPLE, nextWordBoundary, [
      [[0, 8], [0, 13]],
      [[2, 40], [3, 0]],
      [[3, 0], [3, 4]],
      [[3, 30], [3, 31]],
      [[4, 0], [4, 4]],
    ])
  })

  it('moveToBeginningOfWord', () => {
    check(SAMPLE, beginningOfCurrentWord, [
      [[0, 8], [0, 4]],
      [[1, 12], [1, 11]],
      [[3, 0], [2, 39]],
      [[0, 0], [0, 0]],
      [[11, 0], [10, 0]],
      [[10, 0], [9, 2]],
    ])
  })

  it('moveToEndOfWord', () => {
    check(SAMPLE, endOfCurrentWord, [
      [[0, 6], [0, 13]],
      [[1, 10], [1, 12]],
      [[2, 40], [3, 7]],
      [[13, 0], [13, 0]],
      [[9, 4], [10, 0]],
      [[10, 0], [11, 8]],
    ])
  })

  it('moveToBeginningOfNextWord and selectToBeginningOfNextWord', () => {
    check(SAMPLE, beginningOfNextWord, [
      [[0, 6], [0, 14]],
      [[1, 11], [1, 13]],
      [[2, 0], [2, 4]],
      [[0, 4], [0, 14]],
      [[3, 48], [3, 51]],
      [[13, 0], [13, 0]],
      [[9, 4], [10, 0]],
      [[10, 0], [11, 9]],
    ])
    check('ab cde- ', beginningOfNextWord, [[[0, 2], [0, 3]]])
  })

  it('selectWordsContainingCursors', () => {
    const lines = linesOf(SAMPLE)
    const word = (row: number, column: number) => selectWordRange(lines, [row, column]).serialize()
    expect(word(0, 8)).toEqual([[0, 4], [0, 13]])
    expect(word(0, 4)).toEqual([[0, 4], [0, 13]])
    expect(word(0, 3)).toEqual([[0, 0], [0, 3]])
    expect(word(1, 22)).toEqual([[1, 22], [1, 27]])
    expect(word(5, 2)).toEqual([[5, 0], [5, 6]])
    expect(word(5, 0)).toEqual([[5, 0], [5, 6]])
    const appended = linesOf(SAMPLE.replace(/\n$/, '') + 'word')
    expect(selectWordRange(appended, [12, 6]).serialize()).toEqual([[12, 2], [12, 6]])
  })

  it('moveToBeginningOfNextParagraph and moveToBeginningOfPreviousParagraph', () => {
    check(SAMPLE, beginningOfNextParagraph, [[[0, 6], [10, 0]]])
    check(SAMPLE, beginningOfPreviousParagraph, [[[10, 0], [0, 0]]])
    check('', beginningOfNextParagraph, [[[0, 0], [0, 0]]])
    check('', beginningOfPreviousParagraph, [[[0, 0], [0, 0]]])
  })
})

describe("Atom's spec on subwords", () => {
  it('moveToPreviousSubwordBoundary', () => {
    check('', previousSubwordBoundary, [[[0, 0], [0, 0]]])
    check('sub_word \n', previousSubwordBoundary, [
      [[0, 9], [0, 8]],
      [[0, 8], [0, 4]],
      [[0, 4], [0, 0]],
    ])
    check(' word\n', previousSubwordBoundary, [[[0, 3], [0, 1]]])
    check(' getPreviousWord\n', previousSubwordBoundary, [
      [[0, 16], [0, 12]],
      [[0, 12], [0, 4]],
      [[0, 4], [0, 1]],
    ])
    check(' gétÁrevìôüsWord\n', previousSubwordBoundary, [
      [[0, 16], [0, 12]],
      [[0, 12], [0, 4]],
      [[0, 4], [0, 1]],
    ])
    check('e, => \n', previousSubwordBoundary, [
      [[0, 6], [0, 3]],
      [[0, 3], [0, 1]],
    ])
    check(' AAADF \n', previousSubwordBoundary, [
      [[0, 7], [0, 6]],
      [[0, 6], [0, 1]],
    ])
    check(' ÀÁÅDF \n', previousSubwordBoundary, [
      [[0, 7], [0, 6]],
      [[0, 6], [0, 1]],
    ])
    check('ALPhA\n', previousSubwordBoundary, [[[0, 4], [0, 2]]])
    check(' 88 \n', previousSubwordBoundary, [
      [[0, 4], [0, 3]],
      [[0, 3], [0, 1]],
    ])
    check('curOp\ncursorOptions\n', previousSubwordBoundary, [
      [[0, 8], [0, 3]],
      [[1, 13], [1, 6]],
    ])
    check('supåTøåst \n', previousSubwordBoundary, [[[0, 9], [0, 4]]])
    check('supaÖast \n', previousSubwordBoundary, [[[0, 8], [0, 4]]])
  })

  it('moveToNextSubwordBoundary', () => {
    check('', nextSubwordBoundary, [[[0, 0], [0, 0]]])
    check(' sub_word \n', nextSubwordBoundary, [
      [[0, 0], [0, 1]],
      [[0, 1], [0, 4]],
      [[0, 4], [0, 9]],
    ])
    check('word \n', nextSubwordBoundary, [[[0, 0], [0, 4]]])
    check('getPreviousWord \n', nextSubwordBoundary, [
      [[0, 0], [0, 3]],
      [[0, 3], [0, 11]],
      [[0, 11], [0, 15]],
    ])
    check(', => \n', nextSubwordBoundary, [
      [[0, 0], [0, 1]],
      [[0, 1], [0, 4]],
    ])
    check(' AAADF \n', nextSubwordBoundary, [
      [[0, 0], [0, 1]],
      [[0, 1], [0, 6]],
    ])
    check('ALPhA\n', nextSubwordBoundary, [[[0, 0], [0, 2]]])
    check(' 88 \n', nextSubwordBoundary, [
      [[0, 0], [0, 1]],
      [[0, 1], [0, 3]],
    ])
    check('curOp\ncursorOptions\n', nextSubwordBoundary, [
      [[0, 0], [0, 3]],
      [[1, 0], [1, 6]],
    ])
    check('supåTøåst \n', nextSubwordBoundary, [[[0, 0], [0, 4]]])
    check('supaÖast \n', nextSubwordBoundary, [[[0, 0], [0, 4]]])
  })

  it('selectToPreviousSubwordBoundary and selectToNextSubwordBoundary', () => {
    check('_word\n getPreviousWord\ne, => \n 88 \n', previousSubwordBoundary, [
      [[0, 5], [0, 1]],
      [[1, 7], [1, 4]],
      [[2, 5], [2, 3]],
      [[3, 3], [3, 1]],
    ])
    check('word_\ngetPreviousWord\ne, => \n 88 \n', nextSubwordBoundary, [
      [[0, 1], [0, 4]],
      [[1, 7], [1, 11]],
      [[2, 2], [2, 5]],
      [[3, 1], [3, 3]],
    ])
  })

  it('deleteToBeginningOfSubword across a row start (the last cursor of the third step of that spec)', () => {
    // The text as the fourth cursor sees it, after the other three cursors' deletions of that step.
    check('\nviousWord\n \n \n', previousSubwordBoundary, [[[3, 0], [2, 1]]])
  })
})

describe("Atom's spec on getCurrentParagraphBufferRange", () => {
  it('finds paragraphs delimited by blank lines or the text ends', () => {
    const text = [
      '  I am the first paragraph,',
      'bordered by the beginning of',
      'the file',
      '   ',
      '',
      '  I am the second paragraph',
      'with blank lines above and below',
      'me.',
      '',
      'I am the last paragraph,',
      'bordered by the end of the file.',
    ].join('\n')
    const lines = linesOf(text)
    expect([1, 7, 9, 3].map((row) => paragraphRowRange(lines, row))).toEqual([[0, 2], [5, 7], [9, 10], null])
  })

  it('keeps comment rows and code rows in separate paragraphs', () => {
    const rows = [
      'var quicksort = function () {',
      '  /* Single line comment block */',
      '  var sort = function(items) {};',
      '',
      '  /*',
      '  A multiline',
      '  comment is here',
      '  */',
      '  var sort = function(items) {};',
      '',
      '  // A comment',
      '  //',
      '  // Multiple comment',
      '  // lines',
      '  var sort = function(items) {};',
      '  // comment line after fn',
      '',
      '  var nosort = function(items) {',
      '    item;',
      '  }',
      '',
      '};',
    ]
    // The rows Atom's JavaScript grammar scopes as comments.
    const commentRows = new Set([1, 4, 5, 6, 7, 10, 11, 12, 13, 15])
    const lines = linesOf(rows.join('\n'))
    const range = (row: number) => paragraphRowRange(lines, row, (r) => commentRows.has(r))
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 18].map(range)).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      null,
      [4, 7],
      [4, 7],
      [4, 7],
      [4, 7],
      [8, 8],
      null,
      [10, 13],
      [10, 13],
      [10, 13],
      [14, 14],
      [15, 15],
      [17, 19],
    ])
  })
})
