import { describe, expect, it } from 'vitest'
import { keystrokeForEvent, type KeyLike } from '../../web/input/keystroke.ts'

const key = (keyName: string, mods: Partial<KeyLike> = {}, code = ''): KeyLike => ({
  key: keyName,
  code,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods,
})

describe('keystrokeForEvent', () => {
  it('names arrows and editing keys as Atom does', () => {
    expect(keystrokeForEvent(key('ArrowLeft'))).toBe('left')
    expect(keystrokeForEvent(key('PageDown'))).toBe('pagedown')
    expect(keystrokeForEvent(key('Backspace', { ctrlKey: true }))).toBe('ctrl-backspace')
    expect(keystrokeForEvent(key(' '))).toBe('space')
  })

  it('orders modifiers ctrl, alt, shift, cmd', () => {
    expect(keystrokeForEvent(key('ArrowUp', { shiftKey: true, altKey: true, ctrlKey: true, metaKey: true }))).toBe('ctrl-alt-shift-cmd-up')
    expect(keystrokeForEvent(key('ArrowLeft', { shiftKey: true, ctrlKey: true }))).toBe('ctrl-shift-left')
  })

  it('lower-cases letters and spells shift out', () => {
    expect(keystrokeForEvent(key('K', { ctrlKey: true, shiftKey: true }, 'KeyK'))).toBe('ctrl-shift-k')
    expect(keystrokeForEvent(key('z', { ctrlKey: true }, 'KeyZ'))).toBe('ctrl-z')
    expect(keystrokeForEvent(key('/', { ctrlKey: true }, 'Slash'))).toBe('ctrl-/')
  })

  it('maps a non-Latin letter under ctrl to the Latin key it sits on', () => {
    expect(keystrokeForEvent(key('я', { ctrlKey: true }, 'KeyZ'))).toBe('ctrl-z')
    expect(keystrokeForEvent(key('я', {}, 'KeyZ'))).toBe('я')
  })

  it('ignores lone modifiers and unnamed keys', () => {
    expect(keystrokeForEvent(key('Control', { ctrlKey: true }))).toBeNull()
    expect(keystrokeForEvent(key('Shift', { shiftKey: true }))).toBeNull()
    expect(keystrokeForEvent(key('F13'))).toBeNull()
    expect(keystrokeForEvent(key('Unidentified'))).toBeNull()
  })
})
