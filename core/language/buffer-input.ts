import type { Input } from '@lezer/common'
import type { TextBuffer } from '../buffer/text-buffer.ts'

/**
 * How much text one chunk holds: the parser asks for chunks left to right, and one block read from the line
 * index costs about what one row costs, so blocks rather than rows make a parse read the index ~100x less.
 */
const BLOCK = 8 * 1024

/**
 * A Lezer `Input` that reads the buffer a block of text at a time, so a parse never stringifies the whole
 * document: an incremental re-parse only reads the blocks around the edit. It remembers the last block it
 * served, because the parser asks for chunks left to right.
 */
export class BufferInput implements Input {
  readonly length: number
  readonly lineChunks = false
  private blockStart = 0
  private block = ''

  constructor(
    private readonly buffer: TextBuffer,
    /** Characters per block (tests use small ones). */
    private readonly blockSize = BLOCK,
  ) {
    this.length = buffer.getLength()
  }

  chunk(from: number): string {
    if (from < 0 || from >= this.length) return ''
    if (from < this.blockStart || from >= this.blockStart + this.block.length) {
      this.blockStart = from
      this.block = this.buffer.getTextBetweenOffsets(from, from + this.blockSize)
    }
    return from === this.blockStart ? this.block : this.block.slice(from - this.blockStart)
  }

  read(from: number, to: number): string {
    return this.buffer.getTextBetweenOffsets(from, to)
  }
}
