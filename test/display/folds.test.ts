import { describe, expect, it } from 'vitest'
import { layerFor, rc, screenLines } from './helpers.ts'

const TEXT = 'abcd\nefgh\nijkl\nmnop'

describe('foldBufferRange', () => {
  it('shows the folded range as one ⋯ column joining its first and last rows', () => {
    const { layer } = layerFor(TEXT)
    const id = layer.foldBufferRange([[0, 2], [2, 1]])
    expect(screenLines(layer)).toEqual(['ab⋯jkl', 'mnop'])
    expect(layer.getFolds()).toEqual([{ id, range: expect.objectContaining({}) }])
    expect(layer.bufferRangeForFold(id)?.serialize()).toEqual([[0, 2], [2, 1]])
    expect(layer.getScreenLineCount()).toBe(2)
  })

  it('clips positions inside a fold to its start or end by direction', () => {
    const { layer } = layerFor(TEXT)
    layer.foldBufferRange([[0, 2], [2, 1]])
    expect(rc(layer.screenPositionForBufferPosition([1, 1], { clipDirection: 'backward' }))).toEqual([0, 2])
    expect(rc(layer.screenPositionForBufferPosition([1, 1], { clipDirection: 'forward' }))).toEqual([0, 3])
    // closest compares the distances as points: (1, 1) from the start vs (1, 1) to the end: a tie goes to the start.
    expect(rc(layer.screenPositionForBufferPosition([1, 1]))).toEqual([0, 2])
    expect(rc(layer.screenPositionForBufferPosition([1, 3]))).toEqual([0, 3])
    expect(rc(layer.screenPositionForBufferPosition([2, 0]))).toEqual([0, 3])
    expect(rc(layer.screenPositionForBufferPosition([2, 1]))).toEqual([0, 3])
    expect(rc(layer.screenPositionForBufferPosition([2, 2]))).toEqual([0, 4])
    expect(rc(layer.bufferPositionForScreenPosition([0, 2]))).toEqual([0, 2])
    expect(rc(layer.bufferPositionForScreenPosition([0, 3]))).toEqual([2, 1])
    expect(rc(layer.bufferPositionForScreenPosition([1, 0]))).toEqual([3, 0])
  })

  it('maps rows around the fold', () => {
    const { layer } = layerFor(TEXT)
    layer.foldBufferRange([[0, 2], [2, 1]])
    expect([0, 1, 2, 3].map((row) => layer.screenRowForBufferRow(row))).toEqual([0, 0, 0, 1])
    expect([0, 1].map((row) => layer.bufferRowForScreenRow(row))).toEqual([0, 3])
    expect([0, 1, 2, 3].map((row) => layer.isFoldedAtBufferRow(row))).toEqual([true, true, true, false])
    expect([0, 1].map((row) => layer.isFoldedAtScreenRow(row))).toEqual([true, false])
    expect(layer.screenRowRangeForBufferRow(1)).toEqual([0, 0])
  })

  it('joins overlapping folds into one placeholder and keeps touching ones apart', () => {
    const { layer } = layerFor(TEXT)
    layer.foldBufferRange([[0, 1], [1, 2]])
    layer.foldBufferRange([[1, 0], [2, 2]])
    expect(screenLines(layer)).toEqual(['a⋯kl', 'mnop'])
    layer.unfoldAll()
    layer.foldBufferRange([[3, 1], [3, 2]])
    layer.foldBufferRange([[3, 2], [3, 3]])
    expect(screenLines(layer)).toEqual(['abcd', 'efgh', 'ijkl', 'm⋯⋯p'])
  })

  it('changes nothing on screen for a fold inside another or an empty one', () => {
    const { layer } = layerFor(TEXT)
    layer.foldBufferRange([[0, 1], [3, 1]])
    const events: unknown[] = []
    layer.onDidChange((event) => events.push(event))
    layer.foldBufferRange([[1, 1], [2, 1]])
    layer.foldBufferRange([[3, 2], [3, 2]])
    expect(events).toEqual([])
    expect(screenLines(layer)).toEqual(['a⋯nop'])
    expect(layer.getFolds().length).toBe(3)
  })

  it('clips a fold range into the buffer', () => {
    const { layer } = layerFor(TEXT)
    const id = layer.foldBufferRange([[2, Infinity], [9, 0]])
    expect(layer.bufferRangeForFold(id)?.serialize()).toEqual([[2, 4], [3, 4]])
    expect(screenLines(layer)).toEqual(['abcd', 'efgh', 'ijkl⋯'])
  })
})

