import { describe, expect, it } from 'vitest'
import { fixture, scopesAt } from './helpers.ts'

// Expected arrays follow the tokens of Atom's language-javascript spec wherever it covers the construct.
const js = (marked: string) => scopesAt('javascript', marked)

describe('JavaScript scopes: strings, comments, numbers', () => {
  it('scopes double- and single-quoted strings with their quotes', () => {
    expect(js('‸"x"')).toEqual(['source.js', 'string.quoted.double.js', 'punctuation.definition.string.begin.js'])
    expect(js('"‸x"')).toEqual(['source.js', 'string.quoted.double.js'])
    expect(js('"x‸"')).toEqual(['source.js', 'string.quoted.double.js', 'punctuation.definition.string.end.js'])
    expect(js("‸'x'")).toEqual(['source.js', 'string.quoted.single.js', 'punctuation.definition.string.begin.js'])
    expect(js("'x‸'")).toEqual(['source.js', 'string.quoted.single.js', 'punctuation.definition.string.end.js'])
  })

  it('scopes escapes inside strings', () => {
    expect(js('"a‸\\nb"')).toEqual(['source.js', 'string.quoted.double.js', 'constant.character.escape.js'])
    expect(js('"a\\n‸b"')).toEqual(['source.js', 'string.quoted.double.js'])
  })

  it('scopes template strings and their interpolations', () => {
    expect(js('‸`hey ${name}`')).toEqual(['source.js', 'string.quoted.template.js', 'punctuation.definition.string.begin.js'])
    expect(js('`‸hey ${name}`')).toEqual(['source.js', 'string.quoted.template.js'])
    expect(js('`hey ‸${name}`')).toEqual(['source.js', 'string.quoted.template.js', 'source.js.embedded.source', 'punctuation.section.embedded.js'])
    expect(js('`hey ${‸name}`')).toEqual(['source.js', 'string.quoted.template.js', 'source.js.embedded.source'])
    expect(js('`hey ${name‸}`')).toEqual(['source.js', 'string.quoted.template.js', 'source.js.embedded.source', 'punctuation.section.embedded.js'])
    expect(js('`hey ${name}‸`')).toEqual(['source.js', 'string.quoted.template.js', 'punctuation.definition.string.end.js'])
  })

  it('scopes line and block comments with their delimiters', () => {
    expect(js('‸// comment')).toEqual(['source.js', 'comment.line.double-slash.js', 'punctuation.definition.comment.js'])
    expect(js('//‸ comment')).toEqual(['source.js', 'comment.line.double-slash.js'])
    expect(js('x = 1 // comment‸')).toEqual(['source.js', 'comment.line.double-slash.js'])
    expect(js('‸/* c */')).toEqual(['source.js', 'comment.block.js', 'punctuation.definition.comment.js'])
    expect(js('/* ‸c */')).toEqual(['source.js', 'comment.block.js'])
    expect(js('/* c ‸*/')).toEqual(['source.js', 'comment.block.js', 'punctuation.definition.comment.js'])
    expect(js('/** ‸doc */')).toEqual(['source.js', 'comment.block.documentation.js'])
  })

  it('gives an empty line inside a block comment the comment scope', () => {
    expect(js('/*\n‸\n*/')).toEqual(['source.js', 'comment.block.js'])
    expect(js('x\n‸\ny')).toEqual(['source.js'])
  })

  it('scopes numbers by their base, and a decimal point', () => {
    expect(js('‸1234')).toEqual(['source.js', 'constant.numeric.decimal.js'])
    expect(js('‸0x1D306')).toEqual(['source.js', 'constant.numeric.hex.js'])
    expect(js('‸0b0111')).toEqual(['source.js', 'constant.numeric.binary.js'])
    expect(js('‸0o1411')).toEqual(['source.js', 'constant.numeric.octal.js'])
    expect(js('9‸.9')).toEqual(['source.js', 'constant.numeric.decimal.js', 'meta.delimiter.decimal.period.js'])
    expect(js('9.‸9')).toEqual(['source.js', 'constant.numeric.decimal.js'])
  })

  it('scopes regular expressions with their slashes', () => {
    expect(js('x = ‸/test/g')).toEqual(['source.js', 'string.regexp.js', 'punctuation.definition.string.begin.js'])
    expect(js('x = /‸test/g')).toEqual(['source.js', 'string.regexp.js'])
    expect(js('x = /test‸/g')).toEqual(['source.js', 'string.regexp.js', 'punctuation.definition.string.end.js'])
  })
})

