/** Atom's default `editor.nonWordCharacters`. */
export const DEFAULT_NON_WORD_CHARACTERS = "/\\()\"':,.;<>~!@#$%^&*|+=[]{}`?-…"

/**
 * Escapes characters for use inside a `[...]` class of a `u`-flag RegExp. Only `\`, `]`, `[`, `^` and
 * `-` are special there, and the `u` flag forbids escaping anything else.
 */
export function escapeForCharacterClass(characters: string): string {
  return characters.replace(/[\\\][^-]/g, '\\$&')
}

function assertNonWordCharacters(nonWordCharacters: unknown): asserts nonWordCharacters is string {
  if (typeof nonWordCharacters !== 'string') {
    throw new TypeError(`nonWordCharacters must be a string; got ${typeof nonWordCharacters}`)
  }
}

/**
 * Atom's `Cursor#wordRegExp`: a whitespace-only (or empty) line, a run of word characters (neither
 * whitespace nor non-word characters) or, unless `includeNonWordCharacters` is false, a run of non-word
 * characters. The `u` flag keeps surrogate pairs whole.
 */
export function wordRegExp(nonWordCharacters: string, options: { includeNonWordCharacters?: boolean } = {}): RegExp {
  assertNonWordCharacters(nonWordCharacters)
  const escaped = escapeForCharacterClass(nonWordCharacters)
  let source = `^[\\t ]*$|[^\\s${escaped}]+`
  if (options.includeNonWordCharacters !== false) source += `|[${escaped}]+`
  return new RegExp(source, 'gu')
}

const LOWERCASE_LETTERS = 'a-z\\u00DF-\\u00F6\\u00F8-\\u00FF'
const UPPERCASE_LETTERS = 'A-Z\\u00C0-\\u00D6\\u00D8-\\u00DE'

/**
 * Atom's `Cursor#subwordRegExp`: leading or trailing blanks, an upper-case run not followed by a
 * lower-case letter, digits, a camelCase hump with the underscores before it (after it when `backwards`),
 * non-word characters with the whitespace before them (after them when `backwards`), or underscores.
 * Letters are ASCII and Latin-1, as in Atom.
 */
export function subwordRegExp(nonWordCharacters: string, options: { backwards?: boolean } = {}): RegExp {
  assertNonWordCharacters(nonWordCharacters)
  const escaped = escapeForCharacterClass(nonWordCharacters)
  const hump = `[${UPPERCASE_LETTERS}]?[${LOWERCASE_LETTERS}]+`
  const segments = ['^[\\t ]+', '[\\t ]+$', `[${UPPERCASE_LETTERS}]+(?![${LOWERCASE_LETTERS}])`, '\\d+']
  if (options.backwards) {
    segments.push(`${hump}_*`, `[${escaped}]+\\s*`)
  } else {
    segments.push(`_*${hump}`, `\\s*[${escaped}]+`)
  }
  segments.push('_+')
  return new RegExp(segments.join('|'), 'gu')
}
