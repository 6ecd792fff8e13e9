import { TextEditor, type TextEditorOptions } from '../../core/editor/text-editor.ts'
import { Range } from '../../core/point/range.ts'
import { parseMarked } from './marked-text.ts'

/**
 * An editor whose text and selections come from marked-up text: '|' is a cursor, '«…»' a selection
 * (see marked-text.ts). Selections are added in reading order; the last one is the last selection.
 */
export function editorWith(marked: string, options: TextEditorOptions = {}): TextEditor {
  const { text, cursors, ranges } = parseMarked(marked)
  const editor = new TextEditor({ ...options, text })
  const all = [...cursors.map((p) => new Range(p, p)), ...ranges].sort((a, b) => a.compare(b))
  if (all.length > 0) editor.setSelectedBufferRanges(all)
  // A '|' is a cursor as a click leaves it: an empty selection without a tail.
  for (const selection of editor.getSelections()) if (selection.isEmpty()) selection.clear()
  return editor
}

/** The editor's text with its selections marked: '|' for an empty one, '«…»' around a non-empty one. */
export function marked(editor: TextEditor): string {
  const lines = editor.getBuffer().getLines()
  const endings = lines.map((_, row) => editor.getBuffer().lineEndingForRow(row))
  const inserts: { row: number; column: number; mark: string; order: number }[] = []
  editor.getSelections().forEach((selection, order) => {
    const range = selection.getBufferRange()
    if (range.isEmpty()) inserts.push({ row: range.start.row, column: range.start.column, mark: '|', order })
    else {
      inserts.push({ row: range.start.row, column: range.start.column, mark: '«', order })
      inserts.push({ row: range.end.row, column: range.end.column, mark: '»', order })
    }
  })
  // Right to left within a row so earlier columns stay valid; at one column '»' goes before '|' and '«'.
  const rank = (mark: string) => (mark === '»' ? 0 : mark === '|' ? 1 : 2)
  inserts.sort((a, b) => b.row - a.row || b.column - a.column || rank(b.mark) - rank(a.mark))
  const out = [...lines]
  for (const { row, column, mark } of inserts) out[row] = out[row]!.slice(0, column) + mark + out[row]!.slice(column)
  return out.map((line, row) => line + endings[row]).join('')
}

/** Every screen row's text joined by ' / ', so folds ('⋯') and wraps show in one string. */
export function screenText(editor: TextEditor): string {
  return Array.from({ length: editor.getScreenLineCount() }, (_, row) => editor.lineTextForScreenRow(row)).join(' / ')
}
