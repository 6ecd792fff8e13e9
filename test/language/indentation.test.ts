import { describe, expect, it } from 'vitest'
import { buildIndentString, columnForIndentLevel, indentColumnsForLine, indentLevelForLine } from '../../core/language/indentation.ts'
import type { LanguageId } from '../../core/language/registry.ts'
import { fixture } from './helpers.ts'

const TAB2 = { tabLength: 2 }
const TAB4 = { tabLength: 4 }

/** The suggested indent level of the last row of `text`. */
function suggest(id: LanguageId, text: string, options: { tabLength: number; skipDecrease?: boolean; skipBlankLines?: boolean } = TAB2): number {
  const { buffer, mode } = fixture(id, text)
  return mode.suggestedIndentForBufferRow(buffer.getLastRow(), options)
}

describe('indentation helpers', () => {
  it('measures indent levels: spaces count one column, tabs reach the next stop', () => {
    expect(indentLevelForLine('    foo', 2)).toBe(2)
    expect(indentLevelForLine('   foo', 2)).toBe(1.5)
    expect(indentLevelForLine(' \tfoo', 4)).toBe(1)
    expect(indentLevelForLine('\t\tfoo', 4)).toBe(2)
    expect(indentLevelForLine('foo  ', 2)).toBe(0)
    expect(indentColumnsForLine('\t  x', 4)).toBe(6)
  })

  it('builds indentation with soft or hard tabs', () => {
    expect(buildIndentString(2, 2, true)).toBe('    ')
    expect(buildIndentString(2, 4, false)).toBe('\t\t')
    expect(buildIndentString(1.5, 2, false)).toBe('\t ')
    expect(buildIndentString(0, 4, false)).toBe('')
  })

  it('finds the column where indentation reaches a level', () => {
    expect(columnForIndentLevel('\t\tfoo', 1, 4)).toBe(1)
    expect(columnForIndentLevel('    foo', 1, 2)).toBe(2)
    expect(columnForIndentLevel('  foo', 3, 2)).toBe(2)
  })

  it('rejects a bad tab length or level', () => {
    expect(() => indentLevelForLine('x', 0)).toThrow(new TypeError('tabLength must be a positive number; got 0'))
    expect(() => buildIndentString(-1, 2, true)).toThrow(TypeError)
  })
})

describe('suggestedIndentForBufferRow', () => {
  it('keeps the previous line indentation by default', () => {
    expect(suggest('javascript', '    foo()\nbar()')).toBe(2)
    expect(suggest('javascript', 'if (a) {}\nb')).toBe(0)
  })

  it('indents after an opening bracket in JavaScript, TypeScript, JSON and CSS', () => {
    expect(suggest('javascript', 'function f() {\nx')).toBe(1)
    expect(suggest('javascript', 'foo(a,\nb')).toBe(1)
    expect(suggest('javascript', 'const a = [\n1')).toBe(1)
    expect(suggest('javascript', 'switch (a) {\n  case 1:\nx')).toBe(2)
    expect(suggest('typescript', 'interface A {\nx')).toBe(1)
    expect(suggest('json', '{\n"a": 1')).toBe(1)
    expect(suggest('json', '{\n  "a": [\n1')).toBe(2)
    expect(suggest('css', 'a {\ncolor: red')).toBe(1)
  })

  it('goes back a level on a row that starts with a closing bracket', () => {
    expect(suggest('javascript', 'function f() {\n  x()\n}')).toBe(0)
    expect(suggest('javascript', 'function f() {\n}')).toBe(0)
    expect(suggest('javascript', 'foo(\n  a\n)')).toBe(0)
    expect(suggest('json', '{\n  "a": [\n    1\n  ]')).toBe(1)
    expect(suggest('css', 'a {\n  b: c\n}')).toBe(0)
  })

  it('ignores the row own closer with skipDecrease', () => {
    expect(suggest('javascript', 'function f() {\n}', { tabLength: 2, skipDecrease: true })).toBe(1)
  })

  it('does not count brackets inside strings, comments or comment-only rows', () => {
    expect(suggest('javascript', 'x = "{"\ny')).toBe(0)
    expect(suggest('javascript', 'y = 1 // {\nz')).toBe(0)
    expect(suggest('javascript', '// function f() {\nz')).toBe(0)
    expect(suggest('javascript', 'f({ // open\nz')).toBe(1)
  })

  it('measures from the nearest non-blank row, or the row just above without skipBlankLines', () => {
    expect(suggest('javascript', 'if (a) {\n\n\nx')).toBe(1)
    expect(suggest('javascript', 'if (a) {\n\nx', { tabLength: 2, skipBlankLines: false })).toBe(0)
    expect(suggest('javascript', 'x')).toBe(0)
  })

  it('indents after a colon and an unclosed bracket in Python, and dedents else-like headers', () => {
    expect(suggest('python', 'def f():\nx', TAB4)).toBe(1)
    expect(suggest('python', 'class A(B):\n    def f(self):\nx', TAB4)).toBe(2)
    expect(suggest('python', 'for i in range(3):  # loop\nx', TAB4)).toBe(1)
    expect(suggest('python', 'x = [\n1', TAB4)).toBe(1)
    expect(suggest('python', 'if a:\n    b = 1\nelse:', TAB4)).toBe(0)
    expect(suggest('python', 'try:\n    b()\nexcept E:', TAB4)).toBe(0)
    expect(suggest('python', 'x = "a:"\ny', TAB4)).toBe(0)
    expect(suggest('python', '# note:\ny', TAB4)).toBe(0)
    expect(suggest('python', 'x = 1  # note:\ny', TAB4)).toBe(0)
  })

  it('indents after an opening HTML tag, not a void or closed one', () => {
    expect(suggest('html', '<div>\nx')).toBe(1)
    expect(suggest('html', '<ul class="a">\nx')).toBe(1)
    expect(suggest('html', '<br>\nx')).toBe(0)
    expect(suggest('html', '<img src="a"/>\nx')).toBe(0)
    expect(suggest('html', '<p>text</p>\nx')).toBe(0)
    expect(suggest('html', '<html>\nx')).toBe(0)
    expect(suggest('html', '<div>\n  <p>a</p>\n</div>')).toBe(0)
    // As in Atom, a comment row never opens a block, so '<!--' alone does not indent.
    expect(suggest('html', '<!--\nx')).toBe(0)
  })

  it('uses the rules of the language embedded in HTML', () => {
    expect(suggest('html', '<script>\nif (a) {')).toBe(1)
    expect(suggest('html', '<script>\n  if (a) {\nx')).toBe(2)
    expect(suggest('html', '<script>\n  if (a) {\n    b()\n  }')).toBe(1)
    expect(suggest('html', '<script>\n  go()\n</script>')).toBe(0)
  })

  it('keeps the previous indentation in Markdown and plain text', () => {
    expect(suggest('markdown', '  - item {\nx')).toBe(1)
    expect(suggest('markdown', '# Title:\nx')).toBe(0)
    expect(suggest('text', 'foo {\nx')).toBe(0)
    expect(suggest('text', '    foo\n\nx')).toBe(2)
  })

  it('measures hard tabs by the tab length', () => {
    expect(suggest('javascript', '\tif (a) {\nx', TAB4)).toBe(2)
    expect(suggest('javascript', '\t  x\ny', TAB4)).toBe(1.5)
  })

  it('clips the row and rejects bad arguments', () => {
    const { mode } = fixture('javascript', 'f() {\nx')
    expect(mode.suggestedIndentForBufferRow(99, TAB2)).toBe(1)
    expect(mode.suggestedIndentForBufferRow(-3, TAB2)).toBe(0)
    expect(() => mode.suggestedIndentForBufferRow('1' as never, TAB2)).toThrow(new TypeError('row must be a number; got 1'))
    expect(() => mode.suggestedIndentForBufferRow(1, { tabLength: -2 })).toThrow(TypeError)
    expect(() => mode.suggestedIndentForBufferRow(1, undefined as never)).toThrow(TypeError)
  })
})

