import { describe, expect, it } from 'vitest'
import { Point } from '../../core/point/point.ts'
import { type LineSource, clipPoint, endOfText, linesOf, textBetween } from '../../core/motions/line-source.ts'
import { splitsSurrogatePair } from '../../core/point/unicode.ts'
import {
  beginningOfCurrentWord,
  beginningOfNextWord,
  currentWordPrefix,
  currentWordRange,
  endOfCurrentWord,
  nextSubwordBoundary,
  nextWordBoundary,
  previousSubwordBoundary,
  previousWordBoundary,
  selectWordRange,
  type WordOptions,
} from '../../core/motions/word.ts'
import { beginningOfNextParagraph, beginningOfPreviousParagraph } from '../../core/motions/paragraph.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

const ALPHABET = ['a', 'b', 'Z', 'é', '1', '_', ' ', ' ', '\t', '.', '-', '(', '…', '\n', '\n', '\r\n', '😀', '\u00a0']

type PointMotion = (lines: LineSource, position: Point, options: WordOptions, nonWord: string) => Point

const forward: Record<string, PointMotion> = {
  nextWordBoundary: (l, p, o) => nextWordBoundary(l, p, o),
  nextSubwordBoundary: (l, p, _o, n) => nextSubwordBoundary(l, p, n),
  endOfCurrentWord: (l, p, o) => endOfCurrentWord(l, p, o),
  endOfCurrentWordOnRow: (l, p, o) => endOfCurrentWord(l, p, { ...o, allowNext: false }),
  beginningOfNextWord: (l, p, o) => beginningOfNextWord(l, p, o),
}

const backward: Record<string, PointMotion> = {
  previousWordBoundary: (l, p, o) => previousWordBoundary(l, p, o),
  previousSubwordBoundary: (l, p, _o, n) => previousSubwordBoundary(l, p, n),
  beginningOfCurrentWord: (l, p, o) => beginningOfCurrentWord(l, p, o),
  beginningOfCurrentWordOnRow: (l, p, o) => beginningOfCurrentWord(l, p, { ...o, allowPrevious: false }),
  beginningOfPreviousParagraph: (l, p) => beginningOfPreviousParagraph(l, p),
}

function isValid(lines: LineSource, point: Point): boolean {
  const line = lines.lineForRow(point.row)
  return line !== undefined && clipPoint(lines, point).isEqual(point) && !splitsSurrogatePair(line, point.column)
}

interface Scenario {
  lines: LineSource
  positions: Point[]
  options: WordOptions
  nonWord: string
}

function scenario(seed: number): Scenario {
  const random = new Random(seed)
  const text = random.string(60, ALPHABET)
  const lines = linesOf(text)
  const positions: Point[] = []
  for (let i = 0; i < 6; i++) {
    const row = random.int(lines.getLineCount())
    const line = lines.lineForRow(row)!
    positions.push(clipPoint(lines, [row, random.int(line.length + 1)]))
  }
  const nonWord = random.pick(['/\\()"\':,.;<>~!@#$%^&*|+=[]{}`?-…', '.-', '', '😀(]'])
  const options: WordOptions = random.pick([{}, { nonWordCharacters: nonWord }, { nonWordCharacters: nonWord, includeNonWordCharacters: false }])
  return { lines, positions, options, nonWord }
}

describe('every motion (seeded)', () => {
  it('returns a valid position that never moves against its direction', () => {
    for (const seed of fuzzSeeds(200)) {
      const { lines, positions, options, nonWord } = scenario(seed)
      for (const position of positions) {
        for (const [name, motion] of Object.entries(forward)) {
          const result = motion(lines, position, options, nonWord)
          const ok = isValid(lines, result) && result.isGreaterThanOrEqual(position)
          expect({ seed, name, position: position.toString(), ok }).toEqual({ seed, name, position: position.toString(), ok: true })
        }
        for (const [name, motion] of Object.entries(backward)) {
          const result = motion(lines, position, options, nonWord)
          const ok = isValid(lines, result) && result.isLessThanOrEqual(position)
          expect({ seed, name, position: position.toString(), ok }).toEqual({ seed, name, position: position.toString(), ok: true })
        }
        // Atom's one backward step forward: with no blank row left it goes one column before the end.
        const next = beginningOfNextParagraph(lines, position)
        const end = endOfText(lines)
        const fallback = clipPoint(lines, [end.row, end.column - 1])
        const ok = isValid(lines, next) && (next.isGreaterThan(position) || next.isEqual(fallback))
        expect({ seed, name: 'beginningOfNextParagraph', position: position.toString(), ok }).toEqual({
          seed,
          name: 'beginningOfNextParagraph',
          position: position.toString(),
          ok: true,
        })
      }
    }
  })

  it('returns word ranges on the row that contain the position, and prefixes that end at it', () => {
    for (const seed of fuzzSeeds(200, 5)) {
      const { lines, positions, options } = scenario(seed)
      for (const position of positions) {
        for (const [name, range] of [
          ['currentWordRange', currentWordRange(lines, position, options)],
          ['selectWordRange', selectWordRange(lines, position, options)],
        ] as const) {
          const ok =
            isValid(lines, range.start) &&
            isValid(lines, range.end) &&
            range.start.row === position.row &&
            range.end.row === position.row &&
            range.start.isLessThanOrEqual(position) &&
            range.end.isGreaterThanOrEqual(position)
          expect({ seed, name, position: position.toString(), ok }).toEqual({ seed, name, position: position.toString(), ok: true })
        }
        // The prefix is text that ends at the position: all of it (no word before), or from the row above on.
        const prefix = currentWordPrefix(lines, position, options)
        const before = textBetween(lines, Point.ZERO, clipPoint(lines, position))
        const withinTwoRows = prefix === before || prefix.split('\n').length <= 2
        expect({ seed, endsAtPosition: before.endsWith(prefix), withinTwoRows }).toEqual({ seed, endsAtPosition: true, withinTwoRows: true })
      }
    }
  })

  it('gives the word prefix Atom gives, reaching back over blanks to the previous word', () => {
    const lines = linesOf('foo bar.baz\n  qux')
    const prefixes = [[0, 0], [0, 2], [0, 3], [0, 4], [0, 6], [0, 8], [0, 9], [1, 0], [1, 2], [1, 4]].map(([row, column]) =>
      currentWordPrefix(lines, new Point(row!, column!)),
    )
    expect(prefixes).toEqual(['', 'fo', 'foo', 'foo ', 'ba', '.', 'b', 'baz\n', 'baz\n  ', 'qu'])
  })
})
