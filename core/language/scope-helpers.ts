import type { SyntaxNode } from '@lezer/common'
import type { ScopeContext } from './language-spec.ts'

/** Appends a language suffix: `scoped('.js')('keyword.control')` is 'keyword.control.js'. */
export function scoped(suffix: string): (name: string) => string {
  return (name) => name + suffix
}

export function textOf(node: SyntaxNode, cx: ScopeContext): string {
  return cx.text(node.from, node.to)
}

export function parentName(node: SyntaxNode): string | undefined {
  return node.parent?.name
}

/** The first child named `name`, or null. */
export function child(node: SyntaxNode | null | undefined, name: string): SyntaxNode | null {
  return node ? node.getChild(name) : null
}

/** The last child named one of `names`, or null. */
export function lastChild(node: SyntaxNode, names: readonly string[]): SyntaxNode | null {
  for (let c = node.lastChild; c; c = c.prevSibling) if (names.includes(c.name)) return c
  return null
}

/** Whether the quoted token `text` ends with its closing delimiter (not an escaped one). */
export function isClosed(text: string, quote: string): boolean {
  if (text.length < quote.length * 2 || !text.endsWith(quote)) return false
  let backslashes = 0
  for (let i = text.length - quote.length - 1; i >= 0 && text[i] === '\\'; i--) backslashes++
  return backslashes % 2 === 0
}

/**
 * The scope of a delimited token's punctuation at `cx.pos`: `beginScope` on the opening delimiter (length
 * `openLength` from `start`), `endScope` on the closing one when the token is closed.
 */
export function delimiterScope(
  node: SyntaxNode,
  cx: ScopeContext,
  openLength: number,
  closeLength: number,
  beginScope: string,
  endScope: string,
  start = node.from,
): string | null {
  if (cx.pos >= start && cx.pos < start + openLength) return beginScope
  if (closeLength > 0 && cx.pos >= node.to - closeLength && node.to - closeLength >= start + openLength) return endScope
  return null
}

/** Whether `cx.pos` lies in [from, to). */
export function within(cx: ScopeContext, from: number, to: number): boolean {
  return cx.pos >= from && cx.pos < to
}
