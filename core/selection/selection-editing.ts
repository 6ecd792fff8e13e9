import { Range } from '../point/range.ts'
import type { WordOptions } from '../motions/word.ts'
import type { Selection, SelectionEditing, WriteOptions } from './host.ts'

export interface InsertTextOptions extends WriteOptions {
  select?: boolean
  autoIndent?: boolean
  autoIndentNewline?: boolean
  autoDecreaseIndent?: boolean
  preserveTrailingLineIndentation?: boolean
  normalizeLineEndings?: boolean
  /** 'skip' leaves the change out of the undo history. */
  undo?: 'skip'
  /** The indent level the text had where it was copied (from clipboard metadata). */
  indentBasis?: number | null
  autoscroll?: boolean
}

const NON_WHITESPACE = /\S/

/** Atom's Selection#insertText: replace the selection, keeping relative indentation of pasted lines. */
export function insertTextIntoSelection(selection: Selection, editing: SelectionEditing, text: string, options: InsertTextOptions): Range {
  const editor = selection.editor
  const oldBufferRange = selection.getBufferRange()
  const wasReversed = selection.isReversed()
  selection.clear(options)

  const precedingText = editor.buffer.getTextInRange([[oldBufferRange.start.row, 0], oldBufferRange.start])
  // The lines after the first are split out only when their indentation changes: a big paste that
  // keeps its indentation is inserted as it came, not split and joined again.
  const firstBreak = text.indexOf('\n')
  const firstInsertedLine = firstBreak === -1 ? text : text.slice(0, firstBreak)
  let remainingLines: string[] | null = null
  const indentRemainingLines = (adjustment: number): void => {
    if (firstBreak === -1 || adjustment === 0) return
    remainingLines ??= text.slice(firstBreak + 1).split('\n')
    adjustIndent(selection, remainingLines, adjustment)
  }
  let desiredIndentLevel: number | null = null
  let autoIndentFirstLine = false

  if (options.indentBasis != null && !options.preserveTrailingLineIndentation) {
    indentRemainingLines(editor.indentLevelForLine(precedingText) - options.indentBasis)
  }

  const autoIndentable = text === '\n' || text === '\r\n' || NON_WHITESPACE.test(text)
  if (options.autoIndent && autoIndentable && !NON_WHITESPACE.test(precedingText) && firstBreak !== -1) {
    autoIndentFirstLine = true
    const firstLine = precedingText + firstInsertedLine
    desiredIndentLevel = editor.suggestedIndentForLineAtBufferRow(oldBufferRange.start.row, firstLine)
    indentRemainingLines(desiredIndentLevel - editor.indentLevelForLine(firstLine))
  }

  const newText = remainingLines === null ? text : `${firstInsertedLine}\n${(remainingLines as string[]).join('\n')}`

  const newBufferRange = editing.setBufferTextInRange(oldBufferRange, newText, {
    normalizeLineEndings: options.normalizeLineEndings ?? true,
    undo: options.undo,
  })

  if (options.select) selection.setBufferRange(newBufferRange, { reversed: wasReversed })
  else selection.cursor.setBufferPosition(newBufferRange.end)

  if (autoIndentFirstLine && desiredIndentLevel !== null) {
    editing.setIndentationForBufferRow(oldBufferRange.start.row, desiredIndentLevel)
  }
  if (options.autoIndentNewline && newText === '\n') {
    editing.autoIndentBufferRow(newBufferRange.end.row, { preserveLeadingWhitespace: true, skipBlankLines: false })
  } else if (options.autoDecreaseIndent && NON_WHITESPACE.test(newText)) {
    editing.autoDecreaseIndentForBufferRow(newBufferRange.start.row)
  }
  return newBufferRange
}

/** Changes the indentation of every line but the first by `adjustment` levels. */
function adjustIndent(selection: Selection, lines: string[], adjustment: number): void {
  const editor = selection.editor
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (adjustment === 0 || line === '') continue
    if (adjustment > 0) {
      lines[i] = editor.buildIndentString(adjustment) + line
    } else {
      const level = Math.max(0, editor.indentLevelForLine(line) + adjustment)
      lines[i] = line.replace(/^[\t ]+/, editor.buildIndentString(level))
    }
  }
}

/**
 * Atom's Selection#joinLines: joins each selected row with the next one, separated by one space,
 * removing the trailing whitespace above and the leading whitespace below.
 */
export function joinSelectedLines(selection: Selection, editing: SelectionEditing): void {
  const buffer = selection.editor.buffer
  const selectedRange = selection.getBufferRange()
  if (selectedRange.isEmpty() && selectedRange.start.row === buffer.getLastRow()) return
  const joinMarker = selectedRange.isEmpty() ? null : editing.markBufferRange(selectedRange, { invalidate: 'never' })
  const cursor = selection.cursor
  const rowCount = Math.max(1, selectedRange.getRowCount() - 1)
  const row = selectedRange.start.row
  try {
    for (let i = 0; i < rowCount; i++) {
      const line = buffer.lineForRow(row) ?? ''
      const trailing = line.match(/[ \t]+$/)
      if (trailing) editing.setBufferTextInRange([[row, line.length - trailing[0].length], [row, line.length]], '')
      const nextRow = row + 1
      const insertSpace = nextRow <= buffer.getLastRow() && buffer.lineLengthForRow(nextRow) > 0 && buffer.lineLengthForRow(row) > 0
      const end = buffer.lineLengthForRow(row)
      if (nextRow > buffer.getLastRow()) {
        cursor.setBufferPosition([row, end])
        continue
      }
      const nextLine = buffer.lineForRow(nextRow) ?? ''
      // As Atom: a whitespace-only next row keeps its whitespace (only the line break goes).
      const firstNonBlank = nextLine.search(/\S/)
      const leading = firstNonBlank === -1 ? 0 : firstNonBlank
      editing.setBufferTextInRange([[row, end], [nextRow, leading]], insertSpace ? ' ' : '', { normalizeLineEndings: false })
      cursor.setBufferPosition([row, end])
    }
    if (joinMarker) selection.setBufferRange(joinMarker.getBufferRange())
  } finally {
    joinMarker?.destroy()
  }
}

