import { withLineEndingPairs, withSplitSurrogates } from './edit-repair.ts'
import type { LineIndex } from './line-index.ts'
import { BufferChange, lastLineLength, lineBreakCount } from './text-change.ts'
import type { RawChange } from './ytext-changes.ts'

/**
 * Applies one replacement (its offsets in the text as the earlier ones left it) to the line index
 * and describes it; null when, once repaired, it changes nothing. One descent finds the row; the
 * characters around the edit, its old text and its extents are read from that row when the edit
 * stays inside it (typing), so only an edit across rows looks anything else up. Rows and columns
 * stay numbers: the change makes its Points and Ranges only if a reader asks for them.
 */
export function mirrorChange(index: LineIndex, raw: RawChange, repairSurrogates: boolean): BufferChange | null {
  const repaired = repairSurrogates ? withSplitSurrogates(index, raw) : raw
  let at = index.lineForOffset(repaired.offset)
  const { offset, deleteLength, insertText } = withLineEndingPairs(index, repaired, at)
  if (deleteLength === 0 && insertText.length === 0) return null
  if (offset !== repaired.offset) at = index.lineForOffset(offset)
  const row = at.row
  const column = offset - at.rowStart
  let oldText: string
  let oldEndRow = row
  let oldEndColumn = column + deleteLength
  if (oldEndColumn <= index.contentLength(at.row, at.line, at.plain)) {
    oldText = deleteLength === 0 ? '' : at.line.slice(column, oldEndColumn)
  } else {
    oldText = index.textBetween(offset, offset + deleteLength)
    const end = index.rowForOffset(offset + deleteLength)
    oldEndRow = end.row
    oldEndColumn = offset + deleteLength - end.rowStart
  }
  index.edit(offset, deleteLength, insertText, at)
  const breaks = lineBreakCount(insertText)
  const newEndColumn = breaks === 0 ? column + insertText.length : lastLineLength(insertText)
  return new BufferChange(offset, deleteLength, insertText.length, row, column, oldEndRow, oldEndColumn, row + breaks, newEndColumn, oldText, insertText)
}
