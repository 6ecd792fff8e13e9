import { classHighlighter, highlightTree } from '@lezer/highlight'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { LanguageMode } from './language-mode.ts'

/** Part of one buffer row to paint with `classes` (space-separated `tok-*` names, e.g. 'tok-keyword'). */
export interface HighlightSpan {
  readonly startColumn: number
  readonly endColumn: number
  readonly classes: string
}

/**
 * Highlight spans for buffer rows [startRow, endRow], from the language mode's own incremental tree
 * (nested languages included), with @lezer/highlight's `classHighlighter` names. A view paints only
 * the rows it shows, so this never walks more of the tree than those rows cover. Plain text: none.
 */
export function highlightRows(mode: LanguageMode, buffer: TextBuffer, startRow: number, endRow: number): HighlightSpan[][] {
  const first = Math.max(0, Math.floor(startRow))
  const last = Math.min(buffer.getLastRow(), Math.floor(endRow))
  const rows: HighlightSpan[][] = []
  for (let row = first; row <= last; row++) rows.push([])
  const tree = mode.getSyntaxTree()
  if (tree === null || rows.length === 0) return rows
  const rowStarts: number[] = []
  for (let row = first; row <= last + 1; row++) rowStarts.push(buffer.characterIndexForPosition([row, 0]))
  const from = rowStarts[0]!
  const to = last + 1 <= buffer.getLastRow() ? rowStarts[rowStarts.length - 1]! : buffer.getLength()
  let index = 0
  highlightTree(
    tree,
    classHighlighter,
    (spanFrom, spanTo, classes) => {
      // Spans come in document order; split one that crosses line breaks into per-row pieces.
      while (index < rows.length - 1 && spanFrom >= rowStarts[index + 1]!) index++
      for (let i = index; i < rows.length && rowStarts[i]! < spanTo; i++) {
        const rowStart = rowStarts[i]!
        const rowLength = buffer.lineLengthForRow(first + i)
        const startColumn = Math.max(0, spanFrom - rowStart)
        const endColumn = Math.min(rowLength, spanTo - rowStart)
        if (endColumn > startColumn) rows[i]!.push({ startColumn, endColumn, classes })
      }
    },
    from,
    to,
  )
  return rows
}
