import { KEYMAP } from '../input/keymap.ts'

/**
 * The key help: every binding of the keymap table (so keys added to web/input/keymap.ts appear
 * here by themselves) plus the page's own keys, in a modal dialog opened with F1 or the "?" button.
 * The browser's <dialog> keeps focus inside while open and closes on Escape; focus then returns to
 * whatever had it (the editor).
 */

/** Keys the page handles itself: leaving the editor by keyboard, this help, and the find bar's keys. */
export const PAGE_KEYS: readonly (readonly [keys: string, what: string])[] = [
  ['Escape, then Tab / Shift+Tab', 'Leave the editor (to the next / previous control)'],
  ['Ctrl+Shift+M', 'Toggle Tab moves focus (instead of indenting)'],
  ['F1', 'Show this key help'],
  ['Ctrl+F', 'Find (Atom: find-and-replace:show)'],
  ['Ctrl+H', 'Find and replace (find-and-replace:show-replace)'],
  ['Enter, Shift+Enter / F3, Shift+F3', 'Next / previous match (find-and-replace:find-next, find-previous)'],
  ['Alt+Enter (in the find field), Alt+F3', 'Select all matches (find-and-replace:select-all)'],
  ['Enter, Ctrl+Enter (in the replace field)', 'Replace and go to the next / replace all (find-and-replace:replace-next, replace-all)'],
  ['Ctrl+G', 'Go to line, or line:column (go-to-line:toggle)'],
  ['Escape (in the find bar)', 'Close the find bar, back to the text'],
  ['Alt+Shift+A', 'Show or hide who wrote what (authorship colours)'],
  ['Alt+Shift+W', 'Say who wrote the text at the cursor, and when'],
  ['Alt+Shift+H', 'Open or close the history panel'],
]

/** Commands whose name does not read well as a label. */
const COMMAND_LABELS: Readonly<Record<string, string>> = {
  'cotext:undo-everyone': 'Undo everyone’s last change',
  'cotext:redo-everyone': 'Redo everyone’s last undone change',
}

const KEY_NAMES: Readonly<Record<string, string>> = {
  up: '↑', down: '↓', left: '←', right: '→', pageup: 'PageUp', pagedown: 'PageDown', home: 'Home', end: 'End',
  backspace: 'Backspace', delete: 'Delete', insert: 'Insert', enter: 'Enter', tab: 'Tab', escape: 'Escape', space: 'Space',
  ctrl: 'Ctrl', shift: 'Shift', alt: 'Alt', cmd: 'Meta',
}

/** 'ctrl-shift-left' -> 'Ctrl+Shift+←'; 'ctrl--' -> 'Ctrl+-'; a chord 'ctrl-k ctrl-u' -> 'Ctrl+K Ctrl+U'. */
export function keystrokeLabel(keystroke: string): string {
  return keystroke.split(' ').map((key) => key.split(/-(?!$)/).map(keyName).join('+')).join(' ')
}

function keyName(part: string): string {
  return KEY_NAMES[part] ?? (part.length === 1 ? part.toUpperCase() : part[0]!.toUpperCase() + part.slice(1))
}

/** 'editor:move-to-beginning-of-word' -> 'Move to beginning of word'. */
export function commandLabel(command: string): string {
  if (COMMAND_LABELS[command] !== undefined) return COMMAND_LABELS[command]
  const words = command.slice(command.indexOf(':') + 1).replace(/-/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** The keymap as rows of [keys, what they do], one row per command, in the table's order. */
export function keyHelpRows(keymap: Readonly<Record<string, string>> = KEYMAP): [keys: string, what: string][] {
  const byCommand = new Map<string, string[]>()
  for (const [keystroke, command] of Object.entries(keymap)) {
    const keys = byCommand.get(command)
    if (keys === undefined) byCommand.set(command, [keystrokeLabel(keystroke)])
    else keys.push(keystrokeLabel(keystroke))
  }
  return [...byCommand].map(([command, keys]) => [keys.join(', '), commandLabel(command)])
}

/** Key helps made in this page so far: gives each one's title its own id. */
let helpCount = 0

export class KeyHelp {
  readonly element: HTMLDialogElement
  private returnFocus: HTMLElement | null = null

  constructor(parent: HTMLElement) {
    const doc = parent.ownerDocument
    const dialog = doc.createElement('dialog')
    dialog.className = 'cx-key-help'
    dialog.dataset.testid = 'key-help'
    const title = doc.createElement('h2')
    title.id = `cx-key-help-title-${++helpCount}`
    dialog.setAttribute('aria-labelledby', title.id)
    title.textContent = 'Keys'
    const close = doc.createElement('button')
    close.type = 'button'
    close.className = 'cx-key-help-close'
    close.textContent = 'Close'
    close.addEventListener('click', () => dialog.close())
    const table = doc.createElement('table')
    const head = doc.createElement('thead')
    head.innerHTML = '<tr><th scope="col">Keys</th><th scope="col">Does</th></tr>'
    const body = doc.createElement('tbody')
    for (const [keys, what] of [...PAGE_KEYS, ...keyHelpRows()]) {
      const row = doc.createElement('tr')
      const keyCell = doc.createElement('td')
      const kbd = doc.createElement('kbd')
      kbd.textContent = keys
      keyCell.appendChild(kbd)
      const whatCell = doc.createElement('td')
      whatCell.textContent = what
      row.append(keyCell, whatCell)
      body.appendChild(row)
    }
    table.append(head, body)
    const scroll = doc.createElement('div')
    scroll.className = 'cx-key-help-table'
    // A scrolling region keyboard users can reach and scroll with the arrow keys.
    scroll.tabIndex = 0
    scroll.setAttribute('role', 'region')
    scroll.setAttribute('aria-label', 'Key bindings')
    scroll.appendChild(table)
    dialog.append(title, scroll, close)
    dialog.addEventListener('close', () => {
      this.returnFocus?.focus({ preventScroll: true })
      this.returnFocus = null
    })
    parent.appendChild(dialog)
    this.element = dialog
  }

  isOpen(): boolean {
    return this.element.open
  }

  open(): void {
    if (this.element.open) return
    const active = this.element.ownerDocument.activeElement
    this.returnFocus = active instanceof HTMLElement ? active : null
    this.element.showModal()
  }

  close(): void {
    this.element.close()
  }

  dispose(): void {
    this.element.remove()
  }
}
