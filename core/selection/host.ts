import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { DisplayMarker, MarkerOptions } from '../anchors/display-marker.ts'
import type { DisplayLayer } from '../display/display-layer.ts'
import type { ScopeDescriptor } from '../language/scope-descriptor.ts'
import type { Point, PointLike } from '../point/point.ts'
import type { Range, RangeLike } from '../point/range.ts'

/**
 * The two classes of this part, registered by the modules that define them (cursor.ts adds `cursor`,
 * selection.ts adds `selection`, by declaration merging), so that this file, cursor.ts and
 * selection-editing.ts name them with their full types without importing them: no import cycle.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SelectionParts {}
/** The `Selection` class (selection.ts). */
export type Selection = SelectionParts extends { selection: infer S } ? S : never
/** The `Cursor` class (cursor.ts). */
export type Cursor = SelectionParts extends { cursor: infer C } ? C : never

/** `onDidChangePosition`'s payload: where the cursor was and is, in buffer and screen coordinates. */
export interface CursorPositionEvent {
  oldBufferPosition: Point
  oldScreenPosition: Point
  newBufferPosition: Point
  newScreenPosition: Point
  textChanged: boolean
  cursor: Cursor
}

/** `onDidChangeRange`'s payload: the selection's range before and after, in buffer and screen coordinates. */
export interface SelectionRangeEvent {
  oldBufferRange: Range
  oldScreenRange: Range
  newBufferRange: Range
  newScreenRange: Range
  selection: Selection
}

/** Options of every text-modifying method. */
export interface WriteOptions {
  /** Lets this call change a read-only editor. */
  bypassReadOnly?: boolean
}

/** What Atom stores beside copied text so that paste can restore lines and indentation. */
export interface ClipboardMetadata {
  indentBasis?: number | undefined
  fullLine?: boolean | undefined
  selections?: { text: string; indentBasis?: number | undefined; fullLine?: boolean | undefined }[]
  [key: string]: unknown
}

/** Where copies go: the editor's `Clipboard`. */
export interface ClipboardStore {
  write(text: string, metadata?: ClipboardMetadata): void
  readWithMetadata(): { text: string; metadata?: ClipboardMetadata }
}

/**
 * The text a selection lives in, read-only: the buffer, the display layer (a `LineSource` in screen
 * coordinates and the buffer <-> screen maps) and the editor's settings and language queries. Every
 * selection has one, a peer's too.
 */
export interface SelectionContext {
  readonly buffer: TextBuffer
  readonly displayLayer: DisplayLayer
  getSoftTabs(): boolean
  getTabLength(): number
  getTabText(): string
  getNonWordCharacters(position?: PointLike): string
  scopeDescriptorForBufferPosition(position: PointLike): ScopeDescriptor
  syntaxTreeScopeDescriptorForBufferPosition(position: PointLike): ScopeDescriptor
  rowRangeForParagraphAtBufferRow(row: number): Range | undefined
  indentLevelForLine(line: string): number
  buildIndentString(level: number, column?: number): string
  suggestedIndentForBufferRow(row: number): number
  suggestedIndentForLineAtBufferRow(row: number, line: string): number
  getClipboard(): ClipboardStore
}

/**
 * What a selection may change, and how. Local selections get the editor's selection list, whose
 * changes run inside the editor's one operation scope; a peer's selection gets a host whose `change`
 * and `write` refuse, so peers' selections are read-only by construction.
 */
export interface SelectionHost {
  /** Runs a change of a selection's range (or a cursor's position) as part of one operation. */
  change<T>(what: 'selection' | 'cursor', action: string, fn: () => T): T
  /** Runs a text change: read-only check, one transaction, one undo step, one publish. */
  write<T>(name: string, options: WriteOptions, fn: () => T): T
  /** The text changes a selection makes beyond replacing its own range (indentation, comments, folds). */
  readonly editing: SelectionEditing
  isLastSelection(selection: Selection): boolean
  /** The owner's name, for messages. */
  readonly ownerName: string
  readonly local: boolean
  cursorMoved(event: CursorPositionEvent): void
  selectionRangeChanged(event: SelectionRangeEvent): void
  selectionDestroyed(selection: Selection): void
  lastCursor(): Cursor | undefined
  /** Someone listens to this selection or its cursor (a peer's objects are otherwise held weakly). */
  retain?(selection: Selection): void
  /** Whether the owner passes every selection's moves on (`cursorMoved`, `selectionRangeChanged` have listeners). */
  reportsMoves?(): boolean
}

/** The editor's text operations that selections call while editing (all inside `SelectionHost#write`). */
export interface SelectionEditing {
  setBufferTextInRange(range: RangeLike, text: string, options?: { normalizeLineEndings?: boolean; undo?: 'skip' }): Range
  markBufferRange(range: RangeLike, options?: MarkerOptions): DisplayMarker
  destroyFoldsContainingBufferPositions(positions: PointLike[], excludeEndpoints: boolean): void
  foldBufferRange(range: RangeLike): number
  addSelectionForScreenRange(range: RangeLike): Selection
  setIndentationForBufferRow(row: number, level: number, options?: { preserveLeadingWhitespace?: boolean }): void
  autoIndentBufferRow(row: number, options?: { preserveLeadingWhitespace?: boolean; skipBlankLines?: boolean }): void
  autoIndentBufferRows(startRow: number, endRow: number): void
  autoDecreaseIndentForBufferRow(row: number): void
  toggleLineCommentsForBufferRows(startRow: number, endRow: number): void
}
