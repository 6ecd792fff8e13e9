import { Point, type PointLike } from '../point/point.ts'
import type { LineSource } from './line-source.ts'

/**
 * Brackets as Atom's bracket-matcher package sees them, as pure functions of the text: the pair at a
 * cursor, and what typing or deleting a bracket or a quote should do (its default settings:
 * autocompleteBrackets, autocompleteSmartQuotes on, the characters `() [] {} "" '' \`\``).
 */

/** Opening bracket -> closing bracket, for matching. */
export const BRACKET_PAIRS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' }
/** Opening character -> the one typed after it automatically (bracket-matcher's autocompleteCharacters). */
export const AUTO_CLOSE_PAIRS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}', '"': '"', "'": "'", '`': '`' }
/** How far a match is searched for, in rows, as bracket-matcher's MAX_ROWS_TO_SCAN. */
export const MAX_ROWS_TO_SCAN = 10_000

const CLOSER_TO_OPENER: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(BRACKET_PAIRS).map(([open, close]) => [close, open]))
const CLOSERS = new Set(Object.values(AUTO_CLOSE_PAIRS))
const WORD = /\w/

/** A bracket next to a position and the bracket it pairs with (null when unmatched within the scan). */
export interface BracketPair {
  bracket: Point
  match: Point | null
}

/**
 * The bracket at `position` (the character after it, else the one before, as bracket-matcher looks)
 * and its partner, counting nested brackets of the same kind; null when neither neighbour is one.
 */
export function bracketPairAt(lines: LineSource, position: PointLike, maxRows = MAX_ROWS_TO_SCAN): BracketPair | null {
  const { row, column } = Point.fromObject(position)
  const text = lines.lineForRow(row)
  if (text === undefined) return null
  for (const at of [column, column - 1]) {
    const character = text[at]
    if (character === undefined || at < 0) continue
    if (BRACKET_PAIRS[character] !== undefined) return { bracket: new Point(row, at), match: scan(lines, row, at, character, BRACKET_PAIRS[character]!, 1, maxRows) }
    if (CLOSER_TO_OPENER[character] !== undefined) return { bracket: new Point(row, at), match: scan(lines, row, at, character, CLOSER_TO_OPENER[character]!, -1, maxRows) }
  }
  return null
}

/** Walks from the bracket at (row, column) in `direction` to the partner that brings the depth to 0. */
function scan(lines: LineSource, row: number, column: number, self: string, partner: string, direction: 1 | -1, maxRows: number): Point | null {
  let depth = 1
  const lastRow = Math.min(lines.getLineCount() - 1, row + maxRows)
  const firstRow = Math.max(0, row - maxRows)
  for (let r = row; direction === 1 ? r <= lastRow : r >= firstRow; r += direction) {
    const text = lines.lineForRow(r) ?? ''
    let c = r === row ? column + direction : direction === 1 ? 0 : text.length - 1
    for (; c >= 0 && c < text.length; c += direction) {
      const character = text[c]
      if (character === self) depth++
      else if (character === partner && --depth === 0) return new Point(r, c)
    }
  }
  return null
}

/** What typing one character at an empty cursor should do. */
export type TypedBracketAction =
  /** Type it and its closer, the cursor between them. */
  | { kind: 'close'; closer: string }
  /** The same character is next: move over it instead of typing it. */
  | { kind: 'step-over' }
  /** Just type it. */
  | { kind: 'type' }

/**
 * bracket-matcher's rules for a character typed at `position`: a closer (or a quote) typed just
 * before the same character steps over it; an opening bracket is closed unless a word character
 * follows; a quote is closed only between non-word characters and not right after another quote
 * or a backslash.
 */
export function typedBracketAction(lines: LineSource, position: PointLike, typed: string): TypedBracketAction {
  const { row, column } = Point.fromObject(position)
  const text = lines.lineForRow(row) ?? ''
  const before = text[column - 1] ?? ''
  const after = text[column] ?? ''
  if (before === '\\') return { kind: 'type' }
  if (CLOSERS.has(typed) && after === typed) return { kind: 'step-over' }
  const closer = AUTO_CLOSE_PAIRS[typed]
  if (closer === undefined) return { kind: 'type' }
  if (WORD.test(after)) return { kind: 'type' }
  if (closer === typed) {
    // A quote: not inside or after a word, not after another quote.
    if (WORD.test(before) || before === '"' || before === "'" || before === '`') return { kind: 'type' }
  }
  return { kind: 'close', closer }
}

/** Whether `position` sits between an opening character and its closer (`(|)`, `"|"`): Backspace removes both. */
export function isInsideEmptyPair(lines: LineSource, position: PointLike): boolean {
  const { row, column } = Point.fromObject(position)
  const text = lines.lineForRow(row) ?? ''
  const before = text[column - 1]
  return before !== undefined && AUTO_CLOSE_PAIRS[before] !== undefined && AUTO_CLOSE_PAIRS[before] === text[column]
}
