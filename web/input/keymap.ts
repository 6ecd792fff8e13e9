import type { TextEditor } from '../../core/index.ts'
import { selectNext } from './select-next.ts'

/**
 * Atom's default Linux keymap for a text editor (keymaps/base.cson and linux.cson, plus ctrl-d from
 * find-and-replace), as two tables: keystroke -> Atom command name, and command name -> what it does
 * through the core editor's commands. Keys Atom binds to workspace actions (panes, files) are left to
 * the browser.
 */

export const KEYMAP: Readonly<Record<string, string>> = {
  up: 'core:move-up',
  down: 'core:move-down',
  left: 'core:move-left',
  right: 'core:move-right',
  'shift-up': 'core:select-up',
  'shift-down': 'core:select-down',
  'shift-left': 'core:select-left',
  'shift-right': 'core:select-right',
  'ctrl-left': 'editor:move-to-beginning-of-word',
  'ctrl-right': 'editor:move-to-end-of-word',
  'ctrl-shift-left': 'editor:select-to-beginning-of-word',
  'ctrl-shift-right': 'editor:select-to-end-of-word',
  'alt-left': 'editor:move-to-previous-subword-boundary',
  'alt-right': 'editor:move-to-next-subword-boundary',
  'alt-shift-left': 'editor:select-to-previous-subword-boundary',
  'alt-shift-right': 'editor:select-to-next-subword-boundary',
  home: 'editor:move-to-first-character-of-line',
  end: 'editor:move-to-end-of-screen-line',
  'shift-home': 'editor:select-to-first-character-of-line',
  'shift-end': 'editor:select-to-end-of-line',
  'ctrl-home': 'core:move-to-top',
  'ctrl-end': 'core:move-to-bottom',
  'ctrl-shift-home': 'core:select-to-top',
  'ctrl-shift-end': 'core:select-to-bottom',
  pageup: 'core:page-up',
  pagedown: 'core:page-down',
  'shift-pageup': 'core:select-page-up',
  'shift-pagedown': 'core:select-page-down',
  backspace: 'core:backspace',
  'shift-backspace': 'core:backspace',
  delete: 'core:delete',
  'ctrl-backspace': 'editor:delete-to-beginning-of-word',
  'ctrl-delete': 'editor:delete-to-end-of-word',
  'alt-backspace': 'editor:delete-to-beginning-of-subword',
  'alt-delete': 'editor:delete-to-end-of-subword',
  enter: 'editor:newline',
  'ctrl-enter': 'editor:newline-below',
  'ctrl-shift-enter': 'editor:newline-above',
  tab: 'editor:indent',
  'shift-tab': 'editor:outdent-selected-rows',
  'ctrl-]': 'editor:indent-selected-rows',
  'ctrl-[': 'editor:outdent-selected-rows',
  'ctrl-/': 'editor:toggle-line-comments',
  'ctrl-j': 'editor:join-lines',
  'ctrl-shift-k': 'editor:delete-line',
  'ctrl-l': 'editor:select-line',
  'ctrl-d': 'find-and-replace:select-next',
  'ctrl-alt-up': 'editor:add-selection-above',
  'ctrl-alt-down': 'editor:add-selection-below',
  'alt-shift-up': 'editor:add-selection-above',
  'alt-shift-down': 'editor:add-selection-below',
  'ctrl-alt-[': 'editor:fold-current-row',
  'ctrl-alt-]': 'editor:unfold-current-row',
  escape: 'editor:consolidate-selections',
  'ctrl-z': 'core:undo',
  'ctrl-shift-z': 'core:redo',
  'ctrl-y': 'core:redo',
  'ctrl-a': 'core:select-all',
  'ctrl-c': 'core:copy',
  'ctrl-insert': 'core:copy',
  'ctrl-x': 'core:cut',
  'shift-delete': 'core:cut',
  'ctrl-v': 'core:paste',
  'shift-insert': 'core:paste',
}

export interface CommandContext {
  editor: TextEditor
  /** Screen rows that fit in the view: how far page up/down go. */
  rowsPerPage(): number
}

export interface Command {
  run(context: CommandContext): void
  /** Changes the text: a read-only editor shows its hint instead. */
  edits?: boolean
  /** Runs in the browser's copy/cut/paste event (the page's only access to the system clipboard). */
  clipboard?: 'copy' | 'cut' | 'paste'
}

const move = (run: (editor: TextEditor) => void): Command => ({ run: ({ editor }) => run(editor) })
const edit = (run: (editor: TextEditor) => void): Command => ({ edits: true, run: ({ editor }) => run(editor) })

