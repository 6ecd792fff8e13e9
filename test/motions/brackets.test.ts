import { describe, expect, it } from 'vitest'
import { bracketPairAt, isInsideEmptyPair, linesOf, typedBracketAction } from '../../core/motions/index.ts'

const pair = (text: string, row: number, column: number) => {
  const found = bracketPairAt(linesOf(text), [row, column])
  return found === null ? null : { bracket: found.bracket.toArray(), match: found.match?.toArray() ?? null }
}

describe('bracketPairAt', () => {
  it('takes the bracket after the cursor first, then the one before, and finds its partner across rows', () => {
    const text = 'f(a, [b]) {\n  g(c)\n}'
    expect(pair(text, 0, 1)).toEqual({ bracket: [0, 1], match: [0, 8] })
    expect(pair(text, 0, 9)).toEqual({ bracket: [0, 8], match: [0, 1] })
    expect(pair(text, 0, 5)).toEqual({ bracket: [0, 5], match: [0, 7] })
    expect(pair(text, 0, 10)).toEqual({ bracket: [0, 10], match: [2, 0] })
    expect(pair(text, 2, 0)).toEqual({ bracket: [2, 0], match: [0, 10] })
    expect(pair(text, 2, 1)).toEqual({ bracket: [2, 0], match: [0, 10] })
  })

  it('counts nested brackets of the same kind, and says when there is no partner or no bracket', () => {
    expect(pair('((a)(b))', 0, 0)).toEqual({ bracket: [0, 0], match: [0, 7] })
    expect(pair('((a)(b))', 0, 4)).toEqual({ bracket: [0, 4], match: [0, 6] })
    expect(pair('(a', 0, 0)).toEqual({ bracket: [0, 0], match: null })
    expect(pair('abc', 0, 1)).toBeNull()
    expect(pair('', 0, 0)).toBeNull()
    expect(pair('a', 5, 0)).toBeNull()
  })

  it('stops looking after the rows it may scan', () => {
    const text = `{${'\n'.repeat(5)}}`
    expect(bracketPairAt(linesOf(text), [0, 0], 4)?.match).toBeNull()
    expect(bracketPairAt(linesOf(text), [0, 0], 5)?.match?.toArray()).toEqual([5, 0])
  })
})

describe('typedBracketAction (bracket-matcher defaults)', () => {
  const action = (line: string, column: number, typed: string) => typedBracketAction(linesOf(line), [0, column], typed)

  it('closes an opening bracket unless a word follows', () => {
    expect(action('', 0, '(')).toEqual({ kind: 'close', closer: ')' })
    expect(action('a ', 2, '[')).toEqual({ kind: 'close', closer: ']' })
    expect(action('x)', 1, '{')).toEqual({ kind: 'close', closer: '}' })
    expect(action('word', 0, '(')).toEqual({ kind: 'type' })
  })

  it('closes a quote only between non-word characters, not after a quote or a backslash', () => {
    expect(action('a = ', 4, '"')).toEqual({ kind: 'close', closer: '"' })
    expect(action("f(", 2, "'")).toEqual({ kind: 'close', closer: "'" })
    expect(action('don', 3, "'")).toEqual({ kind: 'type' })
    expect(action('a x', 2, '`')).toEqual({ kind: 'type' })
    expect(action('""', 2, '"')).toEqual({ kind: 'type' })
    expect(action('\\', 1, '(')).toEqual({ kind: 'type' })
  })

  it('steps over the same closer or quote, and types anything else', () => {
    expect(action('()', 1, ')')).toEqual({ kind: 'step-over' })
    expect(action('""', 1, '"')).toEqual({ kind: 'step-over' })
    expect(action('(]', 1, ')')).toEqual({ kind: 'type' })
    expect(action('a', 1, 'b')).toEqual({ kind: 'type' })
    expect(action('"\\"', 2, '"')).toEqual({ kind: 'type' })
  })
})

describe('isInsideEmptyPair', () => {
  it('is true between an opener and its closer only', () => {
    const inside = (line: string, column: number) => isInsideEmptyPair(linesOf(line), [0, column])
    expect([inside('()', 1), inside('[]', 1), inside('""', 1), inside("''", 1), inside('``', 1)]).toEqual([true, true, true, true, true])
    expect([inside('(]', 1), inside('()', 0), inside('()', 2), inside('(a)', 1), inside('', 0)]).toEqual([false, false, false, false, false])
  })
})
