import { describe, expect, it } from 'vitest'
import { layerFor, rc, screenLines } from './helpers.ts'

describe('translation without tabs, wraps or folds', () => {
  it('maps columns one to one and clips out-of-range positions', () => {
    const { layer } = layerFor('abc\ndefg')
    expect(rc(layer.screenPositionForBufferPosition([1, 2]))).toEqual([1, 2])
    expect(rc(layer.bufferPositionForScreenPosition({ row: 1, column: 3 }))).toEqual([1, 3])
    expect(rc(layer.screenPositionForBufferPosition([0, 10]))).toEqual([0, 3])
    expect(rc(layer.screenPositionForBufferPosition([-1, 2]))).toEqual([0, 0])
    expect(rc(layer.screenPositionForBufferPosition([5, 0]))).toEqual([1, 4])
    expect(rc(layer.bufferPositionForScreenPosition([0, -2]))).toEqual([0, 0])
    expect(rc(layer.bufferPositionForScreenPosition([9, 0]))).toEqual([1, 4])
    expect(rc(layer.bufferPositionForScreenPosition([0, Infinity]))).toEqual([0, 3])
    expect(rc(layer.clipScreenPosition([0, 7]))).toEqual([0, 3])
  })

  it("moves a position past a row's end to the next row when clipping forward", () => {
    const { layer } = layerFor('abc\ndefg')
    expect(rc(layer.bufferPositionForScreenPosition([0, 5], { clipDirection: 'forward' }))).toEqual([1, 0])
    expect(rc(layer.bufferPositionForScreenPosition([1, 9], { clipDirection: 'forward' }))).toEqual([1, 4])
  })

  it('answers screen lines and row conversions', () => {
    const { layer } = layerFor('abc\n\ndefg')
    expect(layer.getScreenLineCount()).toBe(3)
    expect(layer.getLastScreenRow()).toBe(2)
    expect(screenLines(layer)).toEqual(['abc', '', 'defg'])
    expect([0, 1, 2].map((row) => layer.bufferRowForScreenRow(row))).toEqual([0, 1, 2])
    expect([0, 1, 2, 3].map((row) => layer.screenRowForBufferRow(row))).toEqual([0, 1, 2, 2])
    expect(layer.lineTextForScreenRow(3)).toBe('')
    expect(layer.lineLengthForScreenRow(-1)).toBe(0)
  })

  it('converts ranges end by end', () => {
    const { layer } = layerFor('a\tb\ncd', { tabLength: 4 })
    expect(layer.screenRangeForBufferRange([[0, 2], [1, 1]]).serialize()).toEqual([[0, 4], [1, 1]])
    expect(layer.bufferRangeForScreenRange([[0, 5], [0, 2]]).serialize()).toEqual([[0, 1], [0, 3]])
    expect(layer.clipScreenRange([[0, 2], [0, 3]]).serialize()).toEqual([[0, 1], [0, 1]])
  })

  it('rejects arguments of the wrong type', () => {
    const { layer } = layerFor('abc')
    expect(() => layer.screenPositionForBufferPosition('1,2' as never)).toThrow(TypeError)
    expect(() => layer.bufferPositionForScreenPosition(['1'] as never)).toThrow(/screenPosition/)
    expect(() => layer.bufferRangeForScreenRange(null as never)).toThrow(TypeError)
    expect(() => layer.clipScreenPosition([0, 0], { clipDirection: 'up' as never })).toThrow(/clipDirection/)
    expect(() => layer.setTabLength('4' as never)).toThrow(TypeError)
    expect(() => layer.setTabLength(0)).toThrow(RangeError)
    expect(() => layer.setEditorWidthInChars('4' as never)).toThrow(TypeError)
    expect(() => layer.setEditorWidthInChars(NaN)).toThrow(TypeError)
    expect(() => layer.setSoftWrapHangingIndentLength(-1)).toThrow(RangeError)
    expect(layer.getTabLength()).toBe(2)
  })
})

