import { describe, expect, it } from 'vitest'
import { keyHelpRows, keystrokeLabel } from '../../web/view/key-help.ts'

describe('the key help labels', () => {
  it('names single keystrokes and each key of a chord', () => {
    expect(keystrokeLabel('ctrl-shift-d')).toBe('Ctrl+Shift+D')
    expect(keystrokeLabel('ctrl--')).toBe('Ctrl+-')
    expect(keystrokeLabel('ctrl-k ctrl-u')).toBe('Ctrl+K Ctrl+U')
    expect(keystrokeLabel('ctrl-k ctrl-0')).toBe('Ctrl+K Ctrl+0')
  })

  it('lists a chord-bound command with its keys', () => {
    const rows = keyHelpRows({ 'ctrl-k ctrl-u': 'editor:upper-case', 'ctrl-t': 'editor:transpose' })
    expect(rows).toEqual([
      ['Ctrl+K Ctrl+U', 'Upper case'],
      ['Ctrl+T', 'Transpose'],
    ])
  })
})