describe('suggestedIndentForLineAtBufferRow', () => {
  it('suggests the level of a line as if it were at the row', () => {
    const { mode } = fixture('javascript', 'if (a) {\n  b()\n')
    expect(mode.suggestedIndentForLineAtBufferRow(2, 'c()', TAB2)).toBe(1)
    expect(mode.suggestedIndentForLineAtBufferRow(2, '}', TAB2)).toBe(0)
    expect(() => mode.suggestedIndentForLineAtBufferRow(2, 3 as never, TAB2)).toThrow(new TypeError('line must be a string; got number'))
  })
})

describe('shouldDecreaseIndentForRow and suggestedIndentForEditedBufferRow', () => {
  it('tells rows that start with a closer', () => {
    const { mode } = fixture('javascript', 'f() {\n  x\n  }\n  ) + 1\n  "}"')
    expect([0, 1, 2, 3, 4, 9].map((row) => mode.shouldDecreaseIndentForRow(row))).toEqual([false, false, true, true, false, false])
    expect(fixture('python', 'if a:\n    b\n    else:').mode.shouldDecreaseIndentForRow(2)).toBe(true)
    expect(fixture('text', '}').mode.shouldDecreaseIndentForRow(0)).toBe(false)
  })

  it('drops a typed closer to the level it belongs at, as autoDecreaseIndent does', () => {
    expect(fixture('javascript', 'f() {\n  x\n  }').mode.suggestedIndentForEditedBufferRow(2, TAB2)).toBe(0)
    expect(fixture('javascript', 'f() {\n    }').mode.suggestedIndentForEditedBufferRow(1, TAB2)).toBe(0)
    expect(fixture('javascript', 'f() {\n  }').mode.suggestedIndentForEditedBufferRow(1, TAB2)).toBe(0)
  })

  it('leaves rows alone that need no decrease', () => {
    expect(fixture('javascript', 'f() {\n}').mode.suggestedIndentForEditedBufferRow(1, TAB2)).toBe(undefined)
    expect(fixture('javascript', 'f() {\n  x').mode.suggestedIndentForEditedBufferRow(1, TAB2)).toBe(undefined)
    expect(fixture('javascript', '  a\n  }').mode.suggestedIndentForEditedBufferRow(1, { tabLength: 1 })).toBe(1)
    expect(fixture('javascript', 'a\n}').mode.suggestedIndentForEditedBufferRow(1, TAB2)).toBe(undefined)
    expect(fixture('markdown', 'a\n  }').mode.suggestedIndentForEditedBufferRow(1, TAB2)).toBe(undefined)
  })
})
