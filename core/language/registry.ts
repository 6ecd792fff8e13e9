/** Every language the engine knows; 'text' is plain text, the default. */
export const LANGUAGE_IDS = ['text', 'javascript', 'typescript', 'jsx', 'tsx', 'python', 'json', 'css', 'html', 'markdown'] as const

export type LanguageId = (typeof LANGUAGE_IDS)[number]

export interface LanguageInfo {
  readonly id: LanguageId
  /** A human name for menus ("JavaScript"). */
  readonly name: string
  /** The TextMate root scope Atom's grammar gives the language. */
  readonly rootScope: string
  /** File extensions (lower case, without the dot) detected as this language. */
  readonly extensions: readonly string[]
}

const INFO: Readonly<Record<LanguageId, LanguageInfo>> = {
  text: { id: 'text', name: 'Plain Text', rootScope: 'text.plain', extensions: ['txt', 'text'] },
  javascript: { id: 'javascript', name: 'JavaScript', rootScope: 'source.js', extensions: ['js', 'mjs', 'cjs', 'es6'] },
  typescript: { id: 'typescript', name: 'TypeScript', rootScope: 'source.ts', extensions: ['ts', 'mts', 'cts'] },
  jsx: { id: 'jsx', name: 'JavaScript (JSX)', rootScope: 'source.js.jsx', extensions: ['jsx'] },
  tsx: { id: 'tsx', name: 'TypeScript (TSX)', rootScope: 'source.tsx', extensions: ['tsx'] },
  python: { id: 'python', name: 'Python', rootScope: 'source.python', extensions: ['py', 'pyw', 'pyi'] },
  json: { id: 'json', name: 'JSON', rootScope: 'source.json', extensions: ['json', 'jsonc', 'webmanifest'] },
  css: { id: 'css', name: 'CSS', rootScope: 'source.css', extensions: ['css'] },
  html: { id: 'html', name: 'HTML', rootScope: 'text.html.basic', extensions: ['html', 'htm', 'xhtml'] },
  markdown: { id: 'markdown', name: 'Markdown', rootScope: 'source.gfm', extensions: ['md', 'markdown', 'mdown', 'mkd'] },
}

export function isLanguageId(id: unknown): id is LanguageId {
  return typeof id === 'string' && Object.prototype.hasOwnProperty.call(INFO, id)
}

/** Name, root scope and extensions of a language; throws a TypeError for an unknown id. */
export function languageInfo(id: LanguageId): LanguageInfo {
  if (!isLanguageId(id)) throw new TypeError(`language must be one of ${LANGUAGE_IDS.join(', ')}; got ${String(id)}`)
  return INFO[id]
}

/**
 * The language of a file by its extension ('notes.md' -> 'markdown', 'app.ts' -> 'typescript'); 'text' when
 * the name has no known extension. Case-insensitive; a path or URL-like room name works too.
 */
export function languageForPath(fileName: string): LanguageId {
  if (typeof fileName !== 'string') throw new TypeError(`fileName must be a string; got ${typeof fileName}`)
  const base = fileName.split(/[\\/]/).pop() ?? ''
  const dot = base.lastIndexOf('.')
  if (dot <= 0 || dot === base.length - 1) return 'text'
  const extension = base.slice(dot + 1).toLowerCase()
  for (const id of LANGUAGE_IDS) if (INFO[id].extensions.includes(extension)) return id
  return 'text'
}
