/** The indentation level of a line's leading whitespace: tabs count a whole level, spaces 1/tabLength. */
export function indentLevelForLine(line: string, tabLength: number): number {
  let spaces = 0
  for (let i = 0; i < line.length; i++) {
    const ch = line.charCodeAt(i)
    if (ch === 32) spaces++
    else if (ch === 9) spaces += tabLength - (spaces % tabLength)
    else break
  }
  return spaces / tabLength
}

/**
 * The text for `level` levels of indentation. With soft tabs and a starting `column`, the first
 * level only fills up to the next tab stop (Atom's buildIndentString).
 */
export function buildIndentString(level: number, tabLength: number, softTabs: boolean, column = 0): string {
  if (softTabs) {
    const excess = column % tabLength
    return ' '.repeat(Math.max(0, Math.floor(level * tabLength) - excess))
  }
  const whole = Math.floor(level)
  const fraction = level - whole
  return '\t'.repeat(whole) + ' '.repeat(Math.round(fraction * tabLength))
}

/** Length of the leading whitespace of a line. */
export function leadingWhitespace(line: string): string {
  return /^[\t ]*/.exec(line)![0]
}
