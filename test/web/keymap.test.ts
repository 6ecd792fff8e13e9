import { describe, expect, it } from 'vitest'
import { COMMANDS, KEYMAP, commandForKeystroke, isChordPrefix } from '../../web/input/keymap.ts'
import { editorWith, marked, screenText } from '../helpers/editor-text.ts'
import type { TextEditor } from '../../core/index.ts'

/** Runs the command bound to each keystroke on a real editor, as the page does. */
function press(editor: TextEditor, ...keystrokes: string[]): void {
  for (const keystroke of keystrokes) {
    const binding = commandForKeystroke(keystroke)
    if (binding === undefined) throw new Error(`${keystroke} is not bound`)
    binding.command.run({ editor, rowsPerPage: () => 3 })
  }
}

function after(text: string, ...keystrokes: string[]): string {
  const editor = editorWith(text)
  press(editor, ...keystrokes)
  return marked(editor)
}

describe('the keymap', () => {
  it('binds every keystroke to a command that exists', () => {
    for (const [keystroke, name] of Object.entries(KEYMAP)) expect(COMMANDS[name], `${keystroke} -> ${name}`).toBeDefined()
  })

  it('leaves unbound keys to the browser', () => {
    expect(commandForKeystroke('a')).toBeUndefined()
    expect(commandForKeystroke('shift-a')).toBeUndefined()
    expect(commandForKeystroke('ctrl-s')).toBeUndefined()
  })

  it('moves by character, line and page', () => {
    expect(after('ab|c', 'left')).toBe('a|bc')
    expect(after('ab|c', 'right')).toBe('abc|')
    expect(after('abc\nd|e', 'up')).toBe('a|bc\nde')
    expect(after('1\n2\n3\n4\n|5', 'pageup')).toBe('1\n|2\n3\n4\n5')
    expect(after('|1\n2\n3\n4\n5', 'shift-pagedown')).toBe('«1\n2\n3\n»4\n5')
  })

  it('uses Atom Linux word motions for ctrl and subword motions for alt', () => {
    expect(after('foo bar| baz', 'ctrl-left')).toBe('foo |bar baz')
    expect(after('foo |bar baz', 'ctrl-right')).toBe('foo bar| baz')
    expect(after('foo bar| baz', 'ctrl-shift-left')).toBe('foo «bar» baz')
    expect(after('getFooBar|', 'alt-left')).toBe('getFoo|Bar')
    expect(after('|getFooBar', 'alt-right')).toBe('get|FooBar')
    expect(after('getFoo|Bar', 'alt-shift-right')).toBe('getFoo«Bar»')
  })

  it('goes to the first character with home, the line end with end, and the document ends with ctrl', () => {
    expect(after('  foo b|ar', 'home')).toBe('  |foo bar')
    expect(after('  |foo bar', 'home')).toBe('|  foo bar')
    expect(after('  f|oo bar', 'end')).toBe('  foo bar|')
    expect(after('  f|oo bar', 'shift-home')).toBe('  «f»oo bar')
    expect(after('a\nb|\nc', 'ctrl-home')).toBe('|a\nb\nc')
    expect(after('a\nb|\nc', 'ctrl-shift-end')).toBe('a\nb«\nc»')
  })

  it('deletes by character, word and subword', () => {
    expect(after('ab|c', 'backspace')).toBe('a|c')
    expect(after('ab|c', 'delete')).toBe('ab|')
    expect(after('foo bar|', 'ctrl-backspace')).toBe('foo |')
    expect(after('|foo bar', 'ctrl-delete')).toBe('| bar')
    expect(after('fooBar|', 'alt-backspace')).toBe('foo|')
    expect(after('|fooBar', 'alt-delete')).toBe('|Bar')
  })

  it('inserts newlines, indents and outdents', () => {
    expect(after('ab|c', 'enter')).toBe('ab\n|c')
    expect(after('|abc', 'tab')).toBe('  |abc')
    expect(after('    ab|c', 'shift-tab')).toBe('  ab|c')
    expect(after('a|bc\nd', 'ctrl-enter')).toBe('abc\n|\nd')
    expect(after('x\n  a|bc', 'ctrl-shift-enter')).toBe('x\n  |\n  abc')
  })

  it('joins, deletes and selects lines, toggles comments', () => {
    expect(after('a|b\ncd', 'ctrl-j')).toBe('ab| cd')
    expect(after('ab\nc|d\nef', 'ctrl-shift-k')).toBe('ab\ne|f')
    expect(after('ab\nc|d\nef', 'ctrl-l')).toBe('ab\n«cd\n»ef')
    const editor = editorWith('const a| = 1')
    editor.setLanguage('javascript')
    press(editor, 'ctrl-/')
    expect(marked(editor)).toBe('// const a| = 1')
  })

  it('selects the word, then the next occurrences, with ctrl-d', () => {
    expect(after('foo bar fo|o', 'ctrl-d')).toBe('foo bar «foo»')
    expect(after('foo bar fo|o', 'ctrl-d', 'ctrl-d')).toBe('«foo» bar «foo»')
  })

  it('adds selections above and below', () => {
    expect(after('abc\na|bc\nabc', 'ctrl-alt-down')).toBe('abc\na|bc\na|bc')
    expect(after('abc\na|bc\nabc', 'ctrl-alt-up')).toBe('a|bc\na|bc\nabc')
    expect(after('abc\na|bc\nabc', 'alt-shift-down', 'escape')).toBe('abc\na|bc\nabc')
  })

  it('undoes and redoes with ctrl-z, ctrl-shift-z and ctrl-y; selects all with ctrl-a', () => {
    const editor = editorWith('ab|')
    editor.insertText('c')
    press(editor, 'ctrl-z')
    expect(marked(editor)).toBe('ab|')
    press(editor, 'ctrl-shift-z')
    expect(marked(editor)).toBe('abc|')
    press(editor, 'ctrl-z', 'ctrl-y')
    expect(marked(editor)).toBe('abc|')
    expect(after('a|b\nc', 'ctrl-a')).toBe('«ab\nc»')
  })

  it('marks text-changing commands so a read-only page can refuse them up front', () => {
    expect(commandForKeystroke('backspace')!.command.edits).toBe(true)
    expect(commandForKeystroke('ctrl-z')!.command.edits).toBe(true)
    expect(commandForKeystroke('ctrl-v')!.command.edits).toBe(true)
    expect(commandForKeystroke('left')!.command.edits).toBeUndefined()
    expect(commandForKeystroke('ctrl-c')!.command.edits).toBeUndefined()
    expect(commandForKeystroke('ctrl-c')!.command.clipboard).toBe('copy')
  })

  it("binds Atom's line, case and fold commands, chords included", () => {
    expect(after('a\nb|\nc', 'ctrl-up')).toBe('b|\na\nc')
    expect(after('a|\nb\nc', 'ctrl-down')).toBe('b\na|\nc')
    expect(after('a|b\nc', 'ctrl-shift-d')).toBe('ab\na|b\nc')
    expect(after('  a|b', 'ctrl-enter')).toBe('  ab\n  |')
    expect(after('x\n  a|b', 'ctrl-shift-enter')).toBe('x\n  |\n  ab')
    expect(after('ab|c', 'ctrl-t')).toBe('ac|b')
    expect(after('one tw|o', 'ctrl-k ctrl-u')).toBe('one «TWO»')
    expect(after('«ONE» two', 'ctrl-k ctrl-l')).toBe('«one» two')
    expect(isChordPrefix('ctrl-k')).toBe(true)
    expect(isChordPrefix('ctrl-k ctrl-u')).toBe(false)
    expect(isChordPrefix('ctrl-u')).toBe(false)
    for (const keystroke of ['ctrl-up', 'ctrl-down', 'ctrl-shift-d', 'ctrl-t', 'ctrl-k ctrl-u', 'ctrl-k ctrl-l']) {
      expect(commandForKeystroke(keystroke)!.command.edits, keystroke).toBe(true)
    }
  })

  it('folds and unfolds with ctrl-alt-[ / ctrl-alt-], ctrl-k ctrl-0 / ctrl-k ctrl-j and ctrl-k ctrl-N', () => {
    const editor = editorWith('a|\n  b\n    c\n  d\ne')
    const screen = () => screenText(editor)
    press(editor, 'ctrl-alt-[')
    expect(screen()).toBe('a⋯ / e')
    press(editor, 'ctrl-alt-]')
    expect(screen()).toBe('a /   b /     c /   d / e')
    press(editor, 'ctrl-k ctrl-0')
    expect(screen()).toBe('a⋯ / e')
    press(editor, 'ctrl-k ctrl-j')
    expect(screen()).toBe('a /   b /     c /   d / e')
    press(editor, 'ctrl-k ctrl-2')
    expect(screen()).toBe('a /   b⋯ /   d / e')
    press(editor, 'ctrl-alt-shift-}')
    expect(editor.getScreenLineCount()).toBe(5)
    press(editor, 'ctrl-alt-shift-{')
    expect(screen()).toBe('a⋯ / e')
  })

  it('pages by the rows the view shows', () => {
    const editor = editorWith('|0\n1\n2\n3\n4\n5\n6')
    press(editor, 'pagedown')
    expect(editor.getCursorBufferPosition().toArray()).toEqual([3, 0])
    expect(editor.getRowsPerPage()).toBe(3)
  })
})

