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
