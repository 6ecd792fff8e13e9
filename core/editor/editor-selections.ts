import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import type { ClipOptions } from '../display/display-layer.ts'
import type { Cursor } from '../selection/cursor.ts'
import { type Motion, MOTIONS, type MoveMethods, type SelectMethods } from '../selection/motion-table.ts'
import type { Selection, SetRangeOptions } from '../selection/selection.ts'
import { EditorText } from './editor-text.ts'

/**
 * The third layer of the TextEditor (see editor-model.ts): the local cursors and selections, as Atom's
 * editor exposes them, and the motion commands. Every command runs in the one operation scope, which merges
 * the selections that meet when the outermost command ends and publishes once.
 */
export class EditorSelections extends EditorText implements MoveMethods, SelectMethods {
  // Cursors

  /** Every local cursor, in the order added. */
  getCursors(): Cursor[] {
    return this.selections.all().map((selection) => selection.cursor)
  }

  /** The most recently added cursor. */
  getLastCursor(): Cursor {
    return this.selections.last().cursor
  }

  /** Every local cursor, in buffer order. */
  getCursorsOrderedByBufferPosition(): Cursor[] {
    return this.getCursors().sort((a, b) => a.compare(b))
  }

  /** Whether there is more than one cursor. */
  hasMultipleCursors(): boolean {
    return this.selections.count() > 1
  }

  /** Adds a cursor; where one already is, the two merge and the existing cursor is returned. */
  addCursorAtBufferPosition(position: PointLike, _options: { autoscroll?: boolean } = {}): Cursor {
    const point = this.clipBufferPosition(Point.fromObject(position, false, 'bufferPosition'))
    return this.selections.add(this.markerLayer.markBufferPosition(point, { invalidate: 'never' })).cursor
  }

  /** Adds a cursor at a screen position (see `addCursorAtBufferPosition`). */
  addCursorAtScreenPosition(position: PointLike, options: { autoscroll?: boolean } = {}): Cursor {
    return this.addCursorAtBufferPosition(this.bufferPositionForScreenPosition(position), options)
  }

  /** The last cursor's buffer position. */
  getCursorBufferPosition(): Point {
    return this.getLastCursor().getBufferPosition()
  }

  /** Every cursor's buffer position, in the order added. */
  getCursorBufferPositions(): Point[] {
    return this.getCursors().map((cursor) => cursor.getBufferPosition())
  }

  /** The last cursor's screen position. */
  getCursorScreenPosition(): Point {
    return this.getLastCursor().getScreenPosition()
  }

  /** Every cursor's screen position, in the order added. */
  getCursorScreenPositions(): Point[] {
    return this.getCursors().map((cursor) => cursor.getScreenPosition())
  }

