import { describe, expect, it } from 'vitest'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'
import { FoldSet } from '../../core/display/fold-set.ts'

function foldSet(...ranges: [[number, number], [number, number]][]): FoldSet {
  const folds = new FoldSet()
  for (const range of ranges) folds.add(Range.fromObject(range))
  return folds
}

function change(folds: FoldSet, start: [number, number], oldEnd: [number, number], newEnd: [number, number]): void {
  folds.applyChange(Point.fromObject(start), Point.fromObject(oldEnd), Point.fromObject(newEnd))
}

const ranges = (folds: FoldSet) => folds.all().map((fold) => fold.range.serialize())

describe('FoldSet through changes (exclusive markers invalidated on overlap)', () => {
  it('keeps insertions at the edges outside and grows with insertions inside', () => {
    const folds = foldSet([[1, 2], [3, 4]])
    change(folds, [1, 2], [1, 2], [1, 5])
    expect(ranges(folds)).toEqual([[[1, 5], [3, 4]]])
    change(folds, [3, 4], [3, 4], [4, 1])
    expect(ranges(folds)).toEqual([[[1, 5], [3, 4]]])
    change(folds, [2, 0], [2, 0], [4, 0])
    expect(ranges(folds)).toEqual([[[1, 5], [5, 4]]])
  })

  it('is destroyed by a replacement that overlaps its start or end, and kept by one that only touches it', () => {
    const cases: [[number, number], [number, number], boolean][] = [
      [[1, 0], [1, 2], true],
      [[3, 4], [3, 6], true],
      [[1, 0], [1, 3], false],
      [[3, 3], [3, 5], false],
      [[2, 0], [2, 1], true],
      [[1, 2], [3, 4], false],
    ]
    for (const [start, end, kept] of cases) {
      const folds = foldSet([[1, 2], [3, 4]])
      change(folds, start, end, start)
      expect(folds.size, `${start} - ${end}`).toBe(kept ? 1 : 0)
    }
  })

  it('shifts folds after a change by its extent', () => {
    const folds = foldSet([[2, 3], [2, 5]], [[4, 1], [5, 0]])
    change(folds, [1, 0], [2, 1], [1, 7])
    expect(ranges(folds)).toEqual([
      [[1, 9], [1, 11]],
      [[3, 1], [4, 0]],
    ])
  })

  it('merges overlapping folds for display and joins their rows into display lines', () => {
    const folds = foldSet([[0, 1], [2, 0]], [[1, 5], [3, 2]], [[3, 4], [5, 0]], [[7, 1], [7, 2]], [[4, 0], [4, 1]])
    expect(folds.merged()).toEqual([
      { startRow: 0, startColumn: 1, endRow: 3, endColumn: 2 },
      { startRow: 3, startColumn: 4, endRow: 5, endColumn: 0 },
      { startRow: 7, startColumn: 1, endRow: 7, endColumn: 2 },
    ])
    expect([0, 2, 5, 6, 7].map((row) => folds.displayLineRows(row))).toEqual([[0, 5], [0, 5], [0, 5], [6, 6], [7, 7]])
    expect(folds.mergedStrictlyContaining(1, 0)).toEqual(folds.merged()[0])
    expect(folds.mergedStrictlyContaining(3, 2)).toBeNull()
    expect([folds.hasMergedFoldOnRow(7), folds.hasMergedFoldOnRow(6)]).toEqual([true, false])
  })

  it('answers intersecting and containing queries with touching endpoints', () => {
    const folds = foldSet([[1, 2], [3, 4]])
    expect(folds.intersecting(new Point(3, 4), new Point(3, 9)).length).toBe(1)
    expect(folds.intersecting(new Point(3, 5), new Point(3, 9)).length).toBe(0)
    expect(folds.containing(new Point(1, 2), false).length).toBe(1)
    expect(folds.containing(new Point(1, 2), true).length).toBe(0)
    expect(folds.anyContains(new Point(2, 0), new Point(3, 4))).toBe(true)
  })
})
