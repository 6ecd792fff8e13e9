import type { SyntaxNode } from '@lezer/common'
import { parser } from '@lezer/css'
import type { LanguageSpec, ScopeContext, ScopeRule, ScopeTable } from '../language-spec.ts'
import { child, delimiterScope, isClosed, parentName, textOf, within } from '../scope-helpers.ts'
import { bracketIndentRules } from './indent-rules.ts'

/*
 * TextMate scopes for CSS, after Atom's language-css grammar:
 *
 *   /* c * /           comment.block.css, delimiters punctuation.definition.comment.begin/.end.css
 *   a.b#c:hover, [x]    meta.selector.css: entity.name.tag.css, entity.other.attribute-name.class / .id /
 *                       .pseudo-class / .pseudo-element.css (their . # : :: punctuation.definition.entity.css),
 *                       [x] meta.attribute-selector.css, > + ~ keyword.operator.combinator.css
 *   { color: red; }     meta.property-list.css with punctuation.section.property-list.begin/.end.bracket.curly.css;
 *                       color meta.property-name.css support.type.property-name.css, : punctuation.separator.key-value.css,
 *                       the value meta.property-value.css, ; punctuation.terminator.rule.css
 *   --x var(--x)        variable.css
 *   red 10px #fff "x"   support.constant.property-value.css, constant.numeric.css + keyword.other.unit.px.css,
 *                       constant.other.color.rgb-value.hex.css, string.quoted.double.css
 *   calc( )  !important meta.function.css + support.function.misc.css, keyword.other.important.css
 *   @media screen       meta.at-rule.media.header.css, @media keyword.control.at-rule.media.css
 */

const s = (name: string) => `${name}.css`
const AT_RULES: Readonly<Record<string, string>> = {
  MediaStatement: 'media',
  ImportStatement: 'import',
  CharsetStatement: 'charset',
  NamespaceStatement: 'namespace',
  KeyframesStatement: 'keyframes',
  SupportsStatement: 'supports',
  ScopeStatement: 'scope',
  FontFeatureStatement: 'font-feature-values',
  AtRule: '',
}

function atRuleName(statement: SyntaxNode, cx: ScopeContext): string {
  const known = AT_RULES[statement.name]
  if (known) return known
  const keyword = statement.firstChild
  return keyword ? textOf(keyword, cx).replace(/^@/, '').toLowerCase() : 'unknown'
}

function atRule(node: SyntaxNode, cx: ScopeContext): string | null {
  const body = child(node, 'Block') ?? child(node, 'KeyframeList')
  const name = atRuleName(node, cx)
  return within(cx, node.from, body ? body.from : node.to) ? s(`meta.at-rule.${name}.header`) : s(`meta.at-rule.${name}.body`)
}

function atKeyword(node: SyntaxNode, cx: ScopeContext): (string | null)[] {
  const holder = node.parent
  const name = holder ? atRuleName(holder, cx) : textOf(node, cx).replace(/^@/, '')
  return [s(`keyword.control.at-rule.${name}`), cx.pos === node.from ? s('punctuation.definition.keyword') : null]
}

function quoted(node: SyntaxNode, cx: ScopeContext): (string | null)[] {
  const text = textOf(node, cx)
  const quote = text[0] === "'" ? "'" : '"'
  const close = isClosed(text, quote) ? 1 : 0
  return [
    s(quote === "'" ? 'string.quoted.single' : 'string.quoted.double'),
    delimiterScope(node, cx, 1, close, s('punctuation.definition.string.begin'), s('punctuation.definition.string.end')),
  ]
}

/** Inside a declaration, the value is everything after the colon. */
function declaration(node: SyntaxNode, cx: ScopeContext): string | null {
  const colon = child(node, ':')
  return colon && cx.pos >= colon.to ? s('meta.property-value') : null
}

/** A rule's braces delimit its property list; an at-rule's, its section ('punctuation.section.media.begin...'). */
function sectionBrace(node: SyntaxNode, cx: ScopeContext, side: 'begin' | 'end'): string {
  const owner = node.parent?.parent
  if (!owner || owner.name === 'RuleSet') return s(`punctuation.section.property-list.${side}.bracket.curly`)
  return AT_RULES[owner.name] !== undefined ? s(`punctuation.section.${atRuleName(owner, cx)}.${side}.bracket.curly`) : s(`punctuation.section.${side}.bracket.curly`)
}

