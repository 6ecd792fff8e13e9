import type { SyntaxNode } from '@lezer/common'
import type { ScopeContext, ScopeRule, ScopeTable } from '../language-spec.ts'
import { child, delimiterScope, isClosed, lastChild, parentName, scoped, textOf, within } from '../scope-helpers.ts'

/*
 * TextMate scopes for JavaScript, TypeScript and JSX trees, after Atom's language-javascript grammar and its
 * spec (`suffix` is '.js', '.ts' or '.tsx'). The main mappings:
 *
 *   "x" 'x' `x`         string.quoted.double / .single / .template, quotes punctuation.definition.string.begin/.end
 *   \n                  constant.character.escape          ${ }  punctuation.section.embedded in source.js.embedded.source
 *   // c   /* c * /     comment.line.double-slash / comment.block(.documentation), delimiters punctuation.definition.comment
 *   /re/g               string.regexp                      1 0x1 0b1 0o1  constant.numeric.decimal / .hex / .binary / .octal
 *   if else for while do switch case default try catch finally return break continue throw import export from
 *   await yield with as keyword.control                   debugger  keyword.other.debugger
 *   var let             storage.type.var                   const  storage.modifier (its names constant.other)
 *   function            storage.type.function              class  storage.type.class   extends  storage.modifier
 *   function f(a) {}    meta.function (through the parameter list), f entity.name.function, (a) meta.parameters,
 *                       a variable.parameter.function, ( ) punctuation.definition.parameters.begin/end.bracket.round,
 *                       { } punctuation.definition.function.body.begin/end.bracket.curly
 *   f = function() {}   the name and `=` join meta.function; in object literals meta.function.json
 *   (a) => a            meta.function.arrow (through =>), => storage.type.function.arrow
 *   m() {} in a class   meta.function.method.definition (constructor: meta.function, entity.name.function.constructor)
 *   class A extends B   meta.class, A entity.name.type.class, B entity.other.inherited-class
 *   f(x)   a.b(x)       meta.function-call / meta.method-call (from the dot), name entity.name.function,
 *                       (x) meta.arguments with punctuation.definition.arguments.begin/end.bracket.round
 *   new Foo()           meta.class.instance.constructor, new keyword.operator.new, Foo entity.name.type.instance
 *   a.b                 a variable.other.object, . meta.delimiter.property.period (method.period in calls),
 *                       b variable.other.property
 *   true null this      constant.language.boolean.true / constant.language.null / variable.language
 *   = += && == + ++ ... keyword.operator.assignment / .assignment.compound / .logical / .comparison / keyword.operator /
 *                       .increment; typeof, instanceof, in, of, delete, void: keyword.operator.<word>; ? : ternary
 *   switch (x) {       meta.switch-statement, switch keyword.control.switch, ( ) punctuation.definition.switch-expression.*,
 *     case 1: default:  { } punctuation.definition.section.switch-block.*, keyword.control.case / .default, : punctuation
 *   }                   .definition.section.case-statement;  yield (*) meta.control.yield with keyword.control
 *   ; , ( ) [ ] { }     punctuation.terminator.statement, meta.delimiter.object.comma, meta.brace.round/.square/.curly
 *   import ... ;        meta.import; export ... meta.export (up to the exported declaration)
 *   <a b="c">{x}</a>    meta.tag.jsx, entity.name.tag.jsx (components support.class.component.jsx),
 *                       entity.other.attribute-name.jsx, punctuation.definition.tag.begin/end.jsx
 *   TypeScript          type names entity.name.type (built-ins support.type.primitive); other keywords from their
 *                       highlight tags (storage.type, storage.modifier, keyword.operator, ...)
 */

