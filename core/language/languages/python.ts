import type { SyntaxNode } from '@lezer/common'
import { parser } from '@lezer/python'
import type { IndentRules, LanguageSpec, ScopeContext, ScopeRule, ScopeTable } from '../language-spec.ts'
import { scopeFromHighlightTags } from '../scopes.ts'
import { child, delimiterScope, isClosed, parentName, textOf, within } from '../scope-helpers.ts'

/*
 * TextMate scopes for Python, after Atom's language-python grammar and spec:
 *
 *   # c                 comment.line.number-sign.python, # punctuation.definition.comment.python
 *   'x' "x"             string.quoted.single / .double .single-line.python; '''x''' """x""" string.quoted.*.block.python;
 *                       prefixes add .binary (b), .raw-regex (r), .format (f) and give the letters storage.type.string.python;
 *                       quotes punctuation.definition.string.begin/.end.python; \n constant.character.escape.python;
 *                       {x} in f-strings meta.interpolation.python
 *   1 0x1 0o1 0b1 1.5 2j constant.numeric.integer.decimal / .hexadecimal / .octal / .binary, .float, .complex
 *   True False None     constant.language.python          self cls  variable.language.self.python
 *   if elif else for while try except finally with break continue pass raise return yield await async
 *   match case          keyword.control.statement.python  import from as  keyword.control.import.python
 *   and or not in is    keyword.operator.logical.python   global nonlocal  storage.modifier.global.python
 *   def f(a):           meta.function.python through the colon, def storage.type.function.python, f entity.name.function.python,
 *                       (a) meta.function.parameters.python, a variable.parameter.function.python
 *   class C(B):         meta.class.python, class storage.type.class.python, C entity.name.type.class.python,
 *                       B entity.other.inherited-class.python
 *   lambda x: x         meta.function.inline.python, lambda storage.type.function.inline.python
 *   @dec                meta.function.decorator.python, @ punctuation.definition.decorator.python
 *   f(x)   a.b(x)       meta.function-call.python / meta.method-call.python, name entity.name.function.python
 *                       (support.function.builtin.python for builtins), (x) meta.function-call.arguments.python
 *   = += + == & ...     keyword.operator.assignment / .assignment.augmented / .arithmetic / .comparison / .bitwise
 */

const STATEMENT_KEYWORDS = [
  'if', 'elif', 'else', 'for', 'while', 'try', 'except', 'finally', 'with', 'break', 'continue', 'pass', 'raise',
  'return', 'yield', 'await', 'match', 'case',
]
const BUILTINS = new Set([
  'abs', 'all', 'any', 'bin', 'bool', 'bytes', 'callable', 'chr', 'dict', 'dir', 'divmod', 'enumerate', 'eval', 'filter',
  'float', 'format', 'getattr', 'hasattr', 'hash', 'hex', 'id', 'input', 'int', 'isinstance', 'issubclass', 'iter',
  'len', 'list', 'map', 'max', 'min', 'next', 'object', 'open', 'ord', 'pow', 'print', 'range', 'repr', 'reversed',
  'round', 'set', 'setattr', 'slice', 'sorted', 'str', 'sum', 'super', 'tuple', 'type', 'zip',
])
const s = (name: string) => `${name}.python`

function stringScopes(node: SyntaxNode, cx: ScopeContext): (string | null)[] {
  const text = textOf(node, cx)
  const prefix = /^[a-zA-Z]*/.exec(text)![0]
  const body = text.slice(prefix.length)
  const triple = body.startsWith('"""') || body.startsWith("'''")
  const quote = triple ? body.slice(0, 3) : body.slice(0, 1)
  const kind = quote.startsWith("'") ? 'single' : 'double'
  const lower = prefix.toLowerCase()
  const variant = lower.includes('f') ? '.format' : lower.includes('b') ? '.binary' : lower.includes('r') ? '.raw-regex' : ''
  const scope = s(`string.quoted.${kind}.${triple ? 'block' : 'single-line'}${variant}`)
  if (within(cx, node.from, node.from + prefix.length)) return [scope, s('storage.type.string')]
  const close = isClosed(body, quote) ? quote.length : 0
  return [scope, delimiterScope(node, cx, quote.length, close, s('punctuation.definition.string.begin'), s('punctuation.definition.string.end'), node.from + prefix.length)]
}

