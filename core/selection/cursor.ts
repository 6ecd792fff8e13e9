import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range } from '../point/range.ts'
import type { DisplayMarker } from '../anchors/display-marker.ts'
import type { ClipOptions } from '../display/display-layer.ts'
import type { ScopeDescriptor } from '../language/scope-descriptor.ts'
import {
  beginningOfCurrentWord,
  beginningOfNextWord,
  currentWordRange,
  endOfCurrentWord,
  isInsideWord,
  nextWordBoundary,
  previousWordBoundary,
  subwordRegExp,
  wordRegExp,
  type WordOptions,
} from '../motions/word.ts'
import { beginningOfNextParagraph, beginningOfPreviousParagraph } from '../motions/paragraph.ts'
import { firstCharacterColumn, leadingWhitespaceLength } from '../motions/line.ts'
import type { CursorHost } from './host.ts'
import type { Selection } from './selection.ts'

export interface CursorPositionEvent {
  oldBufferPosition: Point
  oldScreenPosition: Point
  newBufferPosition: Point
  newScreenPosition: Point
  textChanged: boolean
  cursor: Cursor
}

export interface WordQueryOptions {
  wordRegex?: RegExp
  includeNonWordCharacters?: boolean
  allowPrevious?: boolean
}

interface CursorEvents {
  'did-change-position': CursorPositionEvent
  'did-destroy': undefined
  'did-change-visibility': boolean
}

/**
 * The insertion point of a selection: its marker's head. Movements run in screen coordinates where
 * Atom does (left, right, up, down, screen-line ends) and in buffer coordinates otherwise; word,
 * subword and paragraph motions are the pure functions in `core/motions/`.
 */
export class Cursor {
  readonly editor: CursorHost
  readonly marker: DisplayMarker
  /** Set by the owning selection. */
  selection!: Selection
  /** The screen column that vertical moves aim for, kept across short lines. */
  goalColumn: number | null = null
  destroyed = false
  private visible = true
  /** Internal: the selection emits position events through this. */
  readonly emitter = new Emitter<CursorEvents>()

  constructor(editor: CursorHost, marker: DisplayMarker) {
    this.editor = editor
    this.marker = marker
  }

  destroy(): void {
    this.assertLocal('destroy')
    this.marker.destroy()
  }

  // Events

  onDidChangePosition(callback: (event: CursorPositionEvent) => void): Disposable {
    // A peer's cursor resolves its positions only once somebody listens (its selection relays them).
    this.selection?.subscribeToMarker()
    return this.emitter.on('did-change-position', callback)
  }

  onDidDestroy(callback: () => void): Disposable {
    return this.emitter.once('did-destroy', callback)
  }

  onDidChangeVisibility(callback: (visible: boolean) => void): Disposable {
    return this.emitter.on('did-change-visibility', callback)
  }

  // Position

