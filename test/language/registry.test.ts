import { describe, expect, it } from 'vitest'
import { isLanguageId, languageForPath, languageInfo, LANGUAGE_IDS } from '../../core/language/registry.ts'

describe('languageForPath', () => {
  it('detects languages by extension', () => {
    expect(languageForPath('notes.md')).toBe('markdown')
    expect(languageForPath('app.ts')).toBe('typescript')
    expect(languageForPath('App.tsx')).toBe('tsx')
    expect(languageForPath('widget.jsx')).toBe('jsx')
    expect(languageForPath('main.js')).toBe('javascript')
    expect(languageForPath('tool.mjs')).toBe('javascript')
    expect(languageForPath('script.py')).toBe('python')
    expect(languageForPath('package.json')).toBe('json')
    expect(languageForPath('site.css')).toBe('css')
    expect(languageForPath('index.html')).toBe('html')
    expect(languageForPath('readme.txt')).toBe('text')
  })

  it('ignores case and directories', () => {
    expect(languageForPath('NOTES.MD')).toBe('markdown')
    expect(languageForPath('rooms/team.v2/app.Ts')).toBe('typescript')
    expect(languageForPath('C:\\work\\page.HTM')).toBe('html')
  })

  it('is plain text without a known extension', () => {
    expect(languageForPath('README')).toBe('text')
    expect(languageForPath('.bashrc')).toBe('text')
    expect(languageForPath('archive.tar.gz')).toBe('text')
    expect(languageForPath('dir.md/notes')).toBe('text')
    expect(languageForPath('trailing.')).toBe('text')
    expect(languageForPath('')).toBe('text')
  })

  it('throws a TypeError naming the argument for a non-string', () => {
    expect(() => languageForPath(42 as unknown as string)).toThrow(new TypeError('fileName must be a string; got number'))
  })
})

describe('language ids', () => {
  it('recognises exactly the known ids', () => {
    expect(LANGUAGE_IDS).toEqual(['text', 'javascript', 'typescript', 'jsx', 'tsx', 'python', 'json', 'css', 'html', 'markdown'])
    for (const id of LANGUAGE_IDS) expect(isLanguageId(id)).toBe(true)
    expect(isLanguageId('cobol')).toBe(false)
    expect(isLanguageId('toString')).toBe(false)
    expect(isLanguageId(undefined)).toBe(false)
  })

  it('gives each language its Atom root scope', () => {
    expect(LANGUAGE_IDS.map((id) => languageInfo(id).rootScope)).toEqual([
      'text.plain', 'source.js', 'source.ts', 'source.js.jsx', 'source.tsx', 'source.python', 'source.json', 'source.css',
      'text.html.basic', 'source.gfm',
    ])
    expect(languageInfo('markdown').name).toBe('Markdown')
    expect(() => languageInfo('cobol' as never)).toThrow(TypeError)
  })
})
