import type { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import type { Range } from '../point/range.ts'
import type { DisplayMarker } from '../anchors/display-marker.ts'
import type { ClipOptions } from '../display/display-layer.ts'
import type { ScopeDescriptor } from '../language/scope-descriptor.ts'
import {
  beginningOfCurrentWord,
  beginningOfNextWord,
  currentWordRange,
  endOfCurrentWord,
  isBetweenWordAndNonWord,
  isInsideWord,
  isSurroundedByWhitespace,
  nextWordBoundary,
  previousWordBoundary,
  subwordRegExp,
  wordRegExp,
  type WordOptions,
} from '../motions/word.ts'
import { firstCharacterColumn } from '../motions/line.ts'
import type { CursorPositionEvent, Selection, SelectionContext, SelectionHost } from './host.ts'
import { checkCount, MOTIONS, type MoveMethods, type MoveOptions, type Motion } from './motion-table.ts'

export type { CursorPositionEvent } from './host.ts'

/** This file's class, registered with host.ts (a name of its own: inside the block `Cursor` is host.ts's). */
type CursorClass = Cursor
declare module './host.ts' {
  interface SelectionParts {
    cursor: CursorClass
  }
}

export interface WordQueryOptions {
  wordRegex?: RegExp
  includeNonWordCharacters?: boolean
  allowPrevious?: boolean
}

export interface CursorEvents {
  'did-change-position': CursorPositionEvent
  'did-destroy': undefined
  'did-change-visibility': boolean
}

/** The state a cursor shares with its selection: the selection clears the goal column when the head moves. */
export interface CursorState {
  /** The screen column that vertical moves aim for, kept across short lines. */
  goalColumn: number | null
  visible: boolean
  readonly emitter: Emitter<CursorEvents>
}

/**
 * The insertion point of a selection: its marker's head. Every movement is a row of the motion table
 * (`motion-table.ts`): `moveUp`, `moveToEndOfWord`, … each run `moveBy` with their row's motion; the
 * queries are the pure functions of `core/motions`. A peer's cursor has a host that refuses changes.
 */
export class Cursor implements MoveMethods {
  /** What the cursor reads: the buffer, the display layer, the editor's settings and language. */
  readonly editor: SelectionContext
  /** The marker whose head the cursor is. */
  readonly marker: DisplayMarker
  /** The selection this cursor is the head of. */
  readonly selection: Selection

  constructor(
    selection: Selection,
    editor: SelectionContext,
    private readonly host: SelectionHost,
    private readonly state: CursorState,
  ) {
    this.selection = selection
    this.editor = editor
    this.marker = selection.marker
  }

  /** Destroys the cursor with its selection (refused for a peer's cursor). */
  destroy(): void {
    this.host.change('cursor', 'destroy', () => this.marker.destroy())
  }

  // Events

  /** Calls back after the cursor moved, by an edit or a command (with `textChanged` set for edits). */
  onDidChangePosition(callback: (event: CursorPositionEvent) => void): Disposable {
    // A peer's cursor resolves its positions only once somebody listens (its selection relays them).
    this.selection.subscribeToMarker()
    return this.state.emitter.on('did-change-position', callback)
  }

  /** Calls back once, when the cursor is destroyed. */
  onDidDestroy(callback: () => void): Disposable {
    this.host.retain?.(this.selection)
    return this.state.emitter.once('did-destroy', callback)
  }

  /** Calls back when `setVisible` changes the visibility. */
  onDidChangeVisibility(callback: (visible: boolean) => void): Disposable {
    this.host.retain?.(this.selection)
    return this.state.emitter.on('did-change-visibility', callback)
  }

  // Position

  /** Moves the cursor to a screen position (clipped as `options` say), clearing the selection. */
  setScreenPosition(screenPosition: PointLike, options: ClipOptions & { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(screenPosition, false, 'screenPosition')
    this.changePosition(() => this.marker.setHeadScreenPosition(point, options))
  }

  /** The cursor's position in screen coordinates. */
  getScreenPosition(): Point {
    return this.marker.getHeadScreenPosition()
  }

  /** Moves the cursor to a buffer position (clipped to the buffer), clearing the selection. */
  setBufferPosition(bufferPosition: PointLike, _options: { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(bufferPosition, false, 'bufferPosition')
    this.changePosition(() => this.marker.setHeadBufferPosition(this.editor.buffer.clipPosition(point)))
  }

  /** The cursor's position in buffer coordinates. */
  getBufferPosition(): Point {
    return this.marker.getHeadBufferPosition()
  }

  /** The cursor's screen row. */
  getScreenRow(): number {
    return this.getScreenPosition().row
  }

  /** The cursor's screen column. */
  getScreenColumn(): number {
    return this.getScreenPosition().column
  }

  /** The cursor's buffer row. */
  getBufferRow(): number {
    return this.getBufferPosition().row
  }

  /** The cursor's buffer column. */
  getBufferColumn(): number {
    return this.getBufferPosition().column
  }

  /** The text of the cursor's buffer line, without its line ending. */
  getCurrentBufferLine(): string {
    return this.editor.buffer.lineForRow(this.getBufferRow()) ?? ''
  }

  /** Whether the cursor is at column 0. */
  isAtBeginningOfLine(): boolean {
    return this.getBufferPosition().column === 0
  }

  /** Whether the cursor is at the end of its buffer line. */
  isAtEndOfLine(): boolean {
    return this.getBufferPosition().isEqual(this.getCurrentLineBufferRange().end)
  }

  /** The display marker whose head the cursor is. */
  getMarker(): DisplayMarker {
    return this.marker
  }

  /** The selection this cursor is the head of. */
  getSelection(): Selection {
    return this.selection
  }

  /** Whether the characters on both sides of the cursor are whitespace (or line boundaries). */
  isSurroundedByWhitespace(): boolean {
    return isSurroundedByWhitespace(this.editor.buffer, this.getBufferPosition())
  }

  /** Whether a word character lies on one side of the cursor and a non-word character on the other. */
  isBetweenWordAndNonWord(): boolean {
    return isBetweenWordAndNonWord(this.editor.buffer, this.getBufferPosition(), this.getNonWordCharacters())
  }

  /** Whether the cursor lies within a word (by `options.wordRegex` or the editor's word characters). */
  isInsideWord(options: WordQueryOptions = {}): boolean {
    return isInsideWord(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  /** Atom computes this from the cursor's own column, not from the line's indentation. */
  getIndentLevel(): number {
    return this.editor.getSoftTabs() ? this.getBufferColumn() / this.editor.getTabLength() : this.getBufferColumn()
  }

  /** The language scopes at the cursor (Atom's TextMate-style names). */
  getScopeDescriptor(): ScopeDescriptor {
    return this.editor.scopeDescriptorForBufferPosition(this.getBufferPosition())
  }

  /** The syntax tree's node types at the cursor, outermost first. */
  getSyntaxTreeScopeDescriptor(): ScopeDescriptor {
    return this.editor.syntaxTreeScopeDescriptorForBufferPosition(this.getBufferPosition())
  }

  /** Whether non-whitespace text lies before the cursor on its line. */
  hasPrecedingCharactersOnLine(): boolean {
    const position = this.getBufferPosition()
    const first = this.getCurrentBufferLine().search(/\S/)
    return first !== -1 && position.column > first
  }

  /** For a peer's cursor: whether it is that peer's last cursor. */
  isLastCursor(): boolean {
    return this.selection.isLastSelection()
  }

  /** True for cursors of this editor's user; false for peers' cursors, which cannot be moved here. */
  isLocal(): boolean {
    return this.selection.isLocal()
  }

  // Moving: `moveUp`, `moveLeft`, `moveToEndOfWord`… (at the end of the class) run `moveBy` with a row of the motion table.

  /** Moves the cursor by one motion of the table, clearing the selection. */
  moveBy(motion: Motion, count: unknown = 1, options: MoveOptions = {}): void {
    this.host.change('cursor', 'move', () => {
      const n = motion.counted ? checkCount(count, motion.vertical ? 'rowCount' : 'columnCount') : 1
      const screen = motion.space === 'screen'
      let from = screen ? this.getScreenPosition() : this.getBufferPosition()
      if (motion.counted && options.moveToEndOfSelection && !this.marker.isEmpty()) {
        const range = this.marker.getScreenRange()
        from = motion.backward ? range.start : range.end
        if (!motion.vertical) {
          this.setScreenPosition(from)
          return
        }
      }
      const context = { lines: screen ? this.editor.displayLayer : this.editor.buffer, nonWordCharacters: this.getNonWordCharacters(), goalColumn: this.state.goalColumn }
      const target = motion.to(context, from, n)
      if (motion.onlyForward && !target.isGreaterThan(from)) return
      if (screen) this.setScreenPosition(target, motion.clip)
      else this.setBufferPosition(target)
      this.state.goalColumn = motion.vertical ? target.column : null
      // The goal column holds until the head moves: the selection must see that move.
      if (motion.vertical) this.selection.subscribeToMarker()
    })
  }

  // Positions and ranges around the cursor

  /** The range of the word around the cursor. */
  getCurrentWordBufferRange(options: WordQueryOptions = {}): Range {
    return currentWordRange(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  /** The range of the cursor's buffer line (with its newline when `includeNewline`). */
  getCurrentLineBufferRange(options: { includeNewline?: boolean } = {}): Range {
    return this.editor.buffer.rangeForRow(this.getBufferRow(), options.includeNewline ?? false)
  }

  /** The range of the paragraph (rows between blank rows) around the cursor, if any. */
  getCurrentParagraphBufferRange(): Range | undefined {
    return this.editor.rowRangeForParagraphAtBufferRow(this.getBufferRow())
  }

  /** May reach back into the previous word right after a space, as Atom's does (allowPrevious). */
  getCurrentWordPrefix(): string {
    return this.editor.buffer.getTextInRange([this.getBeginningOfCurrentWordBufferPosition(), this.getBufferPosition()])
  }

  // Visibility, comparison, utilities

  /** Shows or hides the cursor (refused for a peer's cursor); the view reads `isVisible`. */
  setVisible(visible: boolean): void {
    this.host.change('cursor', 'change the visibility of', () => {
      if (this.state.visible === visible) return
      this.state.visible = visible
      this.state.emitter.emit('did-change-visibility', visible)
    })
  }

  /** Whether the cursor is shown. */
  isVisible(): boolean {
    return this.state.visible
  }

  /** Orders two cursors by buffer position: negative, 0 or positive. */
  compare(otherCursor: Cursor): number {
    return this.getBufferPosition().compare(otherCursor.getBufferPosition())
  }

  /** Collapses the cursor's selection onto the cursor. */
  clearSelection(options?: { autoscroll?: boolean }): void {
    this.selection.clear(options)
  }

  /** The pattern of a word at this cursor (the editor's non-word characters). */
  wordRegExp(options: { includeNonWordCharacters?: boolean } = {}): RegExp {
    return wordRegExp(this.getNonWordCharacters(), options)
  }

  /** The pattern of a subword (camelCase, snake_case parts) at this cursor. */
  subwordRegExp(options: { backwards?: boolean } = {}): RegExp {
    return subwordRegExp(this.getNonWordCharacters(), options)
  }

  /** The characters that end a word at this cursor. */
  getNonWordCharacters(): string {
    return this.editor.getNonWordCharacters(this.getBufferPosition())
  }

  /** The column of the first non-whitespace character of the cursor's line. */
  getFirstCharacterColumn(): number {
    return firstCharacterColumn(this.getCurrentBufferLine())
  }

  /** Internal: the word options a query with `options` runs with at this cursor. */
  wordOptions(options: WordQueryOptions): WordOptions {
    const result: WordOptions = { wordRegex: options.wordRegex ?? this.wordRegExp(options) }
    if (options.includeNonWordCharacters !== undefined) result.includeNonWordCharacters = options.includeNonWordCharacters
    if (options.allowPrevious !== undefined) result.allowPrevious = options.allowPrevious
    return result
  }

  private changePosition(move: () => void): void {
    // Clearing the selection and moving are one change for collaboration: one publish.
    this.host.change('cursor', 'move', () => {
      this.selection.clear({ autoscroll: false })
      move()
    })
  }

  // Atom's word queries around the cursor: each is a pure word function of core/motions at the cursor's position.

  /** The word boundary before the cursor. */
  getPreviousWordBoundaryBufferPosition(options: WordQueryOptions = {}): Point {
    return previousWordBoundary(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  /** The word boundary after the cursor. */
  getNextWordBoundaryBufferPosition(options: WordQueryOptions = {}): Point {
    return nextWordBoundary(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  /** The beginning of the word the cursor is in or after. */
  getBeginningOfCurrentWordBufferPosition(options: WordQueryOptions = {}): Point {
    return beginningOfCurrentWord(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  /** The end of the word the cursor is in or before. */
  getEndOfCurrentWordBufferPosition(options: WordQueryOptions = {}): Point {
    return endOfCurrentWord(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  /** The beginning of the next word after the cursor. */
  getBeginningOfNextWordBufferPosition(options: WordQueryOptions = {}): Point {
    return beginningOfNextWord(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  // Atom's names for the motions: each `move…` runs `moveBy` with its row of the motion table.

  /** Moves the cursor up `rowCount` screen rows (default 1), keeping the goal column. */
  moveUp(rowCount?: number, options?: MoveOptions): void { this.moveBy(MOTIONS.moveUp, rowCount ?? 1, options ?? {}) }
  /** Moves the cursor down `rowCount` screen rows (default 1), keeping the goal column. */
  moveDown(rowCount?: number, options?: MoveOptions): void { this.moveBy(MOTIONS.moveDown, rowCount ?? 1, options ?? {}) }
  /** Moves the cursor left `columnCount` characters (default 1), across line ends. */
  moveLeft(columnCount?: number, options?: MoveOptions): void { this.moveBy(MOTIONS.moveLeft, columnCount ?? 1, options ?? {}) }
  /** Moves the cursor right `columnCount` characters (default 1), across line ends. */
  moveRight(columnCount?: number, options?: MoveOptions): void { this.moveBy(MOTIONS.moveRight, columnCount ?? 1, options ?? {}) }
  /** Moves the cursor to the start of the buffer. */
  moveToTop(): void { this.moveBy(MOTIONS.moveToTop) }
  /** Moves the cursor to the end of the buffer. */
  moveToBottom(): void { this.moveBy(MOTIONS.moveToBottom) }
  /** Moves the cursor to the start of the screen line (a soft-wrapped row counts as its own line). */
  moveToBeginningOfScreenLine(): void { this.moveBy(MOTIONS.moveToBeginningOfScreenLine) }
  /** Moves the cursor to column 0 of the buffer line. */
  moveToBeginningOfLine(): void { this.moveBy(MOTIONS.moveToBeginningOfLine) }
  /** Moves the cursor to the first non-whitespace character of the screen line (toggling with column 0). */
  moveToFirstCharacterOfLine(): void { this.moveBy(MOTIONS.moveToFirstCharacterOfLine) }
  /** Moves the cursor to the end of the screen line. */
  moveToEndOfScreenLine(): void { this.moveBy(MOTIONS.moveToEndOfScreenLine) }
  /** Moves the cursor to the end of the buffer line. */
  moveToEndOfLine(): void { this.moveBy(MOTIONS.moveToEndOfLine) }
  /** Moves the cursor to the beginning of the word (the previous one from its start). */
  moveToBeginningOfWord(): void { this.moveBy(MOTIONS.moveToBeginningOfWord) }
  /** Moves the cursor to the end of the word (the next one from its end). */
  moveToEndOfWord(): void { this.moveBy(MOTIONS.moveToEndOfWord) }
  /** Moves the cursor to the beginning of the next word. */
  moveToBeginningOfNextWord(): void { this.moveBy(MOTIONS.moveToBeginningOfNextWord) }
  /** Moves the cursor to the previous word boundary. */
  moveToPreviousWordBoundary(): void { this.moveBy(MOTIONS.moveToPreviousWordBoundary) }
  /** Moves the cursor to the next word boundary. */
  moveToNextWordBoundary(): void { this.moveBy(MOTIONS.moveToNextWordBoundary) }
  /** Moves the cursor to the previous subword boundary (camelCase, snake_case parts). */
  moveToPreviousSubwordBoundary(): void { this.moveBy(MOTIONS.moveToPreviousSubwordBoundary) }
  /** Moves the cursor to the next subword boundary (camelCase, snake_case parts). */
  moveToNextSubwordBoundary(): void { this.moveBy(MOTIONS.moveToNextSubwordBoundary) }
  /** Moves the cursor past the leading whitespace of its line, when it lies inside it. */
  skipLeadingWhitespace(): void { this.moveBy(MOTIONS.skipLeadingWhitespace) }
  /** Moves the cursor to the start of the next paragraph (after the next blank row). */
  moveToBeginningOfNextParagraph(): void { this.moveBy(MOTIONS.moveToBeginningOfNextParagraph) }
  /** Moves the cursor to the start of the previous paragraph. */
  moveToBeginningOfPreviousParagraph(): void { this.moveBy(MOTIONS.moveToBeginningOfPreviousParagraph) }
}