describe('hard tabs', () => {
  it('expand to the next tab stop', () => {
    const { layer } = layerFor('\tab\tc\n12345\td', { tabLength: 4 })
    expect(screenLines(layer)).toEqual(['    ab  c', '12345   d'])
    expect(rc(layer.screenPositionForBufferPosition([0, 1]))).toEqual([0, 4])
    expect(rc(layer.screenPositionForBufferPosition([0, 4]))).toEqual([0, 8])
    expect(rc(layer.screenPositionForBufferPosition([1, 6]))).toEqual([1, 8])
  })

  it('clip positions inside a tab to its edges by direction; closest goes after only past the rounded-up middle', () => {
    const { layer } = layerFor('x\ty', { tabLength: 4 })
    // The tab spans screen columns 1-4.
    const at = (column: number, clipDirection?: 'backward' | 'forward' | 'closest') =>
      rc(layer.bufferPositionForScreenPosition([0, column], clipDirection ? { clipDirection } : undefined))
    expect([1, 2, 3, 4].map((column) => at(column))).toEqual([[0, 1], [0, 1], [0, 1], [0, 2]])
    expect([2, 3].map((column) => at(column, 'backward'))).toEqual([[0, 1], [0, 1]])
    expect([2, 3].map((column) => at(column, 'forward'))).toEqual([[0, 2], [0, 2]])
    const wide = layerFor('\ty', { tabLength: 4 }).layer
    // A tab over columns 0-4: column 3 is past the middle.
    expect([1, 2, 3].map((column) => rc(wide.clipScreenPosition([0, column])))).toEqual([[0, 0], [0, 0], [0, 4]])
  })

  it('setTabLength re-lays out the rows with tabs and moves nothing in the buffer', () => {
    const { buffer, layer } = layerFor('\ta\nb', { tabLength: 4 })
    let bufferEvents = 0
    buffer.onDidChange(() => bufferEvents++)
    const changes: unknown[] = []
    layer.onDidChange((event) => changes.push(event))
    layer.setTabLength(8)
    expect(screenLines(layer)).toEqual(['        a', 'b'])
    expect(rc(layer.screenPositionForBufferPosition([0, 1]))).toEqual([0, 8])
    expect(changes).toEqual([[{ start: 0, oldCount: 1, newCount: 1 }]])
    expect(bufferEvents).toBe(0)
    expect(buffer.getText()).toBe('\ta\nb')
  })
})

describe('wrapped rows', () => {
  // 'abc def ghi' at width 8 shows as 'abc def ' and 'ghi'; the wrap is at buffer column 8.
  const wrapped = () => layerFor('abc def ghi\nx', { softWrapped: true, editorWidthInChars: 8 }).layer

  it('map the wrap position to the start of the continuation row', () => {
    const layer = wrapped()
    expect(rc(layer.screenPositionForBufferPosition([0, 8]))).toEqual([1, 0])
    expect(rc(layer.screenPositionForBufferPosition([0, 7]))).toEqual([0, 7])
    expect(rc(layer.screenPositionForBufferPosition([0, 11]))).toEqual([1, 3])
    expect(rc(layer.screenPositionForBufferPosition([1, 0]))).toEqual([2, 0])
  })

  it('clip the end of a wrapped row one column back, unless clipping forward', () => {
    const layer = wrapped()
    expect(rc(layer.bufferPositionForScreenPosition([0, 8]))).toEqual([0, 7])
    expect(rc(layer.bufferPositionForScreenPosition([0, Infinity]))).toEqual([0, 7])
    expect(rc(layer.clipScreenPosition([0, Infinity]))).toEqual([0, 7])
    expect(rc(layer.bufferPositionForScreenPosition([0, 8], { clipDirection: 'backward' }))).toEqual([0, 7])
    expect(rc(layer.bufferPositionForScreenPosition([0, 8], { clipDirection: 'forward' }))).toEqual([0, 8])
    expect(rc(layer.clipScreenPosition([0, 8], { clipDirection: 'forward' }))).toEqual([1, 0])
    // The last row of a buffer line keeps its end.
    expect(rc(layer.clipScreenPosition([1, Infinity]))).toEqual([1, 3])
  })

  it("send a position in a continuation row's indentation to its text, or back with 'backward'", () => {
    const { layer } = layerFor('  abc def', { softWrapped: true, editorWidthInChars: 7 })
    expect(screenLines(layer)).toEqual(['  abc ', '  def'])
    expect(rc(layer.bufferPositionForScreenPosition([1, 0]))).toEqual([0, 6])
    expect(rc(layer.bufferPositionForScreenPosition([1, 1], { clipDirection: 'forward' }))).toEqual([0, 6])
    expect(rc(layer.bufferPositionForScreenPosition([1, 1], { clipDirection: 'backward' }))).toEqual([0, 5])
    expect(rc(layer.bufferPositionForScreenPosition([1, 1], { clipDirection: 'backward', skipSoftWrapIndentation: true }))).toEqual([0, 6])
    expect(rc(layer.clipScreenPosition([1, 0]))).toEqual([1, 2])
    expect(rc(layer.clipScreenPosition([1, 0], { clipDirection: 'backward' }))).toEqual([0, 5])
  })

  it('answer which buffer row each screen row shows and where each buffer row starts', () => {
    const { layer } = layerFor('aa bb cc\ndd\nee ff', { softWrapped: true, editorWidthInChars: 3 })
    expect(screenLines(layer)).toEqual(['aa ', 'bb ', 'cc', 'dd', 'ee ', 'ff'])
    expect([0, 1, 2, 3, 4, 5].map((row) => layer.bufferRowForScreenRow(row))).toEqual([0, 0, 0, 1, 2, 2])
    expect([0, 1, 2].map((row) => layer.screenRowForBufferRow(row))).toEqual([0, 3, 4])
    expect([0, 1, 2, 3, 4, 5].map((row) => layer.isSoftWrapContinuation(row))).toEqual([false, true, true, false, false, true])
    expect(layer.screenRowRangeForBufferRow(0)).toEqual([0, 2])
    expect(layer.screenRowRangeForBufferRow(2)).toEqual([4, 5])
  })
})

