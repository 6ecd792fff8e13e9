import type { Tree } from '@lezer/common'
import type { PointLike } from '../point/point.ts'
import type { IndentOptions } from './indentation.ts'
import type { CommentStrings } from './language-spec.ts'
import type { LanguageId } from './registry.ts'
import type { ScopeDescriptor } from './scope-descriptor.ts'
import type { SyntaxFolds } from './syntax-folds.ts'

/**
 * The language-aware queries an editor makes about its buffer. One per editor; plain text is a mode too (no
 * tree, scope 'text.plain', no comment strings, indentation kept from the line above).
 */
export interface LanguageMode {
  readonly id: LanguageId
  /** 'text.plain', 'source.js', 'source.ts', 'source.js.jsx', 'source.tsx', 'source.python', 'source.json', 'source.css', 'text.html.basic', 'source.gfm'. */
  readonly rootScope: string
  /** TextMate-style scopes of the character at `position` (of the one before it at the end of a line), as Atom. */
  scopeDescriptorForPosition(position: PointLike): ScopeDescriptor
  /** The root scope, then the syntax node names from the tree's top node down to `position`. */
  syntaxTreeScopeDescriptorForPosition(position: PointLike): ScopeDescriptor
  /** The comment delimiters of the language at `position` (JavaScript or CSS inside HTML differ from HTML). */
  commentStringsForPosition(position: PointLike): CommentStrings
  /** Whether `row` is comment-only: its first non-blank character is in a comment (or it is inside one). */
  isRowCommented(row: number): boolean
  /** The desired indent level of `row` from the rows above and, unless `skipDecrease`, its own leading closer. */
  suggestedIndentForBufferRow(row: number, options: IndentOptions): number
  /** As `suggestedIndentForBufferRow`, for `line` as if it were the text of `row` (Atom's multi-line insert). */
  suggestedIndentForLineAtBufferRow(row: number, line: string, options: IndentOptions): number
  /** Whether `row` starts with a closer that should take its indent back (a closing bracket, `else:`). */
  shouldDecreaseIndentForRow(row: number): boolean
  /**
   * Atom's `autoDecreaseIndent`: the lower level `row` should drop to now that it starts with a closer, or
   * undefined when it should keep its indentation.
   */
  suggestedIndentForEditedBufferRow(row: number, options: IndentOptions): number | undefined
  /** The complete syntax tree of the current text (parsing what changed), or null for plain text. */
  getSyntaxTree(): Tree | null
  /** Folds that follow the syntax, or null where folds follow indentation (plain text, Markdown). */
  getSyntaxFolds(): SyntaxFolds | null
  destroy(): void
}
