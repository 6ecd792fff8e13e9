import { describe, expect, it } from 'vitest'
import { fixture, treeScopesAt } from './helpers.ts'

describe('syntaxTreeScopeDescriptorForPosition', () => {
  it('lists the root scope, then node names from the top node down', () => {
    expect(treeScopesAt('javascript', 'const x = "a‸b"')).toEqual(['source.js', 'Script', 'VariableDeclaration', 'String'])
    expect(treeScopesAt('javascript', 'f(‸1)')).toEqual(['source.js', 'Script', 'ExpressionStatement', 'CallExpression', 'ArgList', 'Number'])
    expect(treeScopesAt('python', 'def f():\n    ‸return 1')).toEqual(['source.python', 'Script', 'FunctionDefinition', 'Body', 'ReturnStatement', 'return'])
    expect(treeScopesAt('json', '{"a": [‸1]}')).toEqual(['source.json', 'JsonText', 'Object', 'Property', 'Array', 'Number'])
    expect(treeScopesAt('css', 'a { ‸color: red }')).toEqual(['source.css', 'StyleSheet', 'RuleSet', 'Block', 'Declaration', 'PropertyName'])
    expect(treeScopesAt('markdown', '# ‸Title')).toEqual(['source.gfm', 'Document', 'ATXHeading1'])
  })

  it('uses the character before the position at the end of a line', () => {
    expect(treeScopesAt('javascript', 'x = 1‸\ny')).toEqual(['source.js', 'Script', 'ExpressionStatement', 'AssignmentExpression', 'Number'])
  })

  it('continues into nested languages', () => {
    expect(treeScopesAt('html', '<script>‸if (a) b()</script>')).toEqual(['text.html.basic', 'Document', 'Element', 'Script', 'IfStatement', 'if'])
    expect(treeScopesAt('markdown', '```css\na { ‸b: c }\n```')).toEqual([
      'source.gfm', 'Document', 'FencedCode', 'StyleSheet', 'RuleSet', 'Block', 'Declaration', 'PropertyName',
    ])
  })

  it('is the root scope alone in plain text', () => {
    expect(fixture('text', 'a b').mode.syntaxTreeScopeDescriptorForPosition([0, 1]).getScopesArray()).toEqual(['text.plain'])
  })

  it('writes its chain with dots, as Atom does for a TextMate root', () => {
    const { mode } = fixture('javascript', '"a"')
    expect(mode.syntaxTreeScopeDescriptorForPosition([0, 1]).getScopeChain()).toBe('.source.js .Script .ExpressionStatement .String')
  })
})
