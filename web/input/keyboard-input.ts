import { ReadOnlyEditorError, type TextEditor } from '../../core/index.ts'
import { INPUT_ANCHOR, type EditorView } from '../view/editor-view.ts'
import { commandForKeystroke, isChordPrefix, type Command, type CommandContext } from './keymap.ts'
import { keystrokeForEvent } from './keystroke.ts'
import { typeWithBrackets } from './brackets.ts'
import type { SystemClipboard } from './system-clipboard.ts'


/** Keys the browser would use to move its own caret out of the input span. */
const NAVIGATION_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'])

export interface InputHost {
  readonly editor: TextEditor
  readonly view: EditorView
  readonly clipboard: SystemClipboard
  /** The user acted in the editor (typed, moved, clicked): stop following a peer. */
  didLocalInput(): void
  /** F1: open the key help. */
  showKeyHelp(): void
}

export const TAB_MOVES_FOCUS_ON = 'Tab moves focus (Ctrl+Shift+M: Tab indents again)'
export const TAB_MOVES_FOCUS_OFF = 'Tab indents (Ctrl+Shift+M: Tab moves focus)'

/**
 * Keyboard, text and clipboard input on the editing surface. Keys go through the keymap to core
 * commands; typed text (`beforeinput`) goes to `insertText` with grouped undo; IME composition is
 * shown inline in the input span at the cursor, the line's following text moved aside to make room,
 * and inserted when it ends (peers see it only then); copy, cut and paste run in the
 * browser's clipboard events, through the system clipboard. Nothing reaches the DOM's own editing:
 * every `beforeinput` is cancelled, so the rendered lines only ever show the model.
 *
 * Tab indents, so a keyboard user could not leave (WCAG 2.1.2): as in CodeMirror, Tab or Shift+Tab
 * right after Escape moves focus instead, and Ctrl+Shift+M (VS Code's key on macOS; Atom's Ctrl+M jumps to the matching bracket) makes Tab move focus until
 * pressed again.
 */
export class KeyboardInput {
  private composing = false
  /** The first keys of a chord typed so far ('ctrl-k'), or ''. */
  private pendingChord = ''
  /** The last key was Escape: a Tab now leaves the editor. */
  private escaped = false
  private tabMovesFocus = false
  private readonly context: CommandContext
  private readonly cleanups: (() => void)[] = []

  constructor(private readonly host: InputHost) {
    const { view } = host
    this.context = { editor: host.editor, rowsPerPage: () => view.rowsPerPage() }
    const surface = view.surface
    const listen = <K extends keyof HTMLElementEventMap>(type: K, listener: (event: HTMLElementEventMap[K]) => void): void => {
      surface.addEventListener(type, listener)
      this.cleanups.push(() => surface.removeEventListener(type, listener))
    }
    listen('keydown', (event) => this.onKeyDown(event))
    listen('beforeinput', (event) => this.onBeforeInput(event))
    listen('compositionstart', () => this.onCompositionStart())
    listen('compositionend', (event) => this.onCompositionEnd(event))
    listen('input', () => this.onInput())
    listen('copy', (event) => this.onClipboard(event, 'copy'))
    listen('cut', (event) => this.onClipboard(event, 'cut'))
    listen('paste', (event) => this.onClipboard(event, 'paste'))
    listen('focus', () => this.placeCaret())
    listen('blur', () => (this.escaped = false))
    listen('drop', (event) => event.preventDefault())
  }

  dispose(): void {
    for (const cleanup of this.cleanups) cleanup()
  }

  /** Whether Tab moves focus out of the editor instead of indenting (Ctrl+Shift+M toggles it). */
  getTabMovesFocus(): boolean {
    return this.tabMovesFocus
  }

  setTabMovesFocus(on: boolean): void {
    this.tabMovesFocus = on
    this.host.view.showHint(on ? TAB_MOVES_FOCUS_ON : TAB_MOVES_FOCUS_OFF)
  }

  isComposing(): boolean {
    return this.composing
  }

  /** Keeps the DOM caret in the input span, where typing and IME happen (the view's caret line). */
  placeCaret(): void {
    if (this.composing) return
    this.host.view.syncDomSelection()
  }