describe('folds through edits', () => {
  it('keeps a fold when an edit is strictly inside it, growing or shrinking it', () => {
    const { buffer, layer } = layerFor(TEXT)
    const id = layer.foldBufferRange([[0, 2], [2, 1]])
    buffer.insert([1, 1], 'X\nY')
    expect(layer.bufferRangeForFold(id)?.serialize()).toEqual([[0, 2], [3, 1]])
    buffer.delete([[1, 0], [2, 1]])
    expect(layer.bufferRangeForFold(id)?.serialize()).toEqual([[0, 2], [2, 1]])
    expect(screenLines(layer)).toEqual(['ab⋯jkl', 'mnop'])
  })

  it('moves a fold when text is inserted at its start and leaves out text inserted at its end', () => {
    const { buffer, layer } = layerFor(TEXT)
    const id = layer.foldBufferRange([[0, 2], [2, 1]])
    buffer.insert([0, 2], 'S')
    buffer.insert([2, 1], 'E')
    expect(layer.bufferRangeForFold(id)?.serialize()).toEqual([[0, 3], [2, 1]])
    expect(screenLines(layer)).toEqual(['abS⋯Ejkl', 'mnop'])
  })

  it('removes a fold when an edit reaches across its start or its end', () => {
    const { buffer, layer } = layerFor(TEXT)
    layer.foldBufferRange([[0, 2], [2, 1]])
    buffer.delete([[0, 1], [0, 3]])
    expect(layer.getFolds()).toEqual([])
    expect(screenLines(layer)).toEqual(['ad', 'efgh', 'ijkl', 'mnop'])
    layer.foldBufferRange([[0, 1], [2, 1]])
    buffer.setTextInRange([[2, 0], [2, 2]], 'Z')
    expect(layer.getFolds()).toEqual([])
  })

  it('keeps a fold when a deletion ends at its start or starts at its end', () => {
    const { buffer, layer } = layerFor(TEXT)
    const id = layer.foldBufferRange([[0, 2], [2, 1]])
    buffer.delete([[0, 0], [0, 2]])
    buffer.delete([[2, 1], [2, 3]])
    expect(layer.bufferRangeForFold(id)?.serialize()).toEqual([[0, 0], [2, 1]])
    expect(screenLines(layer)).toEqual(['⋯l', 'mnop'])
  })

  it('follows edits above and below', () => {
    const { buffer, layer } = layerFor(TEXT)
    const id = layer.foldBufferRange([[1, 1], [2, 1]])
    buffer.insert([0, 0], 'new\n')
    buffer.insert([4, 4], '\nlast')
    expect(layer.bufferRangeForFold(id)?.serialize()).toEqual([[2, 1], [3, 1]])
    expect(screenLines(layer)).toEqual(['new', 'abcd', 'e⋯jkl', 'mnop', 'last'])
  })
})

describe('removing folds', () => {
  it('destroyFold, destroyFoldsIntersectingBufferRange and destroyFoldsContainingBufferPositions', () => {
    const { layer } = layerFor(TEXT)
    const a = layer.foldBufferRange([[0, 1], [0, 3]])
    const b = layer.foldBufferRange([[1, 1], [2, 1]])
    const c = layer.foldBufferRange([[3, 1], [3, 3]])
    layer.destroyFold(a)
    expect(screenLines(layer)).toEqual(['abcd', 'e⋯jkl', 'm⋯p'])
    expect(layer.destroyFoldsContainingBufferPositions([[2, 1]], true)).toEqual([])
    expect(layer.destroyFoldsContainingBufferPositions([[2, 1]], false).map((r) => r.serialize())).toEqual([[[1, 1], [2, 1]]])
    expect(layer.foldsIntersectingBufferRange([[3, 0], [3, 1]]).map((fold) => fold.id)).toEqual([c])
    expect(layer.destroyFoldsIntersectingBufferRange([[3, 0], [3, 1]]).length).toBe(1)
    expect(layer.getFolds()).toEqual([])
    expect(screenLines(layer)).toEqual(TEXT.split('\n'))
    layer.destroyFold(b)
    expect(layer.getFolds()).toEqual([])
  })

  it('unfoldBufferRow destroys the folds containing the end of the row', () => {
    const { layer } = layerFor(TEXT)
    layer.foldBufferRange([[0, 4], [2, 4]])
    layer.unfoldBufferRow(3)
    expect(layer.getFolds().length).toBe(1)
    layer.unfoldBufferRow(2)
    expect(layer.getFolds()).toEqual([])
  })
})

