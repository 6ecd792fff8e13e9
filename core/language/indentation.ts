import type { IndentRules } from './language-spec.ts'

/** Options of every indentation query. */
export interface IndentOptions {
  /** Columns per indent level (and per hard tab stop). */
  readonly tabLength: number
  /**
   * Ignore the row's own leading closer: give the level its contents would have (Atom's autoIndentNewline
   * asks for the row's level before the closer is considered separately).
   */
  readonly skipDecrease?: boolean
  /** Measure from the nearest non-blank row above (default, as in Atom) or from the row just above. */
  readonly skipBlankLines?: boolean
}

/** The indent level of `line`'s leading whitespace: spaces count one column, tabs reach the next tab stop. */
export function indentLevelForLine(line: string, tabLength: number): number {
  assertTabLength(tabLength)
  return indentColumnsForLine(line, tabLength) / tabLength
}

/** The width in columns of `line`'s leading whitespace. */
export function indentColumnsForLine(line: string, tabLength: number): number {
  let columns = 0
  for (let i = 0; i < line.length; i++) {
    const char = line[i]
    if (char === '\t') columns += tabLength - (columns % tabLength)
    else if (char === ' ') columns++
    else break
  }
  return columns
}

/** Whitespace for an indent level: spaces with soft tabs; tabs (and spaces for a fraction) with hard tabs. */
export function buildIndentString(level: number, tabLength: number, softTabs: boolean, column = 0): string {
  assertTabLength(tabLength)
  if (typeof level !== 'number' || !Number.isFinite(level) || level < 0) {
    throw new TypeError(`level must be a non-negative number; got ${String(level)}`)
  }
  const columns = Math.round(level * tabLength)
  // Atom's Tab at a column off a tab stop inserts only what reaches the next stop (soft tabs).
  if (softTabs) return ' '.repeat(Math.max(0, columns - (column % tabLength)))
  return '\t'.repeat(Math.floor(columns / tabLength)) + ' '.repeat(columns % tabLength)
}

/** The column (string index) where `line`'s indentation reaches `level`, or where its whitespace ends. */
export function columnForIndentLevel(line: string, level: number, tabLength: number): number {
  const goal = level * tabLength
  let columns = 0
  let index = 0
  while (columns < goal && index < line.length) {
    const char = line[index]
    if (char === '\t') columns += tabLength - (columns % tabLength)
    else if (char === ' ') columns++
    else break
    index++
  }
  return index
}

export function assertTabLength(tabLength: unknown): asserts tabLength is number {
  if (typeof tabLength !== 'number' || !Number.isFinite(tabLength) || tabLength < 1) {
    throw new TypeError(`tabLength must be a positive number; got ${String(tabLength)}`)
  }
}

/** What the indentation rules read from a document. */
export interface IndentSource {
  lineForRow(row: number): string
  /** `row`'s leading whitespace: all an indent level needs, without reading a long row whole. */
  indentationForRow(row: number): string
  isRowBlank(row: number): boolean
  /** The rules of the language at the start of `row`; null keeps the previous line's indentation. */
  rulesForRow(row: number): IndentRules | null
  /** `row`'s text with strings and comments blanked out. */
  codeForRow(row: number): string
  isRowCommented(row: number): boolean
}

function precedingRow(source: IndentSource, row: number, skipBlankLines: boolean): number | null {
  if (!skipBlankLines) return row > 0 ? row - 1 : null
  for (let r = row - 1; r >= 0; r--) if (!source.isRowBlank(r)) return r
  return null
}

/**
 * Atom's suggested indent level for `row` holding `line`: the level of the row above (the nearest non-blank one
 * unless `skipBlankLines` is false), one deeper when that row opens a block (and is not a comment), one
 * shallower when `line` starts with a closer. Languages without rules keep the level above.
 */
export function suggestedIndentLevel(source: IndentSource, row: number, line: string, code: string, options: IndentOptions): number {
  const { tabLength } = options
  const above = precedingRow(source, row, options.skipBlankLines !== false)
  if (above === null) return 0
  const aboveLine = source.lineForRow(above)
  let level = indentLevelForLine(aboveLine, tabLength)
  const aboveRules = source.rulesForRow(above)
  const rules = source.rulesForRow(row)
  if (!aboveRules && !rules) return level
  if (aboveRules && !source.isRowCommented(above) && aboveRules.increase(aboveLine, source.codeForRow(above))) level += 1
  if (rules && !options.skipDecrease && !source.isRowBlank(above) && rules.decrease(line, code)) level -= 1
  return Math.max(level, 0)
}

/**
 * Atom's indent for a row being typed on when it starts with a closer: the level it should drop to, or
 * undefined when it should stay (not a closer, already shallow enough, or at level 0).
 */
export function decreasedIndentLevel(source: IndentSource, row: number, options: IndentOptions): number | undefined {
  const { tabLength } = options
  // Rules first: a language without them (plain text) never reads the row, which may be a 1 MB line
  // typed on at every keystroke.
  const rules = source.rulesForRow(row)
  if (!rules) return undefined
  const current = indentLevelForLine(source.indentationForRow(row), tabLength)
  if (current === 0) return undefined
  if (!rules.decrease(source.lineForRow(row), source.codeForRow(row))) return undefined
  const above = precedingRow(source, row, true)
  if (above === null) return undefined
  const aboveLine = source.lineForRow(above)
  let level = indentLevelForLine(aboveLine, tabLength)
  const aboveRules = source.rulesForRow(above)
  if (aboveRules && !aboveRules.increase(aboveLine, source.codeForRow(above))) level -= 1
  if (level < 0) return 0
  return level < current ? level : undefined
}
