import type { NodeSet, NodeType, Parser, SyntaxNode } from '@lezer/common'
import type { LanguageId } from './registry.ts'

/** The comment delimiters at a position, as Atom's `commentStringsForPosition` gives them. */
export interface CommentStrings {
  readonly commentStartString?: string
  readonly commentEndString?: string
}

/** Reads the parsed text by offsets. */
export interface SourceReader {
  text(from: number, to: number): string
}

/** What a scope rule knows: the offset of the character whose scopes are asked for, and the text. */
export interface ScopeContext extends SourceReader {
  readonly pos: number
}

/** Scopes a rule gives: one, several (outermost first; null entries are skipped), or none. */
export type ScopeResult = string | readonly (string | null)[] | null | undefined

/**
 * The TextMate scopes one syntax node contributes at `cx.pos`. Rules see the position so that one node can
 * give its first character a punctuation scope, or cover only its header.
 */
export type ScopeRule = (node: SyntaxNode, cx: ScopeContext) => ScopeResult

/** Scopes by node name: a fixed scope, or a rule. */
export type ScopeTable = Readonly<Record<string, string | ScopeRule>>

/** Atom-style indentation patterns, as predicates on a line. */
export interface IndentRules {
  /**
   * Whether the row after `line` goes one level deeper. `code` is `line` with strings and comments replaced by
   * spaces, so brackets inside them do not count.
   */
  increase(line: string, code: string): boolean
  /** Whether `line` itself goes one level back, e.g. it starts with a closing bracket. */
  decrease(line: string, code: string): boolean
}

export interface NestedLanguage {
  readonly language: LanguageSpec
  /** The scope wrapping the nested text ('source.js.embedded.html'), if any. */
  readonly scope: string | null
}

/** Everything the engine knows about one language (or dialect). */
export interface LanguageSpec {
  readonly id: LanguageId
  readonly rootScope: string
  /** The parser of whole documents in this language, nested languages included. */
  readonly parser: Parser
  /** The node types this language's own grammar makes. */
  readonly nodeSet: NodeSet
  readonly scopes: ScopeTable
  /** Scopes for nodes the table does not name (e.g. from their highlight tags). */
  fallbackScopes?(node: SyntaxNode, cx: ScopeContext): ScopeResult
  /** Names of nodes whose text is not code for indentation purposes (strings, comments). */
  readonly opaque: ReadonlySet<string>
  /** Null: keep the previous line's indentation (markdown, plain text). */
  readonly indent: IndentRules | null
  /** Folds by indentation rather than by syntax (Atom's TextMate-only grammars: Markdown). */
  readonly foldsByIndentation?: boolean
  /**
   * A line that begins a top-level statement when it matches at column 0 (`function`, `class`, `def`): where
   * a query far below what is parsed may start a local parse. None: such queries parse from the top.
   */
  readonly resumeLine?: RegExp
  /** The comment delimiters for a line whose first non-blank character is in `node`. */
  commentStrings(node: SyntaxNode, reader: SourceReader): CommentStrings
  /** The language of a tree mounted under `host` (a script element, a fenced code block). */
  nested?(host: SyntaxNode, reader: SourceReader): NestedLanguage | null
}

/** Whether `type` was made by `spec`'s grammar (rather than a nested language's). */
export function ownsNodeType(spec: LanguageSpec, type: NodeType): boolean {
  return spec.nodeSet.types[type.id] === type
}