const FUNCTION_VALUES = ['FunctionExpression', 'ArrowFunction']
const FUNCTION_LIKE = ['FunctionDeclaration', 'FunctionExpression', 'ArrowFunction', 'MethodDeclaration']
const CONTROL_KEYWORDS = [
  'if', 'else', 'for', 'while', 'do', 'try', 'catch', 'finally', 'return', 'break',
  'continue', 'throw', 'import', 'export', 'from', 'await', 'yield', 'with', 'as',
]
const OPERATOR_KEYWORDS = ['delete', 'typeof', 'void', 'instanceof', 'in', 'of', 'keyof', 'satisfies']
const MODIFIERS = ['static', 'get', 'set', 'accessor', 'declare', 'abstract', 'override', 'readonly', 'Privacy', 'implements']
const PRIMITIVE_TYPES = ['string', 'number', 'boolean', 'any', 'unknown', 'never', 'void', 'object', 'symbol', 'bigint', 'undefined', 'null']
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table', 'assert', 'count', 'group', 'groupEnd', 'time', 'timeEnd', 'clear']
const ALL_CAPS = /^[_$]*[A-Z][A-Z0-9_$]*$/
const DECLARATIONS = /Declaration$|^ClassExpression$|^FunctionExpression$|^ArrowFunction$/

/** Where a function's header ends: after its parameter list, or after `=>` for an arrow. */
function headerEnd(fn: SyntaxNode): number {
  if (fn.name === 'ArrowFunction') return child(fn, 'Arrow')?.to ?? fn.to
  return child(fn, 'ParamList')?.to ?? fn.to
}

/**
 * A function value named by what holds it (`f = function`, `f: () =>`, `a.b = function`): Atom's grammar puts
 * the name and the `=` or `:` inside the function's meta scope. Returns where that scope starts and the name.
 */
function namedBy(fn: SyntaxNode): { from: number; name: SyntaxNode } | null {
  const operator = fn.prevSibling
  const name = operator?.prevSibling
  const holder = fn.parent?.name
  if (!operator || !name) return null
  if (holder === 'VariableDeclaration' && operator.name === 'Equals' && name.name === 'VariableDefinition') return { from: name.from, name }
  if (holder === 'Property' && operator.name === ':' && (name.name === 'PropertyDefinition' || name.name === 'String')) return { from: name.from, name }
  if (holder === 'AssignmentExpression' && operator.name === 'Equals') {
    if (name.name === 'VariableName') return { from: name.from, name }
    if (name.name === 'MemberExpression') {
      const dot = lastChild(name, ['.', '?.'])
      const property = name.lastChild
      if (dot && property?.name === 'PropertyName') return { from: dot.from, name: property }
    }
  }
  return null
}

/** Whether `node` is the name that a held function value takes (see `namedBy`). */
function namesFunction(node: SyntaxNode): boolean {
  let fn = node.nextSibling?.nextSibling
  if (node.name === 'PropertyName') fn = node.parent?.nextSibling?.nextSibling
  if (!fn || !FUNCTION_VALUES.includes(fn.name)) return false
  const held = namedBy(fn)
  return held !== null && held.name.from === node.from
}

function heldFunctionScope(holder: SyntaxNode, cx: ScopeContext, s: (name: string) => string): string | null {
  const json = holder.name === 'Property' ? '.json' : ''
  for (let c = holder.firstChild; c; c = c.nextSibling) {
    if (!FUNCTION_VALUES.includes(c.name)) continue
    const held = namedBy(c)
    if (held && within(cx, held.from, headerEnd(c))) return s(c.name === 'ArrowFunction' ? `meta.function.arrow${json}` : `meta.function${json}`)
  }
  return null
}

/** Whether `node` is the callee of a call expression. */
function isCallee(node: SyntaxNode): boolean {
  return node.parent?.name === 'CallExpression' && node.parent.firstChild?.from === node.from && node.parent.firstChild.name === node.name
}

/** A member access dot before a called or function-valued property (Atom's method period). */
function isMethodDot(node: SyntaxNode): boolean {
  const member = node.parent
  if (!member) return false
  const property = node.nextSibling
  return isCallee(member) || (property?.name === 'PropertyName' && namesFunction(property))
}

function isConstDefinition(node: SyntaxNode): boolean {
  const holder = node.parent
  return (holder?.name === 'VariableDeclaration' || holder?.name === 'ForOfSpec' || holder?.name === 'ForInSpec') && !!child(holder, 'const')
}

