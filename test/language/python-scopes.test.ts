import { describe, expect, it } from 'vitest'
import { scopesAt } from './helpers.ts'

// Expected arrays follow Atom's language-python spec wherever it covers the construct.
const py = (marked: string) => scopesAt('python', marked)

describe('Python scopes', () => {
  it('scopes comments', () => {
    expect(py("r'%d(' ‸#foo")).toEqual(['source.python', 'comment.line.number-sign.python', 'punctuation.definition.comment.python'])
    expect(py("r'%d(' #‸foo")).toEqual(['source.python', 'comment.line.number-sign.python'])
  })

  it('scopes strings by quote, length and prefix', () => {
    expect(py('‸"x"')).toEqual(['source.python', 'string.quoted.double.single-line.python', 'punctuation.definition.string.begin.python'])
    expect(py('"‸x"')).toEqual(['source.python', 'string.quoted.double.single-line.python'])
    expect(py('"x‸"')).toEqual(['source.python', 'string.quoted.double.single-line.python', 'punctuation.definition.string.end.python'])
    expect(py("‸'''\n  doc\n'''")).toEqual(['source.python', 'string.quoted.single.block.python', 'punctuation.definition.string.begin.python'])
    expect(py("'''\n  ‸doc\n'''")).toEqual(['source.python', 'string.quoted.single.block.python'])
    expect(py("'''\n  doc\n‸'''")).toEqual(['source.python', 'string.quoted.single.block.python', 'punctuation.definition.string.end.python'])
    expect(py("‸b'test'")).toEqual(['source.python', 'string.quoted.single.single-line.binary.python', 'storage.type.string.python'])
    expect(py("b‸'test'")).toEqual(['source.python', 'string.quoted.single.single-line.binary.python', 'punctuation.definition.string.begin.python'])
    expect(py('"a‸\\nb"')).toEqual(['source.python', 'string.quoted.double.single-line.python', 'constant.character.escape.python'])
  })

  it('scopes f-string interpolations', () => {
    expect(py("f'a‸{b}'")).toEqual([
      'source.python', 'string.quoted.single.single-line.format.python', 'meta.interpolation.python',
      'punctuation.definition.interpolation.begin.bracket.curly.python',
    ])
    expect(py("f'a{‸b}'")).toEqual(['source.python', 'string.quoted.single.single-line.format.python', 'meta.interpolation.python'])
  })

  it('scopes numbers', () => {
    expect(py('‸92')).toEqual(['source.python', 'constant.numeric.integer.decimal.python'])
    expect(py('‸0xe3')).toEqual(['source.python', 'constant.numeric.integer.hexadecimal.python'])
    expect(py('‸0o72')).toEqual(['source.python', 'constant.numeric.integer.octal.python'])
    expect(py('‸0b01')).toEqual(['source.python', 'constant.numeric.integer.binary.python'])
    expect(py('‸32.68')).toEqual(['source.python', 'constant.numeric.float.python'])
    expect(py('‸97e43')).toEqual(['source.python', 'constant.numeric.float.python'])
    expect(py('‸63j')).toEqual(['source.python', 'constant.numeric.complex.python'])
  })

  it('scopes keywords, constants and operators', () => {
    expect(py('‸yield v')).toEqual(['source.python', 'keyword.control.statement.python'])
    expect(py('‸if a:\n  pass')).toEqual(['source.python', 'keyword.control.statement.python'])
    expect(py('if a:\n  ‸pass')).toEqual(['source.python', 'keyword.control.statement.python'])
    expect(py('‸import os')).toEqual(['source.python', 'keyword.control.import.python'])
    expect(py('from m ‸import a')).toEqual(['source.python', 'keyword.control.import.python'])
    expect(py('x = a ‸and not b')).toEqual(['source.python', 'keyword.operator.logical.python'])
    expect(py('x = ‸True')).toEqual(['source.python', 'constant.language.python'])
    expect(py('x = ‸None')).toEqual(['source.python', 'constant.language.python'])
    expect(py('x ‸= 1')).toEqual(['source.python', 'keyword.operator.assignment.python'])
    expect(py('x ‸+= 1')).toEqual(['source.python', 'keyword.operator.assignment.augmented.python'])
    expect(py('x = 1 ‸% 2')).toEqual(['source.python', 'keyword.operator.arithmetic.python'])
    expect(py('x = 1 ‸< 2')).toEqual(['source.python', 'keyword.operator.comparison.python'])
  })

  it('scopes properties of self and of variables', () => {
    expect(py('‸self.foo')).toEqual(['source.python', 'variable.language.self.python'])
    expect(py('self‸.foo')).toEqual(['source.python', 'punctuation.separator.property.period.python'])
    expect(py('self.‸foo')).toEqual(['source.python', 'variable.other.property.python'])
    expect(py('‸bar.foo')).toEqual(['source.python', 'variable.other.object.python'])
  })

  it('scopes function definitions through the colon', () => {
    expect(py('‸def f(a, b=1):\n    pass')).toEqual(['source.python', 'meta.function.python', 'storage.type.function.python'])
    expect(py('def ‸f(a, b=1):\n    pass')).toEqual(['source.python', 'meta.function.python', 'entity.name.function.python'])
    expect(py('def f‸(a, b=1):\n    pass')).toEqual(['source.python', 'meta.function.python', 'meta.function.parameters.python', 'punctuation.definition.parameters.begin.python'])
    expect(py('def f(‸a, b=1):\n    pass')).toEqual(['source.python', 'meta.function.python', 'meta.function.parameters.python', 'variable.parameter.function.python'])
    expect(py('def f(a‸, b=1):\n    pass')).toEqual(['source.python', 'meta.function.python', 'meta.function.parameters.python', 'punctuation.separator.parameters.python'])
    expect(py('def f(a, b=1)‸:\n    pass')).toEqual(['source.python', 'meta.function.python', 'punctuation.definition.function.begin.python'])
    expect(py('def f(a, b=1):\n    ‸pass')).toEqual(['source.python', 'keyword.control.statement.python'])
    expect(py('‸async def f(): pass')).toEqual(['source.python', 'meta.function.python', 'storage.modifier.async.python'])
    expect(py('def ‸__init__(self): pass')).toEqual(['source.python', 'meta.function.python', 'support.function.magic.python'])
  })

  it('scopes class definitions, decorators, lambdas and calls', () => {
    expect(py('‸class C(B):\n    pass')).toEqual(['source.python', 'meta.class.python', 'storage.type.class.python'])
    expect(py('class ‸C(B):\n    pass')).toEqual(['source.python', 'meta.class.python', 'entity.name.type.class.python'])
    expect(py('class C(‸B):\n    pass')).toEqual(['source.python', 'meta.class.python', 'meta.class.inheritance.python', 'entity.other.inherited-class.python'])
    expect(py('‸@dec\ndef f(): pass')).toEqual(['source.python', 'meta.function.decorator.python', 'punctuation.definition.decorator.python'])
    expect(py('@‸dec\ndef f(): pass')).toEqual(['source.python', 'meta.function.decorator.python', 'entity.name.function.decorator.python'])
    expect(py('f = ‸lambda x: x')).toEqual(['source.python', 'meta.function.inline.python', 'storage.type.function.inline.python'])
    expect(py('‸len(x)')).toEqual(['source.python', 'meta.function-call.python', 'support.function.builtin.python'])
    expect(py('‸foo(x)')).toEqual(['source.python', 'meta.function-call.python', 'entity.name.function.python'])
    expect(py('foo(‸x)')).toEqual(['source.python', 'meta.function-call.python', 'meta.function-call.arguments.python'])
    expect(py('a.‸b()')).toEqual(['source.python', 'meta.method-call.python', 'entity.name.function.python'])
  })
})
