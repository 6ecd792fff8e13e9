import { describe, expect, it } from 'vitest'
import { scopesAt } from './helpers.ts'

describe('TypeScript scopes', () => {
  const ts = (marked: string) => scopesAt('typescript', marked)

  it('uses the source.ts root and .ts suffix', () => {
    expect(ts('‸let x = "a"')).toEqual(['source.ts', 'storage.type.var.ts'])
    expect(ts('let x = ‸"a"')).toEqual(['source.ts', 'string.quoted.double.ts', 'punctuation.definition.string.begin.ts'])
    expect(ts('‸// c')).toEqual(['source.ts', 'comment.line.double-slash.ts', 'punctuation.definition.comment.ts'])
  })

  it('scopes type annotations and type names', () => {
    expect(ts('let x‸: string')).toEqual(['source.ts', 'meta.type.annotation.ts', 'keyword.operator.type.annotation.ts'])
    expect(ts('let x: ‸string')).toEqual(['source.ts', 'meta.type.annotation.ts', 'support.type.primitive.ts'])
    expect(ts('let x: ‸Foo')).toEqual(['source.ts', 'meta.type.annotation.ts', 'entity.name.type.ts'])
    expect(ts('type T = A ‸| B')).toEqual(['source.ts', 'keyword.operator.type.ts'])
  })

  it('scopes type declarations, taking keywords from their highlight tags', () => {
    expect(ts('‸interface P { a: string }')).toEqual(['source.ts', 'storage.type.ts'])
    expect(ts('interface ‸P { a: string }')).toEqual(['source.ts', 'entity.name.type.ts'])
    expect(ts('‸enum E { A }')).toEqual(['source.ts', 'storage.type.ts'])
    expect(ts('enum ‸E { A }')).toEqual(['source.ts', 'entity.name.type.enum.ts'])
    expect(ts('class A { ‸private x = 1 }')).toEqual(['source.ts', 'storage.modifier.ts'])
  })
})

describe('JSX scopes', () => {
  it('scopes JSX tags, attributes and embedded expressions in .jsx files', () => {
    const jsx = (marked: string) => scopesAt('jsx', marked)
    expect(jsx('x = ‸<div className="a">{n}</div>')).toEqual(['source.js.jsx', 'meta.tag.jsx', 'punctuation.definition.tag.begin.jsx'])
    expect(jsx('x = <‸div className="a">{n}</div>')).toEqual(['source.js.jsx', 'meta.tag.jsx', 'entity.name.tag.jsx'])
    expect(jsx('x = <div ‸className="a">{n}</div>')).toEqual(['source.js.jsx', 'meta.tag.jsx', 'entity.other.attribute-name.jsx'])
    expect(jsx('x = <div className=‸"a">{n}</div>')).toEqual(['source.js.jsx', 'meta.tag.jsx', 'string.quoted.double.jsx', 'punctuation.definition.string.begin.jsx'])
    expect(jsx('x = <div className="a"‸>{n}</div>')).toEqual(['source.js.jsx', 'meta.tag.jsx', 'punctuation.definition.tag.end.jsx'])
    expect(jsx('x = <div className="a">‸{n}</div>')).toEqual(['source.js.jsx', 'meta.embedded.expression.jsx', 'punctuation.section.embedded.begin.jsx'])
    expect(jsx('x = <div className="a">{n}<‸/div>')).toEqual(['source.js.jsx', 'meta.tag.jsx', 'punctuation.definition.tag.begin.jsx'])
    expect(jsx('x = <‸Comp />')).toEqual(['source.js.jsx', 'meta.tag.jsx', 'support.class.component.jsx'])
  })

  it('reads JSX in .js files, as Atom does', () => {
    expect(scopesAt('javascript', 'x = <‸div />')).toEqual(['source.js', 'meta.tag.jsx', 'entity.name.tag.jsx'])
  })

  it('uses the source.tsx root for TSX', () => {
    expect(scopesAt('tsx', 'const x: ‸number = <a />')).toEqual(['source.tsx', 'meta.type.annotation.tsx', 'support.type.primitive.tsx'])
    expect(scopesAt('tsx', 'const x: number = <‸a />')).toEqual(['source.tsx', 'meta.tag.jsx', 'entity.name.tag.jsx'])
  })
})