function quotedString(s: (name: string) => string): ScopeRule {
  return (node, cx) => {
    const text = textOf(node, cx)
    const quote = text[0] === "'" ? "'" : '"'
    const scope = s(quote === "'" ? 'string.quoted.single' : 'string.quoted.double')
    const close = isClosed(text, quote) ? 1 : 0
    return [scope, delimiterScope(node, cx, 1, close, s('punctuation.definition.string.begin'), s('punctuation.definition.string.end'))]
  }
}

function numberScopes(s: (name: string) => string): ScopeRule {
  return (node, cx) => {
    const text = textOf(node, cx).replace(/_/g, '')
    if (/^0[xX]/.test(text)) return s('constant.numeric.hex')
    if (/^0[bB]/.test(text)) return s('constant.numeric.binary')
    if (/^0[oO]/.test(text) || /^0[0-7]+n?$/.test(text)) return s('constant.numeric.octal')
    const period = cx.text(cx.pos, cx.pos + 1) === '.'
    return [s('constant.numeric.decimal'), period ? s('meta.delimiter.decimal.period') : null]
  }
}

function bracket(s: (name: string) => string, open: boolean): ScopeRule {
  const side = open ? 'begin' : 'end'
  return (node) => {
    const holder = node.parent
    switch (holder?.name) {
      case 'ParamList':
        return s(`punctuation.definition.parameters.${side}.bracket.round`)
      case 'ArgList':
        return holder.parent?.name === 'NewExpression' ? s('meta.brace.round') : s(`punctuation.definition.arguments.${side}.bracket.round`)
      case 'ParenthesizedExpression':
        return holder.parent?.name === 'SwitchStatement' ? s(`punctuation.definition.switch-expression.${side}.bracket.round`) : s('meta.brace.round')
      default:
        return s('meta.brace.round')
    }
  }
}

function brace(s: (name: string) => string, open: boolean): ScopeRule {
  const side = open ? 'begin' : 'end'
  return (node) => {
    const holder = node.parent
    const owner = holder?.parent
    if (holder?.name === 'Block' && owner && (FUNCTION_LIKE.includes(owner.name) || (owner.name === 'Property' && child(owner, 'ParamList')))) {
      return s(`punctuation.definition.function.body.${side}.bracket.curly`)
    }
    if (holder?.name === 'ImportGroup' || holder?.name === 'ExportGroup') return s(`punctuation.definition.modules.${side}`)
    if (holder?.name === 'JSXEscape') return `punctuation.section.embedded.${side}.jsx`
    if (holder?.name === 'SwitchBody') return s(`punctuation.definition.section.switch-block.${side}.bracket.curly`)
    return s('meta.brace.curly')
  }
}

