import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { DisplayMarker, MarkerOptions } from '../anchors/display-marker.ts'
import type { ClipOptions } from '../display/display-layer.ts'
import type { Clipboard } from '../editor/clipboard.ts'
import type { ScopeDescriptor } from '../language/scope-descriptor.ts'
import type { Point, PointLike } from '../point/point.ts'
import type { Range, RangeLike } from '../point/range.ts'
import type { Cursor, CursorPositionEvent } from './cursor.ts'
import type { Selection, SelectionRangeEvent } from './selection.ts'

/** Options of every text-modifying method. */
export interface WriteOptions {
  /** Lets this call change a read-only editor. */
  bypassReadOnly?: boolean
}

/**
 * What cursors and selections need from the editor that owns them. The TextEditor implements it;
 * keeping it narrow keeps Cursor and Selection free of the facade.
 */
export interface CursorHost {
  readonly buffer: TextBuffer
  clipBufferPosition(position: PointLike): Point
  clipBufferRange(range: RangeLike): Range
  clipScreenPosition(position: PointLike, options?: ClipOptions): Point
  clipScreenRange(range: RangeLike, options?: ClipOptions): Range
  bufferRangeForScreenRange(range: RangeLike): Range
  bufferRangeForBufferRow(row: number, options?: { includeNewline?: boolean }): Range
  bufferRowForScreenRow(screenRow: number): number
  lineTextForBufferRow(row: number): string
  lineLengthForScreenRow(screenRow: number): number
  getScreenLineCount(): number
  getLastScreenRow(): number
  getEofBufferPosition(): Point
  getTextInBufferRange(range: RangeLike): string
  rowRangeForParagraphAtBufferRow(row: number): Range | undefined
  getSoftTabs(): boolean
  getTabLength(): number
  getTabText(): string
  getNonWordCharacters(position?: PointLike): string
  scopeDescriptorForBufferPosition(position: PointLike): ScopeDescriptor
  syntaxTreeScopeDescriptorForBufferPosition(position: PointLike): ScopeDescriptor
  getLastCursor(): Cursor | undefined
  getLastSelection(): Selection | undefined
  getClipboard(): Clipboard
  markBufferRange(range: RangeLike, options?: MarkerOptions): DisplayMarker
  destroyFoldsContainingBufferPositions(positions: PointLike[], excludeEndpoints: boolean): void
  foldBufferRange(range: RangeLike): number
  addSelectionForScreenRange(range: RangeLike): Selection
  removeSelection(selection: Selection): void
  cursorMoved(event: CursorPositionEvent): void
  selectionRangeChanged(event: SelectionRangeEvent): void
  indentLevelForLine(line: string): number
  buildIndentString(level: number, column?: number): string
  suggestedIndentForBufferRow(row: number): number
  suggestedIndentForLineAtBufferRow(row: number, line: string): number
  setIndentationForBufferRow(row: number, level: number, options?: { preserveLeadingWhitespace?: boolean }): void
  autoIndentBufferRow(row: number, options?: { preserveLeadingWhitespace?: boolean; skipBlankLines?: boolean }): void
  autoIndentBufferRows(startRow: number, endRow: number): void
  autoDecreaseIndentForBufferRow(row: number): void
  toggleLineCommentsForBufferRows(startRow: number, endRow: number): void
  /** Runs `fn` as one batch of selection changes: collaboration publishes once, when the outermost ends. */
  batch<T>(fn: () => T): T
  /** Runs a text change: refuses on a read-only editor (unless bypassed), one transaction, one undo step. */
  mutateText<T>(name: string, options: WriteOptions, fn: () => T): T
  setBufferTextInRange(range: RangeLike, text: string, options?: { normalizeLineEndings?: boolean; undo?: 'skip' }): Range
}
