import { describe, expect, it } from 'vitest'
import {
  clipColumn,
  clipToCluster,
  isClusterBoundary,
  nextClusterBoundary,
  previousClusterBoundary,
  splitsSurrogatePair,
} from '../../core/point/unicode.ts'

// e + combining acute | x | thumbs up + skin tone | y | French flag | z | family (ZWJ) | q | 한 | ᄀ + ᅡ | r | ❤ + VS16 | s
const TEXT = 'e\u0301x👍🏽y🇫🇷z👨‍👩‍👧q한\u1100\u1161r❤\ufe0fs'
const BOUNDARIES = [0, 2, 3, 7, 8, 12, 13, 21, 22, 23, 25, 26, 28, 29]

describe('grapheme clusters', () => {
  it('finds the boundaries of marks, modifiers, flags, ZWJ sequences, Hangul and variation sequences', () => {
    expect(TEXT.length).toBe(29)
    const boundaries = []
    for (let column = 0; column <= TEXT.length; column++) if (isClusterBoundary(TEXT, column)) boundaries.push(column)
    expect(boundaries).toEqual(BOUNDARIES)
  })

  it('steps over one whole cluster each way', () => {
    const forward = [0]
    while (forward[forward.length - 1]! < TEXT.length) forward.push(nextClusterBoundary(TEXT, forward[forward.length - 1]!))
    expect(forward).toEqual(BOUNDARIES)
    const backward = [TEXT.length]
    while (backward[backward.length - 1]! > 0) backward.push(previousClusterBoundary(TEXT, backward[backward.length - 1]!))
    expect(backward).toEqual([...BOUNDARIES].reverse())
  })

  it('steps from a column inside a cluster to that cluster’s ends', () => {
    expect(previousClusterBoundary(TEXT, 16)).toBe(13)
    expect(nextClusterBoundary(TEXT, 16)).toBe(21)
    expect([clipToCluster(TEXT, 16, 'backward'), clipToCluster(TEXT, 16, 'forward'), clipToCluster(TEXT, 19, 'closest')]).toEqual([13, 21, 21])
    expect(clipToCluster(TEXT, 1, 'closest')).toBe(0)
  })

  it('treats plain text, CJK and single emoji as one cluster per character', () => {
    const text = 'ab日本😀c'
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((c) => isClusterBoundary(text, c))).toEqual([true, true, true, true, true, false, true, true])
  })
})

describe('surrogate pairs and column clipping', () => {
  it('never leaves a column between the halves of a pair', () => {
    expect(splitsSurrogatePair('a😀b', 2)).toBe(true)
    expect([clipColumn('a😀b', 2), clipColumn('a😀b', 2, 'forward'), clipColumn('a😀b', 2, 'closest')]).toEqual([1, 3, 1])
  })

  it('clips into the content, NaN and negatives to 0', () => {
    expect([clipColumn('abc\r\n', 9, 'backward', 3), clipColumn('abc', Number.NaN), clipColumn('abc', -2), clipColumn('abc', 1.7)]).toEqual([3, 0, 0, 1])
  })
})
