import { describe, expect, it } from 'vitest'
import { scopesAt } from './helpers.ts'

describe('HTML scopes', () => {
  const html = (marked: string) => scopesAt('html', marked)

  it('scopes tags by their category', () => {
    expect(html('‸<div class="a">x</div>')).toEqual(['text.html.basic', 'meta.tag.block.any.html', 'punctuation.definition.tag.begin.html'])
    expect(html('<‸div class="a">x</div>')).toEqual(['text.html.basic', 'meta.tag.block.any.html', 'entity.name.tag.block.any.html'])
    expect(html('<div‸ class="a">x</div>')).toEqual(['text.html.basic', 'meta.tag.block.any.html'])
    expect(html('<div class="a"‸>x</div>')).toEqual(['text.html.basic', 'meta.tag.block.any.html', 'punctuation.definition.tag.end.html'])
    expect(html('<div class="a">‸x</div>')).toEqual(['text.html.basic'])
    expect(html('<div class="a">x‸</div>')).toEqual(['text.html.basic', 'meta.tag.block.any.html', 'punctuation.definition.tag.begin.html'])
    expect(html('<‸span>x</span>')).toEqual(['text.html.basic', 'meta.tag.inline.any.html', 'entity.name.tag.inline.any.html'])
    expect(html('<‸body></body>')).toEqual(['text.html.basic', 'meta.tag.structure.any.html', 'entity.name.tag.structure.any.html'])
    expect(html('<‸my-widget></my-widget>')).toEqual(['text.html.basic', 'meta.tag.other.html', 'entity.name.tag.other.html'])
    expect(html('<br‸/>')).toEqual(['text.html.basic', 'meta.tag.inline.any.html', 'punctuation.definition.tag.end.html'])
  })

  it('scopes attributes', () => {
    const tag = ['text.html.basic', 'meta.tag.block.any.html']
    expect(html('<p ‸class="a" id=b>')).toEqual([...tag, 'entity.other.attribute-name.html'])
    expect(html('<p class‸="a" id=b>')).toEqual([...tag, 'punctuation.separator.key-value.html'])
    expect(html('<p class=‸"a" id=b>')).toEqual([...tag, 'string.quoted.double.html', 'punctuation.definition.string.begin.html'])
    expect(html('<p class="‸a" id=b>')).toEqual([...tag, 'string.quoted.double.html'])
    expect(html('<p class="a" id=‸b>')).toEqual([...tag, 'string.unquoted.html'])
  })

  it('scopes comments, entities and the doctype', () => {
    expect(html('‸<!-- c -->')).toEqual(['text.html.basic', 'comment.block.html', 'punctuation.definition.comment.html'])
    expect(html('<!-- ‸c -->')).toEqual(['text.html.basic', 'comment.block.html'])
    expect(html('<!-- c ‸-->')).toEqual(['text.html.basic', 'comment.block.html', 'punctuation.definition.comment.html'])
    expect(html('a ‸&amp; b')).toEqual(['text.html.basic', 'constant.character.entity.html', 'punctuation.definition.entity.html'])
    expect(html('a &‸amp; b')).toEqual(['text.html.basic', 'constant.character.entity.html'])
    expect(html('‸<!DOCTYPE html>')).toEqual(['text.html.basic', 'meta.tag.sgml.doctype.html'])
  })

  it('embeds JavaScript in script elements and CSS in style elements', () => {
    const page = (caretAt: string) => caretAt
    expect(html(page('<script>\n  ‸if (x) f("s")\n</script>'))).toEqual(['text.html.basic', 'source.js.embedded.html', 'keyword.control.js'])
    expect(html(page('<script>\n  if (x) f(‸"s")\n</script>'))).toEqual([
      'text.html.basic', 'source.js.embedded.html', 'meta.function-call.js', 'meta.arguments.js', 'string.quoted.double.js',
      'punctuation.definition.string.begin.js',
    ])
    expect(html(page('<‸script>\n</script>'))).toEqual(['text.html.basic', 'source.js.embedded.html', 'meta.tag.script.html', 'entity.name.tag.script.html'])
    expect(html(page('<style>a { ‸color: red }</style>'))).toEqual([
      'text.html.basic', 'source.css.embedded.html', 'meta.property-list.css', 'meta.property-name.css', 'support.type.property-name.css',
    ])
    expect(html(page('<script type="text/template">‸if</script>'))).toEqual(['text.html.basic'])
    expect(html(page('<script lang="ts">let x: ‸string</script>'))).toEqual([
      'text.html.basic', 'source.js.embedded.html', 'meta.type.annotation.ts', 'support.type.primitive.ts',
    ])
  })
})

