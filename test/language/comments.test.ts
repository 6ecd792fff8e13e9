import { describe, expect, it } from 'vitest'
import { toggleLineCommentsEdits } from '../../core/language/comments.ts'
import type { CommentStrings } from '../../core/language/language-spec.ts'
import type { LanguageId } from '../../core/language/registry.ts'
import { applyEdits, fixture } from './helpers.ts'

const SOFT = { tabLength: 2, softTabs: true }
const SLASHES: CommentStrings = { commentStartString: '// ' }
const BLOCK: CommentStrings = { commentStartString: '/*', commentEndString: '*/' }

function edits(text: string, startRow: number, endRow: number, tokens = SLASHES, options = SOFT) {
  const lines = text.split('\n')
  return toggleLineCommentsEdits((row) => lines[row]!, startRow, endRow, tokens, options)
}

/** Toggles rows of `text` in language `id`, with the comment strings the language mode gives for the first row. */
function toggle(id: LanguageId, text: string, startRow: number, endRow: number, options = SOFT): string {
  const { buffer, mode } = fixture(id, text)
  const tokens = mode.commentStringsForPosition([startRow, 0])
  applyEdits(buffer, toggleLineCommentsEdits((row) => buffer.lineForRow(row) ?? '', startRow, endRow, tokens, options))
  return buffer.getText()
}

describe('toggleLineCommentsEdits with line comments', () => {
  it('comments every row at the smallest indentation of the block', () => {
    expect(edits('  a\n    b\n  c', 0, 2)).toEqual([
      { row: 0, startColumn: 2, endColumn: 2, text: '// ' },
      { row: 1, startColumn: 2, endColumn: 2, text: '// ' },
      { row: 2, startColumn: 2, endColumn: 2, text: '// ' },
    ])
    expect(toggle('javascript', '  a\n    b\n  c', 0, 2)).toBe('  // a\n  //   b\n  // c')
  })

  it('removes the markers and one space after each when every non-blank row is commented', () => {
    expect(edits('  // a\n\n  //b', 0, 2)).toEqual([
      { row: 0, startColumn: 2, endColumn: 5, text: '' },
      { row: 2, startColumn: 2, endColumn: 4, text: '' },
    ])
    expect(toggle('javascript', '  // a\n    //   b\n  // c', 0, 2)).toBe('  a\n      b\n  c')
  })

  it('comments all rows of a selection that mixes commented and uncommented rows', () => {
    expect(toggle('javascript', '// a\nb', 0, 1)).toBe('// // a\n// b')
  })

  it('fills blank rows with the indentation and the marker', () => {
    expect(edits('  a\n\n  b', 0, 2)).toEqual([
      { row: 0, startColumn: 2, endColumn: 2, text: '// ' },
      { row: 1, startColumn: 0, endColumn: 0, text: '  // ' },
      { row: 2, startColumn: 2, endColumn: 2, text: '// ' },
    ])
    expect(edits('    ', 0, 0)).toEqual([{ row: 0, startColumn: 0, endColumn: 4, text: '    // ' }])
  })

  it('measures indentation with tabs and indents blank rows with tabs when tabs are hard', () => {
    const hard = { tabLength: 4, softTabs: false }
    expect(edits('\t\ta\n\tb\n', 0, 2, SLASHES, hard)).toEqual([
      { row: 0, startColumn: 1, endColumn: 1, text: '// ' },
      { row: 1, startColumn: 1, endColumn: 1, text: '// ' },
      { row: 2, startColumn: 0, endColumn: 0, text: '\t// ' },
    ])
  })

  it('uses the language comment marker', () => {
    expect(toggle('python', 'def f():\n    return 1', 0, 1)).toBe('# def f():\n#     return 1')
    expect(toggle('python', '# def f():\n#     return 1', 0, 1)).toBe('def f():\n    return 1')
    expect(toggle('json', '{\n  "a": 1\n}', 1, 1)).toBe('{\n  // "a": 1\n}')
  })

  it('accepts rows in either order and makes no edits without comment strings', () => {
    expect(edits('a\nb', 1, 0)).toEqual(edits('a\nb', 0, 1))
    expect(edits('a', 0, 0, {})).toEqual([])
    expect(toggle('text', 'a\nb', 0, 1)).toBe('a\nb')
  })

  it('rejects bad arguments with a TypeError', () => {
    expect(() => edits('a', -1, 0)).toThrow(new TypeError('startRow must be a non-negative integer; got -1'))
    expect(() => toggleLineCommentsEdits('a' as never, 0, 0, SLASHES, SOFT)).toThrow(TypeError)
    expect(() => edits('a', 0, 0, SLASHES, { tabLength: 0, softTabs: true })).toThrow(/tabLength/)
  })
})