  setScreenPosition(screenPosition: PointLike, options: ClipOptions & { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(screenPosition, false, 'screenPosition')
    this.changePosition(() => this.marker.setHeadScreenPosition(point, options))
  }

  getScreenPosition(): Point {
    return this.marker.getHeadScreenPosition()
  }

  setBufferPosition(bufferPosition: PointLike, _options: { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(bufferPosition, false, 'bufferPosition')
    this.changePosition(() => this.marker.setHeadBufferPosition(this.editor.clipBufferPosition(point)))
  }

  getBufferPosition(): Point {
    return this.marker.getHeadBufferPosition()
  }

  getScreenRow(): number {
    return this.getScreenPosition().row
  }

  getScreenColumn(): number {
    return this.getScreenPosition().column
  }

  getBufferRow(): number {
    return this.getBufferPosition().row
  }

  getBufferColumn(): number {
    return this.getBufferPosition().column
  }

  getCurrentBufferLine(): string {
    return this.editor.lineTextForBufferRow(this.getBufferRow())
  }

  isAtBeginningOfLine(): boolean {
    return this.getBufferPosition().column === 0
  }

  isAtEndOfLine(): boolean {
    return this.getBufferPosition().isEqual(this.getCurrentLineBufferRange().end)
  }

  getMarker(): DisplayMarker {
    return this.marker
  }

  getSelection(): Selection {
    return this.selection
  }

  isSurroundedByWhitespace(): boolean {
    const { row, column } = this.getBufferPosition()
    return /^\s+$/.test(this.editor.getTextInBufferRange([[row, column - 1], [row, column + 1]]))
  }

  isBetweenWordAndNonWord(): boolean {
    if (this.isAtBeginningOfLine() || this.isAtEndOfLine()) return false
    const { row, column } = this.getBufferPosition()
    const text = this.editor.getTextInBufferRange([[row, column - 1], [row, column + 1]])
    if (/\s/.test(text[0] ?? '') || /\s/.test(text[1] ?? '')) return false
    const nonWord = this.getNonWordCharacters()
    return nonWord.includes(text[0]!) !== nonWord.includes(text[1]!)
  }

  isInsideWord(options: WordQueryOptions = {}): boolean {
    return isInsideWord(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  /** Atom computes this from the cursor's own column, not from the line's indentation. */
  getIndentLevel(): number {
    return this.editor.getSoftTabs() ? this.getBufferColumn() / this.editor.getTabLength() : this.getBufferColumn()
  }

  getScopeDescriptor(): ScopeDescriptor {
    return this.editor.scopeDescriptorForBufferPosition(this.getBufferPosition())
  }

  getSyntaxTreeScopeDescriptor(): ScopeDescriptor {
    return this.editor.syntaxTreeScopeDescriptorForBufferPosition(this.getBufferPosition())
  }

  hasPrecedingCharactersOnLine(): boolean {
    const position = this.getBufferPosition()
    const line = this.editor.lineTextForBufferRow(position.row)
    const first = line.search(/\S/)
    return first !== -1 && position.column > first
  }

  /** For a peer's cursor: whether it is that peer's last cursor. */
  isLastCursor(): boolean {
    return this.selection ? this.selection.isLastSelection() : this === this.editor.getLastCursor()
  }

  /** True for cursors of this editor's user; false for peers' cursors, which cannot be moved here. */
  isLocal(): boolean {
    return this.selection?.isLocal() ?? true
  }

  // Moving

  moveUp(rowCount = 1, { moveToEndOfSelection = false }: { moveToEndOfSelection?: boolean } = {}): void {
    this.moveVertically(-checkCount(rowCount, 'rowCount'), moveToEndOfSelection)
  }

  moveDown(rowCount = 1, { moveToEndOfSelection = false }: { moveToEndOfSelection?: boolean } = {}): void {
    this.moveVertically(checkCount(rowCount, 'rowCount'), moveToEndOfSelection)
  }

  moveLeft(columnCount = 1, { moveToEndOfSelection = false }: { moveToEndOfSelection?: boolean } = {}): void {
    checkCount(columnCount, 'columnCount')
    const range = this.marker.getScreenRange()
    if (moveToEndOfSelection && !range.isEmpty()) {
      this.setScreenPosition(range.start)
      return
    }
    let { row, column } = this.getScreenPosition()
    let count = columnCount
    while (count > column && row > 0) {
      count -= column + 1
      column = this.editor.lineLengthForScreenRow(--row)
    }
    this.setScreenPosition([row, Math.max(0, column - count)], { clipDirection: 'backward' })
  }

  moveRight(columnCount = 1, { moveToEndOfSelection = false }: { moveToEndOfSelection?: boolean } = {}): void {
    checkCount(columnCount, 'columnCount')
    const range = this.marker.getScreenRange()
    if (moveToEndOfSelection && !range.isEmpty()) {
      this.setScreenPosition(range.end)
      return
    }
    let { row, column } = this.getScreenPosition()
    const lastRow = this.editor.getScreenLineCount() - 1
    let remaining = this.editor.lineLengthForScreenRow(row) - column
    let count = columnCount
    while (count > remaining && row < lastRow) {
      count -= remaining + 1
      column = 0
      remaining = this.editor.lineLengthForScreenRow(++row)
    }
    this.setScreenPosition([row, column + count], { clipDirection: 'forward' })
  }

  moveToTop(): void {
    this.setBufferPosition([0, 0])
  }

  moveToBottom(): void {
    this.setBufferPosition(this.editor.getEofBufferPosition())
  }

  moveToBeginningOfScreenLine(): void {
    this.setScreenPosition([this.getScreenRow(), 0])
  }

  moveToBeginningOfLine(): void {
    this.setBufferPosition([this.getBufferRow(), 0])
  }

  /** Toggles between the first non-blank character of the screen line and the line's start. */
  moveToFirstCharacterOfLine(): void {
    const screenRow = this.getScreenRow()
    const lineStart = this.editor.clipScreenPosition([screenRow, 0], { skipSoftWrapIndentation: true })
    const range = this.editor.bufferRangeForScreenRange([lineStart, [screenRow, Infinity]])
    const text = this.editor.getTextInBufferRange(range)
    const offset = text.search(/\S/)
    const firstColumn = offset === -1 ? null : range.start.column + offset
    const target = firstColumn !== null && firstColumn !== this.getBufferColumn() ? firstColumn : range.start.column
    this.setBufferPosition([range.start.row, target])
  }

  moveToEndOfScreenLine(): void {
    this.setScreenPosition([this.getScreenRow(), Infinity])
  }

  moveToEndOfLine(): void {
    this.setBufferPosition([this.getBufferRow(), Infinity])
  }

  moveToBeginningOfWord(): void {
    this.setBufferPosition(this.getBeginningOfCurrentWordBufferPosition())
  }

  moveToEndOfWord(): void {
    this.setBufferPosition(this.getEndOfCurrentWordBufferPosition())
  }

  moveToBeginningOfNextWord(): void {
    this.setBufferPosition(this.getBeginningOfNextWordBufferPosition())
  }

  moveToPreviousWordBoundary(): void {
    this.setBufferPosition(this.getPreviousWordBoundaryBufferPosition())
  }

  moveToNextWordBoundary(): void {
    this.setBufferPosition(this.getNextWordBoundaryBufferPosition())
  }

  moveToPreviousSubwordBoundary(): void {
    this.setBufferPosition(this.getPreviousWordBoundaryBufferPosition({ wordRegex: this.subwordRegExp({ backwards: true }) }))
  }

  moveToNextSubwordBoundary(): void {
    this.setBufferPosition(this.getNextWordBoundaryBufferPosition({ wordRegex: this.subwordRegExp() }))
  }

  skipLeadingWhitespace(): void {
    this.assertLocal('move')
    const position = this.getBufferPosition()
    const end = leadingWhitespaceLength(this.getCurrentBufferLine())
    if (end > position.column) this.setBufferPosition([position.row, end])
  }

  moveToBeginningOfNextParagraph(): void {
    this.setBufferPosition(beginningOfNextParagraph(this.editor.buffer, this.getBufferPosition()))
  }

  moveToBeginningOfPreviousParagraph(): void {
    this.setBufferPosition(beginningOfPreviousParagraph(this.editor.buffer, this.getBufferPosition()))
  }

  // Positions and ranges around the cursor

  getPreviousWordBoundaryBufferPosition(options: WordQueryOptions = {}): Point {
    return previousWordBoundary(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  getNextWordBoundaryBufferPosition(options: WordQueryOptions = {}): Point {
    return nextWordBoundary(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  getBeginningOfCurrentWordBufferPosition(options: WordQueryOptions = {}): Point {
    return beginningOfCurrentWord(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  getEndOfCurrentWordBufferPosition(options: WordQueryOptions = {}): Point {
    return endOfCurrentWord(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  getBeginningOfNextWordBufferPosition(options: WordQueryOptions = {}): Point {
    return beginningOfNextWord(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  getCurrentWordBufferRange(options: WordQueryOptions = {}): Range {
    return currentWordRange(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  getCurrentLineBufferRange(options: { includeNewline?: boolean } = {}): Range {
    return this.editor.bufferRangeForBufferRow(this.getBufferRow(), options)
  }

  getCurrentParagraphBufferRange(): Range | undefined {
    return this.editor.rowRangeForParagraphAtBufferRow(this.getBufferRow())
  }

  /** May reach back into the previous word right after a space, as Atom's does (allowPrevious). */
  getCurrentWordPrefix(): string {
    return this.editor.getTextInBufferRange([this.getBeginningOfCurrentWordBufferPosition(), this.getBufferPosition()])
  }

  // Visibility, comparison, utilities

  setVisible(visible: boolean): void {
    this.assertLocal('change the visibility of')
    if (this.visible === visible) return
    this.visible = visible
    this.emitter.emit('did-change-visibility', visible)
  }

  isVisible(): boolean {
    return this.visible
  }

  compare(otherCursor: Cursor): number {
    return this.getBufferPosition().compare(otherCursor.getBufferPosition())
  }

  clearSelection(options?: { autoscroll?: boolean }): void {
    this.selection?.clear(options)
  }

  wordRegExp(options: { includeNonWordCharacters?: boolean } = {}): RegExp {
    return wordRegExp(this.getNonWordCharacters(), options)
  }

  subwordRegExp(options: { backwards?: boolean } = {}): RegExp {
    return subwordRegExp(this.getNonWordCharacters(), options)
  }

  getNonWordCharacters(): string {
    return this.editor.getNonWordCharacters(this.getBufferPosition())
  }

  /** The column of the first non-whitespace character of the cursor's line. */
  getFirstCharacterColumn(): number {
    return firstCharacterColumn(this.getCurrentBufferLine())
  }

  // Internal

  /** Throws when this cursor is a peer's: the contract forbids moving it from here. */
  assertLocal(action: string): void {
    if (this.selection && !this.selection.isLocal()) this.selection.assertLocal(action, 'cursor')
  }

  private wordOptions(options: WordQueryOptions): WordOptions {
    const result: WordOptions = { wordRegex: options.wordRegex ?? this.wordRegExp(options) }
    if (options.includeNonWordCharacters !== undefined) result.includeNonWordCharacters = options.includeNonWordCharacters
    if (options.allowPrevious !== undefined) result.allowPrevious = options.allowPrevious
    return result
  }

  private moveVertically(rowDelta: number, moveToEndOfSelection: boolean): void {
    const range = this.marker.getScreenRange()
    let { row, column } = moveToEndOfSelection && !range.isEmpty() ? (rowDelta < 0 ? range.start : range.end) : this.getScreenPosition()
    if (this.goalColumn !== null) column = this.goalColumn
    this.setScreenPosition([row + rowDelta, column], { skipSoftWrapIndentation: true })
    this.goalColumn = column
  }

  private changePosition(move: () => void): void {
    this.assertLocal('move')
    // Clearing the selection and moving are one change for collaboration: one publish.
    this.editor.batch(() => {
      this.selection?.clear({ autoscroll: false })
      move()
    })
  }
}

/** Counts must be numbers; NaN or negative counts move nothing rather than somewhere surprising. */
function checkCount(count: unknown, name: string): number {
  if (typeof count !== 'number') throw new TypeError(`${name} must be a number; got ${typeof count}`)
  return Number.isNaN(count) ? 0 : Math.max(0, count)
}