describe('indentation folds (plain text)', () => {
  const CODE = 'a\n  b\n    c\n\n  d\ne\n  f'

  it('knows which rows start a fold', () => {
    const { layer } = layerFor(CODE)
    expect([0, 1, 2, 3, 4, 5, 6].map((row) => layer.isFoldableAtBufferRow(row))).toEqual([true, true, false, false, false, true, false])
  })

  it('foldBufferRow folds the block starting at the row, from the end of its first row to the end of its last', () => {
    const { layer } = layerFor(CODE)
    const id = layer.foldBufferRow(0)
    expect(layer.bufferRangeForFold(id!)?.serialize()).toEqual([[0, 1], [4, 3]])
    expect(screenLines(layer)).toEqual(['a⋯', 'e', '  f'])
  })

  it('foldBufferRow on a row inside a block folds the nearest block containing it', () => {
    const { layer } = layerFor(CODE)
    layer.foldBufferRow(2)
    expect(screenLines(layer)).toEqual(['a', '  b⋯', '', '  d', 'e', '  f'])
    layer.foldBufferRow(2)
    expect(screenLines(layer)).toEqual(['a⋯', 'e', '  f'])
    expect(layer.getFolds().length).toBe(2)
    expect(layer.foldBufferRow(2)).toBeNull()
  })

  it('foldBufferRow finds nothing at the top level or past a block', () => {
    const { layer } = layerFor(CODE)
    expect(layer.foldBufferRow(6)).toBe(layer.getFolds()[0]?.id)
    expect(screenLines(layer)).toEqual(['a', '  b', '    c', '', '  d', 'e⋯'])
    const flat = layerFor('x\ny\nz').layer
    expect(flat.foldBufferRow(1)).toBeNull()
    expect(flat.getFolds()).toEqual([])
  })

  it('measures indentation with the tab length', () => {
    const { layer } = layerFor('a\n\tb\n    c\nd', { tabLength: 4 })
    layer.foldBufferRow(1)
    expect(screenLines(layer)).toEqual(['a⋯', 'd'])
  })
})

describe('folds and soft wrap together', () => {
  it('wraps the joined line, treating the text after a fold as a word when the folded text ended in a space', () => {
    const { layer } = layerFor('one two\nthree\nfour five six', { softWrapped: true, editorWidthInChars: 9 })
    layer.foldBufferRange([[0, 4], [2, 5]])
    // Atom looks at the buffer character before 'five' (a space, inside the fold): a word start.
    expect(screenLines(layer)).toEqual(['one ⋯', 'five six'])
    expect(rc(layer.screenPositionForBufferPosition([2, 5]))).toEqual([1, 0])
    expect(rc(layer.screenPositionForBufferPosition([2, 10]))).toEqual([1, 5])
    expect(rc(layer.bufferPositionForScreenPosition([0, 5]))).toEqual([0, 4])
    expect([0, 1].map((row) => layer.bufferRowForScreenRow(row))).toEqual([0, 2])
    expect(layer.screenRowForBufferRow(1)).toBe(0)
  })

  it('puts a fold that starts a continuation row at that row', () => {
    const { layer } = layerFor('abc defgh\nij', { softWrapped: true, editorWidthInChars: 5 })
    layer.foldBufferRange([[0, 4], [1, 1]])
    expect(screenLines(layer)).toEqual(['abc ', '⋯j'])
    expect(rc(layer.screenPositionForBufferPosition([0, 4]))).toEqual([1, 0])
    expect(rc(layer.screenPositionForBufferPosition([0, 6], { clipDirection: 'forward' }))).toEqual([1, 1])
    expect(rc(layer.bufferPositionForScreenPosition([1, 0]))).toEqual([0, 4])
    expect(rc(layer.bufferPositionForScreenPosition([0, 4]))).toEqual([0, 3])
  })
})
