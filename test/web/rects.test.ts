import { describe, expect, it } from 'vitest'
import { rectsForScreenRange, rowWindow, rowsInsertedAbove, scrollToShow } from '../../web/view/rects.ts'

const range = (sr: number, sc: number, er: number, ec: number) => ({ start: { row: sr, column: sc }, end: { row: er, column: ec } })
const x = (_row: number, column: number) => column * 10

describe('rectsForScreenRange', () => {
  it('draws nothing for an empty range or one outside the rows', () => {
    expect(rectsForScreenRange(range(3, 2, 3, 2), 0, 10, x, 20)).toEqual([])
    expect(rectsForScreenRange(range(0, 0, 2, 0), 5, 10, x, 20)).toEqual([])
    expect(rectsForScreenRange(range(11, 0, 12, 0), 5, 10, x, 20)).toEqual([])
  })

  it('draws one rectangle on a single row', () => {
    expect(rectsForScreenRange(range(2, 3, 2, 7), 0, 10, x, 20)).toEqual([{ top: 40, left: 30, width: 40, height: 20 }])
  })

  it('draws first row, middle block and last row, as Atom does', () => {
    expect(rectsForScreenRange(range(1, 4, 5, 2), 0, 10, x, 20)).toEqual([
      { top: 20, left: 40, width: null, height: 20 },
      { top: 40, left: 0, width: null, height: 60 },
      { top: 100, left: 0, width: 20, height: 20 },
    ])
  })

  it('skips the last row when the range ends at its column 0, and the middle when there is none', () => {
    expect(rectsForScreenRange(range(1, 4, 2, 0), 0, 10, x, 20)).toEqual([{ top: 20, left: 40, width: null, height: 20 }])
  })

  it('clips to the rendered rows', () => {
    expect(rectsForScreenRange(range(1, 4, 50, 2), 10, 20, x, 20)).toEqual([{ top: 200, left: 0, width: null, height: 220 }])
    expect(rectsForScreenRange(range(15, 4, 50, 2), 10, 20, x, 20)).toEqual([
      { top: 300, left: 40, width: null, height: 20 },
      { top: 320, left: 0, width: null, height: 100 },
    ])
  })
})

describe('rowWindow', () => {
  it('covers the viewport plus overscan, within the document', () => {
    expect(rowWindow(0, 200, 20, 1000, 5)).toEqual({ first: 0, last: 15 })
    expect(rowWindow(1000, 200, 20, 1000, 5)).toEqual({ first: 45, last: 65 })
    expect(rowWindow(19990, 200, 20, 1000, 5)).toEqual({ first: 994, last: 1000 })
    expect(rowWindow(0, 200, 20, 0, 5)).toEqual({ first: 0, last: 0 })
  })
})

describe('scrollToShow', () => {
  it('keeps the offset when the span is in view', () => {
    expect(scrollToShow(100, 200, 150, 170, 20)).toBe(100)
  })
  it('scrolls up or down just enough, keeping the margin', () => {
    expect(scrollToShow(100, 200, 90, 110, 20)).toBe(70)
    expect(scrollToShow(100, 200, 300, 320, 20)).toBe(140)
    expect(scrollToShow(100, 200, 5, 25, 20)).toBe(0)
  })
  it('shrinks the margin when the viewport is too small for it', () => {
    expect(scrollToShow(0, 30, 100, 120, 20)).toBe(95)
  })
})

describe('rowsInsertedAbove', () => {
  it('counts rows added or removed entirely above the first visible row', () => {
    expect(rowsInsertedAbove([{ start: 3, oldCount: 1, newCount: 3 }], 10)).toBe(2)
    expect(rowsInsertedAbove([{ start: 3, oldCount: 4, newCount: 1 }], 10)).toBe(-3)
  })
  it('ignores changes that reach the first visible row or lie below it', () => {
    expect(rowsInsertedAbove([{ start: 9, oldCount: 1, newCount: 2 }], 10)).toBe(1)
    expect(rowsInsertedAbove([{ start: 10, oldCount: 1, newCount: 2 }], 10)).toBe(0)
    expect(rowsInsertedAbove([{ start: 8, oldCount: 3, newCount: 1 }], 10)).toBe(0)
    expect(rowsInsertedAbove([{ start: 0, oldCount: 1, newCount: 2 }], 0)).toBe(0)
  })
  it('replays changes in order, each in the rows after the ones before it', () => {
    // Two rows inserted at 2 move the first visible row from 10 to 12; a change at 11 is then above it.
    expect(rowsInsertedAbove([{ start: 2, oldCount: 1, newCount: 3 }, { start: 11, oldCount: 1, newCount: 2 }], 10)).toBe(3)
  })
})
