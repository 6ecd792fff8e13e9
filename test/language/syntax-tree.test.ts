import type { Parser, Tree } from '@lezer/common'
import { parser as javascriptParser } from '@lezer/javascript'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import type { TextChange } from '../../core/buffer/text-change.ts'
import { languageSpec } from '../../core/language/languages/index.ts'
import { createLanguageMode, type LanguageMode } from '../../core/language/language-mode.ts'
import type { LanguageId } from '../../core/language/registry.ts'
import { changedRanges, IncrementalSyntaxTree } from '../../core/language/syntax-tree.ts'
import { fuzzSeeds, Random } from '../helpers/random.ts'

/** Every node of a tree, nested languages included, with its range. */
function shape(tree: Tree): string {
  const nodes: string[] = []
  tree.iterate({ enter: (node) => void nodes.push(`${node.name}@${node.from}-${node.to}`) })
  return nodes.join(' ')
}

function freshShape(id: LanguageId, text: string): string {
  return shape(languageSpec(id)!.parser.parse(text))
}

/** A parser that counts the parses it starts. */
function countingParser(inner: Parser): { parser: Parser; count: () => number } {
  let count = 0
  const parser = Object.create(inner) as Parser
  parser.createParse = (...args) => {
    count++
    return inner.createParse(...args)
  }
  return { parser, count: () => count }
}

const SNIPPETS: Readonly<Record<string, readonly string[]>> = {
  javascript: ['{', '}', '(', ')', '"', "'", '`', '${', '//', '/*', '*/', '\n', 'if (a) ', 'function f() ', 'x = 1;', ' ', '<div>', '</div>', 'return ', '[', ']'],
  python: [':', '\n', '    ', 'def f(x)', 'if a', '"""', '"', "'", '#', '(', ')', '[', ']', 'x = 1', 'return ', 'class C', ' '],
  json: ['{', '}', '[', ']', '"a"', ':', ',', '1', 'true', 'null', '\n', ' ', '"'],
  css: ['a', '{', '}', 'color', ':', 'red', ';', '/*', '*/', '\n', '@media', '(', ')', '.b', '#c', '"', ' '],
  html: ['<div>', '</div>', '<script>', '</script>', '<style>', '</style>', '<!--', '-->', 'if (a) {', '}', 'a { b: c }', '\n', '"', ' x="1"', '&amp;', '<'],
  markdown: ['# ', '**', '*', '`', '```js\n', '```\n', '\n', '> ', '- ', '[a](b)', 'text ', 'let x = 1\n', '<!-- ', ' -->'],
}

const SEEDS: Readonly<Record<string, string>> = {
  javascript: 'function f(a) {\n  return a + 1 // one\n}\nconst s = `t${x}`\n',
  python: 'def f(a):\n    """doc"""\n    return a\n\nclass C:\n    pass\n',
  json: '{\n  "a": [1, 2],\n  "b": {"c": null}\n}\n',
  css: 'a { color: red; }\n/* c */\n@media screen { b { x: y } }\n',
  html: '<div class="a">\n<script>\nif (x) { y() }\n</script>\n<style>a { b: c }</style>\n</div>\n',
  markdown: '# Title\n\nSome *text*.\n\n```js\nlet x = 1\n```\n',
}

function randomEdit(random: Random, buffer: TextBuffer, snippets: readonly string[]): void {
  const length = buffer.getLength()
  const start = random.int(length + 1)
  const end = random.bool(0.4) ? Math.min(length, start + random.int(8)) : start
  const text = random.bool(0.85) ? random.string(3, snippets) : ''
  buffer.setTextInRange([buffer.positionForCharacterIndex(start), buffer.positionForCharacterIndex(end)], text)
}

describe('changedRanges', () => {
  const change = (startOffset: number, oldLength: number, newLength: number) => ({ startOffset, oldLength, newLength }) as TextChange

  it('converts ordered changes to old and new coordinates', () => {
    expect(changedRanges([change(2, 3, 1), change(5, 0, 4), change(20, 2, 0)])).toEqual([
      { fromA: 2, toA: 5, fromB: 2, toB: 3 },
      { fromA: 7, toA: 7, fromB: 5, toB: 9 },
      { fromA: 18, toA: 20, fromB: 20, toB: 20 },
    ])
  })

  it('refuses changes that are not left to right', () => {
    expect(changedRanges([change(10, 0, 1), change(3, 0, 1)])).toBe(null)
  })
})