function numberScope(node: SyntaxNode, cx: ScopeContext): string {
  const text = textOf(node, cx).replace(/_/g, '')
  if (/^0[xX]/.test(text)) return s('constant.numeric.integer.hexadecimal')
  if (/^0[oO]/.test(text)) return s('constant.numeric.integer.octal')
  if (/^0[bB]/.test(text)) return s('constant.numeric.integer.binary')
  if (/[jJ]$/.test(text)) return s('constant.numeric.complex')
  if (/[.eE]/.test(text)) return s('constant.numeric.float')
  return s('constant.numeric.integer.decimal')
}

/** A definition's header runs from its start through the colon that opens its body. */
function header(node: SyntaxNode, cx: ScopeContext, scope: string): string | null {
  const colon = child(child(node, 'Body'), ':')
  return within(cx, node.from, colon ? colon.to : node.to) ? scope : null
}

function isCallee(node: SyntaxNode): boolean {
  return node.parent?.name === 'CallExpression' && node.parent.firstChild?.from === node.from && node.parent.firstChild.name === node.name
}

function variableName(node: SyntaxNode, cx: ScopeContext): string | null {
  const text = textOf(node, cx)
  const holder = node.parent
  switch (holder?.name) {
    case 'FunctionDefinition':
      return /^__\w+__$/.test(text) ? s('support.function.magic') : s('entity.name.function')
    case 'ClassDefinition':
      return s('entity.name.type.class')
    case 'ParamList':
      return s('variable.parameter.function')
    case 'Decorator':
      return s('entity.name.function.decorator')
    case 'ArgList':
      if (holder.parent?.name === 'ClassDefinition') return s('entity.other.inherited-class')
  }
  if (isCallee(node)) return BUILTINS.has(text) ? s('support.function.builtin') : s('entity.name.function')
  if (text === 'self' || text === 'cls') return s('variable.language.self')
  if (holder?.name === 'MemberExpression' && holder.firstChild?.from === node.from) return s('variable.other.object')
  return null
}

