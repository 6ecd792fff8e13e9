import type { SyntaxNode } from '@lezer/common'
import { configureNesting, parser as htmlParser } from '@lezer/html'
import type { IndentRules, LanguageSpec, NestedLanguage, ScopeContext, ScopeRule, SourceReader } from '../language-spec.ts'
import { child, delimiterScope, isClosed, parentName, textOf } from '../scope-helpers.ts'
import { css } from './css.ts'
import { javascript, typescript } from './javascript.ts'

/*
 * TextMate scopes for HTML, after Atom's language-html grammar (root text.html.basic):
 *
 *   <div a="b">         meta.tag.block.any.html (structure: html head body; inline: span a b ...; else other),
 *                       < > </ /> punctuation.definition.tag.begin/.end.html, div entity.name.tag.block.any.html,
 *                       a entity.other.attribute-name.html, = punctuation.separator.key-value.html,
 *                       "b" string.quoted.double.html (quotes punctuation.definition.string.begin/.end.html)
 *   <!-- c -->          comment.block.html, delimiters punctuation.definition.comment.html
 *   &amp;               constant.character.entity.html, & ; punctuation.definition.entity.html
 *   <!DOCTYPE html>     meta.tag.sgml.doctype.html
 *   <script> <style>    the element source.js.embedded.html / source.css.embedded.html, its tags meta.tag.script.html
 *                       with entity.name.tag.script.html; the content takes the embedded language's scopes
 */

const STRUCTURE = new Set(['html', 'head', 'body'])
const BLOCK = new Set([
  'address', 'blockquote', 'dd', 'div', 'section', 'article', 'aside', 'header', 'footer', 'nav', 'menu', 'dl', 'dt',
  'fieldset', 'form', 'frame', 'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'iframe', 'noframes', 'object', 'ol', 'p',
  'ul', 'applet', 'center', 'dir', 'hr', 'pre', 'main', 'figure', 'figcaption',
])
const INLINE = new Set([
  'a', 'abbr', 'acronym', 'area', 'b', 'base', 'basefont', 'bdo', 'big', 'br', 'button', 'caption', 'cite', 'code', 'col',
  'colgroup', 'del', 'dfn', 'em', 'font', 'i', 'img', 'input', 'ins', 'isindex', 'kbd', 'label', 'legend', 'li', 'link',
  'map', 'meta', 'noscript', 'optgroup', 'option', 'param', 'q', 's', 'samp', 'select', 'small', 'span', 'strike',
  'strong', 'sub', 'sup', 'table', 'tbody', 'td', 'textarea', 'tfoot', 'th', 'thead', 'title', 'tr', 'tt', 'u', 'var',
])