export const COMMANDS: Readonly<Record<string, Command>> = {
  'core:move-up': move((e) => e.moveUp()),
  'core:move-down': move((e) => e.moveDown()),
  'core:move-left': move((e) => e.moveLeft()),
  'core:move-right': move((e) => e.moveRight()),
  'core:select-up': move((e) => e.selectUp()),
  'core:select-down': move((e) => e.selectDown()),
  'core:select-left': move((e) => e.selectLeft()),
  'core:select-right': move((e) => e.selectRight()),
  'core:move-to-top': move((e) => e.moveToTop()),
  'core:move-to-bottom': move((e) => e.moveToBottom()),
  'core:select-to-top': move((e) => e.selectToTop()),
  'core:select-to-bottom': move((e) => e.selectToBottom()),
  'core:page-up': { run: ({ editor, rowsPerPage }) => editor.moveUp(rowsPerPage()) },
  'core:page-down': { run: ({ editor, rowsPerPage }) => editor.moveDown(rowsPerPage()) },
  'core:select-page-up': { run: ({ editor, rowsPerPage }) => editor.selectUp(rowsPerPage()) },
  'core:select-page-down': { run: ({ editor, rowsPerPage }) => editor.selectDown(rowsPerPage()) },
  'core:select-all': move((e) => e.selectAll()),
  'editor:move-to-beginning-of-word': move((e) => e.moveToBeginningOfWord()),
  'editor:move-to-end-of-word': move((e) => e.moveToEndOfWord()),
  'editor:select-to-beginning-of-word': move((e) => e.selectToBeginningOfWord()),
  'editor:select-to-end-of-word': move((e) => e.selectToEndOfWord()),
  'editor:move-to-previous-subword-boundary': move((e) => e.moveToPreviousSubwordBoundary()),
  'editor:move-to-next-subword-boundary': move((e) => e.moveToNextSubwordBoundary()),
  'editor:select-to-previous-subword-boundary': move((e) => e.selectToPreviousSubwordBoundary()),
  'editor:select-to-next-subword-boundary': move((e) => e.selectToNextSubwordBoundary()),
  'editor:move-to-first-character-of-line': move((e) => e.moveToFirstCharacterOfLine()),
  'editor:move-to-end-of-screen-line': move((e) => e.moveToEndOfScreenLine()),
  'editor:select-to-first-character-of-line': move((e) => e.selectToFirstCharacterOfLine()),
  'editor:select-to-end-of-line': move((e) => e.selectToEndOfLine()),
  'editor:select-line': move((e) => e.selectLinesContainingCursors()),
  'editor:add-selection-above': move((e) => e.addSelectionAbove()),
  'editor:add-selection-below': move((e) => e.addSelectionBelow()),
  'editor:consolidate-selections': move((e) => e.consolidateSelections()),
  'editor:fold-current-row': move((e) => e.foldBufferRow(e.getCursorBufferPosition().row)),
  'editor:unfold-current-row': move((e) => e.unfoldBufferRow(e.getCursorBufferPosition().row)),
  'find-and-replace:select-next': move(selectNext),
  'core:backspace': edit((e) => e.backspace()),
  'core:delete': edit((e) => e.delete()),
  'editor:delete-to-beginning-of-word': edit((e) => e.deleteToBeginningOfWord()),
  'editor:delete-to-end-of-word': edit((e) => e.deleteToEndOfWord()),
  'editor:delete-to-beginning-of-subword': edit((e) => e.deleteToBeginningOfSubword()),
  'editor:delete-to-end-of-subword': edit((e) => e.deleteToEndOfSubword()),
  'editor:newline': edit((e) => e.insertNewline()),
  'editor:newline-below': edit(insertNewlineBelow),
  'editor:newline-above': edit(insertNewlineAbove),
  'editor:indent': edit((e) => e.indent()),
  'editor:indent-selected-rows': edit((e) => e.indentSelectedRows()),
  'editor:outdent-selected-rows': edit((e) => e.outdentSelectedRows()),
  'editor:toggle-line-comments': edit((e) => e.toggleLineCommentsInSelection()),
  'editor:join-lines': edit((e) => e.joinLines()),
  'editor:delete-line': edit((e) => e.deleteLine()),
  'core:undo': edit((e) => e.undo()),
  'core:redo': edit((e) => e.redo()),
  'core:copy': { clipboard: 'copy', run: ({ editor }) => editor.copySelectedText() },
  'core:cut': { clipboard: 'cut', edits: true, run: ({ editor }) => editor.cutSelectedText() },
  'core:paste': { clipboard: 'paste', edits: true, run: ({ editor }) => editor.pasteText() },
}

/** The command bound to a keystroke, with its Atom name; undefined when the key is not bound. */
export function commandForKeystroke(keystroke: string): { name: string; command: Command } | undefined {
  const name = KEYMAP[keystroke]
  if (name === undefined) return undefined
  const command = COMMANDS[name]
  if (command === undefined) throw new Error(`keymap binds ${keystroke} to ${name}, which has no command`)
  return { name, command }
}

/** Atom's editor:newline-below: a new line after each cursor's line. */
function insertNewlineBelow(editor: TextEditor): void {
  editor.transact(() => {
    editor.moveToEndOfLine()
    editor.insertNewline()
  })
}

/** Atom's editor:newline-above: a new line before the cursor's line, indented like it. */
function insertNewlineAbove(editor: TextEditor): void {
  editor.transact(() => {
    const bufferRow = editor.getCursorBufferPosition().row
    const indentLevel = editor.indentationForBufferRow(bufferRow)
    const onFirstLine = bufferRow === 0
    editor.moveToBeginningOfLine()
    editor.moveLeft()
    editor.insertNewline()
    if (editor.indentationForBufferRow(bufferRow) < indentLevel) editor.setIndentationForBufferRow(bufferRow, indentLevel)
    if (onFirstLine) {
      editor.moveUp()
      editor.moveToEndOfLine()
    }
  })
}
