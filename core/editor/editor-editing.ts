import type * as Y from 'yjs'
import { type DeleteMethods, type Motion, MOTIONS } from '../selection/motion-table.ts'
import type { Range } from '../point/range.ts'
import type { Selection } from '../selection/selection.ts'
import type { InsertTextOptions } from '../selection/selection-editing.ts'
import type { WriteOptions } from '../selection/host.ts'
import { applyChanges, deletionRange } from './change-list.ts'
import { lowerCase, replaceSelectionText, transposeSelection, upperCase } from './case-commands.ts'
import { EditorSelections } from './editor-selections.ts'
import { typeAtSelections } from './typing.ts'

/**
 * The fourth layer of the TextEditor (see editor-model.ts): text changes at every selection — inserting,
 * pasting, cutting, deleting by a motion, indenting, commenting, changing case — and the undo history. Each
 * command is one `scope.write`: the read-only check, one Yjs transaction, one undo step, one merge and publish.
 */
export class EditorEditing extends EditorSelections implements DeleteMethods<WriteOptions> {
  // Inserting, copying, cutting

  /** False when an `onWillInsertText` callback cancelled the insertion. */
  insertText(text: string, options: InsertTextOptions & { groupUndo?: boolean } = {}): Range[] | false {
    if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
    this.scope.checkWritable('insertText', options)
    if (!this.willInsertText(text)) return false
    const autoIndent = this.getAutoIndent()
    const selectionOptions: InsertTextOptions = { autoIndentNewline: autoIndent, autoDecreaseIndent: autoIndent, ...options }
    const insert = () => {
      // Typing is one write at every selection; other text goes selection by selection.
      const typed = typeAtSelections(this, this.selections.byOffset(), text, selectionOptions)
      if (typed !== null) {
        if (this.emitter.hasListeners('did-insert-text')) for (const range of typed) this.emitter.emit('did-insert-text', { text, range })
        return typed
      }
      return this.selections.ordered().map((selection) => {
        const range = selection.insertText(text, selectionOptions)
        this.emitter.emit('did-insert-text', { text, range })
        return range
      })
    }
    return this.scope.write('insertText', options, insert, 'intersecting', options.groupUndo ? 300 : 0)
  }

  /** Inserts a newline at every selection (auto-indented). */
  insertNewline(options: InsertTextOptions = {}): Range[] | false {
    return this.insertText('\n', options)
  }

  /** Copies every selection's text (an empty selection copies its whole line) with Atom's metadata. */
  copySelectedText(): void {
    // Selecting lines to copy them and restoring the ranges after is no change worth publishing.
    this.scope.run(() => this.copySelections())
  }

  private copySelections(): void {
    let maintainClipboard = false
    for (const selection of this.getSelectionsOrderedByBufferPosition()) {
      if (selection.isEmpty()) {
        const previous = selection.getBufferRange()
        selection.selectLine()
        selection.copy(maintainClipboard, true)
        selection.setBufferRange(previous)
      } else {
        selection.copy(maintainClipboard, false)
      }
      maintainClipboard = true
    }
  }

  /** Pastes the clipboard at every selection (one entry per selection when the counts match), auto-indented; false when cancelled. */
  pasteText(options: InsertTextOptions = {}): false | void {
    this.scope.checkWritable('pasteText', options)
    const { text: clipboardText, metadata = {} } = this.getClipboard().readWithMetadata()
    if (!this.willInsertText(clipboardText)) return false
    const count = this.selections.count()
    const paste = (selection: Selection, index: number) => {
      const entry = metadata.selections && metadata.selections.length === count ? metadata.selections[index]! : null
      const text = entry ? entry.text : clipboardText
      const indentBasis = entry ? entry.indentBasis : metadata.indentBasis
      const fullLine = entry ? entry.fullLine : metadata.fullLine
      const insertOptions: InsertTextOptions = { autoIndent: this.getAutoIndentOnPaste(), ...options }
      insertOptions.indentBasis = indentBasis != null && (text.includes('\n') || !selection.cursor.hasPrecedingCharactersOnLine()) ? indentBasis : null
      let range: Range
      if (fullLine && selection.isEmpty()) {
        const oldPosition = selection.getBufferRange().start
        selection.setBufferRange([[oldPosition.row, 0], [oldPosition.row, 0]])
        range = selection.insertText(text, insertOptions)
        const newPosition = oldPosition.translate([1, 0])
        selection.setBufferRange([newPosition, newPosition])
      } else {
        range = selection.insertText(text, insertOptions)
      }
      this.emitter.emit('did-insert-text', { text, range })
    }
    this.scope.write('pasteText', options, () => this.selections.ordered().forEach(paste), 'intersecting')
  }

