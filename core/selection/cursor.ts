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
import type { SelectionContext, SelectionHost } from './host.ts'
import { checkCount, defineRowMethods, type MoveMethods, type MoveOptions, type Motion } from './motion-table.ts'
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
 * (`motion-table.ts`): `moveUp`, `moveToEndOfWord`, … are generated from it and run `moveBy`; the
 * queries are the pure functions of `core/motions`. A peer's cursor has a host that refuses changes.
 */
export class Cursor {
  readonly editor: SelectionContext
  readonly marker: DisplayMarker
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

  destroy(): void {
    this.host.change('cursor', 'destroy', () => this.marker.destroy())
  }

  // Events

  onDidChangePosition(callback: (event: CursorPositionEvent) => void): Disposable {
    // A peer's cursor resolves its positions only once somebody listens (its selection relays them).
    this.selection.subscribeToMarker()
    return this.state.emitter.on('did-change-position', callback)
  }

  onDidDestroy(callback: () => void): Disposable {
    return this.state.emitter.once('did-destroy', callback)
  }

  onDidChangeVisibility(callback: (visible: boolean) => void): Disposable {
    return this.state.emitter.on('did-change-visibility', callback)
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
    this.changePosition(() => this.marker.setHeadBufferPosition(this.editor.buffer.clipPosition(point)))
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
    return this.editor.buffer.lineForRow(this.getBufferRow()) ?? ''
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
    return isSurroundedByWhitespace(this.editor.buffer, this.getBufferPosition())
  }

  isBetweenWordAndNonWord(): boolean {
    return isBetweenWordAndNonWord(this.editor.buffer, this.getBufferPosition(), this.getNonWordCharacters())
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

  // Moving: `moveUp`, `moveLeft`, `moveToEndOfWord`… are generated from the motion table (below the class).

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
    })
  }

  // Positions and ranges around the cursor

  getCurrentWordBufferRange(options: WordQueryOptions = {}): Range {
    return currentWordRange(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }

  getCurrentLineBufferRange(options: { includeNewline?: boolean } = {}): Range {
    return this.editor.buffer.rangeForRow(this.getBufferRow(), options.includeNewline ?? false)
  }

  getCurrentParagraphBufferRange(): Range | undefined {
    return this.editor.rowRangeForParagraphAtBufferRow(this.getBufferRow())
  }

  /** May reach back into the previous word right after a space, as Atom's does (allowPrevious). */
  getCurrentWordPrefix(): string {
    return this.editor.buffer.getTextInRange([this.getBeginningOfCurrentWordBufferPosition(), this.getBufferPosition()])
  }

  // Visibility, comparison, utilities

  setVisible(visible: boolean): void {
    this.host.change('cursor', 'change the visibility of', () => {
      if (this.state.visible === visible) return
      this.state.visible = visible
      this.state.emitter.emit('did-change-visibility', visible)
    })
  }

  isVisible(): boolean {
    return this.state.visible
  }

  compare(otherCursor: Cursor): number {
    return this.getBufferPosition().compare(otherCursor.getBufferPosition())
  }

  clearSelection(options?: { autoscroll?: boolean }): void {
    this.selection.clear(options)
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
}

/** Atom's word queries around the cursor: each is a pure word function at the cursor's position. */
const WORD_QUERIES = {
  getPreviousWordBoundaryBufferPosition: previousWordBoundary,
  getNextWordBoundaryBufferPosition: nextWordBoundary,
  getBeginningOfCurrentWordBufferPosition: beginningOfCurrentWord,
  getEndOfCurrentWordBufferPosition: endOfCurrentWord,
  getBeginningOfNextWordBufferPosition: beginningOfNextWord,
} as const
export interface Cursor extends Record<keyof typeof WORD_QUERIES, (options?: WordQueryOptions) => Point> {}
for (const [name, query] of Object.entries(WORD_QUERIES)) {
  const method = function (this: Cursor, options: WordQueryOptions = {}): Point {
    return query(this.editor.buffer, this.getBufferPosition(), this.wordOptions(options))
  }
  Object.defineProperty(Cursor.prototype, name, { value: method, writable: true, configurable: true })
}

// Atom's names for the motions: each `Cursor#move…` runs `moveBy` with its row's motion.
export interface Cursor extends MoveMethods {}
defineRowMethods(Cursor.prototype, 'move', ({ motion }) =>
  function (this: Cursor, count?: unknown, options?: MoveOptions) {
    this.moveBy(motion, count ?? 1, options ?? {})
  },
)