describe('IncrementalSyntaxTree', () => {
  it('parses lazily: once for a burst of edits, on the next query', () => {
    const buffer = new TextBuffer({ text: 'let a = 1\n' })
    const { parser, count } = countingParser(javascriptParser)
    const syntax = new IncrementalSyntaxTree(buffer, parser)
    expect(count()).toBe(0)
    syntax.getTree()
    expect(count()).toBe(1)
    for (const char of 'let b = 2') buffer.append(char)
    expect(syntax.isStale()).toBe(true)
    expect(count()).toBe(1)
    expect(shape(syntax.getTree())).toBe(shape(javascriptParser.parse(buffer.getText())))
    syntax.getTree()
    expect(count()).toBe(2)
    expect(syntax.isStale()).toBe(false)
  })

  it('reuses the subtrees an edit did not touch, for local and remote edits', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `function f${i}(a) { return a * ${i} }`).join('\n')
    const local = new Y.Doc()
    const remote = new Y.Doc()
    local.on('update', (update: Uint8Array) => Y.applyUpdate(remote, update))
    const buffer = new TextBuffer({ ytext: local.getText('text'), text })
    const remoteBuffer = new TextBuffer({ ytext: remote.getText('text') })
    for (const [target, edited] of [[buffer, buffer], [remoteBuffer, buffer]] as const) {
      const syntax = new IncrementalSyntaxTree(target, javascriptParser)
      const before = syntax.getTree()
      edited.insert([500, 20], 'x')
      const after = syntax.getTree()
      expect(reusedFraction(before, after)).toBeGreaterThan(0.9)
      expect(shape(after)).toBe(shape(javascriptParser.parse(target.getText())))
      syntax.destroy()
    }
  })

  it('parses again after a deletion at the end of the text, down to an empty text', () => {
    // Found with FUZZ_RUNS=100: the tree kept the deleted tail, as all of the shorter text counted as parsed.
    const buffer = new TextBuffer({ text: 'const s = `t${x}`\nlet y = 1\n' })
    const syntax = new IncrementalSyntaxTree(buffer, javascriptParser)
    expect(syntax.getTree().length).toBe(28)
    buffer.delete([[1, 0], [2, 0]])
    expect(syntax.isStale()).toBe(true)
    expect(syntax.getTree().length).toBe(18)
    expect(shape(syntax.getTree())).toBe(shape(javascriptParser.parse('const s = `t${x}`\n')))
    buffer.delete([[0, 12], [1, 0]])
    expect(shape(syntax.getTree())).toBe(shape(javascriptParser.parse('const s = `t')))
    expect(syntax.progress()!.upTo).toBe(12)
    buffer.setText('')
    expect(syntax.progress()!.upTo).toBe(0)
    expect(syntax.getTree().length).toBe(0)
    expect(syntax.isStale()).toBe(false)
  })

  it('stops following the buffer once destroyed', () => {
    const buffer = new TextBuffer({ text: 'a' })
    const syntax = new IncrementalSyntaxTree(buffer, javascriptParser)
    syntax.getTree()
    syntax.destroy()
    buffer.append('b')
    expect(syntax.isStale()).toBe(false)
  })
})

/** The share of the new tree's text covered by tree objects taken over from the old tree. */
function reusedFraction(before: Tree, after: Tree): number {
  const old = new Set<unknown>()
  const collect = (tree: Tree) => {
    for (const child of tree.children) {
      old.add(child)
      if ('children' in child && 'type' in child) collect(child as Tree)
    }
  }
  collect(before)
  let reused = 0
  const walk = (tree: Tree) => {
    for (const child of tree.children) {
      if (old.has(child)) reused += child.length
      else if ('children' in child && 'type' in child) walk(child as Tree)
    }
  }
  walk(after)
  return reused / after.length
}