  /** Merges the selections on one screen row first, then deletes every selection's lines. */
  deleteLine(options: WriteOptions = {}): void {
    this.scope.write('deleteLine', options, () => {
      this.selections.merge('same-rows')
      for (const selection of this.selections.ordered()) selection.deleteLine(options)
    }, 'intersecting')
  }

  /** Cuts every selection, or for an empty one to the end of its screen line. */
  cutToEndOfLine(options: WriteOptions = {}): void {
    this.cutEach('cutToEndOfLine', options, (selection, maintain) => selection.cutToEndOfLine(maintain, options))
  }

  /** Cuts every selection, or for an empty one to the end of its buffer line. */
  cutToEndOfBufferLine(options: WriteOptions = {}): void {
    this.cutEach('cutToEndOfBufferLine', options, (selection, maintain) => selection.cutToEndOfBufferLine(maintain, options))
  }

  /** Cuts every selection (an empty one cuts its whole line). */
  cutSelectedText(options: WriteOptions = {}): void {
    this.cutEach('cutSelectedText', options, (selection, maintain) => {
      if (!selection.isEmpty()) return selection.cut(maintain, false, options)
      selection.selectLine()
      selection.cut(maintain, true, options)
    })
  }

  private cutEach(name: string, options: WriteOptions, cut: (selection: Selection, maintainClipboard: boolean) => void): void {
    this.scope.write(name, options, () => this.selections.ordered().forEach((selection, i) => cut(selection, i > 0)), 'intersecting')
  }

  // Deleting by a motion: every selection's range (or its motion's) is computed first and applied as one change list

  /** Deletes every selection, or for an empty one from its cursor to the motion's target, as one change. */
  protected deleteBy(motion: Motion, name: string, options?: WriteOptions): void {
    this.scope.write(name, options ?? {}, () => {
      const all = this.selections.all()
      applyChanges(this, all.map((s) => ({ range: deletionRange(s, motion), text: '' })))
      for (const s of all) if (!s.destroyed) s.clear()
    }, 'intersecting')
  }

