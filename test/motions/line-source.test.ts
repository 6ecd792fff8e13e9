import { describe, expect, it } from 'vitest'
import { Point } from '../../core/point/point.ts'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import {
  type LineSource,
  clipPoint,
  endOfText,
  isBlankRow,
  linesOf,
  previousNonBlankRow,
  textBetween,
} from '../../core/motions/line-source.ts'
import { endOfCurrentWord } from '../../core/motions/word.ts'

describe('linesOf', () => {
  it('splits at \\n, \\r\\n and \\r like TextBuffer', () => {
    const lines = linesOf('a\nb\r\nc\rd')
    expect(lines.getLineCount()).toBe(4)
    expect([0, 1, 2, 3].map((row) => lines.lineForRow(row))).toEqual(['a', 'b', 'c', 'd'])
    expect([-1, 4, 1.5].map((row) => lines.lineForRow(row))).toEqual([undefined, undefined, undefined])
    expect(linesOf('').getLineCount()).toBe(1)
    expect(linesOf('a\n').lineForRow(1)).toBe('')
  })

  it('rejects a non-string', () => {
    expect(() => linesOf(3 as never)).toThrow(/text must be a string; got number/)
  })
})

describe('TextBuffer as a LineSource', () => {
  it('can be passed to the motions as it is', () => {
    const buffer = new TextBuffer({ text: 'foo bar\r\nbaz' })
    const lines: LineSource = buffer
    expect(endOfCurrentWord(lines, [0, 4]).toString()).toBe('(0, 7)')
    expect(endOfCurrentWord(lines, [0, 7]).toString()).toBe('(1, 3)')
    buffer.destroy()
  })
})

describe('clipPoint', () => {
  const lines = linesOf('ab\na😀b')
  it('clips rows and columns like TextBuffer#clipPosition', () => {
    expect(clipPoint(lines, [-1, 5])).toEqual(new Point(0, 0))
    expect(clipPoint(lines, [5, 0])).toEqual(new Point(1, 4))
    expect(clipPoint(lines, [0, 9])).toEqual(new Point(0, 2))
    expect(clipPoint(lines, [0, -2])).toEqual(new Point(0, 0))
    expect(clipPoint(lines, [Infinity, Infinity])).toEqual(new Point(1, 4))
    expect(clipPoint(lines, [NaN, NaN])).toEqual(new Point(0, 0))
    expect(clipPoint(lines, [0.7, 1.2])).toEqual(new Point(0, 1))
    expect(clipPoint(lines, [1.2, 0])).toEqual(new Point(1, 4)) // past the last row, as TextBuffer
  })

  it('moves out of a surrogate pair in the given direction', () => {
    expect(clipPoint(lines, [1, 2])).toEqual(new Point(1, 1))
    expect(clipPoint(lines, [1, 2], 'forward')).toEqual(new Point(1, 3))
  })

  it('returns the same Point when it needs no clipping', () => {
    const point = new Point(1, 3)
    expect(clipPoint(lines, point)).toBe(point)
  })

  it('treats a source without lines as one empty line', () => {
    const empty = { getLineCount: () => 0, lineForRow: () => undefined }
    expect(clipPoint(empty, [3, 3])).toEqual(new Point(0, 0))
    expect(endOfText(empty)).toEqual(new Point(0, 0))
  })
})

describe('blank rows and text between positions', () => {
  const lines = linesOf('a\n \n\u00a0\n\nb')
  it('isBlankRow and previousNonBlankRow follow JavaScript whitespace, as Atom’s TextBuffer', () => {
    expect([0, 1, 2, 3, 4].map((row) => isBlankRow(lines, row))).toEqual([false, true, true, true, false])
    expect([0, 1, 4, 9].map((row) => previousNonBlankRow(lines, row))).toEqual([null, 0, 0, 4])
  })

  it('textBetween joins rows with \\n', () => {
    expect(textBetween(lines, new Point(0, 0), new Point(4, 1))).toBe('a\n \n\u00a0\n\nb')
    expect(textBetween(lines, new Point(1, 1), new Point(1, 1))).toBe('')
  })
})
