/**
 * A keyboard event as Atom writes a keystroke: modifiers in the order ctrl, alt, shift, cmd, then the
 * key in lower case ('ctrl-shift-left', 'alt-backspace', 'ctrl-/'). Shift is always spelled out, so
 * Atom's 'ctrl-K' is 'ctrl-shift-k' here.
 */

export interface KeyLike {
  key: string
  code: string
  ctrlKey: boolean
  altKey: boolean
  shiftKey: boolean
  metaKey: boolean
}

const NAMED_KEYS: Record<string, string> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
  Home: 'home',
  End: 'end',
  PageUp: 'pageup',
  PageDown: 'pagedown',
  Backspace: 'backspace',
  Delete: 'delete',
  Insert: 'insert',
  Enter: 'enter',
  Tab: 'tab',
  Escape: 'escape',
  ' ': 'space',
}

const MODIFIER_KEYS = new Set(['Control', 'Alt', 'Shift', 'Meta', 'AltGraph', 'CapsLock', 'OS', 'Super', 'Hyper'])

/** The keystroke for an event, or null for a lone modifier or a key without a name. */
export function keystrokeForEvent(event: KeyLike): string | null {
  if (MODIFIER_KEYS.has(event.key)) return null
  let key = NAMED_KEYS[event.key]
  if (key === undefined) {
    if ([...event.key].length !== 1) return null
    key = event.key.toLowerCase()
    // With ctrl or alt held, a non-Latin layout still means the Latin letter printed beside it
    // (ctrl-z on a Cyrillic layout is ctrl-z), as in Atom.
    const letter = /^Key([A-Z])$/.exec(event.code)
    if ((event.ctrlKey || event.altKey) && letter && !/^[a-z]$/.test(key)) key = letter[1]!.toLowerCase()
  }
  let keystroke = ''
  if (event.ctrlKey) keystroke += 'ctrl-'
  if (event.altKey) keystroke += 'alt-'
  if (event.shiftKey) keystroke += 'shift-'
  if (event.metaKey) keystroke += 'cmd-'
  return keystroke + key
}