describe('toggleLineCommentsEdits with block comments', () => {
  it('wraps the rows: the start after the first row indentation, the end at the end of the last row', () => {
    expect(edits('  a {\n  }', 0, 1, BLOCK)).toEqual([
      { row: 0, startColumn: 2, endColumn: 2, text: '/* ' },
      { row: 1, startColumn: 3, endColumn: 3, text: ' */' },
    ])
    expect(toggle('css', '  a {\n  }', 0, 1)).toBe('  /* a {\n  } */')
  })

  it('unwraps when the first row starts with the start marker and the last ends with the end marker', () => {
    expect(edits('  /* a {\n  } */', 0, 1, BLOCK)).toEqual([
      { row: 0, startColumn: 2, endColumn: 5, text: '' },
      { row: 1, startColumn: 3, endColumn: 6, text: '' },
    ])
    expect(toggle('css', '/* a { b: c } */', 0, 0)).toBe('a { b: c }')
    expect(toggle('html', '<!-- <p>x</p> -->', 0, 0)).toBe('<p>x</p>')
    expect(toggle('html', '<p>x</p>', 0, 0)).toBe('<!-- <p>x</p> -->')
  })

  it('does nothing when the first row starts a comment the last row does not end', () => {
    expect(edits('/* a\nb', 0, 1, BLOCK)).toEqual([])
  })

  it('wraps an empty row once', () => {
    expect(edits('', 0, 0, BLOCK)).toEqual([{ row: 0, startColumn: 0, endColumn: 0, text: '/*  */' }])
    expect(edits('/*/', 0, 0, BLOCK)).toEqual([])
  })

  it('uses the comment strings of the language at the rows, inside embedded code too', () => {
    expect(toggle('html', '<script>\n  run()\n</script>', 1, 1)).toBe('<script>\n  // run()\n</script>')
    expect(toggle('html', '<style>\n  a { b: c }\n</style>', 1, 1)).toBe('<style>\n  /* a { b: c } */\n</style>')
    expect(toggle('markdown', 'Some text', 0, 0)).toBe('<!-- Some text -->')
    expect(toggle('markdown', '```py\nx = 1\n```', 1, 1)).toBe('```py\n# x = 1\n```')
  })
})

describe('commentStringsForPosition', () => {
  const strings = (id: LanguageId, text: string, row: number, column = 0) => fixture(id, text).mode.commentStringsForPosition([row, column])

  it('gives each language its Atom comment strings', () => {
    expect(strings('javascript', 'x', 0)).toEqual({ commentStartString: '// ' })
    expect(strings('typescript', 'x', 0)).toEqual({ commentStartString: '// ' })
    expect(strings('python', 'x', 0)).toEqual({ commentStartString: '# ' })
    expect(strings('json', '{}', 0)).toEqual({ commentStartString: '// ' })
    expect(strings('css', 'a {}', 0)).toEqual({ commentStartString: '/*', commentEndString: '*/' })
    expect(strings('html', '<p>', 0)).toEqual({ commentStartString: '<!-- ', commentEndString: ' -->' })
    expect(strings('markdown', '# a', 0)).toEqual({ commentStartString: '<!-- ', commentEndString: ' -->' })
    expect(strings('text', 'a', 0)).toEqual({})
  })

  it('uses JSX comments among JSX children and line comments elsewhere', () => {
    const page = 'const x = (\n  <div>\n    <span>hi</span>\n    {items.map(i =>\n      i)}\n  </div>\n)'
    expect(strings('jsx', page, 0)).toEqual({ commentStartString: '// ' })
    expect(strings('jsx', page, 1)).toEqual({ commentStartString: '// ' })
    expect(strings('jsx', page, 2)).toEqual({ commentStartString: '{/* ', commentEndString: ' */}' })
    expect(strings('jsx', page, 4)).toEqual({ commentStartString: '// ' })
  })

  it('follows the language at the first character of a row, and at the position past it', () => {
    const page = '<p>\n<script>\n  go()\n</script>'
    expect(strings('html', page, 2, 0)).toEqual({ commentStartString: '// ' })
    expect(strings('html', page, 1, 0)).toEqual({ commentStartString: '<!-- ', commentEndString: ' -->' })
    expect(strings('html', '<p><script>go()</script>', 0, 12)).toEqual({ commentStartString: '// ' })
  })
})