const table: Record<string, string | ScopeRule> = {
  Comment: (node, cx) => {
    const close = textOf(node, cx).length >= 4 && textOf(node, cx).endsWith('*/') ? 2 : 0
    return [s('comment.block'), delimiterScope(node, cx, 2, close, s('punctuation.definition.comment.begin'), s('punctuation.definition.comment.end'))]
  },
  RuleSet: (node, cx) => {
    const block = child(node, 'Block')
    return block && cx.pos >= block.from ? null : s('meta.selector')
  },
  Block: (node) => (parentName(node) === 'RuleSet' ? s('meta.property-list') : null),
  '{': (node, cx) => sectionBrace(node, cx, 'begin'),
  '}': (node, cx) => sectionBrace(node, cx, 'end'),
  TagName: s('entity.name.tag'),
  UniversalSelector: s('entity.name.tag.wildcard'),
  NestingSelector: s('entity.name.tag.reference'),
  ClassSelector: (node, cx) => {
    const dot = child(node, '.')
    if (!dot || cx.pos < dot.from) return null
    return [s('entity.other.attribute-name.class'), cx.pos === dot.from ? s('punctuation.definition.entity') : null]
  },
  IdName: (node, cx) => [s('entity.other.attribute-name.id'), cx.pos === node.from ? s('punctuation.definition.entity') : null],
  PseudoClassSelector: (node, cx) => {
    const marker = child(node, '::') ?? child(node, ':')
    if (!marker || cx.pos < marker.from) return null
    const kind = marker.name === '::' ? 'pseudo-element' : 'pseudo-class'
    return [s(`entity.other.attribute-name.${kind}`), within(cx, marker.from, marker.to) ? s('punctuation.definition.entity') : null]
  },
  AttributeSelector: (node, cx) => {
    const open = child(node, '[')
    return open && cx.pos >= open.from ? s('meta.attribute-selector') : null
  },
  AttributeName: s('entity.other.attribute-name'),
  MatchOp: s('keyword.operator.pattern'),
  ChildOp: s('keyword.operator.combinator'),
  SiblingOp: s('keyword.operator.combinator'),
  ',': s('punctuation.separator.list.comma'),
  '[': (node) => (parentName(node) === 'AttributeSelector' ? s('punctuation.definition.entity.begin.bracket.square') : null),
  ']': (node) => (parentName(node) === 'AttributeSelector' ? s('punctuation.definition.entity.end.bracket.square') : null),
  Declaration: declaration,
  PropertyName: (node) => (parentName(node) === 'Declaration' ? [s('meta.property-name'), s('support.type.property-name')] : s('support.type.property-name')),
  ':': (node) => (parentName(node) === 'Declaration' ? s('punctuation.separator.key-value') : null),
  ';': s('punctuation.terminator.rule'),
  ValueName: s('support.constant.property-value'),
  NumberLiteral: (node, cx) => {
    const unit = child(node, 'Unit')
    if (unit && cx.pos >= unit.from) return [s('constant.numeric'), s(`keyword.other.unit.${textOf(unit, cx).toLowerCase() === '%' ? 'percentage' : textOf(unit, cx).toLowerCase()}`)]
    return s('constant.numeric')
  },
  ColorLiteral: (node, cx) => [s('constant.other.color.rgb-value.hex'), cx.pos === node.from ? s('punctuation.definition.constant') : null],
  StringLiteral: quoted,
  Important: s('keyword.other.important'),
  CallExpression: s('meta.function'),
  Callee: (node, cx) => {
    const name = textOf(node, cx).toLowerCase()
    if (name === 'calc') return s('support.function.calc')
    if (name === 'url') return s('support.function.url')
    if (name === 'var') return s('support.function.variable')
    return s('support.function.misc')
  },
  '(': (node) => (parentName(node) === 'ArgList' ? s('punctuation.section.function.begin.bracket.round') : null),
  ')': (node) => (parentName(node) === 'ArgList' ? s('punctuation.section.function.end.bracket.round') : null),
  BinOp: s('keyword.operator.arithmetic'),
  VariableName: s('variable'),
  KeywordQuery: s('support.constant.media'),
  FeatureName: s('support.type.property-name.media'),
  LogicOp: (node, cx) => s(`keyword.operator.logical.${textOf(node, cx).toLowerCase()}`),
  KeyframeName: s('variable.parameter.keyframe-list'),
}
for (const statement of Object.keys(AT_RULES)) table[statement] = atRule
for (const keyword of ['media', 'import', 'charset', 'namespace', 'keyframes', 'supports', 'scope', 'font-feature-values', 'AtKeyword']) table[keyword] = atKeyword

export const css: LanguageSpec = {
  id: 'css',
  rootScope: 'source.css',
  parser,
  nodeSet: parser.nodeSet,
  scopes: table as ScopeTable,
  opaque: new Set(['StringLiteral', 'Comment']),
  indent: bracketIndentRules,
  // A rule's selector or an at-rule, at column 0.
  resumeLine: /^[A-Za-z.#@*:[]/,
  commentStrings: () => ({ commentStartString: '/*', commentEndString: '*/' }),
}
