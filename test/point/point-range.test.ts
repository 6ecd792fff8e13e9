import { describe, expect, it } from 'vitest'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'

describe('Point', () => {
  it('converts arrays and objects and rejects anything else by name', () => {
    expect(Point.fromObject([1, 2])).toEqual(new Point(1, 2))
    expect(Point.fromObject({ row: 3, column: 4 })).toEqual(new Point(3, 4))
    const p = new Point(5, 6)
    expect(Point.fromObject(p)).toBe(p)
    expect(Point.fromObject(p, true)).not.toBe(p)
    expect(() => Point.fromObject('x' as never, false, 'start')).toThrow(/start must be a Point/)
    expect(Point.fromObject([1] as never)).toEqual(new Point(1, 0))
  })

  it('compares, translates and traverses', () => {
    const p = new Point(2, 3)
    expect(p.compare([2, 4])).toBe(-1)
    expect(p.compare([1, 9])).toBe(1)
    expect(p.isEqual({ row: 2, column: 3 })).toBe(true)
    expect(p.isLessThan([2, 4])).toBe(true)
    expect(p.isGreaterThanOrEqual([2, 3])).toBe(true)
    expect(p.translate([1, -1])).toEqual(new Point(3, 2))
    expect(p.traverse([0, 2])).toEqual(new Point(2, 5))
    expect(p.traverse([1, 2])).toEqual(new Point(3, 2))
    expect(new Point(3, 2).traversalFrom([2, 3])).toEqual(new Point(1, 2))
    expect(p.toArray()).toEqual([2, 3])
    expect(p.serialize()).toEqual([2, 3])
    expect(p.copy()).toEqual(p)
    expect(Point.min([1, 1], [0, 9])).toEqual(new Point(0, 9))
    expect(Object.isFrozen(p)).toBe(true)
  })
})

describe('Range', () => {
  it('normalises so that start <= end and accepts every range-like', () => {
    expect(new Range([2, 0], [1, 5])).toEqual(new Range([1, 5], [2, 0]))
    expect(Range.fromObject([[0, 1], [0, 2]])).toEqual(new Range([0, 1], [0, 2]))
    expect(Range.fromObject({ start: [0, 1], end: { row: 0, column: 2 } })).toEqual(new Range([0, 1], [0, 2]))
    expect(() => Range.fromObject({ start: [0, 1] } as never, false, 'bufferRange')).toThrow(/bufferRange must be a Range/)
  })

  it('answers the questions Atom asks of ranges', () => {
    const r = new Range([1, 2], [3, 4])
    expect(r.isEmpty()).toBe(false)
    expect(r.isSingleLine()).toBe(false)
    expect(r.getRowCount()).toBe(3)
    expect(r.getRows()).toEqual([1, 2, 3])
    expect(r.containsPoint([3, 4])).toBe(true)
    expect(r.containsPoint([3, 4], true)).toBe(false)
    expect(r.containsRange([[2, 0], [3, 0]])).toBe(true)
    expect(r.intersectsWith([[3, 4], [5, 0]])).toBe(true)
    expect(r.intersectsWith([[3, 4], [5, 0]], true)).toBe(false)
    expect(r.union([[0, 0], [1, 5]])).toEqual(new Range([0, 0], [3, 4]))
    expect(r.translate([1, 1])).toEqual(new Range([2, 3], [4, 5]))
    expect(r.compare([[1, 2], [3, 5]])).toBe(-1)
    expect(r.isEqual([[1, 2], [3, 4]])).toBe(true)
    expect(r.serialize()).toEqual([[1, 2], [3, 4]])
    expect(Range.fromText([1, 1], 'ab\ncd')).toEqual(new Range([1, 1], [2, 2]))
  })
})
