import { isHighSurrogate, isLowSurrogate } from '../point/unicode.ts'
/**
 * How many columns a character counts toward the soft-wrap width. Screen columns stay one per UTF-16
 * code unit (API.md: columns are code units); only the wrap decision uses these widths, as Atom's
 * `ratioForCharacter` does. East Asian Wide and Fullwidth characters count 2, everything else 1;
 * the low half of a surrogate pair counts 0 so that the pair's width is its code point's.
 * The table approximates Unicode's EastAsianWidth W/F classes: the blocks an editor meets in practice.
 */

// Sorted, non-overlapping [first, last] code point ranges that are wide.
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18aff],
  [0x1b000, 0x1b2ff],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f251],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
]

/** True when the code point is East Asian Wide or Fullwidth. */
export function isWideCodePoint(codePoint: number): boolean {
  if (codePoint < 0x1100) return false
  let lo = 0
  let hi = WIDE_RANGES.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const [first, last] = WIDE_RANGES[mid]!
    if (codePoint < first) hi = mid - 1
    else if (codePoint > last) lo = mid + 1
    else return true
  }
  return false
}


/** Wrap width of the code unit at `index` of `text` (not a tab: tabs depend on the column). */
export function charWidthAt(text: string, index: number): number {
  const code = text.charCodeAt(index)
  if (code < 0x1100) return 1
  if (isHighSurrogate(code)) {
    const next = text.charCodeAt(index + 1)
    if (isLowSurrogate(next)) return isWideCodePoint((code - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000) ? 2 : 1
    return 1
  }
  if (isLowSurrogate(code)) return index > 0 && isHighSurrogate(text.charCodeAt(index - 1)) ? 0 : 1
  return isWideCodePoint(code) ? 2 : 1
}
