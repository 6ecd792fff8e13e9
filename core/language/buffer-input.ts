import type { Input } from '@lezer/common'
import type { TextBuffer } from '../buffer/text-buffer.ts'

/**
 * A Lezer `Input` that reads the buffer a line at a time, so a parse never stringifies the whole document:
 * an incremental re-parse only reads the lines around the edit. It remembers the last line it served,
 * because the parser asks for chunks left to right.
 */
export class BufferInput implements Input {
  readonly length: number
  readonly lineChunks = false
  private row = -1
  private rowStart = 0
  private rowText = ''

  constructor(private readonly buffer: TextBuffer) {
    this.length = buffer.getLength()
  }

  chunk(from: number): string {
    if (from < 0 || from >= this.length) return ''
    if (!(this.row >= 0 && from >= this.rowStart && from < this.rowStart + this.rowText.length)) {
      if (this.row >= 0 && from === this.rowStart + this.rowText.length) this.loadRow(this.row + 1, from)
      else this.seek(from)
    }
    return this.rowText.slice(from - this.rowStart)
  }

  read(from: number, to: number): string {
    return this.buffer.getTextBetweenOffsets(from, to)
  }

  private seek(offset: number): void {
    const { row } = this.buffer.positionForCharacterIndex(offset)
    let rowStart = this.buffer.characterIndexForPosition([row, 0])
    let target = row
    // An offset on the '\n' of a '\r\n' clips back into the row; one past a row's ending is the next row.
    if (offset >= rowStart + this.lineWithEnding(row).length) {
      rowStart += this.lineWithEnding(row).length
      target = row + 1
    }
    this.loadRow(target, rowStart)
  }

  private loadRow(row: number, rowStart: number): void {
    this.row = row
    this.rowStart = rowStart
    this.rowText = this.lineWithEnding(row)
  }

  private lineWithEnding(row: number): string {
    return (this.buffer.lineForRow(row) ?? '') + this.buffer.lineEndingForRow(row)
  }
}
