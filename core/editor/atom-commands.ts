import type { DisplayMarker } from '../anchors/display-marker.ts'
import type { Disposable } from '../events/disposable.ts'
import type { ScopeDescriptor } from '../language/scope-descriptor.ts'
import { Point, type PointLike } from '../point/point.ts'
import type { Range, RangeLike } from '../point/range.ts'
import type { Cursor } from '../selection/cursor.ts'
import type { Selection, SetRangeOptions } from '../selection/selection.ts'
import type { WriteOptions } from '../selection/host.ts'
import { lowerCase, replaceSelectionText, transposeSelection, upperCase, type ReplaceOptions } from './case-commands.ts'
import { EditorModel, type TextEditorOptions } from './editor-model.ts'
import { foldBufferRow, foldFinderFor, isFoldableAtBufferRow, refoldAll, type FoldFinder } from './fold-commands.ts'
import { duplicateSelectedLines, moveLinesDown, moveLinesUp } from './line-moves.ts'
import { insertNewlineAbove, insertNewlineBelow } from './newline-commands.ts'
import { shiftSelectionsLeft, shiftSelectionsRight, type SelectionShift } from './selection-shifts.ts'

/** `onWillInsertText`'s payload: the text about to go in, and `cancel()` to keep it out. */
export interface WillInsertTextEvent {
  readonly text: string
  cancel(): void
}

/**
 * The TextEditor commands Atom users reach for beyond the seed: line moves, duplication, case changes,
 * folding by syntax, paging. Each method is thin wiring: the algorithms live in their own modules
 * (line-moves, selection-shifts, case-commands, newline-commands, fold-commands).
 */
export abstract class AtomCommands extends EditorModel {
  protected autoIndent: boolean
  protected autoIndentOnPaste: boolean
  private rowsPerPage: number

  constructor(options: TextEditorOptions) {
    super(options)
    checkCommandOptions(options)
    this.autoIndent = options.autoIndent ?? true
    this.autoIndentOnPaste = options.autoIndentOnPaste ?? true
    this.rowsPerPage = options.rowsPerPage ?? 1
  }

  abstract getSelectedBufferRanges(): Range[]
  abstract setSelectedBufferRanges(ranges: RangeLike[], options?: SetRangeOptions): void
  abstract setSelectedBufferRange(range: RangeLike, options?: SetRangeOptions): void
  abstract getSelectionsOrderedByBufferPosition(): Selection[]
  abstract getLastCursor(): Cursor | undefined
  abstract getCursorBufferPosition(): Point
  abstract transact<T>(groupingIntervalOrFn: number | (() => T), maybeFn?: () => T): T

  // Settings

  getAutoIndent(): boolean {
    return this.autoIndent
  }
  setAutoIndent(autoIndent: boolean | null | undefined): void {
    if (autoIndent != null) this.autoIndent = Boolean(autoIndent)
  }
  getAutoIndentOnPaste(): boolean {
    return this.autoIndentOnPaste
  }
  setAutoIndentOnPaste(autoIndentOnPaste: boolean | null | undefined): void {
    if (autoIndentOnPaste != null) this.autoIndentOnPaste = Boolean(autoIndentOnPaste)
  }
  /** How many screen rows `pageUp`/`pageDown` move (the web page sets it from the view's height). */
  getRowsPerPage(): number {
    return this.rowsPerPage
  }
  setRowsPerPage(rowsPerPage: number | null | undefined): void {
    if (rowsPerPage == null) return
    if (typeof rowsPerPage !== 'number' || !(rowsPerPage >= 1)) throw new TypeError(`rowsPerPage must be a number >= 1; got ${String(rowsPerPage)}`)
    this.rowsPerPage = Math.floor(rowsPerPage)
  }

  // Lines

  moveLineUp(options: WriteOptions = {}): void {
    this.moveLines('moveLineUp', options, moveLinesUp)
  }

  moveLineDown(options: WriteOptions = {}): void {
    this.moveLines('moveLineDown', options, moveLinesDown)
  }

  duplicateLines(options: WriteOptions = {}): void {
    this.mutateText('duplicateLines', options, () => duplicateSelectedLines(this, this.getSelectionsOrderedByBufferPosition()))
  }

  moveSelectionLeft(options: WriteOptions = {}): void {
    this.ensureWritable('moveSelectionLeft', options)
    this.shiftSelections('moveSelectionLeft', options, shiftSelectionsLeft(this.getSelectedBufferRanges(), (r) => this.buffer.getTextInRange(r)))
  }

  moveSelectionRight(options: WriteOptions = {}): void {
    this.ensureWritable('moveSelectionRight', options)
    const ranges = this.getSelectedBufferRanges()
    this.shiftSelections('moveSelectionRight', options, shiftSelectionsRight(ranges, (r) => this.buffer.getTextInRange(r), (row) => this.buffer.lineLengthForRow(row)))
  }

  insertNewlineBelow(options: WriteOptions = {}): void {
    this.ensureWritable('insertNewlineBelow', options)
    insertNewlineBelow(this, options)
  }

  insertNewlineAbove(options: WriteOptions = {}): void {
    this.ensureWritable('insertNewlineAbove', options)
    insertNewlineAbove(this, options, this.autoIndent)
  }

  // Text of every selection

  /** Replaces each selection's text with `fn(text)` and selects the result, as one undo step. */
  replaceSelectedText(options: ReplaceOptions & WriteOptions, fn: (text: string) => string): void {
    if (typeof fn !== 'function') throw new TypeError('replaceSelectedText needs a function from the selected text to its replacement')
    this.mutateSelectedText('replaceSelectedText', options ?? {}, (selection) => replaceSelectionText(selection, options ?? {}, fn))
  }

