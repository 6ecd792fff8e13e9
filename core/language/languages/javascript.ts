import type { SyntaxNode } from '@lezer/common'
import { parser } from '@lezer/javascript'
import type { CommentStrings, IndentRules, LanguageSpec } from '../language-spec.ts'
import { scopeFromHighlightTags } from '../scopes.ts'
import { bracketIndentRules } from './indent-rules.ts'
import { javascriptScopeTable } from './javascript-scopes.ts'

const LINE_COMMENT: CommentStrings = { commentStartString: '// ' }
const JSX_COMMENT: CommentStrings = { commentStartString: '{/* ', commentEndString: ' */}' }

/** Atom's JavaScript rules: brackets, plus a `case x:` or `default:` line. */
const javascriptIndentRules: IndentRules = {
  increase: (line, code) => bracketIndentRules.increase(line, code) || /^\s*(case\b.*|default\s*):\s*$/.test(code),
  decrease: (line, code) => bracketIndentRules.decrease(line, code),
}

/**
 * A line among JSX children takes a JSX comment (a block comment in braces); anywhere else, including inside
 * `{...}` expressions, a line comment.
 */
function javascriptCommentStrings(node: SyntaxNode): CommentStrings {
  for (let n: SyntaxNode | null = node; n; n = n.parent) {
    if (n.name === 'JSXText') return JSX_COMMENT
    if (n.name === 'JSXEscape') return LINE_COMMENT
    if (n.name === 'JSXElement') return n.parent?.name === 'JSXElement' ? JSX_COMMENT : LINE_COMMENT
  }
  return LINE_COMMENT
}

/** A line starting a top-level declaration or a comment (the usual openers of a top-level statement). */
const JAVASCRIPT_STATEMENT = /^(?:export\s|import[\s{*]|(?:async\s+)?function[\s*]|class\s|const\s|let\s|var\s|interface\s|type\s|enum\s|declare\s|\/\/|\/\*)/

function javascriptFamily(id: 'javascript' | 'typescript' | 'jsx' | 'tsx', dialect: string, rootScope: string, suffix: string): LanguageSpec {
  return {
    id,
    rootScope,
    parser: dialect ? parser.configure({ dialect }) : parser,
    nodeSet: parser.nodeSet,
    scopes: javascriptScopeTable(suffix),
    fallbackScopes: (node) => scopeFromHighlightTags(node, suffix),
    opaque: new Set(['String', 'TemplateString', 'RegExp', 'LineComment', 'BlockComment', 'JSXAttributeValue', 'JSXText']),
    indent: javascriptIndentRules,
    resumeLine: JAVASCRIPT_STATEMENT,
    commentStrings: javascriptCommentStrings,
  }
}

// Atom's JavaScript grammar reads JSX in .js files too, so the JavaScript parser does.
export const javascript = javascriptFamily('javascript', 'jsx', 'source.js', '.js')
export const typescript = javascriptFamily('typescript', 'ts', 'source.ts', '.ts')
export const jsx = javascriptFamily('jsx', 'jsx', 'source.js.jsx', '.js')
export const tsx = javascriptFamily('tsx', 'ts jsx', 'source.tsx', '.tsx')
