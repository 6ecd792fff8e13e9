import type { CommentStrings } from './language-spec.ts'
import { assertTabLength, buildIndentString, columnForIndentLevel, indentLevelForLine } from './indentation.ts'

/** One replacement within a row, in the text as it was before any of the edits. */
export interface LineEdit {
  readonly row: number
  readonly startColumn: number
  readonly endColumn: number
  readonly text: string
}

export interface ToggleCommentOptions {
  readonly tabLength: number
  readonly softTabs: boolean
}

const NON_WHITESPACE = /\S/

/**
 * The edits that toggle comments on rows `startRow`..`endRow`, as Atom's `toggleLineCommentsForBufferRows`
 * makes them, so the editor can apply them as one transaction:
 *
 * - Line comments ('// ', '# '): when every non-blank row starts with the marker, the markers (and one space
 *   after each) are removed; otherwise every row is commented, non-blank rows at the block's smallest
 *   indentation, blank rows filled with that indentation and the marker. A mix comments all of them.
 * - Block comments ('/*' '* /', '<!-- ' ' -->'): when the first row starts with the start marker and the last
 *   row ends with the end marker, both are removed (with one space inside each); otherwise the start marker
 *   goes after the first row's indentation and the end marker at the end of the last row.
 *
 * Edits are sorted by position, never overlap, and their columns refer to the rows before any edit. No
 * comment strings: no edits. Unlike Atom, blank rows are indented with tabs when `softTabs` is false.
 */
export function toggleLineCommentsEdits(
  lines: (row: number) => string,
  startRow: number,
  endRow: number,
  tokens: CommentStrings,
  options: ToggleCommentOptions,
): LineEdit[] {
  if (typeof lines !== 'function') throw new TypeError('lines must be a function from a row to its text')
  assertRow(startRow, 'startRow')
  assertRow(endRow, 'endRow')
  assertTabLength(options?.tabLength)
  if (endRow < startRow) [startRow, endRow] = [endRow, startRow]
  const start = tokens.commentStartString?.trim()
  if (!start) return []
  const end = tokens.commentEndString?.trim()
  return end ? toggleBlock(lines, startRow, endRow, start, end) : toggleLines(lines, startRow, endRow, start, options)
}

function toggleBlock(lines: (row: number) => string, startRow: number, endRow: number, start: string, end: string): LineEdit[] {
  const firstLine = lines(startRow)
  const lastLine = lines(endRow)
  const startRange = startDelimiterRange(firstLine, start)
  if (startRange) {
    const endRange = endDelimiterRange(lastLine, end)
    if (!endRange) return []
    // A single row like "/*/" has overlapping delimiters; leave it alone rather than mangle it.
    if (startRow === endRow && endRange[0] < startRange[1]) return []
    return [
      { row: startRow, startColumn: startRange[0], endColumn: startRange[1], text: '' },
      { row: endRow, startColumn: endRange[0], endColumn: endRange[1], text: '' },
    ]
  }
  const indent = firstLine.length - firstLine.trimStart().length
  const opening = { row: startRow, startColumn: indent, endColumn: indent, text: `${start} ` }
  const closing = { row: endRow, startColumn: lastLine.length, endColumn: lastLine.length, text: ` ${end}` }
  if (startRow === endRow && indent === lastLine.length) return [{ ...opening, text: opening.text + closing.text }]
  return [opening, closing]
}

function toggleLines(lines: (row: number) => string, startRow: number, endRow: number, start: string, options: ToggleCommentOptions): LineEdit[] {
  const { tabLength, softTabs } = options
  let commented = false
  let uncommented = false
  for (let row = startRow; row <= endRow; row++) {
    const line = lines(row)
    if (!NON_WHITESPACE.test(line)) continue
    if (startDelimiterRange(line, start)) commented = true
    else uncommented = true
  }

  const edits: LineEdit[] = []
  if (commented && !uncommented) {
    for (let row = startRow; row <= endRow; row++) {
      const range = startDelimiterRange(lines(row), start)
      if (range) edits.push({ row, startColumn: range[0], endColumn: range[1], text: '' })
    }
    return edits
  }

  let minLevel = Infinity
  let minBlankLevel = Infinity
  for (let row = startRow; row <= endRow; row++) {
    const line = lines(row)
    const level = indentLevelForLine(line, tabLength)
    if (NON_WHITESPACE.test(line)) minLevel = Math.min(minLevel, level)
    else minBlankLevel = Math.min(minBlankLevel, level)
  }
  const level = Number.isFinite(minLevel) ? minLevel : Number.isFinite(minBlankLevel) ? minBlankLevel : 0
  const indent = buildIndentString(level, tabLength, softTabs)
  for (let row = startRow; row <= endRow; row++) {
    const line = lines(row)
    if (NON_WHITESPACE.test(line)) {
      const column = columnForIndentLevel(line, level, tabLength)
      edits.push({ row, startColumn: column, endColumn: column, text: `${start} ` })
    } else {
      edits.push({ row, startColumn: 0, endColumn: line.length, text: `${indent}${start} ` })
    }
  }
  return edits
}

/** The columns of a start marker (and one space after it) at the first non-blank character, or null. */
function startDelimiterRange(line: string, delimiter: string): [number, number] | null {
  const start = line.search(NON_WHITESPACE)
  if (start === -1 || !line.startsWith(delimiter, start)) return null
  let end = start + delimiter.length
  if (line[end] === ' ') end++
  return [start, end]
}

/** The columns of an end marker (and one space before it) with only whitespace after it, or null. */
function endDelimiterRange(line: string, delimiter: string): [number, number] | null {
  let start = line.lastIndexOf(delimiter)
  if (start === -1) return null
  const end = start + delimiter.length
  if (NON_WHITESPACE.test(line.slice(end))) return null
  if (line[start - 1] === ' ') start--
  return [start, end]
}

function assertRow(row: unknown, name: string): asserts row is number {
  if (typeof row !== 'number' || !Number.isInteger(row) || row < 0) throw new TypeError(`${name} must be a non-negative integer; got ${String(row)}`)
}

/**
 * Where a cursor at `column` on blank row `row` goes once the edits filled that row: after the opening
 * comment token (before a block comment's closing one), as Atom leaves it because the token is typed at
 * the cursor. Null when the cursor is not at the end of a blank row that an edit fills.
 */
export function cursorColumnOnCommentedBlankRow(line: string, row: number, column: number, edits: readonly LineEdit[], tokens: CommentStrings): number | null {
  if (NON_WHITESPACE.test(line) || column !== line.length) return null
  const edit = edits.find((candidate) => candidate.row === row && candidate.endColumn === line.length)
  if (!edit) return null
  const end = tokens.commentEndString?.trim()
  const closing = end && edit.text.endsWith(` ${end}`) ? end.length + 1 : 0
  return edit.startColumn + edit.text.length - closing
}