  /** Moves every cursor there (they then merge into one), as Atom does. */
  setCursorBufferPosition(position: PointLike, options: { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(position, false, 'bufferPosition')
    this.selections.each('cursors', (s) => s.cursor.setBufferPosition(point, options))
  }

  /** Moves every cursor to a screen position (they then merge into one). */
  setCursorScreenPosition(position: PointLike, options: ClipOptions & { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(position, false, 'screenPosition')
    this.selections.each('cursors', (s) => s.cursor.setScreenPosition(point, options))
  }

  // Selections

  /** The most recently added selection. */
  getLastSelection(): Selection {
    return this.selections.last()
  }

  /** Every local selection, in buffer order. */
  getSelectionsOrderedByBufferPosition(): Selection[] {
    return this.selections.ordered()
  }

  /** The last selection's text. */
  getSelectedText(): string {
    return this.getLastSelection().getText()
  }

  /** The last selection's buffer range. */
  getSelectedBufferRange(): Range {
    return this.getLastSelection().getBufferRange()
  }

  /** Every selection's buffer range, in the order added. */
  getSelectedBufferRanges(): Range[] {
    return this.selections.all().map((selection) => selection.getBufferRange())
  }

  /** The last selection's screen range. */
  getSelectedScreenRange(): Range {
    return this.getLastSelection().getScreenRange()
  }

  /** Every selection's screen range, in the order added. */
  getSelectedScreenRanges(): Range[] {
    return this.selections.all().map((selection) => selection.getScreenRange())
  }

  /** Leaves one selection, of this buffer range. */
  setSelectedBufferRange(range: RangeLike, options: SetRangeOptions = {}): void {
    this.setSelectedBufferRanges([range], options)
  }

  /** Leaves one selection per buffer range (reusing the existing ones in order); intersecting ones merge. */
  setSelectedBufferRanges(ranges: RangeLike[], options: SetRangeOptions = {}): void {
    if (!Array.isArray(ranges) || ranges.length === 0) throw new TypeError('ranges must be a non-empty array of ranges')
    const bufferRanges = ranges.map((range, i) => Range.fromObject(range, false, `ranges[${i}]`))
    this.scope.run(() => {
      const selections = this.getSelections()
      for (const selection of selections.slice(bufferRanges.length)) selection.destroy()
      bufferRanges.forEach((range, i) => {
        const selection = selections[i]
        if (selection) selection.setBufferRange(range, options)
        else this.addSelectionForBufferRange(range, options)
      })
    }, options.reversed ? 'intersecting-reversed' : 'intersecting')
  }

  /** Leaves one selection, of this screen range. */
  setSelectedScreenRange(range: RangeLike, options: SetRangeOptions = {}): void {
    this.setSelectedBufferRange(this.bufferRangeForScreenRange(range), options)
  }

  /** Leaves one selection per screen range; intersecting ones merge. */
  setSelectedScreenRanges(ranges: RangeLike[], options: SetRangeOptions = {}): void {
    if (!Array.isArray(ranges) || ranges.length === 0) throw new TypeError('ranges must be a non-empty array of ranges')
    this.setSelectedBufferRanges(ranges.map((range) => this.bufferRangeForScreenRange(range)), options)
  }

  /** Extends the last selection's head to a buffer position. */
  selectToBufferPosition(position: PointLike): void {
    const last = this.getLastSelection()
    this.scope.run(() => {
      last.selectToBufferPosition(position)
      this.selections.merge(last.isReversed() ? 'intersecting-reversed' : 'intersecting')
    })
  }

  /** Extends the last selection's head to a screen position (merging, unless `suppressSelectionMerge`). */
  selectToScreenPosition(position: PointLike, options: { suppressSelectionMerge?: boolean } = {}): void {
    const last = this.getLastSelection()
    this.scope.run(() => {
      last.selectToScreenPosition(position)
      if (!options.suppressSelectionMerge) this.selections.merge(last.isReversed() ? 'intersecting-reversed' : 'intersecting')
    })
  }

  /** Selects the word under every cursor; returns the selected ranges. */
  selectWord(options: SetRangeOptions & { wordRegex?: RegExp; includeNonWordCharacters?: boolean } = {}): Range[] {
    const ranges: Range[] = []
    this.selections.each('intersecting', (selection) => ranges.push(selection.selectWord(options)))
    return ranges
  }

  /** Selects a row (or every row each selection touches) with its newline, for every selection. */
  selectLine(row?: number, options?: SetRangeOptions): void {
    this.selections.each('intersecting', (selection) => selection.selectLine(row, options))
  }

  /** Keeps only the first-added selection; true if others were removed. */
  consolidateSelections(): boolean {
    const selections = this.getSelections()
    if (selections.length <= 1) return false
    this.scope.run(() => {
      for (const selection of selections.slice(1)) selection.destroy()
    })
    return true
  }

  /** Keeps only the first-added selection and collapses it onto its cursor. */
  clearSelections(options: { autoscroll?: boolean } = {}): void {
    this.scope.run(() => {
      this.consolidateSelections()
      this.getLastSelection().clear(options)
    })
  }

  /** Splits every multi-row selection into one selection per row. */
  splitSelectionsIntoLines(): void {
    this.scope.run(() => {
      for (const selection of this.getSelections()) {
        const range = selection.getBufferRange()
        if (range.isSingleLine()) continue
        const { start, end } = range
        this.addSelectionForBufferRange([start, [start.row, Infinity]])
        for (let row = start.row + 1; row < end.row; row++) this.addSelectionForBufferRange([[row, 0], [row, Infinity]])
        if (end.column !== 0) this.addSelectionForBufferRange([[end.row, 0], end])
        selection.destroy()
      }
    }, 'intersecting')
  }

  /** Selects the whole buffer. */
  selectAll(): void { this.selections.each('intersecting', (s) => s.selectAll()) }

  /** Selects the word around every cursor. */
  selectWordsContainingCursors(): void { this.selections.each('intersecting', (s) => void s.selectWord()) }

  /** Extends every selection over the word around its cursor. */
  expandOverWord(): void { this.selections.each('intersecting', (s) => s.expandOverWord()) }

  /** Selects the rows every selection touches, with their newlines. */
  selectLinesContainingCursors(): void { this.selections.each('intersecting', (s) => s.selectLine()) }

  /** Extends every selection over its cursor's row, with its newline. */
  expandOverLine(): void { this.selections.each('intersecting', (s) => s.expandOverLine()) }

  /** Adds below every selection one of the same columns on the next row that has them. */
  addSelectionBelow(): void { this.selections.each('intersecting', (s) => s.addSelectionBelow()) }

  /** Adds above every selection one of the same columns on the previous row that has them. */
  addSelectionAbove(): void { this.selections.each('intersecting-reversed', (s) => s.addSelectionAbove()) }

  // Motions: every cursor moves, every selection extends, by a row of the motion table; those that meet merge

  /** Moves every cursor by a motion (a selection first collapses to the motion's side); cursors that meet merge. */
  protected moveCursorsBy(motion: Motion, count?: number): void {
    this.selections.each('cursors', (s) => s.cursor.moveBy(motion, count ?? 1, { moveToEndOfSelection: true }))
  }

  /** Extends every selection's head by a motion; backward motions leave merged selections reversed. */
  protected selectBy(motion: Motion, count?: number): void {
    this.selections.each(motion.backward ? 'intersecting-reversed' : 'intersecting', (s) => s.selectBy(motion, count ?? 1))
  }

  /** Moves every cursor up `rowCount` screen rows (default 1), keeping the goal column; cursors that meet merge. */
  moveUp(rowCount?: number): void { this.moveCursorsBy(MOTIONS.moveUp, rowCount) }
  /** Moves every cursor down `rowCount` screen rows (default 1), keeping the goal column; cursors that meet merge. */
  moveDown(rowCount?: number): void { this.moveCursorsBy(MOTIONS.moveDown, rowCount) }
  /** Moves every cursor left `columnCount` characters (default 1), across line ends; cursors that meet merge. */
  moveLeft(columnCount?: number): void { this.moveCursorsBy(MOTIONS.moveLeft, columnCount) }
  /** Moves every cursor right `columnCount` characters (default 1), across line ends; cursors that meet merge. */
  moveRight(columnCount?: number): void { this.moveCursorsBy(MOTIONS.moveRight, columnCount) }
  /** Moves every cursor to the start of the buffer; cursors that meet merge. */
  moveToTop(): void { this.moveCursorsBy(MOTIONS.moveToTop) }
  /** Moves every cursor to the end of the buffer; cursors that meet merge. */
  moveToBottom(): void { this.moveCursorsBy(MOTIONS.moveToBottom) }
  /** Moves every cursor to the start of the screen line (a soft-wrapped row counts as its own line); cursors that meet merge. */
  moveToBeginningOfScreenLine(): void { this.moveCursorsBy(MOTIONS.moveToBeginningOfScreenLine) }
  /** Moves every cursor to column 0 of the buffer line; cursors that meet merge. */
  moveToBeginningOfLine(): void { this.moveCursorsBy(MOTIONS.moveToBeginningOfLine) }
  /** Moves every cursor to the first non-whitespace character of the screen line (toggling with column 0); cursors that meet merge. */
  moveToFirstCharacterOfLine(): void { this.moveCursorsBy(MOTIONS.moveToFirstCharacterOfLine) }
  /** Moves every cursor to the end of the screen line; cursors that meet merge. */
  moveToEndOfScreenLine(): void { this.moveCursorsBy(MOTIONS.moveToEndOfScreenLine) }
  /** Moves every cursor to the end of the buffer line; cursors that meet merge. */
  moveToEndOfLine(): void { this.moveCursorsBy(MOTIONS.moveToEndOfLine) }
  /** Moves every cursor to the beginning of the word (the previous one from its start); cursors that meet merge. */
  moveToBeginningOfWord(): void { this.moveCursorsBy(MOTIONS.moveToBeginningOfWord) }
  /** Moves every cursor to the end of the word (the next one from its end); cursors that meet merge. */
  moveToEndOfWord(): void { this.moveCursorsBy(MOTIONS.moveToEndOfWord) }
  /** Moves every cursor to the beginning of the next word; cursors that meet merge. */
  moveToBeginningOfNextWord(): void { this.moveCursorsBy(MOTIONS.moveToBeginningOfNextWord) }
  /** Moves every cursor to the previous word boundary; cursors that meet merge. */
  moveToPreviousWordBoundary(): void { this.moveCursorsBy(MOTIONS.moveToPreviousWordBoundary) }
  /** Moves every cursor to the next word boundary; cursors that meet merge. */
  moveToNextWordBoundary(): void { this.moveCursorsBy(MOTIONS.moveToNextWordBoundary) }
  /** Moves every cursor to the previous subword boundary (camelCase, snake_case parts); cursors that meet merge. */
  moveToPreviousSubwordBoundary(): void { this.moveCursorsBy(MOTIONS.moveToPreviousSubwordBoundary) }
  /** Moves every cursor to the next subword boundary (camelCase, snake_case parts); cursors that meet merge. */
  moveToNextSubwordBoundary(): void { this.moveCursorsBy(MOTIONS.moveToNextSubwordBoundary) }
  /** Moves every cursor past the leading whitespace of its line, when it lies inside it; cursors that meet merge. */
  skipLeadingWhitespace(): void { this.moveCursorsBy(MOTIONS.skipLeadingWhitespace) }
  /** Moves every cursor to the start of the next paragraph (after the next blank row); cursors that meet merge. */
  moveToBeginningOfNextParagraph(): void { this.moveCursorsBy(MOTIONS.moveToBeginningOfNextParagraph) }
  /** Moves every cursor to the start of the previous paragraph; cursors that meet merge. */
  moveToBeginningOfPreviousParagraph(): void { this.moveCursorsBy(MOTIONS.moveToBeginningOfPreviousParagraph) }

  /** Extends every selection's head up `rowCount` screen rows (default 1), keeping the goal column; selections that meet merge. */
  selectUp(rowCount?: number): void { this.selectBy(MOTIONS.moveUp, rowCount) }
  /** Extends every selection's head down `rowCount` screen rows (default 1), keeping the goal column; selections that meet merge. */
  selectDown(rowCount?: number): void { this.selectBy(MOTIONS.moveDown, rowCount) }
  /** Extends every selection's head left `columnCount` characters (default 1), across line ends; selections that meet merge. */
  selectLeft(columnCount?: number): void { this.selectBy(MOTIONS.moveLeft, columnCount) }
  /** Extends every selection's head right `columnCount` characters (default 1), across line ends; selections that meet merge. */
  selectRight(columnCount?: number): void { this.selectBy(MOTIONS.moveRight, columnCount) }
  /** Extends every selection's head to the start of the buffer; selections that meet merge. */
  selectToTop(): void { this.selectBy(MOTIONS.moveToTop) }
  /** Extends every selection's head to the end of the buffer; selections that meet merge. */
  selectToBottom(): void { this.selectBy(MOTIONS.moveToBottom) }
  /** Extends every selection's head to column 0 of the buffer line; selections that meet merge. */
  selectToBeginningOfLine(): void { this.selectBy(MOTIONS.moveToBeginningOfLine) }
  /** Extends every selection's head to the first non-whitespace character of the screen line (toggling with column 0); selections that meet merge. */
  selectToFirstCharacterOfLine(): void { this.selectBy(MOTIONS.moveToFirstCharacterOfLine) }
  /** Extends every selection's head to the end of the screen line; selections that meet merge. */
  selectToEndOfLine(): void { this.selectBy(MOTIONS.moveToEndOfScreenLine) }
  /** Extends every selection's head to the end of the buffer line; selections that meet merge. */
  selectToEndOfBufferLine(): void { this.selectBy(MOTIONS.moveToEndOfLine) }
  /** Extends every selection's head to the beginning of the word (the previous one from its start); selections that meet merge. */
  selectToBeginningOfWord(): void { this.selectBy(MOTIONS.moveToBeginningOfWord) }
  /** Extends every selection's head to the end of the word (the next one from its end); selections that meet merge. */
  selectToEndOfWord(): void { this.selectBy(MOTIONS.moveToEndOfWord) }
  /** Extends every selection's head to the beginning of the next word; selections that meet merge. */
  selectToBeginningOfNextWord(): void { this.selectBy(MOTIONS.moveToBeginningOfNextWord) }
  /** Extends every selection's head to the previous word boundary; selections that meet merge. */
  selectToPreviousWordBoundary(): void { this.selectBy(MOTIONS.moveToPreviousWordBoundary) }
  /** Extends every selection's head to the next word boundary; selections that meet merge. */
  selectToNextWordBoundary(): void { this.selectBy(MOTIONS.moveToNextWordBoundary) }
  /** Extends every selection's head to the previous subword boundary (camelCase, snake_case parts); selections that meet merge. */
  selectToPreviousSubwordBoundary(): void { this.selectBy(MOTIONS.moveToPreviousSubwordBoundary) }
  /** Extends every selection's head to the next subword boundary (camelCase, snake_case parts); selections that meet merge. */
  selectToNextSubwordBoundary(): void { this.selectBy(MOTIONS.moveToNextSubwordBoundary) }
  /** Extends every selection's head to the start of the next paragraph (after the next blank row); selections that meet merge. */
  selectToBeginningOfNextParagraph(): void { this.selectBy(MOTIONS.moveToBeginningOfNextParagraph) }
  /** Extends every selection's head to the start of the previous paragraph; selections that meet merge. */
  selectToBeginningOfPreviousParagraph(): void { this.selectBy(MOTIONS.moveToBeginningOfPreviousParagraph) }
}
