import { describe, expect, it } from 'vitest'
import {
  endRowForFoldAtRow,
  foldableRowRangeContainingRow,
  indentLengthForLine,
  isFoldableAtRow,
  type FoldableLines,
} from '../../core/display/fold-ranges.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

function lines(text: string): FoldableLines {
  const rows = text.split('\n')
  return { lineForRow: (row) => rows[row], getLineCount: () => rows.length }
}

/** Atom's search, row by row upward with no shortcut: the reference for the faster one. */
function naiveContaining(source: FoldableLines, row: number, tabLength: number, fromRowEnd: boolean): [number, number] | null {
  const line = source.lineForRow(row) ?? ''
  if (fromRowEnd || line.length === 0) {
    const end = endRowForFoldAtRow(source, row, tabLength)
    if (end !== null) return [row, end]
  }
  for (let above = row - 1; above >= 0; above--) {
    const end = endRowForFoldAtRow(source, above, tabLength)
    if (end !== null && end >= row) return [above, end]
  }
  return null
}

describe('indentation fold ranges', () => {
  it('measures indentation with tabs to tab stops', () => {
    expect([indentLengthForLine('  \tx', 4), indentLengthForLine('\t x', 4), indentLengthForLine('   ', 2), indentLengthForLine('x', 2)]).toEqual([4, 5, 3, 0])
  })

  it('runs a fold over deeper rows and blank rows between them, not past the last deeper row', () => {
    const source = lines('a\n  b\n\n  c\n\nd\n  e')
    expect(endRowForFoldAtRow(source, 0, 2)).toBe(3)
    expect(endRowForFoldAtRow(source, 1, 2)).toBeNull()
    expect(endRowForFoldAtRow(source, 2, 2)).toBeNull()
    expect(endRowForFoldAtRow(source, 5, 2)).toBe(6)
    expect(endRowForFoldAtRow(source, 7, 2)).toBeNull()
  })

  it('counts every whitespace character as one column when asking whether a row is foldable (Atom)', () => {
    const source = lines('\tx\n    y')
    expect(isFoldableAtRow(source, 0)).toBe(true)
    expect(endRowForFoldAtRow(source, 0, 4)).toBeNull()
  })

  it('finds the same containing fold as a row-by-row upward search', () => {
    for (const seed of fuzzSeeds(40)) {
      const random = new Random(seed)
      const rows = Array.from({ length: 1 + random.int(25) }, () =>
        random.bool(0.15) ? random.pick(['', '  ', '\t']) : random.pick(['', ' ', '  ', '    ', '\t', '\t  ']) + random.pick(['x', 'y z']),
      )
      const source = lines(rows.join('\n'))
      const tabLength = 1 + random.int(4)
      for (let row = 0; row < rows.length; row++) {
        for (const fromRowEnd of [true, false]) {
          expect(foldableRowRangeContainingRow(source, row, tabLength, fromRowEnd), `seed ${seed} row ${row}`).toEqual(
            naiveContaining(source, row, tabLength, fromRowEnd),
          )
        }
      }
    }
  })
})
