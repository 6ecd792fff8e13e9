import type { Tree } from '@lezer/common'
import { classHighlighter, highlightTree } from '@lezer/highlight'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { LanguageMode } from './mode.ts'

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
  const tree = mode.getSyntaxTree()
  if (tree === null) return emptyRows(first, last)
  return highlightTreeRows(tree, buffer, first, last)
}

/**
 * Highlight spans for buffer rows [first, last] from a Lezer tree of the buffer's text, reading the tree
 * no further than `upTo` (a character offset: where a partial parse has got to). Shared by the
 * language mode and views that parse on their own schedule.
 */
export function highlightTreeRows(tree: Tree, buffer: TextBuffer, first: number, last: number, upTo = Infinity): HighlightSpan[][] {
  const rows = emptyRows(first, last)
  if (rows.length === 0) return rows
  const rowStarts: number[] = []
  for (let row = first; row <= last + 1; row++) rowStarts.push(row > buffer.getLastRow() ? buffer.getLength() : buffer.characterIndexForPosition([row, 0]))
  const from = rowStarts[0]!
  const to = Math.min(rowStarts[rowStarts.length - 1]!, upTo)
  if (to <= from) return rows
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

function emptyRows(first: number, last: number): HighlightSpan[][] {
  const rows: HighlightSpan[][] = []
  for (let row = first; row <= last; row++) rows.push([])
  return rows
}