  /** Runs a command as the user's action: read-only editors show the hint instead of throwing. */
  runCommand(command: Command): void {
    this.host.didLocalInput()
    if (command.edits && this.host.editor.isReadOnly()) {
      this.host.view.showHint(this.host.view.readOnlyHint)
      return
    }
    this.guard(() => command.run(this.context))
    this.host.view.requestAutoscroll()
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.isComposing || event.keyCode === 229 || this.composing) return
    if (event.key === 'F1') {
      event.preventDefault()
      this.host.showKeyHelp()
      return
    }
    const keystroke = keystrokeForEvent(event)
    if (keystroke === null) return
    const escaped = this.escaped
    this.escaped = keystroke === 'escape'
    if (keystroke === 'ctrl-shift-m') {
      event.preventDefault()
      this.pendingChord = ''
      this.setTabMovesFocus(!this.tabMovesFocus)
      return
    }
    // The browser's own Tab handling moves focus out of the editing surface.
    if ((keystroke === 'tab' || keystroke === 'shift-tab') && (escaped || this.tabMovesFocus)) return
    // A chord's first keys wait for the next one; a key that completes no chord counts on its own.
    const keys = this.pendingChord === '' ? keystroke : `${this.pendingChord} ${keystroke}`
    this.pendingChord = isChordPrefix(keys) ? keys : ''
    if (this.pendingChord !== '') {
      event.preventDefault()
      return
    }
    const binding = commandForKeystroke(keys) ?? commandForKeystroke(keystroke)
    if (binding === undefined) {
      if (NAVIGATION_KEYS.has(event.key)) event.preventDefault()
      else this.placeCaret()
      return
    }
    const { command } = binding
    if (command.clipboard !== undefined) {
      // The browser fires its copy/cut/paste event on the surface next; the command runs there.
      this.placeCaret()
      return
    }
    event.preventDefault()
    this.runCommand(command)
  }

  private onBeforeInput(event: InputEvent): void {
    if (event.inputType === 'insertCompositionText') return
    event.preventDefault()
    if (this.composing) return
    const editor = this.host.editor
    switch (event.inputType) {
      case 'insertText':
      case 'insertReplacementText': {
        const text = event.data ?? event.dataTransfer?.getData('text/plain') ?? ''
        if (text !== '') this.insert(text, this.surfaceIsSelected())
        return
      }
      case 'insertLineBreak':
      case 'insertParagraph':
        this.insert('\n', this.surfaceIsSelected())
        return
      case 'historyUndo':
        this.runCommand({ edits: true, run: () => editor.undo() })
        return
      case 'historyRedo':
        this.runCommand({ edits: true, run: () => editor.redo() })
        return
      case 'deleteContentBackward':
      case 'deleteContentForward':
      case 'deleteWordBackward':
      case 'deleteWordForward': {
        // Only reaches here without a keydown we handled: a script's or a virtual keyboard's delete.
        const all = this.surfaceIsSelected()
        const backward = event.inputType.endsWith('Backward')
        this.runCommand({
          edits: true,
          run: () => {
            if (all) editor.selectAll()
            if (backward) editor.backspace()
            else editor.delete()
          },
        })
        this.placeCaret()
        return
      }
      default:
        // Formatting, drag and drop, and the rest of contenteditable's vocabulary do not apply.
        return
    }
  }

  private onCompositionStart(): void {
    this.composing = true
    this.host.view.setComposing(true)
    this.host.view.inputSpan.classList.add('cx-composing')
    if (this.host.editor.isReadOnly()) this.host.view.showHint(this.host.view.readOnlyHint)
  }

  /** The composition changed in the input span: the line makes room for it at the cursor. */
  private onInput(): void {
    if (!this.composing) return
    const span = this.host.view.inputSpan
    const width = span.getBoundingClientRect().width
    this.host.view.setCompositionWidth(span.textContent === INPUT_ANCHOR ? null : width)
  }

  private onCompositionEnd(event: CompositionEvent): void {
    this.composing = false
    this.host.view.setComposing(false)
    this.host.view.setCompositionWidth(null)
    const span = this.host.view.inputSpan
    span.classList.remove('cx-composing')
    span.textContent = INPUT_ANCHOR
    this.placeCaret()
    if (event.data) this.insert(event.data, false)
  }

  private onClipboard(event: ClipboardEvent, kind: 'copy' | 'cut' | 'paste'): void {
    event.preventDefault()
    const { editor, clipboard, view } = this.host
    if (kind !== 'copy' && editor.isReadOnly()) {
      view.showHint(this.host.view.readOnlyHint)
      return
    }
    const data = event.clipboardData
    if (kind === 'paste') {
      clipboard.receive(data?.getData('text/plain') ?? '')
      this.runCommand({ edits: true, run: () => editor.pasteText() })
      return
    }
    clipboard.takeWritten()
    this.runCommand({ edits: kind === 'cut', run: () => (kind === 'cut' ? editor.cutSelectedText() : editor.copySelectedText()) })
    const written = clipboard.takeWritten()
    if (written !== null) data?.setData('text/plain', written)
  }

  private insert(text: string, replaceAll: boolean): void {
    const editor = this.host.editor
    this.runCommand({
      edits: true,
      run: () => {
        if (replaceAll) editor.selectAll()
        else if (typeWithBrackets(editor, text)) return
        editor.insertText(text, { groupUndo: true })
      },
    })
    if (replaceAll) this.placeCaret()
  }

  /**
   * True when the DOM selection spans the surface instead of sitting in the input span: a script
   * (or Playwright's `fill`) selected everything, so the input replaces the whole text.
   */
  private surfaceIsSelected(): boolean {
    const selection = this.host.view.surface.ownerDocument.getSelection()
    if (selection === null || selection.isCollapsed) return false
    return !this.host.view.holdsDomNode(selection.anchorNode)
  }

  private guard(fn: () => void): void {
    try {
      fn()
    } catch (error) {
      // A command can still meet read-only (a peer's token changed mode): say so, never throw at the user.
      if (error instanceof ReadOnlyEditorError) this.host.view.showHint(this.host.view.readOnlyHint)
      else throw error
    }
  }
}
