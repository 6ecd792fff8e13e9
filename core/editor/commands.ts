import type { Cursor } from '../selection/cursor.ts'
import type { Selection, SetRangeOptions } from '../selection/selection.ts'
import type { InsertTextOptions } from '../selection/selection-editing.ts'
import type { WriteOptions } from '../selection/host.ts'
import type { Range } from '../point/range.ts'

/**
 * Atom's per-cursor commands at the editor level: each applies a Cursor or Selection method to every
 * local cursor or selection, then merges what now coincides. Subclasses supply the four appliers.
 */
export abstract class EditorCommands {
  protected abstract moveCursors(fn: (cursor: Cursor) => void): void
  protected abstract expandSelectionsForward(fn: (selection: Selection) => void): void
  protected abstract expandSelectionsBackward(fn: (selection: Selection) => void): void
  protected abstract mutateSelectedText<T>(name: string, options: WriteOptions, fn: (selection: Selection, index: number) => T, groupingInterval?: number): T[]
  protected abstract mergeSelectionsOnSameRows(): void
  protected abstract ensureWritable(name: string, options: WriteOptions): void

  // Movement: every cursor, then cursors at the same position merge.

  moveUp(lineCount = 1): void {
    this.moveCursors((cursor) => cursor.moveUp(lineCount, { moveToEndOfSelection: true }))
  }
  moveDown(lineCount = 1): void {
    this.moveCursors((cursor) => cursor.moveDown(lineCount, { moveToEndOfSelection: true }))
  }
  moveLeft(columnCount = 1): void {
    this.moveCursors((cursor) => cursor.moveLeft(columnCount, { moveToEndOfSelection: true }))
  }
  moveRight(columnCount = 1): void {
    this.moveCursors((cursor) => cursor.moveRight(columnCount, { moveToEndOfSelection: true }))
  }
  moveToTop(): void {
    this.moveCursors((cursor) => cursor.moveToTop())
  }
  moveToBottom(): void {
    this.moveCursors((cursor) => cursor.moveToBottom())
  }
  moveToBeginningOfScreenLine(): void {
    this.moveCursors((cursor) => cursor.moveToBeginningOfScreenLine())
  }
  moveToBeginningOfLine(): void {
    this.moveCursors((cursor) => cursor.moveToBeginningOfLine())
  }
  moveToFirstCharacterOfLine(): void {
    this.moveCursors((cursor) => cursor.moveToFirstCharacterOfLine())
  }
  moveToEndOfScreenLine(): void {
    this.moveCursors((cursor) => cursor.moveToEndOfScreenLine())
  }
  moveToEndOfLine(): void {
    this.moveCursors((cursor) => cursor.moveToEndOfLine())
  }
  moveToBeginningOfWord(): void {
    this.moveCursors((cursor) => cursor.moveToBeginningOfWord())
  }
  moveToEndOfWord(): void {
    this.moveCursors((cursor) => cursor.moveToEndOfWord())
  }
  moveToBeginningOfNextWord(): void {
    this.moveCursors((cursor) => cursor.moveToBeginningOfNextWord())
  }
  moveToPreviousWordBoundary(): void {
    this.moveCursors((cursor) => cursor.moveToPreviousWordBoundary())
  }
  moveToNextWordBoundary(): void {
    this.moveCursors((cursor) => cursor.moveToNextWordBoundary())
  }
  moveToPreviousSubwordBoundary(): void {
    this.moveCursors((cursor) => cursor.moveToPreviousSubwordBoundary())
  }
  moveToNextSubwordBoundary(): void {
    this.moveCursors((cursor) => cursor.moveToNextSubwordBoundary())
  }
  skipLeadingWhitespace(): void {
    this.moveCursors((cursor) => cursor.skipLeadingWhitespace())
  }
  moveToBeginningOfNextParagraph(): void {
    this.moveCursors((cursor) => cursor.moveToBeginningOfNextParagraph())
  }
  moveToBeginningOfPreviousParagraph(): void {
    this.moveCursors((cursor) => cursor.moveToBeginningOfPreviousParagraph())
  }

  // Selection: every selection, then intersecting ones merge (backward ones keep a reversed result).