function attributes(openTag: SyntaxNode | null, reader: SourceReader): Map<string, string> {
  const result = new Map<string, string>()
  if (!openTag) return result
  for (let attribute = openTag.firstChild; attribute; attribute = attribute.nextSibling) {
    if (attribute.name !== 'Attribute') continue
    const name = child(attribute, 'AttributeName')
    const value = child(attribute, 'AttributeValue') ?? child(attribute, 'UnquotedAttributeValue')
    if (!name) continue
    const raw = value ? reader.text(value.from, value.to) : ''
    result.set(reader.text(name.from, name.to).toLowerCase(), raw.replace(/^["']|["']$/g, ''))
  }
  return result
}

/** Which script elements hold JavaScript (or TypeScript): no type, a JavaScript MIME type, or a module. */
function scriptLanguage(attrs: ReadonlyMap<string, string>): LanguageSpec | null {
  const lang = attrs.get('lang')?.toLowerCase()
  const type = attrs.get('type')?.toLowerCase() ?? ''
  if (lang === 'ts' || lang === 'typescript' || /typescript/.test(type)) return typescript
  if (type === '' || type === 'module' || /^(text|application)\/(x-)?(java|ecma)script$/.test(type)) return javascript
  return null
}

function tagName(element: SyntaxNode, reader: SourceReader): string {
  const tag = element.firstChild
  const name = tag ? child(tag, 'TagName') : null
  return name ? reader.text(name.from, name.to).toLowerCase() : ''
}

/** The language of a script or style element's content, or null when it is not code Cotext parses. */
function embeddedLanguage(element: SyntaxNode, reader: SourceReader): LanguageSpec | null {
  if (element.name !== 'Element') return null
  const name = tagName(element, reader)
  if (name === 'style') return css
  if (name === 'script') return scriptLanguage(attributes(element.firstChild, reader))
  return null
}

function category(name: string): string {
  if (name === 'script' || name === 'style') return name
  if (STRUCTURE.has(name)) return 'structure.any'
  if (BLOCK.has(name)) return 'block.any'
  if (INLINE.has(name)) return 'inline.any'
  return 'other'
}

function tagScope(kind: 'meta' | 'entity'): ScopeRule {
  return (node, cx) => {
    const tag = kind === 'meta' ? node : node.parent
    const name = tag ? child(tag, 'TagName') : null
    const which = category(name ? textOf(name, cx).toLowerCase() : '')
    if (kind === 'meta') return `meta.tag.${which}.html`
    return `entity.name.tag.${which}.html`
  }
}

function quoted(node: SyntaxNode, cx: ScopeContext): (string | null)[] {
  const text = textOf(node, cx)
  const quote = text[0] === "'" ? "'" : '"'
  const close = isClosed(text, quote) ? 1 : 0
  return [
    quote === "'" ? 'string.quoted.single.html' : 'string.quoted.double.html',
    delimiterScope(node, cx, 1, close, 'punctuation.definition.string.begin.html', 'punctuation.definition.string.end.html'),
  ]
}

const table: Record<string, string | ScopeRule> = {
  Comment: (node, cx) => {
    const closed = textOf(node, cx).endsWith('-->') && node.to - node.from >= 7
    return ['comment.block.html', delimiterScope(node, cx, 4, closed ? 3 : 0, 'punctuation.definition.comment.html', 'punctuation.definition.comment.html')]
  },
  DoctypeDecl: 'meta.tag.sgml.doctype.html',
  ProcessingInst: 'meta.tag.preprocessor.xml.html',
  Element: (node, cx) => {
    const language = embeddedLanguage(node, cx)
    if (language === css) return 'source.css.embedded.html'
    return language ? 'source.js.embedded.html' : null
  },
  OpenTag: tagScope('meta'),
  CloseTag: tagScope('meta'),
  SelfClosingTag: tagScope('meta'),
  MismatchedCloseTag: tagScope('meta'),
  TagName: tagScope('entity'),
  StartTag: 'punctuation.definition.tag.begin.html',
  StartCloseTag: 'punctuation.definition.tag.begin.html',
  EndTag: 'punctuation.definition.tag.end.html',
  SelfClosingEndTag: 'punctuation.definition.tag.end.html',
  AttributeName: 'entity.other.attribute-name.html',
  Is: 'punctuation.separator.key-value.html',
  AttributeValue: quoted,
  UnquotedAttributeValue: 'string.unquoted.html',
  EntityReference: entity,
  CharacterReference: entity,
  InvalidEntity: 'invalid.illegal.bad-ampersand.html',
  IncompleteTag: (node) => (parentName(node) ? 'meta.tag.other.html' : null),
}

function entity(node: SyntaxNode, cx: ScopeContext): (string | null)[] {
  const closed = textOf(node, cx).endsWith(';') ? 1 : 0
  return ['constant.character.entity.html', delimiterScope(node, cx, 1, closed, 'punctuation.definition.entity.html', 'punctuation.definition.entity.html')]
}

/**
 * Atom's HTML patterns: the next line goes deeper after an opening tag that is not void, self-closed or closed
 * on the same line, after an unclosed `<!--`, or after an unclosed `{`; a line starting with a closing tag
 * (but `</html>`), `-->` or `}` goes back.
 */
const htmlIndentRules: IndentRules = {
  increase: (line) =>
    /<(?!\?|(?:area|base|br|col|embed|frame|hr|html|img|input|link|meta|param|source|track|wbr)\b|[^>]*\/>)([-_.A-Za-z0-9]+)(?=\s|>)\b[^>]*>(?!.*<\/\1>)|<!--(?!.*-->)|\{[^}"']*$/i.test(line),
  decrease: (line) => /^\s*(<\/(?!html)[-_.A-Za-z0-9]+\b[^>]*>|-->|\})/i.test(line),
}

const lowerCased = (attrs: Record<string, string>) => new Map(Object.entries(attrs).map(([name, value]) => [name.toLowerCase(), value]))
const nestedParser = htmlParser.configure({
  wrap: configureNesting([
    { tag: 'script', attrs: (attrs) => scriptLanguage(lowerCased(attrs)) === javascript, parser: javascript.parser },
    { tag: 'script', attrs: (attrs) => scriptLanguage(lowerCased(attrs)) === typescript, parser: typescript.parser },
    { tag: 'style', parser: css.parser },
  ]),
})

export const html: LanguageSpec = {
  id: 'html',
  rootScope: 'text.html.basic',
  parser: nestedParser,
  nodeSet: htmlParser.nodeSet,
  scopes: table,
  opaque: new Set(['Comment', 'AttributeValue']),
  indent: htmlIndentRules,
  commentStrings: () => ({ commentStartString: '<!-- ', commentEndString: ' -->' }),
  nested: (host, reader): NestedLanguage | null => {
    const language = embeddedLanguage(host, reader)
    return language ? { language, scope: null } : null
  },
}
