import type { Parser } from '@lezer/common'
import { parser as cssParser } from '@lezer/css'
import { configureNesting, parser as htmlParser } from '@lezer/html'
import { parser as jsParser } from '@lezer/javascript'
import { parser as jsonParser } from '@lezer/json'
import { GFM, parseCode, parser as markdownParser } from '@lezer/markdown'
import { parser as pythonParser } from '@lezer/python'
import type { LanguageId } from '../../core/index.ts'

/**
 * The Lezer parsers the page highlights with, configured as the engine's language modes configure
 * theirs (core/language/languages), so the colours match the engine's scopes. The page parses on its
 * own, in time slices and the visible part first (web/view/progressive-parse.ts); the engine's tree
 * parses the whole document at once, which a 5 MB file cannot afford before input (see the README).
 */

const javascript = jsParser.configure({ dialect: 'jsx' })
const typescript = jsParser.configure({ dialect: 'ts' })
const tsx = jsParser.configure({ dialect: 'ts jsx' })

const html = htmlParser.configure({
  wrap: configureNesting([
    { tag: 'script', attrs: (attrs) => scriptKind(attrs) === 'ts', parser: typescript },
    { tag: 'script', attrs: (attrs) => scriptKind(attrs) === 'js', parser: javascript },
    { tag: 'style', parser: cssParser },
  ]),
})

/** What a <script> holds, from its lang and type attributes (as the engine's HTML mode reads them). */
function scriptKind(attrs: { [name: string]: string }): 'js' | 'ts' | null {
  const lowered = new Map(Object.entries(attrs).map(([name, value]) => [name.toLowerCase(), value.toLowerCase()]))
  const lang = lowered.get('lang')
  const type = lowered.get('type') ?? ''
  if (lang === 'ts' || lang === 'typescript' || /typescript/.test(type)) return 'ts'
  if (type === '' || type === 'module' || /^(text|application)\/(x-)?(java|ecma)script$/.test(type)) return 'js'
  return null
}

const FENCES: readonly (readonly [RegExp, Parser])[] = [
  [/^(js|javascript|mjs|cjs|jsx)$/, javascript],
  [/^(ts|typescript|mts|cts)$/, typescript],
  [/^tsx$/, tsx],
  [/^(py|python)$/, pythonParser],
  [/^json$/, jsonParser],
  [/^css$/, cssParser],
  [/^html?$/, html],
]

const markdown = markdownParser.configure([
  GFM,
  parseCode({
    codeParser: (info) => {
      const word = info.trim().split(/\s+/)[0]!.toLowerCase()
      return FENCES.find(([pattern]) => pattern.test(word))?.[1] ?? null
    },
  }),
])

const PARSERS: Readonly<Record<LanguageId, Parser | null>> = {
  text: null,
  javascript,
  jsx: javascript,
  typescript,
  tsx,
  python: pythonParser,
  json: jsonParser,
  css: cssParser,
  html,
  markdown,
}

export function parserFor(language: LanguageId): Parser | null {
  return PARSERS[language] ?? null
}
