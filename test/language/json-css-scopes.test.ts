import { describe, expect, it } from 'vitest'
import { scopesAt } from './helpers.ts'

describe('JSON scopes', () => {
  const json = (marked: string) => scopesAt('json', marked)
  const dictionary = ['source.json', 'meta.structure.dictionary.json']

  it('scopes dictionaries, keys and values', () => {
    expect(json('‸{"a": 1}')).toEqual([...dictionary, 'punctuation.definition.dictionary.begin.json'])
    expect(json('{‸"a": 1}')).toEqual([...dictionary, 'meta.structure.dictionary.key.json', 'string.quoted.double.json', 'punctuation.definition.string.begin.json'])
    expect(json('{"‸a": 1}')).toEqual([...dictionary, 'meta.structure.dictionary.key.json', 'string.quoted.double.json'])
    expect(json('{"a"‸: 1}')).toEqual([...dictionary, 'punctuation.separator.dictionary.key-value.json'])
    expect(json('{"a": ‸1}')).toEqual([...dictionary, 'meta.structure.dictionary.value.json', 'constant.numeric.json'])
    expect(json('{"a": 1‸, "b": 2}')).toEqual([...dictionary, 'punctuation.separator.dictionary.pair.json'])
    expect(json('{"a": 1‸}')).toEqual([...dictionary, 'punctuation.definition.dictionary.end.json'])
  })

  it('scopes arrays, strings with escapes, and constants', () => {
    const array = [...dictionary, 'meta.structure.dictionary.value.json', 'meta.structure.array.json']
    expect(json('{"a": ‸[true, "x\\ny", null]}')).toEqual([...array, 'punctuation.definition.array.begin.json'])
    expect(json('{"a": [‸true, "x\\ny", null]}')).toEqual([...array, 'constant.language.json'])
    expect(json('{"a": [true‸, "x\\ny", null]}')).toEqual([...array, 'punctuation.separator.array.json'])
    expect(json('{"a": [true, "x‸\\ny", null]}')).toEqual([...array, 'string.quoted.double.json', 'constant.character.escape.json'])
    expect(json('{"a": [true, "x\\n‸y", null]}')).toEqual([...array, 'string.quoted.double.json'])
  })
})

describe('CSS scopes', () => {
  const css = (marked: string) => scopesAt('css', marked)

  it('scopes comments', () => {
    expect(css('‸/* c */')).toEqual(['source.css', 'comment.block.css', 'punctuation.definition.comment.begin.css'])
    expect(css('/* ‸c */')).toEqual(['source.css', 'comment.block.css'])
    expect(css('/* c ‸*/')).toEqual(['source.css', 'comment.block.css', 'punctuation.definition.comment.end.css'])
  })

  it('scopes selectors', () => {
    const selector = ['source.css', 'meta.selector.css']
    expect(css('‸div.a #b:hover > p::before, a[href="x"] {}')).toEqual([...selector, 'entity.name.tag.css'])
    expect(css('div‸.a #b {}')).toEqual([...selector, 'entity.other.attribute-name.class.css', 'punctuation.definition.entity.css'])
    expect(css('div.‸a #b {}')).toEqual([...selector, 'entity.other.attribute-name.class.css'])
    expect(css('div.a ‸#b {}')).toEqual([...selector, 'entity.other.attribute-name.id.css', 'punctuation.definition.entity.css'])
    expect(css('a:‸hover {}')).toEqual([...selector, 'entity.other.attribute-name.pseudo-class.css'])
    expect(css('p‸::before {}')).toEqual([...selector, 'entity.other.attribute-name.pseudo-element.css', 'punctuation.definition.entity.css'])
    expect(css('a ‸> p {}')).toEqual([...selector, 'keyword.operator.combinator.css'])
    expect(css('a[‸href="x"] {}')).toEqual([...selector, 'meta.attribute-selector.css', 'entity.other.attribute-name.css'])
    expect(css('a‸, b {}')).toEqual([...selector, 'punctuation.separator.list.comma.css'])
  })

  it('scopes property lists, names and values', () => {
    const list = ['source.css', 'meta.property-list.css']
    const value = [...list, 'meta.property-value.css']
    expect(css('a ‸{ color: red; }')).toEqual([...list, 'punctuation.section.property-list.begin.bracket.curly.css'])
    expect(css('a { ‸color: red; }')).toEqual([...list, 'meta.property-name.css', 'support.type.property-name.css'])
    expect(css('a { color‸: red; }')).toEqual([...list, 'punctuation.separator.key-value.css'])
    expect(css('a { color: ‸red; }')).toEqual([...value, 'support.constant.property-value.css'])
    expect(css('a { color: red‸; }')).toEqual([...list, 'punctuation.terminator.rule.css'])
    expect(css('a { width: ‸10px }')).toEqual([...value, 'constant.numeric.css'])
    expect(css('a { width: 10‸px }')).toEqual([...value, 'constant.numeric.css', 'keyword.other.unit.px.css'])
    expect(css('a { color: ‸#fff }')).toEqual([...value, 'constant.other.color.rgb-value.hex.css', 'punctuation.definition.constant.css'])
    expect(css('a { content: "‸x" }')).toEqual([...value, 'string.quoted.double.css'])
    expect(css('a { b: c ‸!important }')).toEqual([...value, 'keyword.other.important.css'])
    expect(css('a { width: ‸calc(1px) }')).toEqual([...value, 'meta.function.css', 'support.function.calc.css'])
    expect(css('a { ‸--main: 1 }')).toEqual([...list, 'variable.css'])
    expect(css('a { b: var(‸--main) }')).toEqual([...value, 'meta.function.css', 'variable.css'])
  })

  it('scopes at-rules', () => {
    expect(css('‸@media screen { a { b: c } }')).toEqual(['source.css', 'meta.at-rule.media.header.css', 'keyword.control.at-rule.media.css', 'punctuation.definition.keyword.css'])
    expect(css('@media ‸screen { a { b: c } }')).toEqual(['source.css', 'meta.at-rule.media.header.css', 'support.constant.media.css'])
    expect(css('@media screen ‸{ a { b: c } }')).toEqual(['source.css', 'meta.at-rule.media.body.css', 'punctuation.section.media.begin.bracket.curly.css'])
    expect(css('@media screen { ‸a { b: c } }')).toEqual(['source.css', 'meta.at-rule.media.body.css', 'meta.selector.css', 'entity.name.tag.css'])
  })
})
