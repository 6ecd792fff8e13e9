import { describe, expect, it } from 'vitest'
import { firstCharacterColumn, leadingWhitespaceLength, trailingWhitespaceStart } from '../../core/motions/line.ts'

describe('firstCharacterColumn', () => {
  it('is the column of the first non-whitespace character, or the length when there is none', () => {
    expect(['foo', '  \tfoo', '   ', '', '\u00a0x', ' 😀'].map(firstCharacterColumn)).toEqual([0, 3, 3, 0, 1, 1])
  })
})

describe('leadingWhitespaceLength', () => {
  it('counts the spaces and tabs at the start', () => {
    expect(['foo', ' \t foo', '    ', '', '\u00a0x', ' \u00a0x'].map(leadingWhitespaceLength)).toEqual([0, 3, 4, 0, 0, 1])
  })
})

describe('trailingWhitespaceStart', () => {
  it('is where the spaces and tabs at the end start, or the length when there are none', () => {
    expect(['foo', 'foo \t ', '   ', '', 'x\u00a0', 'a b '].map(trailingWhitespaceStart)).toEqual([3, 3, 0, 0, 2, 3])
  })
})

describe('argument checking', () => {
  it('throws a TypeError for a line that is not a string', () => {
    expect(() => firstCharacterColumn(undefined as never)).toThrow(/line must be a string; got undefined/)
    expect(() => leadingWhitespaceLength(1 as never)).toThrow(TypeError)
    expect(() => trailingWhitespaceStart(null as never)).toThrow(TypeError)
  })
})
