import type { TextEditor } from '../../core/index.ts'
import { ProgressiveParse, type ParseTiming } from './progressive-parse.ts'

/** Part of a screen row to paint with `classes` (`tok-*` names from the language mode). */
export interface ScreenSpan {
  start: number
  end: number
  classes: string
}

/**
 * Syntax highlighting for the rendered screen rows, from the page's progressive parse (buffer
 * columns, web/view/progressive-parse.ts) mapped to screen columns: as they are on a row shown
 * unchanged, through the display layer on rows with tabs, folds or soft wrap. The text is on screen
 * before any parsing; colours follow, the rows in view first, without ever blocking input for more
 * than a few milliseconds.
 */
export class RowHighlighter {
  private readonly parse: ProgressiveParse

  constructor(
    private readonly editor: TextEditor,
    win: Window,
    /** Called when more of the document is highlighted: rows painted plain may now have colours. */
    onProgress: () => void,
    timing: ParseTiming = {},
  ) {
    this.parse = new ProgressiveParse(editor, win, onProgress, timing)
  }

  dispose(): void {
    this.parse.dispose()
  }

  /** Whether the whole document is highlighted. */
  isComplete(): boolean {
    return this.parse.isComplete()
  }

  /** Spans for screen rows first..first + texts.length - 1 (texts: their screen text); null for plain text. */
  spansForScreenRows(first: number, texts: readonly string[]): ScreenSpan[][] | null {
    if (texts.length === 0) return null
    const editor = this.editor
    const last = first + texts.length - 1
    const firstBufferRow = editor.bufferRowForScreenRow(first)
    const lastBufferRow = editor.bufferRangeForScreenRange([[last, 0], [last, texts[texts.length - 1]!.length]]).end.row
    const byBufferRow = this.parse.spansForBufferRows(firstBufferRow, lastBufferRow)
    if (byBufferRow === null) return null
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
}

/** A short key for a row's spans, to tell when its DOM must change. */
export function spansKey(spans: readonly ScreenSpan[] | undefined): string {
  if (spans === undefined || spans.length === 0) return ''
  let key = ''
  for (const span of spans) key += `${span.start}-${span.end}:${span.classes};`
  return key
}