describe('JavaScript scopes: keywords, operators, punctuation', () => {
  it('scopes control keywords', () => {
    expect(js('‸if (a) return')).toEqual(['source.js', 'keyword.control.js'])
    expect(js('if (a) ‸return')).toEqual(['source.js', 'keyword.control.js'])
    expect(js('‸do {} while (x)')).toEqual(['source.js', 'keyword.control.js'])
    expect(js('try {} ‸catch (e) {}')).toEqual(['source.js', 'keyword.control.js'])
    expect(js('for (;;) ‸break')).toEqual(['source.js', 'keyword.control.js'])
    expect(js('async function f() { ‸await x }')).toEqual(['source.js', 'keyword.control.js'])
    expect(js('‸debugger;')).toEqual(['source.js', 'keyword.other.debugger.js'])
    expect(js('debugger‸;')).toEqual(['source.js', 'punctuation.terminator.statement.js'])
  })

  it('scopes switch statements and yield', () => {
    const sw = ['source.js', 'meta.switch-statement.js']
    expect(js('‸switch (a) { case 1: break; default: }')).toEqual([...sw, 'keyword.control.switch.js'])
    expect(js('switch ‸(a) { case 1: break; default: }')).toEqual([...sw, 'punctuation.definition.switch-expression.begin.bracket.round.js'])
    expect(js('switch (a) ‸{ case 1: break; default: }')).toEqual([...sw, 'punctuation.definition.section.switch-block.begin.bracket.curly.js'])
    expect(js('switch (a) { ‸case 1: break; default: }')).toEqual([...sw, 'keyword.control.case.js'])
    expect(js('switch (a) { case 1‸: break; default: }')).toEqual([...sw, 'punctuation.definition.section.case-statement.js'])
    expect(js('switch (a) { case 1: ‸break; default: }')).toEqual([...sw, 'keyword.control.js'])
    expect(js('switch (a) { case 1: break; ‸default: }')).toEqual([...sw, 'keyword.control.default.js'])
    expect(js('function* g() { ‸yield next }')).toEqual(['source.js', 'meta.control.yield.js', 'keyword.control.js'])
    expect(js('function* g() { yield ‸* next }')).toEqual(['source.js', 'meta.control.yield.js', 'storage.modifier.js'])
    expect(js('function* g() { yield * ‸next }')).toEqual(['source.js'])
  })

  it('scopes declarations as Atom does: var and let as types, const as a modifier with constant names', () => {
    expect(js('‸var instance = 1')).toEqual(['source.js', 'storage.type.var.js'])
    expect(js('var ‸instance = 1')).toEqual(['source.js'])
    expect(js('‸let a = 1')).toEqual(['source.js', 'storage.type.var.js'])
    expect(js('‸const myCoolVar = 42;')).toEqual(['source.js', 'storage.modifier.js'])
    expect(js('const ‸myCoolVar = 42;')).toEqual(['source.js', 'constant.other.js'])
    expect(js('const myCoolVar ‸= 42;')).toEqual(['source.js', 'keyword.operator.assignment.js'])
    expect(js('var ‸MY_COOL_VAR = 42')).toEqual(['source.js', 'constant.other.js'])
  })

  it('scopes operators', () => {
    expect(js('a ‸&& b')).toEqual(['source.js', 'keyword.operator.logical.js'])
    expect(js('a ‸=== b')).toEqual(['source.js', 'keyword.operator.comparison.js'])
    expect(js('a ‸+ b')).toEqual(['source.js', 'keyword.operator.js'])
    expect(js('a ‸| b')).toEqual(['source.js', 'keyword.operator.bitwise.js'])
    expect(js('a ‸+= b')).toEqual(['source.js', 'keyword.operator.assignment.compound.js'])
    expect(js('a ‸<<= b')).toEqual(['source.js', 'keyword.operator.assignment.compound.bitwise.js'])
    expect(js('i‸++')).toEqual(['source.js', 'keyword.operator.increment.js'])
    expect(js('‸typeof a')).toEqual(['source.js', 'keyword.operator.typeof.js'])
    expect(js('a ‸instanceof B')).toEqual(['source.js', 'keyword.operator.instanceof.js'])
    expect(js('[‸...iterableObj]')).toEqual(['source.js', 'keyword.operator.spread.js'])
  })

  it('scopes ternaries and their constants', () => {
    expect(js('a ‸? true : null')).toEqual(['source.js', 'keyword.operator.ternary.js'])
    expect(js('a ? ‸true : null')).toEqual(['source.js', 'constant.language.boolean.true.js'])
    expect(js('a ? true ‸: null')).toEqual(['source.js', 'keyword.operator.ternary.js'])
    expect(js('a ? true : ‸null')).toEqual(['source.js', 'constant.language.null.js'])
    expect(js('a ? ‸this : undefined')).toEqual(['source.js', 'variable.language.js'])
    expect(js('a ? this : ‸undefined')).toEqual(['source.js', 'constant.language.undefined.js'])
  })

  it('scopes brackets and delimiters', () => {
    expect(js('if‸(a) {}')).toEqual(['source.js', 'meta.brace.round.js'])
    expect(js('if(a) ‸{}')).toEqual(['source.js', 'meta.brace.curly.js'])
    expect(js('‸[1, 2]')).toEqual(['source.js', 'meta.brace.square.js'])
    expect(js('[1‸, 2]')).toEqual(['source.js', 'meta.delimiter.object.comma.js'])
    expect(js('x = {a‸: 1}')).toEqual(['source.js', 'keyword.operator.assignment.js'])
  })
})

