import type { TextEditor } from '../../core/index.ts'

/** Part of a screen row to paint with `classes` (`tok-*` names from the language mode). */
export interface ScreenSpan {
  start: number
  end: number
  classes: string
}

/**
 * Syntax highlighting for the rendered screen rows, from the language mode's highlight spans
 * (`editor.highlightSpansForBufferRows`, buffer columns) mapped to screen columns: as they are on a
 * row shown unchanged, through the display layer on rows with tabs, folds or soft wrap.
 *
 * The first highlight of a document parses all of it, which for a large file takes long enough to
 * delay the first screen; so the first parse after opening (or changing language) runs after the
 * plain text is on screen, and until then rows render plain. Later parses are incremental.
 */
export class RowHighlighter {
  private ready = false
  private timer = 0
  private readonly subscription: { dispose(): void }

  constructor(
    private readonly editor: TextEditor,
    private readonly win: Window,
    /** Called once the first parse is done: the rows can now be painted with their highlights. */
    private readonly onReady: () => void,
  ) {
    this.subscription = editor.onDidChangeLanguage(() => this.warmUp())
    this.warmUp()
  }

  dispose(): void {
    this.subscription.dispose()
    this.win.clearTimeout(this.timer)
  }

  /** Spans for screen rows first..first + texts.length - 1 (texts: their screen text); null before the first parse. */
  spansForScreenRows(first: number, texts: readonly string[]): ScreenSpan[][] | null {
    if (!this.ready || texts.length === 0) return null
    const editor = this.editor
    const last = first + texts.length - 1
    const firstBufferRow = editor.bufferRowForScreenRow(first)
    const lastBufferRow = editor.bufferRangeForScreenRange([[last, 0], [last, texts[texts.length - 1]!.length]]).end.row
    const byBufferRow = editor.highlightSpansForBufferRows(firstBufferRow, lastBufferRow)
    const spansOf = (bufferRow: number) => byBufferRow[bufferRow - firstBufferRow] ?? []
    const result: ScreenSpan[][] = []
    let previousBufferRow = first > 0 ? editor.bufferRowForScreenRow(first - 1) : -1
    texts.forEach((text, i) => {
      const row = first + i
      const bufferRow = editor.bufferRowForScreenRow(row)
      const startsRow = bufferRow !== previousBufferRow
      previousBufferRow = bufferRow
      const spans = spansOf(bufferRow)
      if (spans.length === 0 && !text.includes('⋯')) {
        result.push([])
      } else if (startsRow && text === editor.lineTextForBufferRow(bufferRow)) {
        // Shown as it is in the buffer: columns are the same.
        result.push(spans.map((span) => ({ start: span.startColumn, end: span.endColumn, classes: span.classes })))
      } else {
        result.push(this.mapThroughDisplay(row, text.length, spansOf))
      }
    })
    return result
  }

  private mapThroughDisplay(row: number, length: number, spansOf: (bufferRow: number) => readonly { startColumn: number; endColumn: number; classes: string }[]): ScreenSpan[] {
    const editor = this.editor
    const range = editor.bufferRangeForScreenRange([[row, 0], [row, length]])
    const mapped: ScreenSpan[] = []
    for (let bufferRow = range.start.row; bufferRow <= range.end.row; bufferRow++) {
      for (const span of spansOf(bufferRow)) {
        const start = editor.screenPositionForBufferPosition([bufferRow, span.startColumn])
        const end = editor.screenPositionForBufferPosition([bufferRow, span.endColumn])
        if (end.row < row || start.row > row) continue
        const from = start.row < row ? 0 : start.column
        const to = end.row > row ? length : end.column
        if (to > from) mapped.push({ start: from, end: to, classes: span.classes })
      }
    }
    return mapped.sort((a, b) => a.start - b.start)
  }

  private warmUp(): void {
    this.ready = false
    this.win.clearTimeout(this.timer)
    this.timer = this.win.setTimeout(() => {
      if (this.editor.isDestroyed()) return
      this.editor.highlightSpansForBufferRows(0, 0)
      this.ready = true
      this.onReady()
    }, 0)
  }
}

/** A short key for a row's spans, to tell when its DOM must change. */
export function spansKey(spans: readonly ScreenSpan[] | undefined): string {
  if (spans === undefined || spans.length === 0) return ''
  let key = ''
  for (const span of spans) key += `${span.start}-${span.end}:${span.classes};`
  return key
}