describe('clipping in leading spaces and surrogate pairs', () => {
  it('treats a tab stop of leading spaces as one column (atomic soft tabs), by direction', () => {
    const { layer } = layerFor('    foo', { tabLength: 2 })
    expect(rc(layer.screenPositionForBufferPosition([0, 1]))).toEqual([0, 0])
    expect(rc(layer.screenPositionForBufferPosition([0, 1], { clipDirection: 'forward' }))).toEqual([0, 2])
    expect(rc(layer.bufferPositionForScreenPosition([0, 3], { clipDirection: 'backward' }))).toEqual([0, 2])
    expect(rc(layer.bufferPositionForScreenPosition([0, 3], { clipDirection: 'forward' }))).toEqual([0, 4])
    expect(rc(layer.clipBufferPosition([0, 1]))).toEqual([0, 1])
  })

  it('leaves spaces that do not reach the next tab stop, and can be turned off', () => {
    const { layer } = layerFor('   x', { tabLength: 2 })
    expect(rc(layer.clipScreenPosition([0, 3]))).toEqual([0, 3])
    expect(rc(layer.screenPositionForBufferPosition([0, 1]))).toEqual([0, 0])
    layer.setAtomicSoftTabs(false)
    expect(rc(layer.screenPositionForBufferPosition([0, 1]))).toEqual([0, 1])
    expect(layerFor('    foo', { tabLength: 4, atomicSoftTabs: false }).layer.clipScreenPosition([0, 2]).toArray()).toEqual([0, 2])
  })

  it('never puts a position inside a surrogate pair', () => {
    const { layer } = layerFor('a😀b')
    expect(rc(layer.screenPositionForBufferPosition([0, 2]))).toEqual([0, 1])
    expect(rc(layer.bufferPositionForScreenPosition([0, 2]))).toEqual([0, 1])
    expect(rc(layer.bufferPositionForScreenPosition([0, 2], { clipDirection: 'forward' }))).toEqual([0, 3])
    expect(rc(layer.clipScreenPosition([0, 2], { clipDirection: 'forward' }))).toEqual([0, 3])
  })
})

describe('what cursor motions over wrapped lines get from the layer (as Atom calls it)', () => {
  // '  alpha beta gamma' at width 10: '  alpha ', '  beta ', '  gamma'.
  const make = () => layerFor('  alpha beta gamma\nx', { softWrapped: true, editorWidthInChars: 10 }).layer

  it('beginning and end of a screen line: [row, 0] and [row, Infinity] clipped', () => {
    const layer = make()
    expect(screenLines(layer)).toEqual(['  alpha ', '  beta ', '  gamma', 'x'])
    expect(rc(layer.clipScreenPosition([1, 0]))).toEqual([1, 2])
    expect(rc(layer.bufferPositionForScreenPosition([1, 0]))).toEqual([0, 8])
    expect(rc(layer.clipScreenPosition([1, Infinity]))).toEqual([1, 6])
    expect(rc(layer.bufferPositionForScreenPosition([1, Infinity]))).toEqual([0, 12])
  })

  it('first character of a screen line: the buffer range from the clipped start, skipping the wrap indentation', () => {
    const layer = make()
    const start = layer.clipScreenPosition([2, 0], { skipSoftWrapIndentation: true })
    expect(layer.bufferRangeForScreenRange([start, [2, Infinity]]).serialize()).toEqual([[0, 13], [0, 18]])
  })

  it('up and down by screen rows keep the goal column, clipped with skipSoftWrapIndentation', () => {
    const layer = make()
    const down = (row: number, goal: number) => rc(layer.clipScreenPosition([row, goal], { skipSoftWrapIndentation: true }))
    expect([down(1, 7), down(2, 7), down(3, 7)]).toEqual([[1, 6], [2, 7], [3, 1]])
    expect(down(1, 0)).toEqual([1, 2])
  })
})
