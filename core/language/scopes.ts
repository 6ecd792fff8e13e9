import type { SyntaxNode, Tree } from '@lezer/common'
import { getStyleTags, tags, type Tag } from '@lezer/highlight'
import { ownsNodeType, type LanguageSpec, type ScopeContext, type ScopeResult, type SourceReader } from './language-spec.ts'

/** What lies at one offset of a parsed document. */
export interface ResolvedPosition {
  /** TextMate scopes, the document's root scope first. */
  readonly scopes: string[]
  /** Syntax node names from the tree's top node down to the innermost node. */
  readonly nodeNames: string[]
  /** The innermost node. */
  readonly node: SyntaxNode
  /** The language of the innermost node (JavaScript inside an HTML script element). */
  readonly language: LanguageSpec
}

/**
 * Resolves an offset: with `side` 1 the character that starts at `offset`, with 0 what strictly encloses it (an
 * empty line inside a block comment). Each node from the top down adds the scopes its language's table gives;
 * entering a nested tree switches to that language and adds its embedding scope.
 */
export function resolveOffset(spec: LanguageSpec, tree: Tree, reader: SourceReader, offset: number, side: 0 | 1): ResolvedPosition {
  const inner = tree.resolveInner(offset, side)
  const chain: SyntaxNode[] = []
  for (let node: SyntaxNode | null = inner; node; node = node.parent) chain.push(node)
  chain.reverse()

  const cx: ScopeContext = { pos: offset, text: (from, to) => reader.text(from, to) }
  const scopes = [spec.rootScope]
  const nodeNames: string[] = []
  let language = spec
  let host: SyntaxNode | null = null
  for (const node of chain) {
    if (!ownsNodeType(language, node.type)) {
      const nested = host && language.nested ? language.nested(host, reader) : null
      if (nested) {
        if (nested.scope) scopes.push(nested.scope)
        language = nested.language
      }
    }
    if (node.name) nodeNames.push(node.name)
    if (ownsNodeType(language, node.type)) pushScopes(scopes, scopesForNode(language, node, cx))
    host = node
  }
  return { scopes, nodeNames, node: inner, language }
}

function scopesForNode(language: LanguageSpec, node: SyntaxNode, cx: ScopeContext): ScopeResult {
  const rule = language.scopes[node.name]
  if (rule === undefined) return language.fallbackScopes?.(node, cx)
  return typeof rule === 'string' ? rule : rule(node, cx)
}

function pushScopes(scopes: string[], added: ScopeResult): void {
  if (!added) return
  if (typeof added === 'string') scopes.push(added)
  else for (const scope of added) if (scope) scopes.push(scope)
}

/** Scopes from a node's highlight tags, for nodes a language's table does not name (mostly keywords). */
const TAG_SCOPES: readonly (readonly [Tag, string])[] = [
  [tags.lineComment, 'comment.line'],
  [tags.blockComment, 'comment.block'],
  [tags.comment, 'comment'],
  [tags.controlKeyword, 'keyword.control'],
  [tags.moduleKeyword, 'keyword.control'],
  [tags.operatorKeyword, 'keyword.operator'],
  [tags.definitionKeyword, 'storage.type'],
  [tags.modifier, 'storage.modifier'],
  [tags.self, 'variable.language'],
  [tags.bool, 'constant.language'],
  [tags.null, 'constant.language.null'],
  [tags.keyword, 'keyword.other'],
  [tags.regexp, 'string.regexp'],
  [tags.escape, 'constant.character.escape'],
  [tags.string, 'string.quoted'],
  [tags.number, 'constant.numeric'],
  [tags.standard(tags.typeName), 'support.type'],
  [tags.typeName, 'entity.name.type'],
  [tags.className, 'entity.name.type.class'],
  [tags.compareOperator, 'keyword.operator.comparison'],
  [tags.logicOperator, 'keyword.operator.logical'],
  [tags.bitwiseOperator, 'keyword.operator.bitwise'],
  [tags.arithmeticOperator, 'keyword.operator'],
  [tags.definitionOperator, 'keyword.operator.assignment'],
  [tags.operator, 'keyword.operator'],
]

/** The TextMate-like scope of a node's first highlight tag that has one, with `suffix` ('.js') appended. */
export function scopeFromHighlightTags(node: SyntaxNode, suffix: string): string | null {
  const rule = getStyleTags(node)
  if (!rule) return null
  for (const tag of rule.tags) {
    for (const [known, scope] of TAG_SCOPES) if (tag === known || tag.set.includes(known)) return scope + suffix
  }
  return null
}