export function javascriptScopeTable(suffix: string): ScopeTable {
  const s = scoped(suffix)
  const table: Record<string, string | ScopeRule> = {
    LineComment: (node, cx) => [s('comment.line.double-slash'), within(cx, node.from, node.from + 2) ? s('punctuation.definition.comment') : null],
    BlockComment: (node, cx) => {
      const text = textOf(node, cx)
      const documentation = text.startsWith('/**') && text.length > 4
      const close = text.length >= 4 && text.endsWith('*/') ? 2 : 0
      const punctuation = s('punctuation.definition.comment')
      return [s(documentation ? 'comment.block.documentation' : 'comment.block'), delimiterScope(node, cx, 2, close, punctuation, punctuation)]
    },
    Hashbang: (node, cx) => [s('comment.line.shebang'), within(cx, node.from, node.from + 2) ? s('punctuation.definition.comment') : null],
    String: quotedString(s),
    TemplateString: (node, cx) => {
      const close = isClosed(textOf(node, cx), '`') ? 1 : 0
      return [s('string.quoted.template'), delimiterScope(node, cx, 1, close, s('punctuation.definition.string.begin'), s('punctuation.definition.string.end'))]
    },
    Escape: s('constant.character.escape'),
    Interpolation: `source${suffix}.embedded.source`,
    InterpolationStart: s('punctuation.section.embedded'),
    InterpolationEnd: s('punctuation.section.embedded'),
    RegExp: (node, cx) => {
      const close = textOf(node, cx).lastIndexOf('/')
      const end = close > 0 && cx.pos === node.from + close ? s('punctuation.definition.string.end') : null
      return [s('string.regexp'), cx.pos === node.from ? s('punctuation.definition.string.begin') : end]
    },
    Number: numberScopes(s),
    BooleanLiteral: (node, cx) => s(`constant.language.boolean.${textOf(node, cx)}`),
    null: s('constant.language.null'),
    this: s('variable.language'),
    super: s('variable.language'),
    default: (node) => {
      const holder = parentName(node)
      if (holder === 'ExportDeclaration') return s('variable.language.default')
      return holder === 'DefaultLabel' ? s('keyword.control.default') : s('keyword.control')
    },
    switch: s('keyword.control.switch'),
    case: s('keyword.control.case'),
    SwitchStatement: s('meta.switch-statement'),
    YieldExpression: (node, cx) => {
      const keyword = child(node, 'yield')
      const end = child(node, 'Star')?.to ?? keyword?.to ?? node.from
      return cx.pos < end ? s('meta.control.yield') : null
    },
    debugger: s('keyword.other.debugger'),
    var: s('storage.type.var'),
    let: s('storage.type.var'),
    using: s('storage.type.var'),
    const: s('storage.modifier'),
    function: s('storage.type.function'),
    class: s('storage.type.class'),
    extends: s('storage.modifier'),
    async: (node) => (parentName(node) === 'FunctionDeclaration' || parentName(node) === 'FunctionExpression' ? s('storage.modifier.async') : s('storage.modifier')),
    Star: (node) => {
      const holder = parentName(node)
      if (holder === 'FunctionDeclaration' || holder === 'FunctionExpression' || holder === 'MethodDeclaration') return s('storage.modifier.generator')
      if (holder === 'YieldExpression') return s('storage.modifier')
      if (holder === 'ImportDeclaration' || holder === 'ExportDeclaration') return s('variable.language.import-all')
      return s('storage.modifier')
    },
    new: s('keyword.operator.new'),
    ArithOp: (node, cx) => {
      const text = textOf(node, cx)
      if (text === '++') return s('keyword.operator.increment')
      if (text === '--') return s('keyword.operator.decrement')
      return s('keyword.operator')
    },
    LogicOp: (node, cx) => {
      const holder = parentName(node)
      if (holder === 'ConditionalExpression' || holder === 'ConditionalType') return s('keyword.operator.ternary')
      if (holder === 'UnionType' || holder === 'IntersectionType') return s('keyword.operator.type')
      return textOf(node, cx) === '!' || holder === 'BinaryExpression' || holder === 'UnaryExpression' ? s('keyword.operator.logical') : s('keyword.operator')
    },
    BitOp: s('keyword.operator.bitwise'),
    CompareOp: s('keyword.operator.comparison'),
    Equals: s('keyword.operator.assignment'),
    UpdateOp: (node, cx) => {
      const text = textOf(node, cx)
      return /^(<<|>>>?|&|\^|\|)=$/.test(text) ? s('keyword.operator.assignment.compound.bitwise') : s('keyword.operator.assignment.compound')
    },
    Spread: s('keyword.operator.spread'),
    Arrow: s('storage.type.function.arrow'),
    ';': s('punctuation.terminator.statement'),
    ',': s('meta.delimiter.object.comma'),
    '.': (node) => (isMethodDot(node) ? s('meta.delimiter.method.period') : s('meta.delimiter.property.period')),
    '?.': (node) => (isMethodDot(node) ? s('meta.delimiter.method.period') : s('meta.delimiter.property.period')),
    ':': (node) => {
      const holder = parentName(node)
      if (holder === 'Property') return s('keyword.operator.assignment')
      if (holder === 'TypeAnnotation') return s('keyword.operator.type.annotation')
      return holder === 'CaseLabel' || holder === 'DefaultLabel' ? s('punctuation.definition.section.case-statement') : null
    },
    '(': bracket(s, true),
    ')': bracket(s, false),
    '[': s('meta.brace.square'),
    ']': s('meta.brace.square'),
    '{': brace(s, true),
    '}': brace(s, false),

    FunctionDeclaration: (node, cx) => (within(cx, node.from, headerEnd(node)) ? s('meta.function') : null),
    FunctionExpression: (node, cx) => (!namedBy(node) && within(cx, node.from, headerEnd(node)) ? s('meta.function') : null),
    ArrowFunction: (node, cx) => (!namedBy(node) && within(cx, node.from, headerEnd(node)) ? s('meta.function.arrow') : null),
    VariableDeclaration: (node, cx) => heldFunctionScope(node, cx, s),
    AssignmentExpression: (node, cx) => heldFunctionScope(node, cx, s),
    Property: (node, cx) => {
      const name = child(node, 'PropertyDefinition')
      if (name && child(node, 'ParamList')) return within(cx, name.from, headerEnd(node)) ? s('meta.function.method.definition') : null
      return heldFunctionScope(node, cx, s)
    },
    MethodDeclaration: (node, cx) => {
      const name = child(node, 'PropertyDefinition')
      if (!name || !within(cx, name.from, headerEnd(node))) return null
      return cx.text(name.from, name.to) === 'constructor' ? s('meta.function') : s('meta.function.method.definition')
    },
    ParamList: s('meta.parameters'),
    ArgList: (node) => (parentName(node) === 'CallExpression' ? s('meta.arguments') : null),
    CallExpression: (node, cx) => {
      const callee = node.firstChild
      if (!callee) return null
      if (callee.name === 'MemberExpression') {
        const dot = lastChild(callee, ['.', '?.'])
        return dot && cx.pos >= dot.from ? s('meta.method-call') : null
      }
      if (callee.name === 'VariableName') return s('meta.function-call')
      const args = child(node, 'ArgList')
      return args && cx.pos >= args.from ? s('meta.function-call') : null
    },
    NewExpression: (node, cx) => (cx.pos < (child(node, 'ArgList')?.from ?? node.to) ? s('meta.class.instance.constructor') : null),
    MemberExpression: (node) => (parentName(node) === 'NewExpression' ? s('entity.name.type.instance') : null),
    ClassDeclaration: (node, cx) => classHeader(node, cx, s),
    ClassExpression: (node, cx) => classHeader(node, cx, s),
    ImportDeclaration: (node, cx) => (cx.pos < (child(node, ';')?.from ?? node.to) ? s('meta.import') : null),
    ExportDeclaration: (node, cx) => {
      for (let c = node.firstChild; c; c = c.nextSibling) {
        if (c.name === ';' || DECLARATIONS.test(c.name)) return cx.pos < c.from ? s('meta.export') : null
      }
      return s('meta.export')
    },
    VariableDefinition: (node, cx) => variableDefinition(node, cx, s),
    VariableName: (node, cx) => variableName(node, cx, s),
    PropertyName: (node, cx) => propertyName(node, cx, s),
    PropertyDefinition: (node, cx) => {
      const holder = node.parent
      if (!holder) return null
      if ((holder.name === 'MethodDeclaration' || holder.name === 'Property') && child(holder, 'ParamList')) {
        return textOf(node, cx) === 'constructor' && holder.name === 'MethodDeclaration' ? s('entity.name.function.constructor') : s('entity.name.function')
      }
      return namesFunction(node) ? s('entity.name.function') : null
    },
    Label: s('entity.name.label'),

    TypeName: (node, cx) => (PRIMITIVE_TYPES.includes(textOf(node, cx)) ? s('support.type.primitive') : s('entity.name.type')),
    TypeDefinition: (node) => (parentName(node) === 'EnumDeclaration' ? s('entity.name.type.enum') : s('entity.name.type')),
    TypeAnnotation: s('meta.type.annotation'),

    JSXOpenTag: 'meta.tag.jsx',
    JSXCloseTag: 'meta.tag.jsx',
    JSXSelfClosingTag: 'meta.tag.jsx',
    JSXFragmentTag: 'meta.tag.jsx',
    JSXStartTag: 'punctuation.definition.tag.begin.jsx',
    JSXStartCloseTag: 'punctuation.definition.tag.begin.jsx',
    JSXEndTag: 'punctuation.definition.tag.end.jsx',
    JSXSelfCloseEndTag: 'punctuation.definition.tag.end.jsx',
    JSXBuiltin: 'entity.name.tag.jsx',
    JSXIdentifier: (node) => {
      const holder = parentName(node)
      if (holder === 'JSXBuiltin') return null
      return holder === 'JSXAttribute' ? 'entity.other.attribute-name.jsx' : 'support.class.component.jsx'
    },
    JSXMemberExpression: 'support.class.component.jsx',
    JSXNamespacedName: 'entity.name.tag.jsx',
    JSXAttributeValue: (node, cx) => {
      const text = textOf(node, cx)
      const quote = text[0] === "'" ? "'" : '"'
      const close = isClosed(text, quote) ? 1 : 0
      return [
        quote === "'" ? 'string.quoted.single.jsx' : 'string.quoted.double.jsx',
        delimiterScope(node, cx, 1, close, 'punctuation.definition.string.begin.jsx', 'punctuation.definition.string.end.jsx'),
      ]
    },
    JSXEscape: 'meta.embedded.expression.jsx',
  }
  for (const keyword of CONTROL_KEYWORDS) table[keyword] ??= s('keyword.control')
  for (const keyword of OPERATOR_KEYWORDS) table[keyword] = s(`keyword.operator.${keyword}`)
  for (const modifier of MODIFIERS) table[modifier] = s('storage.modifier')
  return table
}

