import type { TextEditor } from '../../core/index.ts'
import { selectNext } from './select-next.ts'
import { backspaceEmptyPairs, goToMatchingBracket } from './brackets.ts'

/**
 * Atom's default Linux keymap for a text editor (keymaps/base.cson and linux.cson, plus ctrl-d from
 * find-and-replace), as two tables: keystroke -> Atom command name, and command name -> what it does
 * through the core editor's commands. Keys Atom binds to workspace actions (panes, files) are left to
 * the browser. A chord is its keystrokes separated by a space ('ctrl-k ctrl-u'). Beyond Atom: ctrl-k
 * ctrl-0 folds all and ctrl-k ctrl-j unfolds all (as in VS Code; Atom's ctrl-k ctrl-0 unfolds all).
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
  'ctrl-up': 'editor:move-line-up',
  'ctrl-down': 'editor:move-line-down',
  'ctrl-shift-d': 'editor:duplicate-lines',
  'ctrl-t': 'editor:transpose',
  'ctrl-k ctrl-u': 'editor:upper-case',
  'ctrl-k ctrl-l': 'editor:lower-case',
  'ctrl-alt-[': 'editor:fold-current-row',
  'ctrl-alt-]': 'editor:unfold-current-row',
  'ctrl-alt-shift-{': 'editor:fold-all',
  'ctrl-alt-shift-}': 'editor:unfold-all',
  'ctrl-k ctrl-0': 'editor:fold-all',
  'ctrl-k ctrl-j': 'editor:unfold-all',
  'ctrl-k ctrl-1': 'editor:fold-at-indent-level-1',
  'ctrl-k ctrl-2': 'editor:fold-at-indent-level-2',
  'ctrl-k ctrl-3': 'editor:fold-at-indent-level-3',
  'ctrl-k ctrl-4': 'editor:fold-at-indent-level-4',
  'ctrl-k ctrl-5': 'editor:fold-at-indent-level-5',
  'ctrl-k ctrl-6': 'editor:fold-at-indent-level-6',
  'ctrl-k ctrl-7': 'editor:fold-at-indent-level-7',
  'ctrl-k ctrl-8': 'editor:fold-at-indent-level-8',
  'ctrl-k ctrl-9': 'editor:fold-at-indent-level-9',
  escape: 'editor:consolidate-selections',
  'ctrl-z': 'core:undo',
  'ctrl-shift-z': 'core:redo',
  'ctrl-y': 'core:redo',
  'ctrl-alt-z': 'cotext:undo-everyone',
  'ctrl-alt-shift-z': 'cotext:redo-everyone',
  'ctrl-a': 'core:select-all',
  'ctrl-c': 'core:copy',
  'ctrl-insert': 'core:copy',
  'ctrl-x': 'core:cut',
  'shift-delete': 'core:cut',
  'ctrl-v': 'core:paste',
  'shift-insert': 'core:paste',
  'ctrl-m': 'bracket-matcher:go-to-matching-bracket',
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
/** Paging moves by the rows the view shows now. */
const page = (run: (editor: TextEditor) => void): Command => ({
  run: ({ editor, rowsPerPage }) => {
    editor.setRowsPerPage(rowsPerPage())
    run(editor)
  },
})

/** Atom's editor:fold-at-indent-level-1 … -9: the folds at nesting level N - 1. */
function foldAtIndentLevelCommands(): Record<string, Command> {
  const commands: Record<string, Command> = {}
  for (let level = 1; level <= 9; level++) commands[`editor:fold-at-indent-level-${level}`] = move((e) => e.foldAllAtIndentLevel(level - 1))
  return commands
}

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
  'core:page-up': page((e) => e.pageUp()),
  'core:page-down': page((e) => e.pageDown()),
  'core:select-page-up': page((e) => e.selectPageUp()),
  'core:select-page-down': page((e) => e.selectPageDown()),
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
  'editor:fold-current-row': move((e) => e.foldCurrentRow()),
  'editor:unfold-current-row': move((e) => e.unfoldCurrentRow()),
  'editor:fold-all': move((e) => e.foldAll()),
  'editor:unfold-all': move((e) => e.unfoldAll()),
  ...foldAtIndentLevelCommands(),
  'find-and-replace:select-next': move(selectNext),
  'core:backspace': edit((e) => backspaceEmptyPairs(e) || e.backspace()),
  'core:delete': edit((e) => e.delete()),
  'editor:delete-to-beginning-of-word': edit((e) => e.deleteToBeginningOfWord()),
  'editor:delete-to-end-of-word': edit((e) => e.deleteToEndOfWord()),
  'editor:delete-to-beginning-of-subword': edit((e) => e.deleteToBeginningOfSubword()),
  'editor:delete-to-end-of-subword': edit((e) => e.deleteToEndOfSubword()),
  'editor:newline': edit((e) => e.insertNewline()),
  'editor:newline-below': edit((e) => e.insertNewlineBelow()),
  'editor:newline-above': edit((e) => e.insertNewlineAbove()),
  'editor:move-line-up': edit((e) => e.moveLineUp()),
  'editor:move-line-down': edit((e) => e.moveLineDown()),
  'editor:duplicate-lines': edit((e) => e.duplicateLines()),
  'editor:transpose': edit((e) => e.transpose()),
  'editor:upper-case': edit((e) => e.upperCase()),
  'editor:lower-case': edit((e) => e.lowerCase()),
  'editor:indent': edit((e) => e.indent()),
  'editor:indent-selected-rows': edit((e) => e.indentSelectedRows()),
  'editor:outdent-selected-rows': edit((e) => e.outdentSelectedRows()),
  'editor:toggle-line-comments': edit((e) => e.toggleLineCommentsInSelection()),
  'editor:join-lines': edit((e) => e.joinLines()),
  'editor:delete-line': edit((e) => e.deleteLine()),
  'core:undo': edit((e) => e.undo()),
  'core:redo': edit((e) => e.redo()),
  'cotext:undo-everyone': edit((e) => e.undo({ scope: 'everyone' })),
  'cotext:redo-everyone': edit((e) => e.redo({ scope: 'everyone' })),
  'core:copy': { clipboard: 'copy', run: ({ editor }) => editor.copySelectedText() },
  'core:cut': { clipboard: 'cut', edits: true, run: ({ editor }) => editor.cutSelectedText() },
  'core:paste': { clipboard: 'paste', edits: true, run: ({ editor }) => editor.pasteText() },
  'bracket-matcher:go-to-matching-bracket': move(goToMatchingBracket),
}

/**
 * Whether `keystrokes` (space-separated, as Atom writes a chord: 'ctrl-k ctrl-u') are the first keys of a
 * longer binding, so the page waits for the next key.
 */
export function isChordPrefix(keystrokes: string): boolean {
  return Object.keys(KEYMAP).some((binding) => binding.startsWith(`${keystrokes} `))
}

/** The command bound to a keystroke (or a chord), with its Atom name; undefined when the keys are not bound. */
export function commandForKeystroke(keystroke: string): { name: string; command: Command } | undefined {
  const name = KEYMAP[keystroke]
  if (name === undefined) return undefined
  const command = COMMANDS[name]
  if (command === undefined) throw new Error(`keymap binds ${keystroke} to ${name}, which has no command`)
  return { name, command }
}
