import { describe, expect, it } from 'vitest'
import { layerFor, rc, screenLines } from './helpers.ts'

describe('soft wrap', () => {
  it('breaks before the last word that starts on the row, leaving the space at the end of the upper row', () => {
    const { layer } = layerFor('abc def ghi jkl', { softWrapped: true, editorWidthInChars: 10 })
    expect(screenLines(layer)).toEqual(['abc def ', 'ghi jkl'])
    expect(layer.lineLengthForScreenRow(0)).toBe(8)
  })

  it('lets a line exactly as wide as the editor stay on one row', () => {
    const { layer } = layerFor('abcde fghij', { softWrapped: true, editorWidthInChars: 11 })
    expect(screenLines(layer)).toEqual(['abcde fghij'])
  })

  it('breaks inside a word longer than the width', () => {
    const { layer } = layerFor('abcdefghijklmnop', { softWrapped: true, editorWidthInChars: 5 })
    expect(screenLines(layer)).toEqual(['abcde', 'fghij', 'klmno', 'p'])
  })

  it('indents continuation rows like the buffer line', () => {
    const { layer } = layerFor('  abc def ghi', { softWrapped: true, editorWidthInChars: 8 })
    expect(screenLines(layer)).toEqual(['  abc ', '  def ', '  ghi'])
    expect([0, 1, 2].map((row) => layer.softWrapIndentLengthForScreenRow(row))).toEqual([0, 2, 2])
  })

  it('adds the hanging indent to continuation rows', () => {
    const { layer } = layerFor('  abc def ghi', { softWrapped: true, editorWidthInChars: 8, softWrapHangingIndentLength: 2 })
    expect(screenLines(layer)).toEqual(['  abc ', '    def ', '    ghi'])
  })

  it('drops indentation that is not narrower than the width, and a hanging indent that would not fit', () => {
    const { layer } = layerFor('      abcdefgh', { softWrapped: true, editorWidthInChars: 6 })
    expect(screenLines(layer)).toEqual(['      ', 'abcdef', 'gh'])
    const hanging = layerFor('    ab cd', { softWrapped: true, editorWidthInChars: 7, softWrapHangingIndentLength: 3 }).layer
    expect(screenLines(hanging)).toEqual(['    ab ', '    cd'])
  })

  it('counts East Asian wide characters two columns toward the width but one screen column each', () => {
    const { layer } = layerFor('日本語のテキスト', { softWrapped: true, editorWidthInChars: 10 })
    expect(screenLines(layer)).toEqual(['日本語のテ', 'キスト'])
    expect(layer.lineLengthForScreenRow(0)).toBe(5)
    expect(rc(layer.screenPositionForBufferPosition([0, 6]))).toEqual([1, 1])
  })

  it('never splits a surrogate pair, and counts a wide emoji as two', () => {
    expect(screenLines(layerFor('𝐀𝐀𝐀', { softWrapped: true, editorWidthInChars: 1 }).layer)).toEqual(['𝐀', '𝐀', '𝐀'])
    expect(screenLines(layerFor('𝐀𝐀𝐀', { softWrapped: true, editorWidthInChars: 2 }).layer)).toEqual(['𝐀𝐀', '𝐀'])
    expect(screenLines(layerFor('😀😀', { softWrapped: true, editorWidthInChars: 2 }).layer)).toEqual(['😀', '😀'])
    // One that starts before the wrap column and reaches past it stays on its row, as in Atom.
    expect(screenLines(layerFor('😀😀😀', { softWrapped: true, editorWidthInChars: 3 }).layer)).toEqual(['😀😀', '😀'])
  })

  it('expands a tab after a break from its new column', () => {
    const { layer } = layerFor('abcdef\tx', { softWrapped: true, editorWidthInChars: 6, tabLength: 4 })
    expect(screenLines(layer)).toEqual(['abcdef', '    x'])
  })

  it('counts a fold as one column and can break before it', () => {
    const { layer } = layerFor('abc defgh\nij', { softWrapped: true, editorWidthInChars: 5 })
    layer.foldBufferRange([[0, 4], [1, 1]])
    expect(screenLines(layer)).toEqual(['abc ', '⋯j'])
  })

  it('does not wrap when soft wrap is off, however long the line', () => {
    const long = 'word '.repeat(100)
    const { layer } = layerFor(long, { editorWidthInChars: 10 })
    expect(screenLines(layer)).toEqual([long])
  })

  it('re-lays out when soft wrap, the width or the hanging indent change, and never edits the buffer', () => {
    const { buffer, layer } = layerFor('one two three\nfour', { editorWidthInChars: 6 })
    let bufferEvents = 0
    buffer.onDidChange(() => bufferEvents++)
    layer.setSoftWrapped(true)
    expect(screenLines(layer)).toEqual(['one ', 'two ', 'three', 'four'])
    layer.setEditorWidthInChars(8)
    expect(screenLines(layer)).toEqual(['one two ', 'three', 'four'])
    layer.setSoftWrapHangingIndentLength(1)
    expect(screenLines(layer)).toEqual(['one two ', ' three', 'four'])
    layer.setSoftWrapped(false)
    expect(screenLines(layer)).toEqual(['one two three', 'four'])
    expect(bufferEvents).toBe(0)
    expect(buffer.getText()).toBe('one two three\nfour')
  })

  it('keeps every buffer position when soft wrap toggles', () => {
    const { layer } = layerFor('alpha beta gamma delta', { editorWidthInChars: 8 })
    const positions = [0, 3, 6, 11, 17, 22].map((column) => [0, column] as [number, number])
    layer.setSoftWrapped(true)
    const wrapped = positions.map((p) => rc(layer.screenPositionForBufferPosition(p)))
    expect(wrapped).toEqual([[0, 0], [0, 3], [1, 0], [2, 0], [3, 0], [3, 5]])
    expect(wrapped.map((s) => rc(layer.bufferPositionForScreenPosition(s)))).toEqual(positions)
    layer.setSoftWrapped(false)
    expect(positions.map((p) => rc(layer.screenPositionForBufferPosition(p)))).toEqual(positions)
  })
})