const table: Record<string, string | ScopeRule> = {
  Comment: (node, cx) => [s('comment.line.number-sign'), cx.pos === node.from ? s('punctuation.definition.comment') : null],
  String: stringScopes,
  FormatString: stringScopes,
  Escape: s('constant.character.escape'),
  FormatReplacement: (node, cx) => [s('meta.interpolation'), delimiterScope(node, cx, 1, 1, s('punctuation.definition.interpolation.begin.bracket.curly'), s('punctuation.definition.interpolation.end.bracket.curly'))],
  FormatConversion: s('constant.other.placeholder'),
  FormatSpec: s('constant.other.placeholder'),
  Number: numberScope,
  Boolean: s('constant.language'),
  None: s('constant.language'),
  Ellipsis: s('constant.other.ellipsis'),
  import: s('keyword.control.import'),
  as: (node) => (parentName(node) === 'ImportStatement' ? s('keyword.control.import') : s('keyword.control.statement')),
  from: (node) => (parentName(node) === 'ImportStatement' ? s('keyword.control.import') : s('keyword.control.statement')),
  and: s('keyword.operator.logical'),
  or: s('keyword.operator.logical'),
  not: s('keyword.operator.logical'),
  in: (node) => (parentName(node) === 'ForStatement' || parentName(node) === 'ComprehensionExpression' ? s('keyword.control.statement') : s('keyword.operator.logical')),
  is: s('keyword.operator.logical'),
  global: s('storage.modifier.global'),
  nonlocal: s('storage.modifier.global'),
  del: s('keyword.other'),
  assert: s('keyword.other'),
  print: s('keyword.other'),
  type: s('keyword.other'),
  def: s('storage.type.function'),
  class: s('storage.type.class'),
  lambda: s('storage.type.function.inline'),
  async: (node) => (parentName(node) === 'FunctionDefinition' ? s('storage.modifier.async') : s('keyword.control.statement')),
  AssignOp: (node, cx) => (textOf(node, cx) === '=' ? s('keyword.operator.assignment') : s('keyword.operator.assignment.augmented')),
  UpdateOp: s('keyword.operator.assignment.augmented'),
  ArithOp: s('keyword.operator.arithmetic'),
  CompareOp: s('keyword.operator.comparison'),
  BitOp: s('keyword.operator.bitwise'),
  '*': (node) => (parentName(node) === 'ParamList' || parentName(node) === 'ArgList' ? s('keyword.operator.unpacking') : s('keyword.operator.arithmetic')),
  '**': (node) => (parentName(node) === 'ParamList' || parentName(node) === 'ArgList' ? s('keyword.operator.unpacking') : s('keyword.operator.arithmetic')),
  '.': (node) => (node.parent && isCallee(node.parent) ? s('punctuation.separator.method.period') : s('punctuation.separator.property.period')),
  ',': (node) => (parentName(node) === 'ParamList' ? s('punctuation.separator.parameters') : s('punctuation.separator.element')),
  ':': (node) => {
    const body = node.parent
    if (body?.name !== 'Body') return null
    const owner = body.parent?.name
    if (owner === 'FunctionDefinition') return s('punctuation.definition.function.begin')
    if (owner === 'ClassDefinition') return s('punctuation.definition.class.begin')
    return s('punctuation.separator.colon')
  },
  '(': (node) => parenScope(node, 'begin'),
  ')': (node) => parenScope(node, 'end'),
  FunctionDefinition: (node, cx) => header(node, cx, s('meta.function')),
  ClassDefinition: (node, cx) => header(node, cx, s('meta.class')),
  ParamList: (node) => (parentName(node) === 'LambdaExpression' ? s('meta.function.inline.parameters') : s('meta.function.parameters')),
  LambdaExpression: s('meta.function.inline'),
  Decorator: s('meta.function.decorator'),
  At: s('punctuation.definition.decorator'),
  CallExpression: (node, cx) => {
    const callee = node.firstChild
    if (callee?.name === 'MemberExpression') {
      const dot = child(callee, '.')
      return dot && cx.pos >= dot.from ? s('meta.method-call') : null
    }
    return s('meta.function-call')
  },
  ArgList: (node) => (parentName(node) === 'ClassDefinition' ? s('meta.class.inheritance') : s('meta.function-call.arguments')),
  VariableName: variableName,
  PropertyName: (node) => {
    const member = node.parent
    if (member && isCallee(member)) return s('entity.name.function')
    return s('variable.other.property')
  },
}
for (const keyword of STATEMENT_KEYWORDS) table[keyword] ??= s('keyword.control.statement')

function parenScope(node: SyntaxNode, side: 'begin' | 'end'): string | null {
  const holder = node.parent
  if (holder?.name === 'ParamList' && holder.parent?.name !== 'LambdaExpression') return s(`punctuation.definition.parameters.${side}`)
  if (holder?.name === 'ArgList') {
    if (holder.parent?.name === 'ClassDefinition') return s(`punctuation.definition.inheritance.${side}`)
    return s(`punctuation.definition.arguments.${side}.bracket.round`)
  }
  return null
}

/**
 * Atom indents after a compound statement's header; any line whose code ends with `:` (a def, class, if, for,
 * with, try, match, case, lambda-free header) opens a block here, as does an unclosed bracket. `elif`, `else`,
 * `except` and `finally` headers and closing brackets go back a level.
 */
const pythonIndentRules: IndentRules = {
  increase: (_line, code) => /:\s*$/.test(code) || /[([{][^)\]}]*$/.test(code),
  decrease: (_line, code) => /^\s*(elif|else|except|finally)\b.*:\s*$/.test(code) || /^\s*[)\]}]/.test(code),
}

export const python: LanguageSpec = {
  id: 'python',
  rootScope: 'source.python',
  parser,
  nodeSet: parser.nodeSet,
  scopes: table as ScopeTable,
  fallbackScopes: (node) => scopeFromHighlightTags(node, '.python'),
  opaque: new Set(['String', 'FormatString', 'Comment']),
  indent: pythonIndentRules,
  // A top-level definition, decorator, import or comment.
  resumeLine: /^(?:(?:async\s+)?def\s|class\s|@|import\s|from\s|#)/,
  commentStrings: () => ({ commentStartString: '# ' }),
}
