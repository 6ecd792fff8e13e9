import type { TextBuffer } from '../buffer/text-buffer.ts'

const NON_WHITESPACE = /\S/
/** How much of a row one read takes while looking for its first non-blank character. */
const ROW_SLICE = 256

/**
 * Where a row's first non-whitespace character is, or -1 for a blank row, reading the row a slice at a time:
 * the row may be a 1 MB minified line that the buffer keeps in pieces, and joining it costs a millisecond.
 */
export function firstNonBlankColumn(buffer: TextBuffer, row: number): number {
  const length = buffer.lineLengthForRow(row)
  for (let column = 0; column < length; column += ROW_SLICE) {
    const found = buffer.getTextInRange([[row, column], [row, column + ROW_SLICE]]).search(NON_WHITESPACE)
    if (found !== -1) return column + found
  }
  return -1
}

/** A row's leading whitespace, read without joining the rest of a long row. */
export function leadingWhitespace(buffer: TextBuffer, row: number): string {
  const first = firstNonBlankColumn(buffer, row)
  return buffer.getTextInRange([[row, 0], [row, first === -1 ? buffer.lineLengthForRow(row) : first]])
}
