import type { OffsetReplacement, TextBuffer } from '../buffer/text-buffer.ts'
import { Point } from '../point/point.ts'
import { Range } from '../point/range.ts'
import type { Selection } from '../selection/selection.ts'
import type { InsertTextOptions } from '../selection/selection-editing.ts'

/** What typing at every selection reads and changes besides the selections. */
export interface TypingHost {
  readonly buffer: TextBuffer
  autoDecreaseIndentForBufferRow(row: number): void
}

const LINE_BREAK = /[\r\n]/
const NON_WHITESPACE = /\S/

/**
 * A keystroke at every selection as one buffer write (CodeMirror's `changeByRange`): each selection's
 * range is replaced by `text` in one Yjs transaction and one pass through the change pipeline, then each
 * cursor is put after its text and, for text that is not whitespace, its row outdented if the language
 * says so — what `Selection#insertText` does at each selection in turn, for text without a line break
 * (no indentation to adjust, no line endings to normalise). `selections` are in buffer order. Returns
 * the inserted ranges; null, having changed nothing, when the general path is needed: a line break,
 * `select`, selections that touch or overlap (only inside an operation that has not merged them yet),
 * or two selections on one row that an outdent would check (each must see the row as its insertion
 * left it, before the next one's).
 */
export function typeAtSelections(host: TypingHost, selections: readonly Selection[], text: string, options: InsertTextOptions): Range[] | null {
  if (options.select || LINE_BREAK.test(text)) return null
  const buffer = host.buffer
  const outdent = options.autoDecreaseIndent === true && NON_WHITESPACE.test(text)
  const edits: OffsetReplacement[] = []
  // Rows are read only when an outdent needs them: the row of each start, less the rows that the
  // replaced ranges before it removed.
  const rows: number[] = []
  let previousEnd = -1
  let previousEndRow = -1
  let removedRows = 0
  for (const { marker } of selections) {
    const from = Math.min(marker.headOffset, marker.tailOffset)
    const to = Math.max(marker.headOffset, marker.tailOffset)
    if (from <= previousEnd) return null
    if (outdent) {
      const startRow = buffer.rowForCharacterIndex(from)
      if (startRow === previousEndRow) return null
      previousEndRow = to === from ? startRow : buffer.rowForCharacterIndex(to)
      rows.push(startRow - removedRows)
      removedRows += previousEndRow - startRow
    }
    previousEnd = to
    edits.push({ from, to, text })
  }
  for (const selection of selections) selection.clear(options)
  const ends = buffer.setTextInOffsetRanges(edits)
  const ranges: Range[] = []
  for (let i = 0; i < selections.length; i++) {
    const selection = selections[i]!
    const end = ends[i]!
    const start = buffer.positionForCharacterIndex(end - text.length)
    ranges.push(new Range(start, new Point(start.row, start.column + text.length)))
    // An insertion already pushed its cursor there; a replaced range that was reversed left it at the start.
    const { marker } = selection
    if (marker.headOffset !== end || marker.tailOffset !== end || marker.hasTail()) selection.cursor.setBufferPosition(ranges[i]!.end)
  }
  if (outdent) for (const row of rows) host.autoDecreaseIndentForBufferRow(row)
  return ranges
}
