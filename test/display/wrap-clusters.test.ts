import { describe, expect, it } from 'vitest'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { DisplayLayer } from '../../core/display/display-layer.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { layerFor, screenLines } from './helpers.ts'

const wrapped = (text: string, width: number) => screenLines(layerFor(text, { softWrapped: true, editorWidthInChars: width }).layer)

describe('soft wrap at a surrogate pair or grapheme cluster', () => {
  it('keeps a surrogate pair that starts before the wrap column on its row, the wrap after it (as Atom)', () => {
    expect(wrapped('abcdefghi😀jk', 10)).toEqual(['abcdefghi😀', 'jk'])
    // One that starts at the wrap column goes to the next row whole.
    expect(wrapped('abcdefghij😀k', 10)).toEqual(['abcdefghij', '😀k'])
  })

  it('never breaks inside a grapheme cluster: a combining mark or a ZWJ sequence stays with its base', () => {
    expect(wrapped('abcdefghie\u0301jk', 10)).toEqual(['abcdefghie\u0301', 'jk'])
    expect(wrapped('abcdefgh👩\u200d💻jk', 10)).toEqual(['abcdefgh👩\u200d💻', 'jk'])
    // A word start that is a combining mark after a space is no place to break either.
    expect(wrapped('abcdefgh \u0301xyz', 10)).toEqual(['abcdefgh \u0301', 'xyz'])
  })

  it('maps positions after the cluster onto the next row', () => {
    const { layer } = layerFor('abcdefghi😀jk', { softWrapped: true, editorWidthInChars: 10 })
    expect(layer.screenPositionForBufferPosition([0, 11]).toArray()).toEqual([1, 0])
    expect(layer.screenPositionForBufferPosition([0, 12]).toArray()).toEqual([1, 1])
    expect(layer.clipScreenPosition([0, 10]).toArray()).toEqual([0, 9])
  })

  it('re-wraps an edited line as a fresh layout does, around clusters at row ends', () => {
    const base = 'abcdefghi😀jk lmnopqrstuve\u0301wx yz'.repeat(4)
    const edits: [number, string][] = [[11, '\u0301'], [10, 'Q'], [9, ''], [21, '👩\u200d💻'], [12, '\u200d'], [30, 'e\u0301e\u0301']]
    for (const [column, text] of edits) {
      for (const width of [4, 7, 10, 13]) {
        const buffer = new TextBuffer({ text: base })
        const layer = new DisplayLayer(buffer, { softWrapped: true, editorWidthInChars: width })
        screenLines(layer)
        buffer.setTextInRange([[0, column], [0, column + (text === '' ? 1 : 0)]], text)
        const fresh = new DisplayLayer(new TextBuffer({ text: buffer.getText() }), { softWrapped: true, editorWidthInChars: width })
        expect(screenLines(layer), `${width} ${column} ${JSON.stringify(text)}`).toEqual(screenLines(fresh))
      }
    }
  })
})

describe('a soft-wrap width of 0 or less', () => {
  it('is treated as 1, on the display layer and the editor', () => {
    expect(wrapped('abc', 0)).toEqual(['a', 'b', 'c'])
    const { layer } = layerFor('abc', { softWrapped: true })
    layer.setEditorWidthInChars(-5)
    expect(layer.getEditorWidthInChars()).toBe(1)
    expect(screenLines(layer)).toEqual(['a', 'b', 'c'])
    const editor = new TextEditor({ text: 'abc', softWrapped: true, editorWidthInChars: 0 })
    expect(editor.getEditorWidthInChars()).toBe(1)
    editor.setEditorWidthInChars(-2)
    expect(editor.getScreenLineCount()).toBe(3)
    expect(() => editor.setEditorWidthInChars(NaN)).toThrow(TypeError)
  })
})
