import type { TextBuffer } from '../buffer/text-buffer.ts'
import { assertTabLength, type IndentOptions } from './indentation.ts'

export function assertRow(row: unknown): asserts row is number {
  if (typeof row !== 'number' || Number.isNaN(row)) throw new TypeError(`row must be a number; got ${String(row)}`)
}

export function assertLine(line: unknown): asserts line is string {
  if (typeof line !== 'string') throw new TypeError(`line must be a string; got ${typeof line}`)
}

/** Validates the arguments of an indentation query and clips the row into the buffer. */
export function clipRow(buffer: TextBuffer, row: number, options: IndentOptions): number {
  assertRow(row)
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object with a tabLength')
  assertTabLength(options.tabLength)
  return Math.max(0, Math.min(buffer.getLastRow(), Math.floor(row)))
}
