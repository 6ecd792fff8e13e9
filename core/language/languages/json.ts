import type { SyntaxNode } from '@lezer/common'
import { parser } from '@lezer/json'
import type { LanguageSpec, ScopeContext, ScopeRule } from '../language-spec.ts'
import { child, delimiterScope, isClosed, parentName, textOf } from '../scope-helpers.ts'
import { bracketIndentRules } from './indent-rules.ts'

/*
 * TextMate scopes for JSON, after Atom's language-json grammar:
 *
 *   { }        meta.structure.dictionary.json, punctuation.definition.dictionary.begin/.end.json
 *   "key":     meta.structure.dictionary.key.json string.quoted.double.json, : punctuation.separator.dictionary.key-value.json
 *   value      meta.structure.dictionary.value.json (after the colon), , punctuation.separator.dictionary.pair.json
 *   [ , ]      meta.structure.array.json, punctuation.definition.array.begin/.end.json, punctuation.separator.array.json
 *   "s" 1 true string.quoted.double.json (quotes punctuation.definition.string.begin/.end.json, \n constant.character.escape.json),
 *              constant.numeric.json, constant.language.json
 */

const s = (name: string) => `${name}.json`

function quoted(node: SyntaxNode, cx: ScopeContext): (string | null)[] {
  const close = isClosed(textOf(node, cx), '"') ? 1 : 0
  const punctuation = delimiterScope(node, cx, 1, close, s('punctuation.definition.string.begin'), s('punctuation.definition.string.end'))
  return [s('string.quoted.double'), punctuation ?? escapeAt(node, cx)]
}

/** JSON strings are single tokens, so escapes are found in their text. */
function escapeAt(node: SyntaxNode, cx: ScopeContext): string | null {
  const text = textOf(node, cx)
  const escape = /\\(?:u[0-9a-fA-F]{4}|.)/g
  for (let match = escape.exec(text); match; match = escape.exec(text)) {
    const from = node.from + match.index
    if (cx.pos >= from && cx.pos < from + match[0].length) return s('constant.character.escape')
    if (from > cx.pos) break
  }
  return null
}

const table: Record<string, string | ScopeRule> = {
  Object: s('meta.structure.dictionary'),
  Array: s('meta.structure.array'),
  Property: (node, cx) => {
    const colon = child(node, ':')
    return colon && cx.pos >= colon.to ? s('meta.structure.dictionary.value') : null
  },
  PropertyName: (node, cx) => [s('meta.structure.dictionary.key'), ...quoted(node, cx)],
  String: quoted,
  Number: s('constant.numeric'),
  True: s('constant.language'),
  False: s('constant.language'),
  Null: s('constant.language'),
  '{': s('punctuation.definition.dictionary.begin'),
  '}': s('punctuation.definition.dictionary.end'),
  '[': s('punctuation.definition.array.begin'),
  ']': s('punctuation.definition.array.end'),
  ':': s('punctuation.separator.dictionary.key-value'),
  ',': (node) => (parentName(node) === 'Array' ? s('punctuation.separator.array') : s('punctuation.separator.dictionary.pair')),
}

export const json: LanguageSpec = {
  id: 'json',
  rootScope: 'source.json',
  parser,
  nodeSet: parser.nodeSet,
  scopes: table,
  opaque: new Set(['String', 'PropertyName']),
  indent: bracketIndentRules,
  // JSON has no comments; Atom's language-json still toggles '// ' so that commented-out config lines work.
  commentStrings: () => ({ commentStartString: '// ' }),
}
