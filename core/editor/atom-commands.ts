import type { DisplayMarker } from '../anchors/display-marker.ts'
import type { ScopeDescriptor } from '../language/scope-descriptor.ts'
import { Point, type PointLike } from '../point/point.ts'
import type { Range } from '../point/range.ts'
import type { Cursor } from '../selection/cursor.ts'
import type { WriteOptions } from '../selection/host.ts'
import { replaceSelectionText, type ReplaceOptions } from './case-commands.ts'
import { applyChanges } from './change-list.ts'
import type { EditorModel } from './editor-model.ts'
import { foldBufferRow, foldFinderFor, isFoldableAtBufferRow, refoldAll, type FoldFinder } from './fold-commands.ts'
import { duplicateSelectedLines, moveLinesDown, moveLinesUp } from './line-moves.ts'
import { insertNewlineAbove, insertNewlineBelow } from './newline-commands.ts'
import { shiftSelectionsLeft, shiftSelectionsRight, type SelectionShift } from './selection-shifts.ts'
import type { TextEditor } from './text-editor.ts'

/** The names of AtomCommands' methods, which the TextEditor facade forwards (see text-editor.ts). */
export const ATOM_COMMANDS = [
  'moveLineUp', 'moveLineDown', 'duplicateLines', 'moveSelectionLeft', 'moveSelectionRight', 'insertNewlineBelow', 'insertNewlineAbove',
  'replaceSelectedText', 'copyOnlySelectedText', 'foldBufferRow', 'foldCurrentRow', 'unfoldCurrentRow', 'foldAll', 'foldAllAtIndentLevel',
  'isFoldableAtBufferRow', 'isFoldableAtScreenRow', 'toggleFoldAtBufferRow', 'getCursorAtScreenPosition', 'getCursorScope',
  'getCurrentParagraphBufferRange', 'selectMarker', 'pageUp', 'pageDown', 'selectPageUp', 'selectPageDown',
] as const

/**
 * The editor commands of Atom's that are more than a row of the command tables (`commands.ts`): line moves,
 * duplication, selection shifts, new lines above and below, folding by syntax, paging and a few queries.
 * A part the TextEditor facade is composed of (no inheritance): every text change is one `scope.write`
 * (read-only check, one transaction, one undo step, one merge and publish) over the algorithms in their own
 * modules (line-moves, selection-shifts, newline-commands, case-commands, fold-commands).
 */
export class AtomCommands {
  constructor(
    private readonly editor: TextEditor,
    private readonly model: EditorModel,
  ) {}

  // Lines

  moveLineUp(options: WriteOptions = {}): void {
    this.moveLines('moveLineUp', options, moveLinesUp)
  }

  moveLineDown(options: WriteOptions = {}): void {
    this.moveLines('moveLineDown', options, moveLinesDown)
  }

  duplicateLines(options: WriteOptions = {}): void {
    this.model.scope.write('duplicateLines', options, () => duplicateSelectedLines(this.model, this.model.selections.ordered()))
  }

  moveSelectionLeft(options: WriteOptions = {}): void {
    this.shiftSelections('moveSelectionLeft', options, (ranges) => shiftSelectionsLeft(ranges, (r) => this.model.buffer.getTextInRange(r)))
  }

  moveSelectionRight(options: WriteOptions = {}): void {
    const { buffer } = this.model
    this.shiftSelections('moveSelectionRight', options, (ranges) => shiftSelectionsRight(ranges, (r) => buffer.getTextInRange(r), (row) => buffer.lineLengthForRow(row)))
  }

  insertNewlineBelow(options: WriteOptions = {}): void {
    this.model.scope.write('insertNewlineBelow', options, () => insertNewlineBelow(this.editor, options))
  }

  insertNewlineAbove(options: WriteOptions = {}): void {
    this.model.scope.write('insertNewlineAbove', options, () => insertNewlineAbove(this.editor, options, this.model.getAutoIndent()))
  }

  // Text of every selection (upperCase, lowerCase, transpose are rows of EACH_SELECTION)

  /** Replaces each selection's text with `fn(text)` and selects the result, as one undo step. */
  replaceSelectedText(options: ReplaceOptions & WriteOptions, fn: (text: string) => string): void {
    if (typeof fn !== 'function') throw new TypeError('replaceSelectedText needs a function from the selected text to its replacement')
    const opts = options ?? {}
    this.model.scope.write('replaceSelectedText', opts, () => {
      for (const selection of this.model.selections.ordered()) replaceSelectionText(selection, opts, fn)
    })
  }

  /** Copies the non-empty selections only (an empty one copies nothing, unlike copySelectedText). */
  copyOnlySelectedText(): void {
    const selections = this.model.selections.ordered().filter((selection) => !selection.isEmpty())
    selections.forEach((selection, i) => selection.copy(i > 0, false))
  }