  /** Deletes every selection, or for an empty one the character before the cursor, as one change. */
  backspace(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveLeft, 'backspace', options) }
  /** Deletes every selection, or for an empty one the character after the cursor, as one change. */
  delete(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveRight, 'delete', options) }
  /** Deletes every selection, or for an empty one from the cursor to the beginning of its word, as one change. */
  deleteToBeginningOfWord(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToBeginningOfWord, 'deleteToBeginningOfWord', options) }
  /** Deletes every selection, or for an empty one from the cursor to the end of its word, as one change. */
  deleteToEndOfWord(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToEndOfWord, 'deleteToEndOfWord', options) }
  /** Deletes every selection, or for an empty one from the cursor to the previous word boundary, as one change. */
  deleteToPreviousWordBoundary(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToPreviousWordBoundary, 'deleteToPreviousWordBoundary', options) }
  /** Deletes every selection, or for an empty one from the cursor to the next word boundary, as one change. */
  deleteToNextWordBoundary(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToNextWordBoundary, 'deleteToNextWordBoundary', options) }
  /** Deletes every selection, or for an empty one from the cursor to the previous subword boundary, as one change. */
  deleteToBeginningOfSubword(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToPreviousSubwordBoundary, 'deleteToBeginningOfSubword', options) }
  /** Deletes every selection, or for an empty one from the cursor to the next subword boundary, as one change. */
  deleteToEndOfSubword(options?: WriteOptions): void { this.deleteBy(MOTIONS.moveToNextSubwordBoundary, 'deleteToEndOfSubword', options) }

  // Text changes of every selection, in buffer order, as one write

  /** Runs `edit` on every selection in buffer order as one write (one transaction, one undo step), then merges. */
  private writeEach(name: string, options: WriteOptions | undefined, edit: (selection: Selection, options: WriteOptions) => void): void {
    const opts = options ?? {}
    this.scope.write(name, opts, () => this.selections.ordered().forEach((s) => edit(s, opts)), 'intersecting')
  }

  /** Deletes every selection, or for an empty one to the beginning of its line (the newline before it at column 0). */
  deleteToBeginningOfLine(options?: WriteOptions): void { this.writeEach('deleteToBeginningOfLine', options, (s, o) => s.deleteToBeginningOfLine(o)) }

  /** Deletes every selection, or for an empty one to the end of its screen line (the newline after it at the end). */
  deleteToEndOfLine(options?: WriteOptions): void { this.writeEach('deleteToEndOfLine', options, (s, o) => s.deleteToEndOfLine(o)) }

  /** Deletes the selected text of every selection. */
  deleteSelectedText(options?: WriteOptions): void { this.writeEach('deleteSelectedText', options, (s, o) => s.deleteSelectedText(o)) }

  /** Joins the rows every selection touches (or the next row) with single spaces. */
  joinLines(options?: WriteOptions): void { this.writeEach('joinLines', options, (s, o) => s.joinLines(o)) }

  /** Indents: an empty selection auto-indents its row or inserts a tab, a non-empty one indents its rows. */
  indent(options?: WriteOptions & { autoIndent?: boolean }): void { this.writeEach('indent', options, (s, o) => s.indent(o)) }

  /** Adds one level of indentation to every row the selections touch. */
  indentSelectedRows(options?: WriteOptions): void { this.writeEach('indentSelectedRows', options, (s, o) => s.indentSelectedRows(o)) }

  /** Removes one level of indentation from every row the selections touch. */
  outdentSelectedRows(options?: WriteOptions): void { this.writeEach('outdentSelectedRows', options, (s, o) => s.outdentSelectedRows(o)) }

  /** Indents every row the selections touch as the language suggests. */
  autoIndentSelectedRows(options?: WriteOptions): void { this.writeEach('autoIndentSelectedRows', options, (s, o) => s.autoIndentSelectedRows(o)) }

  /** Comments or uncomments the rows every selection touches. */
  toggleLineCommentsInSelection(options?: WriteOptions): void { this.writeEach('toggleLineCommentsInSelection', options, (s, o) => s.toggleLineComments(o)) }

  /** Comments or uncomments the rows every selection touches (as `toggleLineCommentsInSelection`). */
  toggleLineComments(options?: WriteOptions): void { this.writeEach('toggleLineComments', options, (s, o) => s.toggleLineComments(o)) }

  /** Swaps the characters around every empty cursor, or reverses every selected text. */
  transpose(options?: WriteOptions): void { this.writeEach('transpose', options, (s) => transposeSelection(s)) }

  /** Upper-cases every selection (an empty one: the word around its cursor). */
  upperCase(options?: WriteOptions): void { this.writeEach('upperCase', options, (s) => void replaceSelectionText(s, { selectWordIfEmpty: true }, upperCase)) }

  /** Lower-cases every selection (an empty one: the word around its cursor). */
  lowerCase(options?: WriteOptions): void { this.writeEach('lowerCase', options, (s) => void replaceSelectionText(s, { selectWordIfEmpty: true }, lowerCase)) }

  // History

  /**
   * Undoes the latest undo step made through this editor or another editor on the same Y.Text in this
   * process (they share one history; a peer's changes are never undone) and restores, in the editor that
   * made it, the selections from before it; false when there is none.
   */
  undo(options: WriteOptions = {}): boolean {
    this.scope.checkWritable('undo', options)
    return this.scope.run(() => this.history.undo())
  }

  /** Redoes the last undone step and restores the selections from after it; false when there is none. */
  redo(options: WriteOptions = {}): boolean {
    this.scope.checkWritable('redo', options)
    return this.scope.run(() => this.history.redo())
  }

  /** Runs `fn` as one Yjs transaction and one undo step; `groupingInterval` joins a close previous step. */
  transact<T>(groupingIntervalOrFn: number | (() => T), maybeFn?: () => T): T {
    const fn = typeof groupingIntervalOrFn === 'function' ? groupingIntervalOrFn : maybeFn
    const groupingInterval = typeof groupingIntervalOrFn === 'number' ? groupingIntervalOrFn : 0
    if (typeof fn !== 'function') throw new TypeError('transact needs a function')
    return this.scope.transact(fn, null, groupingInterval)
  }

  /** Marks the current point of the history; `revertToCheckpoint` and `groupChangesSinceCheckpoint` take it. */
  createCheckpoint(): number {
    return this.history.createCheckpoint()
  }

  /** Undoes every change since the checkpoint; false when the checkpoint is gone. */
  revertToCheckpoint(checkpoint: number): boolean {
    return this.scope.run(() => this.history.revertToCheckpoint(checkpoint))
  }

  /** Makes the changes since the checkpoint one undo step; false when the checkpoint is gone. */
  groupChangesSinceCheckpoint(checkpoint: number): boolean {
    return this.history.groupChangesSinceCheckpoint(checkpoint)
  }

  /** The Y.UndoManager behind undo/redo, shared by the editors on this Y.Text in this process (it tracks their origins). */
  getUndoManager(): Y.UndoManager {
    return this.history.undoManager
  }
}
