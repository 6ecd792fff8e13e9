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
  /**
   * A syntax tree complete at least up to `offset`, parsing no further than needed (a view highlighting the rows
   * it shows, a query at the top of a large file), or null for plain text.
   */
  syntaxTreeUpTo(offset: number): Tree | null
  /**
   * Drives this mode's own full parse towards `goal` (a character offset; Infinity: the end) one step at a
   * time, asking `shouldStop` every few parser steps (a caller's deadline), and returns whether the tree now
   * reaches `goal`. An unfinished step goes on at the next call. A page calls it in idle slices, so that its
   * highlighting, the folds and the queries all read one tree and none of them parses the whole text at once.
   */
  advanceParse(goal: number, shouldStop: () => boolean): boolean
  /** How far (a character offset) the full tree is right for the current text; the text's length when complete. */
  parsedUpTo(): number
  /** The full tree as far as it is parsed, without parsing (null for plain text or before the first parse). */
  syntaxTreeSoFar(): { readonly tree: Tree; readonly upTo: number } | null
  /** Folds that follow the syntax, or null where folds follow indentation (plain text, Markdown). */
  getSyntaxFolds(): SyntaxFolds | null
  destroy(): void
}
