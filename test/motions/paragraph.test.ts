import { describe, expect, it } from 'vitest'
import { linesOf } from '../../core/motions/line-source.ts'
import { beginningOfNextParagraph, beginningOfPreviousParagraph, paragraphRowRange } from '../../core/motions/paragraph.ts'
import { type Motion, step, stops } from './step.ts'

const next: Motion = beginningOfNextParagraph
const previous: Motion = beginningOfPreviousParagraph

describe('beginningOfNextParagraph', () => {
  it('goes to the start of the next row holding only spaces or tabs', () => {
    expect(step('|a\nb\n\nc', next)).toBe('a\nb\n|\nc')
    expect(step('a|bc\n  \t\nc', next)).toBe('abc\n|  \t\nc')
    expect(stops('|a\n\nb\n\nc', next)).toBe('|a\n|\nb\n|\n|c')
  })

  it('skips the cursor row even when it is blank, and stops on each blank row of a run', () => {
    expect(stops('a\n|\n\n\nb', next)).toBe('a\n|\n|\n|\n|b')
  })

  it('does not count a row with other whitespace, or the last row', () => {
    expect(step('|a\n\u00a0\nb', next)).toBe('a\n\u00a0\n|b')
    expect(step('|a\nb\n', next)).toBe('a\nb\n|')
    expect(step('|a\n\n', next)).toBe('a\n|\n')
  })

  it('goes one column before the end of the text when no blank row is left, as Atom does', () => {
    expect(step('|a\nbc', next)).toBe('a\nb|c')
    expect(step('a|bc', next)).toBe('ab|c')
    expect(step('abc|', next)).toBe('ab|c') // even backwards, from the end of the text
    expect(step('|', next)).toBe('|')
    expect(step('|a😀', next)).toBe('a|😀')
  })
})

describe('beginningOfPreviousParagraph', () => {
  it('goes to the start of a blank row at least two rows up', () => {
    expect(step('a\n\nb\n|c', previous)).toBe('a\n|\nb\nc')
    expect(step('a\n  \nb\nc|d', previous)).toBe('a\n|  \nb\ncd')
    expect(step('a\n\nb\n\n|c', previous)).toBe('a\n|\nb\n\nc')
  })

  it('does not see the blank row right above the cursor row, as Atom does', () => {
    expect(step('a\n\n|b', previous)).toBe('|a\n\nb')
  })

  it('stops only on every other row of a run of blank rows, as Atom’s global scan does', () => {
    expect(step('a\n\n\n\n|b', previous)).toBe('a\n|\n\n\nb')
    expect(step('a\n\n\n\nb\n|c', previous)).toBe('a\n\n\n|\nb\nc')
    expect(stops('a\n\n\n\n\n\n\n|b', previous)).toBe('|a\n|\n\n|\n\n|\n\n|b')
  })

  it('counts a blank first row only from the row after it', () => {
    expect(step('\n\n\n|a', previous)).toBe('\n|\n\na')
    expect(step('\n\n|a', previous)).toBe('|\n\na')
  })

  it('goes to the start of the text when there is no such row', () => {
    expect(step('a\nb|', previous)).toBe('|a\nb')
    expect(step('a|b', previous)).toBe('|ab')
    expect(step('|', previous)).toBe('|')
  })
})

describe('paragraphRowRange', () => {
  const lines = linesOf('a\nb\n \nc\n\u00a0\nd')

  it('spans the rows with text around the row, or is null on a blank row', () => {
    expect([0, 1, 2, 3, 4, 5].map((row) => paragraphRowRange(lines, row))).toEqual([[0, 1], [0, 1], null, [3, 3], null, [5, 5]])
  })

  it('clips the row into the text', () => {
    expect(paragraphRowRange(lines, -3)).toEqual([0, 1])
    expect(paragraphRowRange(lines, 99)).toEqual([5, 5])
    expect(paragraphRowRange(lines, 0.5)).toEqual([0, 1])
  })

  it('splits a paragraph where comment rows meet other rows', () => {
    const code = linesOf('x\n// a\n// b\ny\nz')
    expect(paragraphRowRange(code, 2, (row) => row === 1 || row === 2)).toEqual([1, 2])
    expect(paragraphRowRange(code, 4, (row) => row === 1 || row === 2)).toEqual([3, 4])
  })

  it('rejects arguments of the wrong type', () => {
    expect(() => paragraphRowRange(lines, '1' as never)).toThrow(/row must be a number/)
    expect(() => paragraphRowRange(lines, 1, 'x' as never)).toThrow(/isCommentRow must be a function/)
    expect(() => beginningOfNextParagraph(lines, null as never)).toThrow(/position must be a Point/)
  })
})
