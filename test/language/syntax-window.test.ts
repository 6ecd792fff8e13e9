import { describe, expect, it } from 'vitest'
import { javascriptSource } from '../../bench/documents.ts'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { createLanguageMode, type LanguageMode } from '../../core/language/language-mode.ts'
import { languageSpec } from '../../core/language/languages/index.ts'
import type { LanguageId } from '../../core/language/registry.ts'
import { IncrementalSyntaxTree } from '../../core/language/syntax-tree.ts'

/** Everything a language query answers about `row`, the way the editor asks it. */
function answers(mode: LanguageMode, buffer: TextBuffer, row: number): unknown {
  const length = buffer.lineLengthForRow(row)
  const columns = [...new Set([0, 2, 4, 7, 11, 16, 23, 31, 40, 52, length])].filter((column) => column <= length)
  return {
    scopes: columns.map((column) => mode.scopeDescriptorForPosition([row, column]).getScopesArray().join(' ')),
    nodes: columns.map((column) => mode.syntaxTreeScopeDescriptorForPosition([row, column]).getScopesArray().join(' ')),
    indent: mode.suggestedIndentForBufferRow(row, { tabLength: 2 }),
    decrease: mode.shouldDecreaseIndentForRow(row),
    comment: mode.commentStringsForPosition([row, 2]),
    commented: mode.isRowCommented(row),
  }
}

/** A fresh mode with a tiny budget (every query far down answers from a window) and one with the full tree. */
function pair(id: LanguageId, text: string) {
  const buffer = new TextBuffer({ text })
  const windowed = createLanguageMode(id, buffer, { parseBudget: 1024 })
  const full = createLanguageMode(id, buffer)
  full.getSyntaxTree()
  return { buffer, windowed, full }
}

// Parsing a few hundred KB several times: give the machine time when it is loaded (no timing is asserted).
describe('IncrementalSyntaxTree: a query beyond the work budget answers from a window', { timeout: 60_000 }, () => {
  const text = javascriptSource({ lines: 4000 })
  const parser = languageSpec('javascript')!.parser
  const resumeLine = languageSpec('javascript')!.resumeLine!

  it('parses a window around the position, not the text above it, until the full parse gets there', () => {
    const buffer = new TextBuffer({ text })
    const syntax = new IncrementalSyntaxTree(buffer, parser, { budget: 8 * 1024, resumeLine })
    const middle = Math.floor(buffer.getLength() / 2)
    expect(syntax.isApproximateAt(middle)).toBe(true)
    const tree = syntax.treeAt(middle)
    // No full parse was made, and the window's tree is numbered in buffer offsets.
    expect(syntax.progress()).toBe(null)
    const node = tree.resolveInner(middle, 1)
    expect(node.from).toBeLessThanOrEqual(middle)
    expect(node.to).toBeGreaterThan(middle)
    expect(tree.topNode.firstChild!.from).toBeGreaterThan(middle - 32 * 1024)
    // Near the top the budget suffices: the full parse answers.
    expect(syntax.isApproximateAt(100)).toBe(false)
    syntax.treeAt(100)
    expect(syntax.progress()!.upTo).toBeLessThan(middle)
    expect(syntax.isApproximateAt(middle)).toBe(true)
    // Once the full parse covers the position, it answers.
    syntax.treeUpTo(middle)
    expect(syntax.isApproximateAt(middle)).toBe(false)
    expect(syntax.treeAt(middle)).toBe(syntax.progress()!.tree)
    syntax.destroy()
  })

  it('stays within the budget when the parse is close: it parses on from where it got to', () => {
    const buffer = new TextBuffer({ text })
    const syntax = new IncrementalSyntaxTree(buffer, parser, { budget: 8 * 1024, resumeLine })
    syntax.treeUpTo(40 * 1024)
    expect(syntax.isApproximateAt(44 * 1024)).toBe(false)
    syntax.treeAt(44 * 1024)
    expect(syntax.progress()!.upTo).toBeGreaterThanOrEqual(44 * 1024)
    syntax.destroy()
  })

  it('advance: a driven parse goes on across calls, within each call\'s allowance, to the full tree', () => {
    const buffer = new TextBuffer({ text })
    const syntax = new IncrementalSyntaxTree(buffer, parser, { budget: 8 * 1024, resumeLine })
    let calls = 0
    let reached = false
    let lastUpTo = 0
    while (!reached) {
      let asked = 0
      reached = syntax.advance(Infinity, () => ++asked >= 50)
      calls++
      const upTo = syntax.progress()?.upTo ?? 0
      expect(upTo).toBeGreaterThanOrEqual(lastUpTo)
      lastUpTo = upTo
    }
    expect(calls).toBeGreaterThan(10)
    expect(syntax.progress()!.upTo).toBe(buffer.getLength())
    expect(syntax.isStale()).toBe(false)
    expect(syntax.getTree()).toBe(syntax.progress()!.tree)
    expect(syntax.getTree().toString()).toBe(parser.parse(text).toString())
    syntax.destroy()
  })

  it('drops the window on an edit and parses a new one for the changed text', () => {
    const buffer = new TextBuffer({ text })
    const syntax = new IncrementalSyntaxTree(buffer, parser, { budget: 1024, resumeLine })
    const row = 2000
    const offset = buffer.characterIndexForPosition([row, 4])
    expect(syntax.treeAt(offset).resolveInner(offset, 1).name).not.toBe('BlockComment')
    buffer.insert([row - 1, 0], '/* ')
    buffer.insert([row + 1, 0], ' */')
    const after = buffer.characterIndexForPosition([row, 4])
    expect(syntax.treeAt(after).resolveInner(after, 1).name).toBe('BlockComment')
    syntax.destroy()
  })
})