/** Atom's Selection#deleteLine: the cursor's screen line (a folded block whole), or the selected rows. */
export function deleteSelectedLines(selection: Selection, _editing: SelectionEditing): void {
  const range = selection.getBufferRange()
  const buffer = selection.editor.buffer
  const display = selection.editor.displayLayer
  if (range.isEmpty()) {
    const screenRow = selection.cursor.getScreenRow()
    const startRow = display.bufferRowForScreenRow(screenRow)
    const nextRow = screenRow < display.getLastScreenRow() ? display.bufferRowForScreenRow(screenRow + 1) : startRow
    buffer.deleteRows(startRow, Math.max(startRow, nextRow - 1))
  } else {
    let end = range.end.row
    if (end !== buffer.getLastRow() && range.end.column === 0) end--
    buffer.deleteRows(range.start.row, end)
  }
  selection.cursor.setBufferPosition([selection.cursor.getBufferRow(), range.start.column])
}

/** Removes one level of leading indentation (a tab, or up to tabLength spaces) from each selected row. */
export function outdentSelectedRows(selection: Selection, editing: SelectionEditing): void {
  const [start, end] = selection.getBufferRowRange()
  const buffer = selection.editor.buffer
  const leadingTab = new RegExp(`^( {1,${selection.editor.getTabLength()}}|\t)`)
  for (let row = start; row <= end; row++) {
    const match = (buffer.lineForRow(row) ?? '').match(leadingTab)
    if (match && match[0].length > 0) editing.setBufferTextInRange([[row, 0], [row, match[0].length]], '')
  }
}

/** Copies to the editor's clipboard with Atom's metadata (indentBasis, fullLine, selections). */
export function copySelection(selection: Selection, maintainClipboard: boolean, fullLine: boolean): void {
  if (selection.isEmpty()) return
  const { start, end } = selection.getBufferRange()
  const selectionText = selection.editor.buffer.getTextInRange([start, end])
  const precedingText = selection.editor.buffer.getTextInRange([[start.row, 0], start])
  const indentBasis = selection.editor.indentLevelForLine(precedingText)
  const clipboard = selection.editor.getClipboard()
  if (maintainClipboard) {
    const { text: clipboardText, metadata: existing } = clipboard.readWithMetadata()
    const metadata = { ...(existing ?? {}) }
    const selections = metadata.selections
      ? [...metadata.selections]
      : [{ text: clipboardText, indentBasis: metadata.indentBasis, fullLine: metadata.fullLine }]
    selections.push({ text: selectionText, indentBasis, fullLine })
    clipboard.write([clipboardText, selectionText].join('\n'), { ...metadata, selections })
  } else {
    clipboard.write(selectionText, { indentBasis, fullLine })
  }
}

/** With an empty selection: auto-indents the row, or inserts a tab's width; otherwise indents every row. */
export function indentSelection(selection: Selection, _editing: SelectionEditing, options: WriteOptions & { autoIndent?: boolean }): void {
  const { row } = selection.cursor.getBufferPosition()
  if (!selection.isEmpty()) {
    selection.indentSelectedRows(options)
    return
  }
  selection.cursor.skipLeadingWhitespace()
  const desiredIndent = selection.editor.suggestedIndentForBufferRow(row)
  let delta = desiredIndent - selection.cursor.getIndentLevel()
  if (options.autoIndent && delta > 0) {
    if (!selection.editor.getSoftTabs()) delta = Math.max(delta, 1)
    selection.insertText(selection.editor.buildIndentString(delta), options)
  } else {
    selection.insertText(selection.editor.buildIndentString(1, selection.cursor.getBufferColumn()), options)
  }
}

/** Adds a selection on the nearest screen row above or below that the goal range fits (skipping empty rows). */
export function addSelectionVertically(selection: Selection, editing: SelectionEditing, direction: 1 | -1): void {
  const goal = selection.getGoalScreenRange()
  const display = selection.editor.displayLayer
  const lastScreenRow = display.getLastScreenRow()
  for (let row = goal.end.row + direction; row >= 0 && row <= lastScreenRow; row += direction) {
    const range = new Range([row, goal.start.column], [row, goal.end.column])
    const clipped = display.clipScreenRange(range, { skipSoftWrapIndentation: true })
    if (range.isEmpty()) {
      if (range.end.column > 0 && clipped.end.column === 0) continue
    } else if (clipped.isEmpty()) {
      continue
    }
    const added = editing.addSelectionForScreenRange(clipped)
    added.setGoalScreenRange(range)
    break
  }
}

/** Word options for a selection's queries: the cursor's non-word characters, with the caller's regex and flag. */
export function wordOptionsFor(nonWordCharacters: string, options: { wordRegex?: RegExp; includeNonWordCharacters?: boolean }): WordOptions {
  const result: WordOptions = { nonWordCharacters }
  if (options.wordRegex !== undefined) result.wordRegex = options.wordRegex
  if (options.includeNonWordCharacters !== undefined) result.includeNonWordCharacters = options.includeNonWordCharacters
  return result
}
