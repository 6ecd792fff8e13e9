import { describe, expect, it } from 'vitest'
import { TextEditor } from '../../core/index.ts'
import { RowHighlighter, spansKey, type ScreenSpan } from '../../web/view/highlights.ts'

/** The highlighter over a real editor; Node's own timers stand in for the window's. */
async function highlighter(editor: TextEditor): Promise<RowHighlighter> {
  let ready!: () => void
  const done = new Promise<void>((resolve) => (ready = resolve))
  const rows = new RowHighlighter(editor, globalThis as unknown as Window, () => ready())
  await done
  return rows
}

/** Each screen row as text with its highlighted parts in brackets: 'let [a] = 1'. */
function painted(editor: TextEditor, rows: RowHighlighter, classes: string): string[] {
  const texts = Array.from({ length: editor.getScreenLineCount() }, (_, row) => editor.lineTextForScreenRow(row))
  const spans = rows.spansForScreenRows(0, texts)!
  return texts.map((text, i) => {
    let out = ''
    let at = 0
    for (const span of spans[i]!.filter((s: ScreenSpan) => s.classes.split(' ').includes(classes))) {
      out += `${text.slice(at, span.start)}[${text.slice(span.start, span.end)}]`
      at = span.end
    }
    return out + text.slice(at)
  })
}

describe('RowHighlighter', () => {
  it('paints nothing until the first parse has run after the first screen', async () => {
    const editor = new TextEditor({ text: 'let a = 1', language: 'javascript' })
    let readyCalls = 0
    const rows = new RowHighlighter(editor, globalThis as unknown as Window, () => readyCalls++)
    expect(rows.spansForScreenRows(0, ['let a = 1'])).toBeNull()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(readyCalls).toBe(1)
    expect(painted(editor, rows, 'tok-keyword')).toEqual(['[let] a = 1'])
    rows.dispose()
  })

  it('keeps buffer columns on rows shown as they are', async () => {
    const editor = new TextEditor({ text: 'const s = "x" // note', language: 'javascript' })
    const rows = await highlighter(editor)
    expect(painted(editor, rows, 'tok-string')).toEqual(['const s = ["x"] // note'])
    expect(painted(editor, rows, 'tok-comment')).toEqual(['const s = "x" [// note]'])
  })

  it('maps spans past hard tabs, across soft-wrapped rows and around folds', async () => {
    const editor = new TextEditor({ text: '\tx = "ab"\nif (a) {\n  b()\n} "end"\n"a long string that wraps"', language: 'javascript', tabLength: 4 })
    const rows = await highlighter(editor)
    expect(painted(editor, rows, 'tok-string')[0]).toBe('    x = ["ab"]')
    editor.foldBufferRange([[1, 8], [3, 1]])
    expect(painted(editor, rows, 'tok-keyword')[1]).toBe('[if] (a) {⋯ "end"')
    expect(painted(editor, rows, 'tok-string')[1]).toBe('if (a) {⋯ ["end"]')
    editor.setEditorWidthInChars(12)
    editor.setSoftWrapped(true)
    const wrapped = painted(editor, rows, 'tok-string').slice(3)
    expect(wrapped.join('|')).toBe('["a long ]|[string that ]|[wraps"]')
  })

  it('starts over when the language changes, and keys spans by content', async () => {
    const editor = new TextEditor({ text: '# title', language: 'text' })
    const rows = await highlighter(editor)
    expect(rows.spansForScreenRows(0, ['# title'])).toEqual([[]])
    editor.setLanguage('markdown')
    expect(rows.spansForScreenRows(0, ['# title'])).toBeNull()
    await new Promise((resolve) => setTimeout(resolve, 0))
    const spans = rows.spansForScreenRows(0, ['# title'])![0]!
    expect(spans.length).toBeGreaterThan(0)
    // Equal spans give equal keys; a span that differs in its extent or classes gives another key.
    expect(spansKey(spans.map((s) => ({ ...s })))).toBe(spansKey(spans))
    expect(spansKey(spans.map((s) => ({ ...s, classes: `${s.classes} x` })))).not.toBe(spansKey(spans))
    expect(spansKey([{ start: 0, end: 1, classes: 'tok-meta' }, { start: 2, end: 7, classes: 'tok-heading tok-strong' }])).toBe(
      '0-1:tok-meta;2-7:tok-heading tok-strong;',
    )
    expect(spansKey([{ start: 0, end: 12, classes: 'a' }])).not.toBe(spansKey([{ start: 0, end: 1, classes: '2:a' }]))
    expect([spansKey([]), spansKey(undefined)]).toEqual(['', ''])
  })
})
