import { describe, expect, it } from 'vitest'
import { Clipboard } from '../../core/editor/clipboard.ts'
import { ReadOnlyEditorError } from '../../core/editor/errors.ts'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('a one-element array is a point at column 0', () => {
  it('puts the cursor at (9, 0) for [9]', () => {
    const editor = editorWith('|' + 'line\n'.repeat(12))
    editor.setCursorBufferPosition([9])
    expect(editor.getCursorBufferPosition()).toEqual(new Point(9, 0))
    expect(Point.fromObject([4])).toEqual(new Point(4, 0))
    expect(Range.fromObject([[1], [2, 3]])).toEqual(new Range([1, 0], [2, 3]))
  })

  it('still refuses arrays that are not points', () => {
    expect(() => Point.fromObject([] as unknown as [number])).toThrow(TypeError)
    expect(() => Point.fromObject(['1'] as unknown as [number])).toThrow(TypeError)
    expect(() => Point.fromObject([1, 2, 3] as unknown as [number])).toThrow(TypeError)
  })
})

describe('Selection#cut takes positional Booleans', () => {
  it('bypasses read-only with a third argument of true', () => {
    const clipboard = new Clipboard()
    const editor = editorWith('one «two» three', { clipboard, readOnly: true })
    editor.getLastSelection()!.cut(false, false, true)
    expect(marked(editor)).toBe('one | three')
    expect(clipboard.read()).toBe('two')
  })

  it('refuses on a read-only editor with false, and still accepts the options object', () => {
    const clipboard = new Clipboard()
    const editor = editorWith('«ab»cd', { clipboard, readOnly: true })
    expect(() => editor.getLastSelection()!.cut(false, false, false)).toThrow(ReadOnlyEditorError)
    expect(editor.getText()).toBe('abcd')
    editor.getLastSelection()!.cut(false, true, { bypassReadOnly: true })
    expect(editor.getText()).toBe('cd')
    expect(clipboard.readWithMetadata()).toEqual({ text: 'ab', metadata: { indentBasis: 0, fullLine: true } })
  })
})

describe('toggleLineComments on an empty line', () => {
  it('leaves the cursor after the inserted line-comment token', () => {
    const editor = editorWith('a\n|\nb', { language: 'javascript' })
    editor.toggleLineComments()
    expect(marked(editor)).toBe('a\n// |\nb')
  })

  it('leaves the cursor between a block comment\'s tokens', () => {
    const editor = editorWith('|', { language: 'css' })
    editor.toggleLineComments()
    expect(marked(editor)).toBe('/* | */')
  })

  it('puts every cursor on an empty row after its token', () => {
    const editor = editorWith('|\nx = 1\n|', { language: 'python' })
    editor.toggleLineComments()
    expect(marked(editor)).toBe('# |\nx = 1\n# |')
  })
})

describe('deleteRows with a row range wholly outside the buffer', () => {
  it('deletes nothing and answers an empty range at the nearer end, as Atom', () => {
    const editor = editorWith('a\nb\nc')
    const buffer = editor.getBuffer()
    expect(buffer.deleteRows(5, 7)).toEqual(new Range([2, 1], [2, 1]))
    expect(buffer.deleteRows(-3, -1)).toEqual(new Range([0, 0], [0, 0]))
    expect(buffer.deleteRows(-1, -3)).toEqual(new Range([0, 0], [0, 0]))
    expect(editor.getText()).toBe('a\nb\nc')
  })

  it('still deletes the part of a range that reaches into the buffer', () => {
    const editor = editorWith('a\nb\nc')
    editor.getBuffer().deleteRows(-2, 0)
    expect(editor.getText()).toBe('b\nc')
    editor.getBuffer().deleteRows(1, 9)
    expect(editor.getText()).toBe('b')
  })
})

describe('clipping a point with a NaN coordinate', () => {
  it("throws Atom's Invalid Point error, from the buffer and the editor, and changes nothing", () => {
    const editor = editorWith('ab|c\nd')
    expect(() => editor.getBuffer().clipPosition([NaN, 1])).toThrowError(new TypeError('Invalid Point: (NaN, 1)'))
    expect(() => editor.clipBufferPosition([0, NaN])).toThrowError(new TypeError('Invalid Point: (0, NaN)'))
    expect(() => editor.getBuffer().clipRange([[0, 0], [NaN, 0]])).toThrowError('Invalid Point')
    expect(() => editor.setCursorBufferPosition([NaN, 0])).toThrowError('Invalid Point')
    expect(marked(editor)).toBe('ab|c\nd')
  })

  it('still clips infinite coordinates', () => {
    const editor = editorWith('abc\nd')
    expect(editor.clipBufferPosition([Infinity, 0])).toEqual(new Point(1, 1))
    expect(editor.clipBufferPosition([0, Infinity])).toEqual(new Point(0, 3))
    expect(editor.clipBufferPosition([-Infinity, 2])).toEqual(new Point(0, 0))
  })
})