  transpose(options: WriteOptions = {}): void {
    this.mutateSelectedText('transpose', options, (selection) => transposeSelection(selection))
  }

  upperCase(options: WriteOptions = {}): void {
    this.mutateSelectedText('upperCase', options, (selection) => replaceSelectionText(selection, { selectWordIfEmpty: true }, upperCase))
  }

  lowerCase(options: WriteOptions = {}): void {
    this.mutateSelectedText('lowerCase', options, (selection) => replaceSelectionText(selection, { selectWordIfEmpty: true }, lowerCase))
  }

  /** Copies the non-empty selections only (an empty one copies nothing, unlike copySelectedText). */
  copyOnlySelectedText(): void {
    let maintainClipboard = false
    for (const selection of this.getSelectionsOrderedByBufferPosition()) {
      if (selection.isEmpty()) continue
      selection.copy(maintainClipboard, false)
      maintainClipboard = true
    }
  }

  /** Calls `callback({text, cancel})` before text is typed or pasted; `cancel()` keeps it out. */
  onWillInsertText(callback: (event: WillInsertTextEvent) => void): Disposable {
    return this.emitter.on('will-insert-text', callback)
  }

  /** Internal: false when an `onWillInsertText` callback cancelled the insertion. */
  protected willInsertText(text: string): boolean {
    let accepted = true
    this.emitter.emit('will-insert-text', { text, cancel: () => { accepted = false } })
    return accepted
  }

  // Folds

  /** Folds the block around the end of `bufferRow` (the enclosing one when that is folded already). */
  override foldBufferRow(bufferRow: number): void {
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

  foldAll(): void {
    refoldAll(this.displayLayer, this.foldFinder().ranges())
  }

  foldAllAtIndentLevel(level: number): void {
    if (typeof level !== 'number' || !(level >= 0)) throw new TypeError(`level must be a number >= 0; got ${String(level)}`)
    refoldAll(this.displayLayer, this.foldFinder().rangesAtLevel(level))
  }

  /** Whether a fold can start on the row (what a gutter shows a fold arrow for). */
  isFoldableAtBufferRow(bufferRow: number): boolean {
    return isFoldableAtBufferRow(this.displayLayer, this.languageMode, this.buffer, bufferRow)
  }

  isFoldableAtScreenRow(screenRow: number): boolean {
    return this.isFoldableAtBufferRow(this.bufferRowForScreenRow(screenRow))
  }

  toggleFoldAtBufferRow(bufferRow: number): void {
    if (this.isFoldedAtBufferRow(bufferRow)) this.unfoldBufferRow(bufferRow)
    else this.foldBufferRow(bufferRow)
  }

  // Queries

  /** The local cursor at a screen position (of the first selection containing it), as Atom's. */
  getCursorAtScreenPosition(position: PointLike): Cursor | undefined {
    const point = Point.fromObject(position, false, 'screenPosition')
    const selection = this.getSelectionsOrderedByBufferPosition().find((s) => s.getScreenRange().containsPoint(point))
    return selection && selection.getHeadScreenPosition().isEqual(point) ? selection.cursor : undefined
  }

  getCursorScope(): ScopeDescriptor {
    return this.getLastCursor()!.getScopeDescriptor()
  }

  getCurrentParagraphBufferRange(): Range | undefined {
    return this.getLastCursor()!.getCurrentParagraphBufferRange()
  }

  /** Selects a valid marker's range and returns it; an invalid marker changes nothing. */
  selectMarker(marker: DisplayMarker): Range | undefined {
    if (!marker || typeof marker.isValid !== 'function') throw new TypeError('selectMarker needs a DisplayMarker')
    if (!marker.isValid()) return undefined
    const range = marker.getBufferRange()
    this.setSelectedBufferRange(range)
    return range
  }

  // Pages

  pageUp(): void {
    this.moveUp(this.rowsPerPage)
  }
  pageDown(): void {
    this.moveDown(this.rowsPerPage)
  }
  selectPageUp(): void {
    this.selectUp(this.rowsPerPage)
  }
  selectPageDown(): void {
    this.selectDown(this.rowsPerPage)
  }

  private foldFinder(): FoldFinder {
    return foldFinderFor(this.languageMode, this.buffer, this.getTabLength())
  }

  private moveLines(name: string, options: WriteOptions, move: typeof moveLinesUp): void {
    this.mutateText(name, options, () => {
      const ranges = move(this, this.getSelectedBufferRanges())
      if (!ranges) return
      this.setSelectedBufferRanges(ranges, { preserveFolds: true })
      if (this.autoIndent) this.autoIndentSelectedRows(options)
    })
  }

  private shiftSelections(name: string, options: WriteOptions, shift: SelectionShift | null): void {
    if (!shift) return
    this.mutateText(name, options, () => {
      for (const step of shift.steps) {
        if ('delete' in step) this.buffer.delete(step.delete)
        else this.buffer.insert(step.at, step.insert, { normalizeLineEndings: false })
      }
      this.setSelectedBufferRanges(shift.ranges)
    })
  }
}

function checkCommandOptions({ autoIndent, autoIndentOnPaste, rowsPerPage }: TextEditorOptions): void {
  if (autoIndent !== undefined && typeof autoIndent !== 'boolean') throw new TypeError('options.autoIndent must be a boolean')
  if (autoIndentOnPaste !== undefined && typeof autoIndentOnPaste !== 'boolean') throw new TypeError('options.autoIndentOnPaste must be a boolean')
  if (rowsPerPage !== undefined && !(typeof rowsPerPage === 'number' && rowsPerPage >= 1)) throw new TypeError('options.rowsPerPage must be a number >= 1')
}
