import { describe, expect, it } from 'vitest'
import { SystemClipboard } from '../../web/input/system-clipboard.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('SystemClipboard', () => {
  it('hands a copy to the copy event once', () => {
    const clipboard = new SystemClipboard()
    const editor = editorWith('«ab»c', { clipboard })
    editor.copySelectedText()
    expect(clipboard.takeWritten()).toBe('ab')
    expect(clipboard.takeWritten()).toBeNull()
  })

  it("keeps Atom's full-line metadata while the system clipboard still holds the copied text", () => {
    const clipboard = new SystemClipboard()
    const editor = editorWith('one|\ntwo', { clipboard })
    editor.copySelectedText()
    const copied = clipboard.takeWritten()!
    expect(copied).toBe('one\n')
    editor.setCursorBufferPosition([1, 1])
    clipboard.receive(copied)
    editor.pasteText()
    expect(marked(editor)).toBe('one\none\nt|wo')
  })

  it('pastes other text plainly, with line endings normalised', () => {
    const clipboard = new SystemClipboard()
    const editor = editorWith('one|\ntwo', { clipboard })
    editor.copySelectedText()
    editor.setCursorBufferPosition([1, 1])
    clipboard.receive('x\r\ny')
    editor.pasteText()
    expect(marked(editor)).toBe('one\ntx\ny|wo')
  })

  it('pastes one entry per cursor when the copy had as many selections', () => {
    const clipboard = new SystemClipboard()
    const editor = editorWith('«a»1\n«b»2\n', { clipboard })
    editor.copySelectedText()
    const copied = clipboard.takeWritten()!
    expect(copied).toBe('a\nb')
    editor.setSelectedBufferRanges([[[0, 2], [0, 2]], [[1, 2], [1, 2]]])
    clipboard.receive(copied)
    editor.pasteText()
    expect(marked(editor)).toBe('a1a|\nb2b|\n')
  })
})
