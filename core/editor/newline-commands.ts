import type { Point } from '../point/point.ts'
import type { WriteOptions } from '../selection/host.ts'

/** The editor commands the newline commands are made of (TextEditor has them all). */
export interface NewlineHost {
  transact<T>(fn: () => T): T
  moveToEndOfLine(): void
  moveToBeginningOfLine(): void
  moveLeft(): void
  moveUp(): void
  insertNewline(options?: WriteOptions): unknown
  getCursorBufferPosition(): Point
  indentationForBufferRow(row: number): number
  setIndentationForBufferRow(row: number, level: number): void
}

/** Atom's `insertNewlineBelow`: every cursor opens a new line below its own (auto-indented), in one step. */
export function insertNewlineBelow(editor: NewlineHost, options: WriteOptions): void {
  editor.transact(() => {
    editor.moveToEndOfLine()
    editor.insertNewline(options)
  })
}

/**
 * Atom's `insertNewlineAbove`: every cursor opens a new line above its own, at the end of the row before;
 * the last cursor's new line keeps at least its old line's indentation, and on the first row the cursors
 * end up on the new empty first line.
 */
export function insertNewlineAbove(editor: NewlineHost, options: WriteOptions, autoIndent: boolean): void {
  editor.transact(() => {
    const row = editor.getCursorBufferPosition().row
    const indentLevel = editor.indentationForBufferRow(row)
    const onFirstLine = row === 0
    editor.moveToBeginningOfLine()
    editor.moveLeft()
    editor.insertNewline(options)
    if (autoIndent && editor.indentationForBufferRow(row) < indentLevel) editor.setIndentationForBufferRow(row, indentLevel)
    if (onFirstLine) {
      editor.moveUp()
      editor.moveToEndOfLine()
    }
  })
}