  selectUp(rowCount = 1): void {
    this.expandSelectionsBackward((selection) => selection.selectUp(rowCount))
  }
  selectDown(rowCount = 1): void {
    this.expandSelectionsForward((selection) => selection.selectDown(rowCount))
  }
  selectLeft(columnCount = 1): void {
    this.expandSelectionsBackward((selection) => selection.selectLeft(columnCount))
  }
  selectRight(columnCount = 1): void {
    this.expandSelectionsForward((selection) => selection.selectRight(columnCount))
  }
  selectToTop(): void {
    this.expandSelectionsBackward((selection) => selection.selectToTop())
  }
  selectToBottom(): void {
    this.expandSelectionsForward((selection) => selection.selectToBottom())
  }
  selectAll(): void {
    this.expandSelectionsForward((selection) => selection.selectAll())
  }
  selectToBeginningOfLine(): void {
    this.expandSelectionsBackward((selection) => selection.selectToBeginningOfLine())
  }
  selectToFirstCharacterOfLine(): void {
    this.expandSelectionsBackward((selection) => selection.selectToFirstCharacterOfLine())
  }
  selectToEndOfLine(): void {
    this.expandSelectionsForward((selection) => selection.selectToEndOfLine())
  }
  selectToEndOfBufferLine(): void {
    this.expandSelectionsForward((selection) => selection.selectToEndOfBufferLine())
  }
  selectToBeginningOfWord(): void {
    this.expandSelectionsBackward((selection) => selection.selectToBeginningOfWord())
  }
  selectToEndOfWord(): void {
    this.expandSelectionsForward((selection) => selection.selectToEndOfWord())
  }
  selectToBeginningOfNextWord(): void {
    this.expandSelectionsForward((selection) => selection.selectToBeginningOfNextWord())
  }
  selectToPreviousWordBoundary(): void {
    this.expandSelectionsBackward((selection) => selection.selectToPreviousWordBoundary())
  }
  selectToNextWordBoundary(): void {
    this.expandSelectionsForward((selection) => selection.selectToNextWordBoundary())
  }
  selectToPreviousSubwordBoundary(): void {
    this.expandSelectionsBackward((selection) => selection.selectToPreviousSubwordBoundary())
  }
  selectToNextSubwordBoundary(): void {
    this.expandSelectionsForward((selection) => selection.selectToNextSubwordBoundary())
  }
  selectToBeginningOfNextParagraph(): void {
    this.expandSelectionsForward((selection) => selection.selectToBeginningOfNextParagraph())
  }
  selectToBeginningOfPreviousParagraph(): void {
    this.expandSelectionsBackward((selection) => selection.selectToBeginningOfPreviousParagraph())
  }
  /** Selects the word under every cursor; returns the selected ranges. */
  selectWord(options: SetRangeOptions & { wordRegex?: RegExp; includeNonWordCharacters?: boolean } = {}): Range[] {
    const ranges: Range[] = []
    this.expandSelectionsForward((selection) => ranges.push(selection.selectWord(options)))
    return ranges
  }
  selectWordsContainingCursors(): void {
    this.expandSelectionsForward((selection) => selection.selectWord())
  }
  expandOverWord(): void {
    this.expandSelectionsForward((selection) => selection.expandOverWord())
  }
  selectLine(row?: number, options?: SetRangeOptions): void {
    this.expandSelectionsForward((selection) => selection.selectLine(row, options))
  }
  selectLinesContainingCursors(): void {
    this.expandSelectionsForward((selection) => selection.selectLine())
  }
  expandOverLine(): void {
    this.expandSelectionsForward((selection) => selection.expandOverLine())
  }
  addSelectionBelow(): void {
    this.expandSelectionsForward((selection) => selection.addSelectionBelow())
  }
  addSelectionAbove(): void {
    this.expandSelectionsBackward((selection) => selection.addSelectionAbove())
  }

  // Editing: one transaction over every selection, in buffer order.