describe('JavaScript scopes: functions, calls, classes, modules', () => {
  it('scopes a function declaration through its parameters', () => {
    const line = 'function foo(a, b){}'
    const at = (column: number) => fixture('javascript', line).mode.scopeDescriptorForPosition([0, column]).getScopesArray()
    expect(at(0)).toEqual(['source.js', 'meta.function.js', 'storage.type.function.js'])
    expect(at(9)).toEqual(['source.js', 'meta.function.js', 'entity.name.function.js'])
    expect(at(12)).toEqual(['source.js', 'meta.function.js', 'meta.parameters.js', 'punctuation.definition.parameters.begin.bracket.round.js'])
    expect(at(13)).toEqual(['source.js', 'meta.function.js', 'meta.parameters.js', 'variable.parameter.function.js'])
    expect(at(14)).toEqual(['source.js', 'meta.function.js', 'meta.parameters.js', 'meta.delimiter.object.comma.js'])
    expect(at(17)).toEqual(['source.js', 'meta.function.js', 'meta.parameters.js', 'punctuation.definition.parameters.end.bracket.round.js'])
    expect(at(18)).toEqual(['source.js', 'punctuation.definition.function.body.begin.bracket.curly.js'])
    expect(at(19)).toEqual(['source.js', 'punctuation.definition.function.body.end.bracket.curly.js'])
  })

  it('scopes the body of a function without meta.function, as Atom does', () => {
    expect(js('function foo() {\n  ‸if(something){ }\n}')).toEqual(['source.js', 'keyword.control.js'])
    expect(js('function foo() {\n  if(something){ }\n‸}')).toEqual(['source.js', 'punctuation.definition.function.body.end.bracket.curly.js'])
  })

  it('puts the name of a function expression inside meta.function', () => {
    expect(js('var ‸func = function(){}')).toEqual(['source.js', 'meta.function.js', 'entity.name.function.js'])
    expect(js('var func ‸= function(){}')).toEqual(['source.js', 'meta.function.js', 'keyword.operator.assignment.js'])
    expect(js('var func = ‸function(){}')).toEqual(['source.js', 'meta.function.js', 'storage.type.function.js'])
    expect(js('‸obj.method = function foo(){}')).toEqual(['source.js', 'variable.other.object.js'])
    expect(js('obj‸.method = function foo(){}')).toEqual(['source.js', 'meta.function.js', 'meta.delimiter.method.period.js'])
    expect(js('obj.‸method = function foo(){}')).toEqual(['source.js', 'meta.function.js', 'entity.name.function.js'])
    expect(js('x = {‸func: function(){}}')).toEqual(['source.js', 'meta.function.json.js', 'entity.name.function.js'])
  })

  it('scopes async and generator functions', () => {
    expect(js('‸async function foo(){}')).toEqual(['source.js', 'meta.function.js', 'storage.modifier.async.js'])
    expect(js('function‸* foo(){}')).toEqual(['source.js', 'meta.function.js', 'storage.modifier.generator.js'])
  })

  it('scopes arrow functions through the arrow', () => {
    expect(js('‸x => x * x')).toEqual(['source.js', 'meta.function.arrow.js', 'meta.parameters.js', 'variable.parameter.function.js'])
    expect(js('x ‸=> x * x')).toEqual(['source.js', 'meta.function.arrow.js', 'storage.type.function.arrow.js'])
    expect(js('x =>‸ x * x')).toEqual(['source.js'])
    expect(js('(p1, p2) => ‸{}')).toEqual(['source.js', 'punctuation.definition.function.body.begin.bracket.curly.js'])
    expect(js('var ‸func = (p1, p2) => {}')).toEqual(['source.js', 'meta.function.arrow.js', 'entity.name.function.js'])
    expect(js('(...‸args) => args')).toEqual(['source.js', 'meta.function.arrow.js', 'meta.parameters.js', 'variable.parameter.rest.function.js'])
  })

  it('scopes function and method calls', () => {
    expect(js('‸functionCall()')).toEqual(['source.js', 'meta.function-call.js', 'entity.name.function.js'])
    expect(js('functionCall‸()')).toEqual(['source.js', 'meta.function-call.js', 'meta.arguments.js', 'punctuation.definition.arguments.begin.bracket.round.js'])
    expect(js('functionCall(‸arg1)')).toEqual(['source.js', 'meta.function-call.js', 'meta.arguments.js'])
    expect(js('‸a.b(1+1)')).toEqual(['source.js', 'variable.other.object.js'])
    expect(js('a‸.b(1+1)')).toEqual(['source.js', 'meta.method-call.js', 'meta.delimiter.method.period.js'])
    expect(js('a.‸b(1+1)')).toEqual(['source.js', 'meta.method-call.js', 'entity.name.function.js'])
    expect(js('a.b(1‸+1)')).toEqual(['source.js', 'meta.method-call.js', 'meta.arguments.js', 'keyword.operator.js'])
    expect(js('a.b(1+1‸)')).toEqual(['source.js', 'meta.method-call.js', 'meta.arguments.js', 'punctuation.definition.arguments.end.bracket.round.js'])
    expect(js('console.‸log()')).toEqual(['source.js', 'meta.method-call.js', 'support.function.console.js'])
  })

  it('scopes property access', () => {
    expect(js('‸obj.prop')).toEqual(['source.js', 'variable.other.object.js'])
    expect(js('obj‸.prop')).toEqual(['source.js', 'meta.delimiter.property.period.js'])
    expect(js('obj.‸prop')).toEqual(['source.js', 'variable.other.property.js'])
    expect(js('‸OBJ.prop')).toEqual(['source.js', 'constant.other.object.js'])
  })

  it('scopes instantiation', () => {
    expect(js('‸new Something()')).toEqual(['source.js', 'meta.class.instance.constructor.js', 'keyword.operator.new.js'])
    expect(js('new ‸Something()')).toEqual(['source.js', 'meta.class.instance.constructor.js', 'entity.name.type.instance.js'])
    expect(js('new Something‸()')).toEqual(['source.js', 'meta.brace.round.js'])
  })

  it('scopes classes and methods', () => {
    expect(js('‸class MyClass extends SomeClass {}')).toEqual(['source.js', 'meta.class.js', 'storage.type.class.js'])
    expect(js('class ‸MyClass extends SomeClass {}')).toEqual(['source.js', 'meta.class.js', 'entity.name.type.class.js'])
    expect(js('class MyClass ‸extends SomeClass {}')).toEqual(['source.js', 'meta.class.js', 'storage.modifier.js'])
    expect(js('class MyClass extends ‸SomeClass {}')).toEqual(['source.js', 'meta.class.js', 'entity.other.inherited-class.js'])
    expect(js('class A { ‸f(a, b) {} }')).toEqual(['source.js', 'meta.function.method.definition.js', 'entity.name.function.js'])
    expect(js('class A { f(‸a, b) {} }')).toEqual(['source.js', 'meta.function.method.definition.js', 'meta.parameters.js', 'variable.parameter.function.js'])
    expect(js('class A { ‸constructor(p1) {} }')).toEqual(['source.js', 'meta.function.js', 'entity.name.function.constructor.js'])
  })

  it('scopes imports and exports', () => {
    expect(js('‸import "module-name";')).toEqual(['source.js', 'meta.import.js', 'keyword.control.js'])
    expect(js('import ‸"module-name";')).toEqual(['source.js', 'meta.import.js', 'string.quoted.double.js', 'punctuation.definition.string.begin.js'])
    expect(js('import "module-name"‸;')).toEqual(['source.js', 'punctuation.terminator.statement.js'])
    expect(js('import ‸{ a as b } from "m"')).toEqual(['source.js', 'meta.import.js', 'punctuation.definition.modules.begin.js'])
    expect(js('import { a as ‸b } from "m"')).toEqual(['source.js', 'meta.import.js', 'variable.other.module-alias.js'])
    expect(js('import { a as b } ‸from "m"')).toEqual(['source.js', 'meta.import.js', 'keyword.control.js'])
    expect(js('export ‸default foo')).toEqual(['source.js', 'meta.export.js', 'variable.language.default.js'])
    expect(js('export ‸const a = 1')).toEqual(['source.js', 'storage.modifier.js'])
  })
})

