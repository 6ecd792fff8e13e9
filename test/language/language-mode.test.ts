import { describe, expect, it } from 'vitest'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { createLanguageMode } from '../../core/language/language-mode.ts'
import { LANGUAGE_IDS } from '../../core/language/registry.ts'
import { fixture } from './helpers.ts'

describe('createLanguageMode', () => {
  it('makes a mode for every language id with its root scope', () => {
    const buffer = new TextBuffer({ text: 'x' })
    expect(LANGUAGE_IDS.map((id) => createLanguageMode(id, buffer).rootScope)).toEqual([
      'text.plain', 'source.js', 'source.ts', 'source.js.jsx', 'source.tsx', 'source.python', 'source.json', 'source.css',
      'text.html.basic', 'source.gfm',
    ])
    expect(createLanguageMode('python', buffer).id).toBe('python')
  })

  it('rejects an unknown language with a TypeError', () => {
    expect(() => createLanguageMode('cobol' as never, new TextBuffer())).toThrow(TypeError)
    expect(() => createLanguageMode('cobol' as never, new TextBuffer())).toThrow(/language must be one of text, javascript/)
  })

  it('gives the current complete tree', () => {
    const { buffer, mode } = fixture('javascript', 'a = 1')
    expect(mode.getSyntaxTree()?.toString()).toBe('Script(ExpressionStatement(AssignmentExpression(VariableName,Equals,Number)))')
    buffer.append('\nb')
    expect(mode.getSyntaxTree()?.toString()).toBe('Script(ExpressionStatement(AssignmentExpression(VariableName,Equals,Number)),ExpressionStatement(VariableName))')
  })
})

describe('plain text mode', () => {
  const { buffer, mode } = fixture('text', 'if (a) {\n  // b "c"\n')

  it('has one scope everywhere and no tree', () => {
    expect(mode.id).toBe('text')
    expect(mode.scopeDescriptorForPosition([0, 0]).getScopesArray()).toEqual(['text.plain'])
    expect(mode.scopeDescriptorForPosition([1, 6]).getScopesArray()).toEqual(['text.plain'])
    expect(mode.syntaxTreeScopeDescriptorForPosition([1, 6]).getScopesArray()).toEqual(['text.plain'])
    expect(mode.getSyntaxTree()).toBe(null)
  })

  it('has no comment strings and no comment rows', () => {
    expect(mode.commentStringsForPosition([1, 2])).toEqual({})
    expect(mode.isRowCommented(1)).toBe(false)
  })

  it('keeps the previous line indentation and never decreases', () => {
    expect(mode.suggestedIndentForBufferRow(2, { tabLength: 2 })).toBe(1)
    expect(mode.suggestedIndentForBufferRow(1, { tabLength: 2 })).toBe(0)
    expect(mode.suggestedIndentForLineAtBufferRow(2, '}', { tabLength: 2 })).toBe(1)
    expect(mode.shouldDecreaseIndentForRow(2)).toBe(false)
    expect(mode.suggestedIndentForEditedBufferRow(1, { tabLength: 2 })).toBe(undefined)
  })

  it('validates its arguments like the other modes', () => {
    expect(() => mode.scopeDescriptorForPosition(null as never)).toThrow(TypeError)
    expect(() => mode.isRowCommented(undefined as never)).toThrow(TypeError)
    expect(() => mode.suggestedIndentForBufferRow(0, { tabLength: Number.NaN })).toThrow(TypeError)
    expect(buffer.getLineCount()).toBe(3)
  })
})