  backspace(options: WriteOptions = {}): void {
    this.mutateSelectedText('backspace', options, (selection) => selection.backspace(options))
  }
  delete(options: WriteOptions = {}): void {
    this.mutateSelectedText('delete', options, (selection) => selection.delete(options))
  }
  deleteToPreviousWordBoundary(options: WriteOptions = {}): void {
    this.mutateSelectedText('deleteToPreviousWordBoundary', options, (selection) => selection.deleteToPreviousWordBoundary(options))
  }
  deleteToNextWordBoundary(options: WriteOptions = {}): void {
    this.mutateSelectedText('deleteToNextWordBoundary', options, (selection) => selection.deleteToNextWordBoundary(options))
  }
  deleteToBeginningOfWord(options: WriteOptions = {}): void {
    this.mutateSelectedText('deleteToBeginningOfWord', options, (selection) => selection.deleteToBeginningOfWord(options))
  }
  deleteToEndOfWord(options: WriteOptions = {}): void {
    this.mutateSelectedText('deleteToEndOfWord', options, (selection) => selection.deleteToEndOfWord(options))
  }
  deleteToBeginningOfSubword(options: WriteOptions = {}): void {
    this.mutateSelectedText('deleteToBeginningOfSubword', options, (selection) => selection.deleteToBeginningOfSubword(options))
  }
  deleteToEndOfSubword(options: WriteOptions = {}): void {
    this.mutateSelectedText('deleteToEndOfSubword', options, (selection) => selection.deleteToEndOfSubword(options))
  }
  deleteToBeginningOfLine(options: WriteOptions = {}): void {
    this.mutateSelectedText('deleteToBeginningOfLine', options, (selection) => selection.deleteToBeginningOfLine(options))
  }
  deleteToEndOfLine(options: WriteOptions = {}): void {
    this.mutateSelectedText('deleteToEndOfLine', options, (selection) => selection.deleteToEndOfLine(options))
  }
  deleteSelectedText(options: WriteOptions = {}): void {
    this.mutateSelectedText('deleteSelectedText', options, (selection) => selection.deleteSelectedText(options))
  }
  deleteLine(options: WriteOptions = {}): void {
    this.ensureWritable('deleteLine', options)
    this.mergeSelectionsOnSameRows()
    this.mutateSelectedText('deleteLine', options, (selection) => selection.deleteLine(options))
  }
  joinLines(options: WriteOptions = {}): void {
    this.mutateSelectedText('joinLines', options, (selection) => selection.joinLines(options))
  }
  indent(options: WriteOptions & { autoIndent?: boolean } = {}): void {
    this.mutateSelectedText('indent', options, (selection) => selection.indent(options))
  }
  indentSelectedRows(options: WriteOptions = {}): void {
    this.mutateSelectedText('indentSelectedRows', options, (selection) => selection.indentSelectedRows(options))
  }
  outdentSelectedRows(options: WriteOptions = {}): void {
    this.mutateSelectedText('outdentSelectedRows', options, (selection) => selection.outdentSelectedRows(options))
  }
  autoIndentSelectedRows(options: WriteOptions = {}): void {
    this.mutateSelectedText('autoIndentSelectedRows', options, (selection) => selection.autoIndentSelectedRows(options))
  }
  toggleLineCommentsInSelection(options: WriteOptions = {}): void {
    this.mutateSelectedText('toggleLineComments', options, (selection) => selection.toggleLineComments(options))
  }
  toggleLineComments(options: WriteOptions = {}): void {
    this.toggleLineCommentsInSelection(options)
  }
  cutToEndOfLine(options: WriteOptions = {}): void {
    let maintainClipboard = false
    this.mutateSelectedText('cutToEndOfLine', options, (selection) => {
      selection.cutToEndOfLine(maintainClipboard, options)
      maintainClipboard = true
    })
  }
  cutToEndOfBufferLine(options: WriteOptions = {}): void {
    let maintainClipboard = false
    this.mutateSelectedText('cutToEndOfBufferLine', options, (selection) => {
      selection.cutToEndOfBufferLine(maintainClipboard, options)
      maintainClipboard = true
    })
  }
  cutSelectedText(options: WriteOptions = {}): void {
    let maintainClipboard = false
    this.mutateSelectedText('cutSelectedText', options, (selection) => {
      if (selection.isEmpty()) {
        selection.selectLine()
        selection.cut(maintainClipboard, true, options)
      } else {
        selection.cut(maintainClipboard, false, options)
      }
      maintainClipboard = true
    })
  }
  insertNewline(options: InsertTextOptions = {}): Range[] | false {
    return this.insertText('\n', options)
  }
  abstract insertText(text: string, options?: InsertTextOptions): Range[] | false
}
