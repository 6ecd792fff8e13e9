/** The editor: Atom's TextEditor over a Yjs Y.Text. */
export { TextEditor, type TextEditorOptions } from './editor/text-editor.ts'
/** The line-oriented view of the shared Y.Text behind an editor. */
export { TextBuffer, type BufferChangeEvent, type TextChange } from './buffer/text-buffer.ts'
/** A transaction's changes to the text as one value: replacements in old and new offsets, origin, author, time, Yjs IDs. */
export { ChangeSet, type ChangeSetMeta, type IdRange, type MapMode, type ChangeOrigin } from './buffer/change-set.ts'
/** A selection with its cursor, as Atom's Selection. */
export { Selection, type SelectionRangeEvent, type SetRangeOptions } from './selection/selection.ts'
/** The insertion point of a selection, as Atom's Cursor. */
export { Cursor, type CursorPositionEvent } from './selection/cursor.ts'
/** A range that moves with edits, in buffer and screen coordinates. */
export { DisplayMarker, type MarkerChangeEvent, type MarkerOptions } from './anchors/display-marker.ts'
/** Buffer <-> screen translation: tabs, soft wrap and folds. */
export { DisplayLayer, type ClipDirection, type ClipOptions } from './display/display-layer.ts'
/** An immutable (row, column) position. */
export { Point, type PointLike } from './point/point.ts'
/** An immutable pair of points, start <= end. */
export { Range, type RangeLike } from './point/range.ts'
/** Runs an action once, when disposed. */
export { Disposable, CompositeDisposable, type DisposableLike } from './events/disposable.ts'
/** A typed event emitter. */
export { Emitter } from './events/emitter.ts'
/** What `onWillInsertText` callbacks receive: the text, and `cancel()`. */
export type { WillInsertTextEvent } from './editor/editor-events.ts'
/** Copied text plus Atom's paste metadata. */
export { Clipboard, type ClipboardMetadata } from './editor/clipboard.ts'
/** Thrown when a read-only editor is asked to change its text. */
export { ReadOnlyEditorError } from './editor/errors.ts'
/** TextMate-style scopes at a position. */
export { ScopeDescriptor } from './language/scope-descriptor.ts'
/** What `editor.getLanguageMode()` answers: scopes, indentation, comments, folds, and the parse a view drives in slices. */
export type { LanguageMode } from './language/mode.ts'
/** Highlight spans per buffer row from a Lezer tree of the text (for views that parse on their own schedule). */
export { highlightTreeRows, type HighlightSpan } from './language/highlight.ts'
/** The Lezer parser a language mode parses with, for views that parse on their own schedule. */
export { parserForLanguage } from './language/languages/index.ts'
/** Language ids, their display names and detection by file name. */
export { languageForPath, isLanguageId, languageInfo, LANGUAGE_IDS, type LanguageId, type LanguageInfo } from './language/registry.ts'
/** Another user of the shared text, with their cursors and selections in this editor's coordinates. */
export { Peer } from './collab/peer.ts'
/** The awareness fields an editor publishes: `{user, cursor, selections}` of relative positions. */
export type { RelativePositionJSON, SelectionJSON, UserInfo } from './collab/awareness-state.ts'
/** Where the editor reports what it ignores, such as a peer's malformed awareness state. */
export type { Logger } from './collab/collaboration.ts'
/** Atom's scan API: what a scan's iterator receives, its options, and the error of a search that ran out of time. */
export { type ScanMatch, type ScanIterator, type ScanOptions } from './buffer/scan.ts'
export { ScanTooSlowError, type ScanBudget } from './buffer/regex-budget.ts'
/** Live find results: matches kept current through everyone's edits, searched in slices; replace, select all. */
export { FindQuery, InvalidPatternError, findRegExp, type FindOptions, type FindUpdate } from './editor/find-query.ts'
export type { FindStatus } from './buffer/scan.ts'
/** Who wrote what: authorship runs, the change log's entries and authors, diffs against an earlier state. */
export { AuthorshipRun, type TextDiff } from './collab/authorship.ts'
/** The Yjs clients that wrote the current text, as runs in text order (one walk of the item list; the server's authorship). */
export { visibleClientRuns, clientsChangedBy, encodeTransactionUpdate, type ClientRun } from './buffer/yjs-internals.ts'
/** A transaction's update (as Yjs emits it) written later, from copies of its structs taken now: a big paste's encoding leaves its task. */
export { captureTransactionUpdate } from './buffer/yjs-internals.ts'
/** A change of the log (`getChanges`, `onDidAddChange`), its query, and the revert window it keeps deleted text for. */
export type { ChangeEntry, ChangeQuery, RevertWindow } from './collab/change-log.ts'
/** Who made a change (client, user, attested), and the map where the server binds clients to users. */
export { AUTHORS_MAP, type AuthorUser, type ChangeAuthor } from './collab/authors.ts'
/** Atom's bracket-matcher as pure functions of the text: the pair at a cursor, auto-closing, empty pairs. */
export { bracketPairAt, typedBracketAction, isInsideEmptyPair, AUTO_CLOSE_PAIRS, BRACKET_PAIRS, type BracketPair, type TypedBracketAction } from './motions/brackets.ts'
