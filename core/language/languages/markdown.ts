import type { SyntaxNode } from '@lezer/common'
import { GFM, parseCode, parser as markdownParser } from '@lezer/markdown'
import type { LanguageSpec, NestedLanguage, ScopeContext, ScopeRule, SourceReader } from '../language-spec.ts'
import { child, delimiterScope, parentName, textOf, within } from '../scope-helpers.ts'
import { css } from './css.ts'
import { html } from './html.ts'
import { javascript, typescript } from './javascript.ts'
import { json } from './json.ts'
import { python } from './python.ts'

/*
 * TextMate scopes for Markdown, after Atom's language-gfm grammar (root source.gfm):
 *
 *   # H                 markup.heading.heading-1.gfm (setext headings too)
 *   **b** *i* ***bi***  markup.bold.gfm, markup.italic.gfm, markup.bold.italic.gfm; ~~s~~ markup.strike.gfm
 *   `c`                 markup.raw.gfm; indented code markup.raw.gfm
 *   ```js ... ```       markup.code.js.gfm (python, css, html, json, ts, shell alike; unknown info markup.raw.gfm),
 *                       the fence lines support.gfm, the code source.embedded.js plus the language's own scopes
 *   > q                 comment.quote.gfm, > support.quote.gfm
 *   - 1.                variable.unordered.list.gfm, variable.ordered.list.gfm
 *   ---                 comment.hr.gfm
 *   [t](u) [l]: u       link, t entity.gfm, u markup.underline.link.gfm
 *   <!-- c -->          comment.block.gfm, delimiters punctuation.definition.comment.gfm
 *   \* &amp;            constant.character.escape.gfm, constant.character.entity.gfm
 * Atom's emoji, @mention and #issue scopes come from regular expressions, not the syntax tree; Cotext leaves them out.
 */

const s = (name: string) => `${name}.gfm`

interface FenceLanguage {
  readonly name: string
  readonly language: LanguageSpec | null
}

const FENCES: readonly (readonly [RegExp, FenceLanguage])[] = [
  [/^(js|javascript|jsx|mjs|cjs|node)$/, { name: 'js', language: javascript }],
  [/^(ts|typescript|tsx)$/, { name: 'ts', language: typescript }],
  [/^(py|python|python3)$/, { name: 'python', language: python }],
  [/^json$/, { name: 'json', language: json }],
  [/^css$/, { name: 'css', language: css }],
  [/^(html|htm|xhtml)$/, { name: 'html', language: html }],
  [/^(sh|bash|shell|zsh|console)$/, { name: 'shell', language: null }],
]

function fenceLanguage(info: string): FenceLanguage | null {
  const word = info.trim().split(/\s+/)[0]!.toLowerCase()
  for (const [pattern, fence] of FENCES) if (pattern.test(word)) return fence
  return null
}

function infoOf(fence: SyntaxNode, reader: SourceReader): string {
  const info = child(fence, 'CodeInfo')
  return info ? reader.text(info.from, info.to) : ''
}

function fencedCode(node: SyntaxNode, cx: ScopeContext): (string | null)[] {
  const fence = fenceLanguage(infoOf(node, cx))
  const scope = fence ? s(`markup.code.${fence.name}`) : s('markup.raw')
  const text = textOf(node, cx)
  const firstLineEnd = text.search(/\r?\n|\r/)
  const opening = firstLineEnd === -1 ? node.to : node.from + firstLineEnd
  const last = node.lastChild
  const closing = last && last.name === 'CodeMark' && last.from > opening ? lineStart(text, last.from - node.from) + node.from : node.to
  return [scope, cx.pos < opening || cx.pos >= closing ? s('support') : null]
}

function lineStart(text: string, index: number): number {
  let i = index
  while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--
  return i
}

/** In a link, the text between its first `[` and the `]` after it is the link's entity. */
function link(node: SyntaxNode, cx: ScopeContext): (string | null)[] {
  const open = child(node, 'LinkMark')
  let close = open?.nextSibling ?? null
  while (close && close.name !== 'LinkMark') close = close.nextSibling
  const inside = !!open && !!close && within(cx, open.to, close.from)
  return ['link', inside ? s('entity') : null]
}

function boldItalic(node: SyntaxNode, outerMark: number, inner: string): boolean {
  const c = node.firstChild?.nextSibling
  return !!c && c.name === inner && c.from === node.from + outerMark && c.to === node.to - outerMark && !c.nextSibling?.nextSibling
}

function comment(node: SyntaxNode, cx: ScopeContext): (string | null)[] {
  const closed = textOf(node, cx).trimEnd().endsWith('-->') ? 3 : 0
  return [s('comment.block'), delimiterScope(node, cx, 4, closed, s('punctuation.definition.comment'), s('punctuation.definition.comment'))]
}

const table: Record<string, string | ScopeRule> = {
  SetextHeading1: s('markup.heading.heading-1'),
  SetextHeading2: s('markup.heading.heading-2'),
  StrongEmphasis: (node) => {
    const outer = node.parent
    if (outer?.name === 'Emphasis' && boldItalic(outer, 1, 'StrongEmphasis')) return null
    return boldItalic(node, 2, 'Emphasis') ? s('markup.bold.italic') : s('markup.bold')
  },
  Emphasis: (node) => {
    const outer = node.parent
    if (outer?.name === 'StrongEmphasis' && boldItalic(outer, 2, 'Emphasis')) return null
    return boldItalic(node, 1, 'StrongEmphasis') ? s('markup.bold.italic') : s('markup.italic')
  },
  Strikethrough: s('markup.strike'),
  InlineCode: s('markup.raw'),
  CodeBlock: s('markup.raw'),
  FencedCode: fencedCode,
  Blockquote: s('comment.quote'),
  QuoteMark: s('support.quote'),
  ListMark: (node) => (parentName(node.parent!) === 'OrderedList' ? s('variable.ordered.list') : s('variable.unordered.list')),
  HorizontalRule: s('comment.hr'),
  Link: link,
  Image: link,
  LinkReference: 'link',
  LinkLabel: (node, cx) => (parentName(node) === 'LinkReference' && within(cx, node.from + 1, node.to - 1) ? s('entity') : null),
  URL: s('markup.underline.link'),
  Escape: s('constant.character.escape'),
  Entity: s('constant.character.entity'),
  CommentBlock: comment,
  Comment: comment,
  Table: s('table'),
  TableDelimiter: s('border.pipe'),
  TaskMarker: s('variable.task.list'),
}
for (let level = 1; level <= 6; level++) table[`ATXHeading${level}`] = s(`markup.heading.heading-${level}`)

const parser = markdownParser.configure([
  GFM,
  parseCode({ codeParser: (info) => fenceLanguage(info)?.language?.parser ?? null }),
])

export const markdown: LanguageSpec = {
  id: 'markdown',
  rootScope: 'source.gfm',
  foldsByIndentation: true,
  parser,
  nodeSet: parser.nodeSet,
  scopes: table,
  opaque: new Set(),
  indent: null,
  commentStrings: () => ({ commentStartString: '<!-- ', commentEndString: ' -->' }),
  nested: (host, reader): NestedLanguage | null => {
    if (host.name !== 'FencedCode') return null
    const fence = fenceLanguage(infoOf(host, reader))
    return fence?.language ? { language: fence.language, scope: `source.embedded.${fence.name}` } : null
  },
}
