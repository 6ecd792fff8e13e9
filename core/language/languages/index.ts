import type { Parser } from '@lezer/common'
import type { LanguageSpec } from '../language-spec.ts'
import type { LanguageId } from '../registry.ts'
import { css } from './css.ts'
import { html } from './html.ts'
import { javascript, jsx, tsx, typescript } from './javascript.ts'
import { json } from './json.ts'
import { markdown } from './markdown.ts'
import { python } from './python.ts'

const SPECS: Readonly<Record<Exclude<LanguageId, 'text'>, LanguageSpec>> = {
  javascript,
  typescript,
  jsx,
  tsx,
  python,
  json,
  css,
  html,
  markdown,
}

/** The parser, scopes, comments and indentation rules of a language; null for plain text. */
export function languageSpec(id: LanguageId): LanguageSpec | null {
  return id === 'text' ? null : SPECS[id]
}

/** The Lezer parser (nested languages configured) the language mode parses with; null for plain text. */
export function parserForLanguage(id: LanguageId): Parser | null {
  return languageSpec(id)?.parser ?? null
}
