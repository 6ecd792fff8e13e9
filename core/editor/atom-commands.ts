import type { DisplayMarker } from '../anchors/display-marker.ts'
import type { ScopeDescriptor } from '../language/scope-descriptor.ts'
import { Point, type PointLike } from '../point/point.ts'
import type { Range } from '../point/range.ts'
import type { Cursor } from '../selection/cursor.ts'
import type { WriteOptions } from '../selection/host.ts'
import { replaceSelectionText, type ReplaceOptions } from './case-commands.ts'
import { applyChanges } from './change-list.ts'
import { foldBufferRow, foldFinderFor, isFoldableAtBufferRow, refoldAll, type FoldFinder } from './fold-commands.ts'
import { duplicateSelectedLines, moveLinesDown, moveLinesUp } from './line-moves.ts'
import { insertNewlineAbove, insertNewlineBelow } from './newline-commands.ts'
import { shiftSelectionsLeft, shiftSelectionsRight, type SelectionShift } from './selection-shifts.ts'
import { EditorEditing } from './editor-editing.ts'

/**
 * The fifth layer of the TextEditor (see editor-model.ts): Atom's commands that are more than "every
 * selection does the same": line moves, duplication, selection shifts, new lines above and below, folding by
 * syntax, paging and a few queries. Every text change is one `scope.write` (read-only check, one transaction,
 * one undo step, one merge and publish) over the algorithms in their own modules (line-moves,
 * selection-shifts, newline-commands, case-commands, fold-commands).
 */
export class AtomCommands extends EditorEditing {
  // Lines

  /** Moves the rows every selection touches up one row (around a fold as a whole), as one undo step. */
  moveLineUp(options: WriteOptions = {}): void {
    this.moveLines('moveLineUp', options, moveLinesUp)
  }

  /** Moves the rows every selection touches down one row (around a fold as a whole), as one undo step. */
  moveLineDown(options: WriteOptions = {}): void {
    this.moveLines('moveLineDown', options, moveLinesDown)
  }

  /** Inserts a copy of the rows every selection touches below them, selections and folds following the copy. */
  duplicateLines(options: WriteOptions = {}): void {
    this.scope.write('duplicateLines', options, () => duplicateSelectedLines(this, this.selections.ordered()))
  }

  /** Moves every non-empty selection's text one character left. */
  moveSelectionLeft(options: WriteOptions = {}): void {
    this.shiftSelections('moveSelectionLeft', options, (ranges) => shiftSelectionsLeft(ranges, (r) => this.buffer.getTextInRange(r)))
  }

  /** Moves every non-empty selection's text one character right. */
  moveSelectionRight(options: WriteOptions = {}): void {
    const { buffer } = this
    this.shiftSelections('moveSelectionRight', options, (ranges) => shiftSelectionsRight(ranges, (r) => buffer.getTextInRange(r), (row) => buffer.lineLengthForRow(row)))
  }

  /** Opens a new line below every cursor's row (auto-indented) and puts the cursor there. */
  insertNewlineBelow(options: WriteOptions = {}): void {
    this.scope.write('insertNewlineBelow', options, () => insertNewlineBelow(this, options))
  }

  /** Opens a new line above every cursor's row (auto-indented) and puts the cursor there. */
  insertNewlineAbove(options: WriteOptions = {}): void {
    this.scope.write('insertNewlineAbove', options, () => insertNewlineAbove(this, options, this.getAutoIndent()))
  }

  // Text of every selection

  /** Replaces each selection's text with `fn(text)` and selects the result, as one undo step. */
  replaceSelectedText(options: ReplaceOptions & WriteOptions, fn: (text: string) => string): void {
    if (typeof fn !== 'function') throw new TypeError('replaceSelectedText needs a function from the selected text to its replacement')
    const opts = options ?? {}
    this.scope.write('replaceSelectedText', opts, () => {
      for (const selection of this.selections.ordered()) replaceSelectionText(selection, opts, fn)
    })
  }

  /** Copies the non-empty selections only (an empty one copies nothing, unlike copySelectedText). */
  copyOnlySelectedText(): void {
    const selections = this.selections.ordered().filter((selection) => !selection.isEmpty())
    selections.forEach((selection, i) => selection.copy(i > 0, false))
  }

  // Folds

  /** Folds the block around the end of `bufferRow` (the enclosing one when that is folded already). */
  foldBufferRow(bufferRow: number): void {
    foldBufferRow(this.displayLayer, this.foldFinder(), bufferRow)
  }