describe('JavaScript scopes: positions', () => {
  it('uses the character before the position at the end of a line', () => {
    expect(js('"abc"‸')).toEqual(['source.js', 'string.quoted.double.js', 'punctuation.definition.string.end.js'])
    expect(js('foo()‸\nbar')).toEqual(['source.js', 'meta.function-call.js', 'meta.arguments.js', 'punctuation.definition.arguments.end.bracket.round.js'])
  })

  it('gives the root scope alone to an empty document', () => {
    expect(js('‸')).toEqual(['source.js'])
  })

  it('clips positions and accepts every point form', () => {
    const { mode } = fixture('javascript', 'a = "x"')
    expect(mode.scopeDescriptorForPosition([5, 99]).getScopesArray()).toEqual(['source.js', 'string.quoted.double.js', 'punctuation.definition.string.end.js'])
    expect(mode.scopeDescriptorForPosition({ row: 0, column: 5 }).getScopesArray()).toEqual(['source.js', 'string.quoted.double.js'])
    expect(mode.scopeDescriptorForPosition([-1, -1]).getScopesArray()).toEqual(['source.js'])
    expect(() => mode.scopeDescriptorForPosition('0,1' as never)).toThrow(TypeError)
    expect(() => mode.scopeDescriptorForPosition('0,1' as never)).toThrow(/position/)
  })

  it('follows edits to the buffer', () => {
    const { buffer, mode } = fixture('javascript', 'x = 1')
    expect(mode.scopeDescriptorForPosition([0, 4]).getScopesArray()).toEqual(['source.js', 'constant.numeric.decimal.js'])
    buffer.setTextInRange([[0, 4], [0, 5]], '"s"')
    expect(mode.scopeDescriptorForPosition([0, 5]).getScopesArray()).toEqual(['source.js', 'string.quoted.double.js'])
  })
})