function classHeader(node: SyntaxNode, cx: ScopeContext, s: (name: string) => string): string | null {
  const body = child(node, 'ClassBody')
  const end = body?.prevSibling?.to ?? node.to
  return within(cx, node.from, end) ? s('meta.class') : null
}

function variableDefinition(node: SyntaxNode, cx: ScopeContext, s: (name: string) => string): string | null {
  const holder = node.parent
  switch (holder?.name) {
    case 'FunctionDeclaration':
    case 'FunctionExpression':
      return s('entity.name.function')
    case 'ClassDeclaration':
    case 'ClassExpression':
      return s('entity.name.type.class')
    case 'ParamList':
      return node.prevSibling?.name === 'Spread' ? s('variable.parameter.rest.function') : s('variable.parameter.function')
    case 'ImportDeclaration':
    case 'ImportGroup':
      return node.prevSibling?.name === 'as' ? s('variable.other.module-alias') : s('variable.other.module')
  }
  if (namesFunction(node)) return s('entity.name.function')
  if (isConstDefinition(node) || ALL_CAPS.test(textOf(node, cx))) return s('constant.other')
  return null
}

function variableName(node: SyntaxNode, cx: ScopeContext, s: (name: string) => string): string | null {
  const text = textOf(node, cx)
  const holder = node.parent
  if (isCallee(node)) return s('entity.name.function')
  if (holder?.name === 'NewExpression') return s('entity.name.type.instance')
  if (node.prevSibling?.name === 'extends') return s('entity.other.inherited-class')
  if (namesFunction(node)) return s('entity.name.function')
  if (holder?.name === 'ImportGroup' || holder?.name === 'ExportGroup') return s('variable.other.module')
  if (holder?.name === 'MemberExpression' && holder.firstChild?.from === node.from) {
    if (holder.parent?.name === 'NewExpression') return null
    if (text === 'console') return s('entity.name.type.object.console')
    return ALL_CAPS.test(text) ? s('constant.other.object') : s('variable.other.object')
  }
  switch (text) {
    case 'undefined':
      return s('constant.language.undefined')
    case 'NaN':
      return s('constant.language.nan')
    case 'Infinity':
      return s('constant.language.infinity')
    case 'arguments':
      return s('variable.language')
  }
  return ALL_CAPS.test(text) ? s('constant.other') : null
}

function propertyName(node: SyntaxNode, cx: ScopeContext, s: (name: string) => string): string | null {
  const member = node.parent
  if (member?.name !== 'MemberExpression') return null
  if (member.parent?.name === 'NewExpression') return null
  if (isCallee(member)) {
    const object = member.firstChild
    if (object && cx.text(object.from, object.to) === 'console' && CONSOLE_METHODS.includes(textOf(node, cx))) return s('support.function.console')
    return s('entity.name.function')
  }
  if (namesFunction(node)) return s('entity.name.function')
  return ALL_CAPS.test(textOf(node, cx)) ? s('constant.other.property') : s('variable.other.property')
}
