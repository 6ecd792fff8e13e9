/** Language detection and ids. */
export { LANGUAGE_IDS, isLanguageId, languageForPath, languageInfo, type LanguageId, type LanguageInfo } from './registry.ts'
/** Atom's scope descriptor: the scopes at a position, root scope first. */
export { ScopeDescriptor } from './scope-descriptor.ts'
/** A buffer's language mode: scopes, comment strings, indentation rules over an incremental syntax tree. */
export { createLanguageMode, type LanguageMode, type CommentStrings, type IndentOptions } from './language-mode.ts'
/** The pure comment-toggling edits (Atom's toggleLineCommentsForBufferRows). */
export { toggleLineCommentsEdits, type LineEdit, type ToggleCommentOptions } from './comments.ts'
/** Indentation helpers shared with the editor. */
export { indentLevelForLine, indentColumnsForLine, buildIndentString, columnForIndentLevel } from './indentation.ts'