  // Folds

  /** Folds the block around the end of `bufferRow` (the enclosing one when that is folded already). */
  foldBufferRow(bufferRow: number): void {
    foldBufferRow(this.model.displayLayer, this.foldFinder(), bufferRow)
  }

  /** Folds the block around the last cursor's row; returns the fold's id. */
  foldCurrentRow(): number | undefined {
    const range = this.foldFinder().rangeContainingPoint(new Point(this.editor.getCursorBufferPosition().row, Infinity))
    return range ? this.model.displayLayer.foldBufferRange(range) : undefined
  }

  /** Unfolds the folds around the end of the last cursor's row; returns their ranges. */
  unfoldCurrentRow(): Range[] {
    return this.model.displayLayer.destroyFoldsContainingBufferPositions([[this.editor.getCursorBufferPosition().row, Infinity]], false)
  }

  foldAll(): void {
    refoldAll(this.model.displayLayer, this.foldFinder().ranges())
  }

  foldAllAtIndentLevel(level: number): void {
    if (typeof level !== 'number' || !(level >= 0)) throw new TypeError(`level must be a number >= 0; got ${String(level)}`)
    refoldAll(this.model.displayLayer, this.foldFinder().rangesAtLevel(level))
  }

  /** Whether a fold can start on the row (what a gutter shows a fold arrow for). */
  isFoldableAtBufferRow(bufferRow: number): boolean {
    const { displayLayer, buffer } = this.model
    return isFoldableAtBufferRow(displayLayer, this.model.getLanguageMode(), buffer, bufferRow)
  }

  isFoldableAtScreenRow(screenRow: number): boolean {
    return this.isFoldableAtBufferRow(this.model.bufferRowForScreenRow(screenRow))
  }

  toggleFoldAtBufferRow(bufferRow: number): void {
    if (this.model.isFoldedAtBufferRow(bufferRow)) this.model.unfoldBufferRow(bufferRow)
    else this.foldBufferRow(bufferRow)
  }

  // Queries

  /** The local cursor at a screen position (of the first selection containing it), as Atom's. */
  getCursorAtScreenPosition(position: PointLike): Cursor | undefined {
    const point = Point.fromObject(position, false, 'screenPosition')
    const selection = this.model.selections.ordered().find((s) => s.getScreenRange().containsPoint(point))
    return selection && selection.getHeadScreenPosition().isEqual(point) ? selection.cursor : undefined
  }

  getCursorScope(): ScopeDescriptor {
    return this.editor.getLastCursor().getScopeDescriptor()
  }

  getCurrentParagraphBufferRange(): Range | undefined {
    return this.editor.getLastCursor().getCurrentParagraphBufferRange()
  }

  /** Selects a valid marker's range and returns it; an invalid marker changes nothing. */
  selectMarker(marker: DisplayMarker): Range | undefined {
    if (!marker || typeof marker.isValid !== 'function') throw new TypeError('selectMarker needs a DisplayMarker')
    if (!marker.isValid()) return undefined
    const range = marker.getBufferRange()
    this.editor.setSelectedBufferRange(range)
    return range
  }

  // Pages: the vertical motions, by the editor's rows per page

  pageUp(): void {
    this.editor.moveUp(this.model.getRowsPerPage())
  }
  pageDown(): void {
    this.editor.moveDown(this.model.getRowsPerPage())
  }
  selectPageUp(): void {
    this.editor.selectUp(this.model.getRowsPerPage())
  }
  selectPageDown(): void {
    this.editor.selectDown(this.model.getRowsPerPage())
  }

  private foldFinder(): FoldFinder {
    return foldFinderFor(this.model.getLanguageMode(), this.model.buffer, this.model.getTabLength())
  }

  private moveLines(name: string, options: WriteOptions, move: typeof moveLinesUp): void {
    this.model.scope.write(name, options, () => {
      const ranges = move(this.model, this.editor.getSelectedBufferRanges())
      if (!ranges) return
      this.editor.setSelectedBufferRanges(ranges, { preserveFolds: true })
      if (this.model.getAutoIndent()) this.editor.autoIndentSelectedRows(options)
    })
  }

  /** The shift is a change list computed from every selection, applied at once; the selections then move with their text. */
  private shiftSelections(name: string, options: WriteOptions, shift: (ranges: Range[]) => SelectionShift | null): void {
    this.model.scope.write(name, options, () => {
      const computed = shift(this.editor.getSelectedBufferRanges())
      if (!computed) return
      applyChanges(this.model, computed.changes)
      this.editor.setSelectedBufferRanges(computed.ranges)
    })
  }
}