  /** Folds the block around the last cursor's row; returns the fold's id. */
  foldCurrentRow(): number | undefined {
    const range = this.foldFinder().rangeContainingPoint(new Point(this.getCursorBufferPosition().row, Infinity))
    return range ? this.displayLayer.foldBufferRange(range) : undefined
  }

  /** Unfolds the folds around the end of the last cursor's row; returns their ranges. */
  unfoldCurrentRow(): Range[] {
    return this.displayLayer.destroyFoldsContainingBufferPositions([[this.getCursorBufferPosition().row, Infinity]], false)
  }

  /** Folds every foldable block (by syntax, or by indentation in plain text). */
  foldAll(): void {
    refoldAll(this.displayLayer, this.foldFinder().ranges())
  }

  /** Unfolds all, then folds the blocks at one nesting or indentation level. */
  foldAllAtIndentLevel(level: number): void {
    if (typeof level !== 'number' || !(level >= 0)) throw new TypeError(`level must be a number >= 0; got ${String(level)}`)
    refoldAll(this.displayLayer, this.foldFinder().rangesAtLevel(level))
  }

  /** Whether a fold can start on the row (what a gutter shows a fold arrow for). */
  isFoldableAtBufferRow(bufferRow: number): boolean {
    const { displayLayer, buffer } = this
    return isFoldableAtBufferRow(displayLayer, this.getLanguageMode(), buffer, bufferRow)
  }

  /** Whether a fold can start on the buffer row a screen row shows. */
  isFoldableAtScreenRow(screenRow: number): boolean {
    return this.isFoldableAtBufferRow(this.bufferRowForScreenRow(screenRow))
  }

  /** Unfolds a folded row, or folds the block around it. */
  toggleFoldAtBufferRow(bufferRow: number): void {
    if (this.isFoldedAtBufferRow(bufferRow)) this.unfoldBufferRow(bufferRow)
    else this.foldBufferRow(bufferRow)
  }

  // Queries

  /** The local cursor at a screen position (of the first selection containing it), as Atom's. */
  getCursorAtScreenPosition(position: PointLike): Cursor | undefined {
    const point = Point.fromObject(position, false, 'screenPosition')
    const selection = this.selections.ordered().find((s) => s.getScreenRange().containsPoint(point))
    return selection && selection.getHeadScreenPosition().isEqual(point) ? selection.cursor : undefined
  }

  /** The language scopes at the last cursor. */
  getCursorScope(): ScopeDescriptor {
    return this.getLastCursor().getScopeDescriptor()
  }

  /** The range of the paragraph around the last cursor, if any. */
  getCurrentParagraphBufferRange(): Range | undefined {
    return this.getLastCursor().getCurrentParagraphBufferRange()
  }

  /** Selects a valid marker's range and returns it; an invalid marker changes nothing. */
  selectMarker(marker: DisplayMarker): Range | undefined {
    if (!marker || typeof marker.isValid !== 'function') throw new TypeError('selectMarker needs a DisplayMarker')
    if (!marker.isValid()) return undefined
    const range = marker.getBufferRange()
    this.setSelectedBufferRange(range)
    return range
  }

  // Pages: the vertical motions, by the editor's rows per page

  /** Moves every cursor up by the rows of a page (`getRowsPerPage`). */
  pageUp(): void {
    this.moveUp(this.getRowsPerPage())
  }
  /** Moves every cursor down by the rows of a page. */
  pageDown(): void {
    this.moveDown(this.getRowsPerPage())
  }
  /** Extends every selection up by the rows of a page. */
  selectPageUp(): void {
    this.selectUp(this.getRowsPerPage())
  }
  /** Extends every selection down by the rows of a page. */
  selectPageDown(): void {
    this.selectDown(this.getRowsPerPage())
  }

  private foldFinder(): FoldFinder {
    return foldFinderFor(this.getLanguageMode(), this.buffer, this.getTabLength())
  }

  private moveLines(name: string, options: WriteOptions, move: typeof moveLinesUp): void {
    this.scope.write(name, options, () => {
      const ranges = move(this, this.getSelectedBufferRanges())
      if (!ranges) return
      this.setSelectedBufferRanges(ranges, { preserveFolds: true })
      if (this.getAutoIndent()) this.autoIndentSelectedRows(options)
    })
  }

  /** The shift is a change list computed from every selection, applied at once; the selections then move with their text. */
  private shiftSelections(name: string, options: WriteOptions, shift: (ranges: Range[]) => SelectionShift | null): void {
    this.scope.write(name, options, () => {
      const computed = shift(this.getSelectedBufferRanges())
      if (!computed) return
      applyChanges(this, computed.changes)
      this.setSelectedBufferRanges(computed.ranges)
    })
  }
}