describe('Markdown scopes', () => {
  const md = (marked: string) => scopesAt('markdown', marked)

  it('scopes headings and emphasis', () => {
    expect(md('‸# Heading 1')).toEqual(['source.gfm', 'markup.heading.heading-1.gfm'])
    expect(md('### ‸Heading 3')).toEqual(['source.gfm', 'markup.heading.heading-3.gfm'])
    expect(md('Title\n‸=====')).toEqual(['source.gfm', 'markup.heading.heading-1.gfm'])
    expect(md('this is ‸**bold** text')).toEqual(['source.gfm', 'markup.bold.gfm'])
    expect(md('this is *‸italic* text')).toEqual(['source.gfm', 'markup.italic.gfm'])
    expect(md('this is ***‸bold italic*** text')).toEqual(['source.gfm', 'markup.bold.italic.gfm'])
    expect(md('this is ~~‸gone~~ text')).toEqual(['source.gfm', 'markup.strike.gfm'])
    expect(md('this ‸is text')).toEqual(['source.gfm'])
  })

  it('scopes code', () => {
    expect(md('`‸this` is code')).toEqual(['source.gfm', 'markup.raw.gfm'])
    expect(md('‸```mylanguage\nx\n```')).toEqual(['source.gfm', 'markup.raw.gfm', 'support.gfm'])
    expect(md('```mylanguage\n‸x\n```')).toEqual(['source.gfm', 'markup.raw.gfm'])
    expect(md('‸```bash\nls\n```')).toEqual(['source.gfm', 'markup.code.shell.gfm', 'support.gfm'])
    expect(md('```js\n‸let x = 1\n```')).toEqual(['source.gfm', 'markup.code.js.gfm', 'source.embedded.js', 'storage.type.var.js'])
    expect(md('```js\nlet x = 1\n‸```')).toEqual(['source.gfm', 'markup.code.js.gfm', 'support.gfm'])
    expect(md('```python\n‸def f(): pass\n```')).toEqual(['source.gfm', 'markup.code.python.gfm', 'source.embedded.python', 'meta.function.python', 'storage.type.function.python'])
    expect(md('    ‸indented code')).toEqual(['source.gfm', 'markup.raw.gfm'])
    expect(md('```html\n<p>x</p><script>‸if (a) b()</script>\n```')).toEqual([
      'source.gfm', 'markup.code.html.gfm', 'source.embedded.html', 'source.js.embedded.html', 'keyword.control.js',
    ])
  })

  it('scopes links', () => {
    expect(md('please click ‸[this link](website)')).toEqual(['source.gfm', 'link'])
    expect(md('please click [‸this link](website)')).toEqual(['source.gfm', 'link', 'entity.gfm'])
    expect(md('please click [this link](‸website)')).toEqual(['source.gfm', 'link', 'markup.underline.link.gfm'])
    expect(md('[aLink]: ‸http://website')).toEqual(['source.gfm', 'link', 'markup.underline.link.gfm'])
    expect(md('[‸aLink]: http://website')).toEqual(['source.gfm', 'link', 'entity.gfm'])
  })

  it('scopes quotes, lists, rules and comments', () => {
    expect(md('‸> quote')).toEqual(['source.gfm', 'comment.quote.gfm', 'support.quote.gfm'])
    expect(md('> ‸quote')).toEqual(['source.gfm', 'comment.quote.gfm'])
    expect(md('‸* item')).toEqual(['source.gfm', 'variable.unordered.list.gfm'])
    expect(md('‸1. item')).toEqual(['source.gfm', 'variable.ordered.list.gfm'])
    expect(md('text\n\n‸***')).toEqual(['source.gfm', 'comment.hr.gfm'])
    expect(md('‸<!-- note -->')).toEqual(['source.gfm', 'comment.block.gfm', 'punctuation.definition.comment.gfm'])
    expect(md('<!-- ‸note -->')).toEqual(['source.gfm', 'comment.block.gfm'])
  })
})
