import { describe, expect, it } from 'vitest'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { InvalidPatternError, findRegExp, type FindQuery } from '../../core/editor/find-query.ts'
import { markRanges } from '../helpers/marked-text.ts'

function editorWith(text: string): TextEditor {
  const editor = new TextEditor()
  editor.getBuffer().setText(text)
  return editor
}

/** The editor's text with the query's matches marked. */
function marked(editor: TextEditor, query: FindQuery): string {
  return markRanges(editor.getText(), query.getMatchRanges())
}

describe('find queries', () => {
  it('finds text literally by default, case-insensitively, and counts', () => {
    const editor = editorWith('Foo foo.\nfo.o FOO')
    const query = editor.createFindQuery({ pattern: 'foo' })
    expect(query.searchAll()).toBe('done')
    expect(marked(editor, query)).toBe('«Foo» «foo».\nfo.o «FOO»')
    expect(query.getMatchCount()).toBe(3)
    const dots = editor.createFindQuery({ pattern: 'o.' })
    dots.searchAll()
    expect(marked(editor, dots)).toBe('Foo fo«o.»\nf«o.»o FOO')
  })

  it('honours regex, match case and whole word as Atom builds the pattern', () => {
    const editor = editorWith('cat Cat concat cat2 cats')
    const search = (options: { regex?: boolean; caseSensitive?: boolean; wholeWord?: boolean }, pattern = 'cat') => {
      const query = editor.createFindQuery({ pattern, ...options })
      query.searchAll()
      return marked(editor, query)
    }
    expect(search({ caseSensitive: true })).toBe('«cat» Cat con«cat» «cat»2 «cat»s')
    expect(search({ wholeWord: true })).toBe('«cat» «Cat» concat cat2 cats')
    expect(search({ regex: true, caseSensitive: true }, 'cat\\d?')).toBe('«cat» Cat con«cat» «cat2» «cat»s')
    expect(findRegExp({ pattern: 'a.b', wholeWord: true }).source).toBe('\\ba\\.b\\b')
  })

  it('rejects an invalid regular expression with a clear error and changes nothing', () => {
    const editor = editorWith('a(b')
    expect(() => editor.createFindQuery({ pattern: 'a(b', regex: true })).toThrow(InvalidPatternError)
    expect(() => editor.createFindQuery({ pattern: 'a(b', regex: true })).toThrow(/Invalid regular expression \/a\(b\/: Unterminated group/)
    expect(editor.getText()).toBe('a(b')
    const literal = editor.createFindQuery({ pattern: 'a(b' })
    literal.searchAll()
    expect(literal.getMatchCount()).toBe(1)
  })

  it('finds nothing for an empty pattern', () => {
    const query = editorWith('abc').createFindQuery({ pattern: '' })
    expect(query.searchAll()).toBe('done')
    expect(query.getMatchCount()).toBe(0)
  })

  it('searches in slices and reports each one', () => {
    const editor = editorWith('x NEEDLE\n'.repeat(1000))
    const query = editor.createFindQuery({ pattern: 'needle' })
    const updates: string[] = []
    query.onDidUpdate(({ count, complete }) => updates.push(`${count} ${complete}`))
    expect(query.search({ maxChars: 4000 })).toBe('more')
    expect(query.search({ maxChars: 4000 })).toBe('more')
    expect(query.search({ maxChars: 4000 })).toBe('done')
    expect(updates).toEqual(['445 false', '890 false', '1000 true'])
  })

  it('keeps results current as the text changes, only before the frontier while searching', () => {
    const editor = editorWith('ab ab\nab\nxx\nab ab')
    const query = editor.createFindQuery({ pattern: 'ab' })
    query.search({ maxChars: 1 })
    expect(query.getMatchCount()).toBe(2)
    editor.getBuffer().insert([0, 0], 'ab')
    expect(marked(editor, query)).toBe('«ab»«ab» «ab»\nab\nxx\nab ab')
    query.searchAll()
    expect(marked(editor, query)).toBe('«ab»«ab» «ab»\n«ab»\nxx\n«ab» «ab»')
    editor.getBuffer().setTextInRange([[2, 0], [2, 2]], 'a')
    editor.getBuffer().insert([2, 1], 'b')
    expect(marked(editor, query)).toBe('«ab»«ab» «ab»\n«ab»\n«ab»\n«ab» «ab»')
    editor.getBuffer().delete([[0, 1], [1, 1]])
    expect(marked(editor, query)).toBe('«ab»\n«ab»\n«ab» «ab»')
  })

  it('follows matches across lines when the pattern crosses them', () => {
    const editor = editorWith('a\nb\nc\nb')
    const query = editor.createFindQuery({ pattern: 'a\\n(b\\n)+', regex: true })
    query.searchAll()
    expect(marked(editor, query)).toBe('«a\nb\n»c\nb')
    editor.getBuffer().setTextInRange([[2, 0], [2, 1]], 'b')
    expect(marked(editor, query)).toBe('«a\nb\nb\n»b')
    editor.getBuffer().insert([0, 0], 'a\n')
    expect(marked(editor, query)).toBe('a\n«a\nb\nb\n»b')
  })

  it('gives the match at or after a position, and before it', () => {
    const editor = editorWith('ab ab\nab')
    const query = editor.createFindQuery({ pattern: 'ab' })
    query.searchAll()
    expect(query.indexAtOrAfter([0, 0])).toBe(0)
    expect(query.indexAtOrAfter([0, 1])).toBe(1)
    expect(query.indexAtOrAfter([1, 1])).toBe(-1)
    expect(query.indexBefore([1, 0])).toBe(1)
    expect(query.indexBefore([0, 0])).toBe(-1)
    expect(query.getMatchesInRowRange(1, 1).map(({ index, range }) => `${index} ${range}`)).toEqual(['2 [(1, 0) - (1, 2)]'])
  })

  it('replaces one match or all of them in one undo step, expanding $1 and \\n in regex mode', () => {
    const editor = editorWith('k=1 k=22\nk=3')
    const query = editor.createFindQuery({ pattern: 'k=(\\d+)', regex: true })
    query.searchAll()
    query.replace(1, '$1\\tk')
    expect(editor.getText()).toBe('k=1 22\tk\nk=3')
    expect(query.getMatchCount()).toBe(2)
    expect(query.replaceAll('[$1]')).toBe(2)
    expect(editor.getText()).toBe('[1] 22\tk\n[3]')
    expect(query.getMatchCount()).toBe(0)
    editor.undo()
    expect(editor.getText()).toBe('k=1 22\tk\nk=3')
    expect(query.getMatchCount()).toBe(2)
    const literal = editor.createFindQuery({ pattern: 'k' })
    expect(literal.replaceAll('$1')).toBe(3)
    expect(editor.getText()).toBe('$1=1 22\t$1\n$1=3')
  })

  it('maps the cursors through a replace all', () => {
    const editor = editorWith('aa x aa y aa')
    editor.setCursorBufferPosition([0, 8])
    editor.createFindQuery({ pattern: 'aa' }).replaceAll('b')
    expect(editor.getText()).toBe('b x b y b')
    expect(editor.getCursorBufferPosition().toString()).toBe('(0, 6)')
  })

  it('selects every match, a cursor per match', () => {
    const editor = editorWith('ab x ab\nab')
    const query = editor.createFindQuery({ pattern: 'ab' })
    expect(query.selectAll()).toBe(3)
    expect(editor.getSelectedBufferRanges().map(String)).toEqual(['[(0, 0) - (0, 2)]', '[(0, 5) - (0, 7)]', '[(1, 0) - (1, 2)]'])
  })

  it('searches only the selection when asked, following edits to it', () => {
    const editor = editorWith('ab ab ab ab')
    editor.setSelectedBufferRange([[0, 2], [0, 8]])
    const query = editor.createFindQuery({ pattern: 'ab', inSelection: true })
    query.searchAll()
    expect(marked(editor, query)).toBe('ab «ab» «ab» ab')
    editor.getBuffer().insert([0, 0], 'ab ')
    expect(marked(editor, query)).toBe('ab ab «ab» «ab» ab')
  })

  it('stops with too slow on a catastrophic pattern, keeping what it found', () => {
    const editor = editorWith('aab\n' + 'a'.repeat(50000) + 'b')
    const query = editor.createFindQuery({ pattern: '(a+)+$', regex: true })
    expect(query.searchAll({ timeLimit: 100 })).toBe('too-slow')
    expect(query.isTooSlow()).toBe(true)
    expect(query.replaceAll('x', { timeLimit: 100 })).toBe(0)
    expect(editor.getText().length).toBe(50005)
  })

  it('stops listening when disposed', () => {
    const editor = editorWith('ab')
    const query = editor.createFindQuery({ pattern: 'ab' })
    query.searchAll()
    query.dispose()
    editor.getBuffer().insert([0, 0], 'ab')
    expect(query.getMatchCount()).toBe(1)
  })
})
