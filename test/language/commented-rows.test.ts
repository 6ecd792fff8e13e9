import { describe, expect, it } from 'vitest'
import { paragraphRowRange } from '../../core/motions/paragraph.ts'
import type { LanguageId } from '../../core/language/registry.ts'
import { fixture } from './helpers.ts'

function commentedRows(id: LanguageId, text: string): boolean[] {
  const { buffer, mode } = fixture(id, text)
  return Array.from({ length: buffer.getLineCount() }, (_, row) => mode.isRowCommented(row))
}

describe('isRowCommented', () => {
  it('is true for rows whose first non-blank character is in a comment', () => {
    expect(commentedRows('javascript', '// a\n  // b\nx // c\n/* d */ x\ny')).toEqual([true, true, false, true, false])
    expect(commentedRows('python', '# a\nx  # b\n    # c')).toEqual([true, false, true])
    expect(commentedRows('css', '/* a */\na { b: c }')).toEqual([true, false])
    expect(commentedRows('html', '<!-- a -->\n<p>')).toEqual([true, false])
  })

  it('is true on every row of a block comment, blank ones included', () => {
    expect(commentedRows('javascript', 'x\n/*\n * a\n\n */ y\nz')).toEqual([false, true, true, true, true, false])
  })

  it('is false on blank rows outside comments, in plain text, and outside the buffer', () => {
    expect(commentedRows('javascript', '// a\n\n// b')).toEqual([true, false, true])
    expect(commentedRows('text', '// a\n# b')).toEqual([false, false])
    const { mode } = fixture('javascript', '// a')
    expect([mode.isRowCommented(-1), mode.isRowCommented(5), mode.isRowCommented(0.5)]).toEqual([false, false, false])
    expect(() => mode.isRowCommented('0' as never)).toThrow(TypeError)
  })
})

describe('paragraphRowRange', () => {
  function paragraphs(id: LanguageId, text: string): ({ startRow: number; endRow: number } | null)[] {
    const { buffer, mode } = fixture(id, text)
    return Array.from({ length: buffer.getLineCount() }, (_, row) => {
      const rows = paragraphRowRange(buffer, row, (r) => mode.isRowCommented(r))
      return rows === null ? null : { startRow: rows[0], endRow: rows[1] }
    })
  }

  it('separates comment blocks from the code next to them, as Atom does', () => {
    const text = 'a()\n// one\n// two\nb()\nc()\n\n// three'
    expect(paragraphs('javascript', text)).toEqual([
      { startRow: 0, endRow: 0 },
      { startRow: 1, endRow: 2 },
      { startRow: 1, endRow: 2 },
      { startRow: 3, endRow: 4 },
      { startRow: 3, endRow: 4 },
      null,
      { startRow: 6, endRow: 6 },
    ])
  })

  it('only splits at blank rows in plain text', () => {
    expect(paragraphs('text', '// a\nb\n  \nc')).toEqual([{ startRow: 0, endRow: 1 }, { startRow: 0, endRow: 1 }, null, { startRow: 3, endRow: 3 }])
  })
})
