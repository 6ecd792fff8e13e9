import { describe, expect, it } from 'vitest'
import { TextEditor } from '../../core/index.ts'
import { RowHighlighter, spansKey, type ScreenSpan } from '../../web/view/highlights.ts'

/**
 * The highlighter over a real editor; Node's own timers stand in for the window's, and a clock that
 * ticks once per clock reading (every 16 parser steps) makes a slice a fixed amount of work (320 steps), whatever the load.
 */
function stepClock(): () => number {
  let steps = 0
  return () => steps++
}

async function highlighter(editor: TextEditor, onProgress: () => void = () => {}): Promise<RowHighlighter> {
  return new RowHighlighter(editor, globalThis as unknown as Window, onProgress, { sliceMs: 20, now: stepClock() })
}

/** Resolves once the background parse has covered the whole document. */
async function untilComplete(rows: RowHighlighter): Promise<number> {
  let steps = 0
  while (!rows.isComplete()) {
    await new Promise((resolve) => setTimeout(resolve, 1))
    steps++
  }
  return steps
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
  it('paints the rows asked for at once when they parse within a slice', async () => {
    const editor = new TextEditor({ text: 'let a = 1', language: 'javascript' })
    const rows = await highlighter(editor)
    expect(painted(editor, rows, 'tok-keyword')).toEqual(['[let] a = 1'])
    expect(rows.isComplete()).toBe(true)
    rows.dispose()
  })

  it('highlights a large document progressively, the rows in view first, as the engine would', async () => {
    const unit = 'function f(a) {\n  return "s" + a // c\n}\n'
    const text = unit.repeat(6_000)
    const editor = new TextEditor({ text, language: 'javascript' })
    let progress = 0
    const rows = await highlighter(editor, () => progress++)
    const firstRows = Array.from({ length: 3 }, (_, row) => editor.lineTextForScreenRow(row))
    expect(rows.spansForScreenRows(0, firstRows)![1]!.map((s) => s.classes)).toEqual(['tok-keyword', 'tok-string', 'tok-operator', 'tok-variableName', 'tok-comment'])
    expect(rows.isComplete()).toBe(false)
    const last = editor.getLastScreenRow() - 1
    const steps = await untilComplete(rows)
    expect(steps).toBeGreaterThan(1)
    expect(progress).toBeGreaterThan(1)
    const tail = rows.spansForScreenRows(last - 2, [0, 1, 2].map((i) => editor.lineTextForScreenRow(last - 2 + i)))!
    const engine = editor.highlightSpansForBufferRows(last - 2, last)
    expect(tail.map((row) => row.map((s) => [s.start, s.end, s.classes]))).toEqual(engine.map((row) => row.map((s) => [s.startColumn, s.endColumn, s.classes])))
    // An edit re-highlights around it (rows above keep their colours meanwhile).
    editor.setTextInBufferRange([[last - 1, 9], [last - 1, 12]], '42')
    expect(painted(editor, rows, 'tok-keyword')[0]).toBe('[function] f(a) {')
    await untilComplete(rows)
    expect(painted(editor, rows, 'tok-number').slice(last - 1, last)).toEqual(['  return [42] + a // c'])
    rows.dispose()
  }, 30_000)

  it("drives the language mode's own parse: folds and queries read the tree the highlighting built", async () => {
    const unit = 'function f(a) {\n  return "s" + a // c\n}\n'
    const editor = new TextEditor({ text: unit.repeat(3_000), language: 'javascript' })
    const mode = editor.getLanguageMode()
    const rows = await highlighter(editor)
    rows.spansForScreenRows(0, [editor.lineTextForScreenRow(0)])
    expect(mode.parsedUpTo()).toBeGreaterThan(0)
    expect(mode.parsedUpTo()).toBeLessThan(editor.getBuffer().getLength())
    await untilComplete(rows)
    expect(mode.parsedUpTo()).toBe(editor.getBuffer().getLength())
    const tree = mode.syntaxTreeSoFar()!.tree
    // Fold toggles, scopes and the whole tree come from that tree: no parse of their own.
    expect(editor.isFoldableAtBufferRow(2_400)).toBe(true)
    expect(editor.scopeDescriptorForBufferPosition([2_401, 10]).getScopesArray()).toContain('string.quoted.double.js')
    expect(mode.getSyntaxTree()).toBe(tree)
    expect(mode.syntaxTreeSoFar()!.tree).toBe(tree)
    // An edit cuts it where it touched; the next slices re-parse around the edit only.
    editor.setTextInBufferRange([[4_000, 9], [4_000, 12]], '42')
    expect(mode.parsedUpTo()).toBe(editor.getBuffer().characterIndexForPosition([4_000, 9]))
    expect(rows.isComplete()).toBe(false)
    await untilComplete(rows)
    expect(mode.syntaxTreeSoFar()!.tree.resolveInner(editor.getBuffer().characterIndexForPosition([4_000, 10]), 1).name).toBe('Number')
    rows.dispose()
  }, 30_000)

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
    expect(rows.spansForScreenRows(0, ['# title'])).toBeNull()
    editor.setLanguage('markdown')
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
