import type { BufferChangeEvent } from '../buffer/text-buffer.ts'
import type { LanguageId } from '../language/registry.ts'
import type { Range } from '../point/range.ts'
import type { Cursor, CursorPositionEvent } from '../selection/cursor.ts'
import type { Selection, SelectionRangeEvent } from '../selection/selection.ts'

/** `onWillInsertText`'s payload: the text about to go in, and `cancel()` to keep it out. */
export interface WillInsertTextEvent {
  readonly text: string
  cancel(): void
}

/** The events a TextEditor emits. */
export interface EditorEvents {
  'did-change': BufferChangeEvent
  'did-add-cursor': Cursor
  'did-remove-cursor': Cursor
  'did-add-selection': Selection
  'did-remove-selection': Selection
  'did-change-cursor-position': CursorPositionEvent
  'did-change-selection-range': SelectionRangeEvent
  'did-change-read-only': boolean
  'did-change-language': LanguageId
  'did-insert-text': { text: string; range: Range }
  'will-insert-text': WillInsertTextEvent
  'did-destroy': undefined
}