describe('incremental parse equals a fresh parse after random edits', () => {
  for (const id of Object.keys(SNIPPETS) as LanguageId[]) {
    it(`${id}: local edits, one query per edit`, () => {
      for (const seed of fuzzSeeds(4)) {
        const random = new Random(seed)
        const buffer = new TextBuffer({ text: SEEDS[id] })
        const mode: LanguageMode = createLanguageMode(id, buffer)
        for (let step = 0; step < 25; step++) {
          randomEdit(random, buffer, SNIPPETS[id]!)
          if (random.bool(0.7)) {
            expect(shape(mode.getSyntaxTree()!), `${id} seed ${seed} step ${step}`).toBe(freshShape(id, buffer.getText()))
          }
        }
        expect(shape(mode.getSyntaxTree()!), `${id} seed ${seed} final`).toBe(freshShape(id, buffer.getText()))
      }
    })
  }

  // Seeded fuzz with a fresh parse per round: time enough on a loaded machine (no timing is asserted).
  it('remote transactions with several changes, concurrent with local edits', { timeout: 60_000 }, () => {
    for (const seed of fuzzSeeds(6)) {
      const random = new Random(seed)
      const mine = new Y.Doc()
      const theirs = new Y.Doc()
      const buffer = new TextBuffer({ ytext: mine.getText('text'), text: SEEDS.javascript })
      Y.applyUpdate(theirs, Y.encodeStateAsUpdate(mine))
      const peer = new TextBuffer({ ytext: theirs.getText('text') })
      const mode = createLanguageMode('javascript', buffer)
      mode.getSyntaxTree()
      for (let round = 0; round < 12; round++) {
        const before = Y.encodeStateVector(theirs)
        peer.transact(() => {
          for (let i = 0; i < 1 + random.int(4); i++) randomEdit(random, peer, SNIPPETS.javascript!)
        })
        if (random.bool(0.5)) randomEdit(random, buffer, SNIPPETS.javascript!)
        Y.applyUpdate(mine, Y.encodeStateAsUpdate(theirs, before))
        Y.applyUpdate(theirs, Y.encodeStateAsUpdate(mine))
        expect(buffer.getText(), `seed ${seed} round ${round}`).toBe(peer.getText())
        expect(shape(mode.getSyntaxTree()!), `seed ${seed} round ${round}`).toBe(freshShape('javascript', buffer.getText()))
      }
    }
  })
})

// Full parses of 4,000 functions: time enough on a loaded machine (no timing is asserted).
describe('IncrementalSyntaxTree, lazily', { timeout: 60_000 }, () => {
  const bigText = (blocks: number) => Array.from({ length: blocks }, (_, i) => `function f${i}(a, b) {\n  // note ${i}\n  return \`${i}\` + (a, b) => a\n}`).join('\n')

  it('parses only up to what a query needs, then on from there; the whole tree when asked for it', () => {
    const buffer = new TextBuffer({ text: bigText(4000) })
    const syntax = new IncrementalSyntaxTree(buffer, javascriptParser)
    const top = syntax.treeUpTo(10)
    expect(top.length).toBeLessThan(buffer.getLength() / 4)
    expect(syntax.isStale()).toBe(true)
    const middle = Math.floor(buffer.getLength() / 2)
    expect(syntax.treeUpTo(middle).length).toBeGreaterThan(middle)
    const full = syntax.getTree()
    expect(full.length).toBe(buffer.getLength())
    expect(syntax.isStale()).toBe(false)
    expect(shape(full)).toBe(shape(javascriptParser.parse(buffer.getText())))
  })

  it('answers scopes, indentation and comments near the top as a full parse does, after edits too', () => {
    const buffer = new TextBuffer({ text: bigText(4000) })
    const lazy = createLanguageMode('javascript', buffer)
    const eager = createLanguageMode('javascript', buffer)
    eager.getSyntaxTree()
    const check = () => {
      for (let row = 0; row < 40; row++) {
        for (const column of [0, 3, 9, 14, 20]) {
          expect(lazy.scopeDescriptorForPosition([row, column]).getScopesArray(), `${row}:${column}`).toEqual(eager.scopeDescriptorForPosition([row, column]).getScopesArray())
        }
        expect(lazy.suggestedIndentForBufferRow(row, { tabLength: 2 })).toBe(eager.suggestedIndentForBufferRow(row, { tabLength: 2 }))
        expect(lazy.commentStringsForPosition([row, 2])).toEqual(eager.commentStringsForPosition([row, 2]))
        expect(lazy.isRowCommented(row)).toBe(eager.isRowCommented(row))
      }
    }
    check()
    buffer.insert([2, 0], '/* ')
    buffer.insert([6, 0], ' */')
    check()
    expect(lazy.getSyntaxTree()!.length).toBe(buffer.getLength())
    lazy.destroy()
    eager.destroy()
  })
})
