import { describe, expect, it } from 'vitest'
import { javascriptSource } from '../../bench/documents.ts'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { languageSpec } from '../../core/language/languages/index.ts'
import { IncrementalSyntaxTree } from '../../core/language/syntax-tree.ts'

// Parsing a few hundred KB in steps: give the machine time when it is loaded (no timing is asserted).
describe('IncrementalSyntaxTree: typing far down moves the full parse towards the edits', { timeout: 60_000 }, () => {
  const spec = languageSpec('javascript')!
  const budget = 8 * 1024

  it('parses nothing in full for a first query, then a quarter budget more with each window an edit dropped', () => {
    const buffer = new TextBuffer({ text: javascriptSource({ lines: 4000 }) })
    const syntax = new IncrementalSyntaxTree(buffer, spec.parser, { budget, resumeLine: spec.resumeLine })
    const middle = Math.floor(buffer.getLength() / 2)
    syntax.treeAt(middle)
    expect(syntax.progress()).toBe(null)
    // A query that reuses the window (no edit in between) parses nothing more either.
    syntax.treeAt(middle + 10)
    expect(syntax.progress()).toBe(null)
    const reached: number[] = []
    let keystrokes = 0
    while (syntax.isApproximateAt(middle)) {
      buffer.insert(buffer.positionForCharacterIndex(middle), ' ')
      syntax.treeAt(middle)
      reached.push(syntax.progress()!.upTo)
      keystrokes++
    }
    console.log(`full parse reached ${middle} after ${keystrokes} keystrokes: ${reached.join(' ')}`)
    for (let i = 0; i < reached.length; i++) {
      expect(reached[i]!).toBeGreaterThanOrEqual((i + 1) * (budget / 4))
      if (i > 0) expect(reached[i]!).toBeGreaterThan(reached[i - 1]!)
    }
    // From then on the full tree answers, and a keystroke re-parses from its edit only.
    expect(syntax.treeAt(middle)).toBe(syntax.progress()!.tree)
    buffer.insert(buffer.positionForCharacterIndex(middle), ' ')
    expect(syntax.isApproximateAt(middle)).toBe(false)
  })

  it('answers from the full tree once it gets there exactly as a full parse does', () => {
    const text = javascriptSource({ lines: 1500 })
    const buffer = new TextBuffer({ text })
    const syntax = new IncrementalSyntaxTree(buffer, spec.parser, { budget, resumeLine: spec.resumeLine })
    const at = Math.floor(buffer.getLength() * 0.8)
    syntax.treeAt(at)
    while (syntax.isApproximateAt(at)) {
      buffer.insert(buffer.positionForCharacterIndex(at), '1;')
      syntax.treeAt(at)
    }
    const reference = spec.parser.parse(buffer.getText())
    const ours = syntax.treeAt(at)
    for (const offset of [0, 1000, Math.floor(at / 2), at, at + 1]) {
      expect(ours.resolveInner(offset, 1).name).toBe(reference.resolveInner(offset, 1).name)
    }
  })
})