describe('Window answers match the full parse on realistic code', { timeout: 60_000 }, () => {
  it('JavaScript: scopes, node names, indentation and comments of every row in the middle of 4,000 lines', () => {
    const { buffer, windowed, full } = pair('javascript', javascriptSource({ lines: 4000 }))
    for (let row = 1900; row < 2100; row++) expect(answers(windowed, buffer, row), `row ${row}`).toEqual(answers(full, buffer, row))
    // After edits too (a new function above, a block typed inside one). An unclosed `{` would differ: the full
    // parse nests the rest of the file in it, a window below it does not.
    buffer.insert([1950, 0], 'function added(a) {\n  return a\n}\n')
    buffer.insert([2001, 0], '  if (x) {\n    y()\n  }\n')
    full.getSyntaxTree()
    for (let row = 1940; row < 2060; row++) expect(answers(windowed, buffer, row), `row ${row}`).toEqual(answers(full, buffer, row))
  })

  it('Python and CSS', () => {
    const python = Array.from({ length: 600 }, (_, i) => `# Step ${i}\n@cached\ndef step${i}(x, y=${i}):\n    """Doc ${i}."""\n    if x:\n        return [x, y]  # both\n    return {"k": '${i}'}\n\nclass C${i}(Base):\n    pass\n`).join('')
    const css = Array.from({ length: 600 }, (_, i) => `/* rule ${i} */\n.item-${i} > a:hover,\n#id${i} {\n  color: #${(i % 4096).toString(16).padStart(3, '0')};\n  margin: ${i}px 0;\n}\n@media (max-width: ${i}px) {\n  a { b: c }\n}\n`).join('')
    for (const [id, text] of [['python', python], ['css', css]] as const) {
      const { buffer, windowed, full } = pair(id, text)
      const middle = Math.floor(buffer.getLastRow() / 2)
      for (let row = middle; row < middle + 60; row++) expect(answers(windowed, buffer, row), `${id} row ${row}`).toEqual(answers(full, buffer, row))
    }
  })
})
