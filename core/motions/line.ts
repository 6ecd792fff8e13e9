/*
 * Column helpers for one row of text. "Whitespace" for the first character follows JavaScript's `\S`
 * (as Atom's `hasPrecedingCharactersOnLine`); indentation and trailing whitespace are spaces and tabs
 * only (as Atom's `skipLeadingWhitespace` and `joinLines`).
 */

function assertLine(line: unknown): asserts line is string {
  if (typeof line !== 'string') throw new TypeError(`line must be a string; got ${typeof line}`)
}

/** Column of the first non-whitespace character, or the line's length when there is none. */
export function firstCharacterColumn(line: string): number {
  assertLine(line)
  const column = line.search(/\S/)
  return column === -1 ? line.length : column
}

/** Length of the run of spaces and tabs at the start of the line. */
export function leadingWhitespaceLength(line: string): number {
  assertLine(line)
  let column = 0
  while (column < line.length && (line[column] === ' ' || line[column] === '\t')) column++
  return column
}

/** Column where the run of spaces and tabs at the end of the line starts (the line's length when none). */
export function trailingWhitespaceStart(line: string): number {
  assertLine(line)
  let column = line.length
  while (column > 0 && (line[column - 1] === ' ' || line[column - 1] === '\t')) column--
  return column
}
