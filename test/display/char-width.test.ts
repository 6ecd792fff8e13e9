import { describe, expect, it } from 'vitest'
import { charWidthAt, isWideCodePoint } from '../../core/display/char-width.ts'

describe('character widths for soft wrap', () => {
  it('counts East Asian wide and fullwidth characters as two', () => {
    expect(['a', 'é', '日', 'ア', '한', 'Ａ', '　', '😀', '𠀀', '→'].map((c) => charWidthAt(c, 0))).toEqual([1, 1, 2, 2, 2, 2, 2, 2, 2, 1])
  })

  it('gives a surrogate pair the width of its code point, on its first half', () => {
    expect([charWidthAt('😀', 0), charWidthAt('😀', 1), charWidthAt('𝐀', 0), charWidthAt('𝐀', 1)]).toEqual([2, 0, 1, 0])
    expect(charWidthAt('\udc00x', 0)).toBe(1)
    expect([isWideCodePoint(0x1100), isWideCodePoint(0x10ff), isWideCodePoint(0x3fffd), isWideCodePoint(0x40000)]).toEqual([true, false, true, false])
  })
})
