import { InvalidPatternError, type Disposable, type FindOptions, type FindQuery, type Point, type TextEditor } from '../../core/index.ts'
import type { EditorView } from '../view/editor-view.ts'
import { FindLayer } from '../view/find-layer.ts'

/**
 * The find bar (Ctrl+F), with a replace row (Ctrl+H), and go to line (Ctrl+G), as Atom's
 * find-and-replace and go-to-line packages: Enter / Shift+Enter (or F3 / Shift+F3) go to the next /
 * previous match, Alt+Enter (Alt+F3 in the text) selects every match, Escape closes and gives the
 * text its focus back. The count ("3 of 17") is a polite live region. A query's matches follow every
 * edit, ours and the peers'; the first count of a large document runs in slices of the page's own
 * tasks (a few milliseconds each), so typing never waits for it.
 */

type Mode = 'find' | 'replace' | 'line'

/** Longest a counting task runs before it yields to the page (ms). */
const TASK_MS = 8
/** Characters searched per slice of a task. */
const SLICE_CHARS = 1 << 17

interface Toggle {
  readonly button: HTMLButtonElement
  readonly option: 'regex' | 'caseSensitive' | 'wholeWord'
}

export class FindBar {
  readonly element: HTMLElement
  private readonly findInput: HTMLInputElement
  private readonly replaceInput: HTMLInputElement
  private readonly lineInput: HTMLInputElement
  private readonly findRow: HTMLElement
  private readonly replaceRow: HTMLElement
  private readonly lineRow: HTMLElement
  private readonly status: HTMLElement
  private readonly toggles: Toggle[] = []
  private readonly layer: FindLayer
  private mode: Mode | null = null
  private query: FindQuery | null = null
  private querySubscription: Disposable | null = null
  private current = -1
  /** Where "at or after" is measured from: the cursor when the query was made. */
  private anchor: Point | null = null
  private timer = 0
  private error = ''
  private readonly onDocumentKeyDown: (event: KeyboardEvent) => void

  constructor(
    parent: HTMLElement,
    private readonly editor: TextEditor,
    private readonly view: EditorView,
    private readonly win: Window,
  ) {
    const doc = parent.ownerDocument
    const element = doc.createElement('div')
    element.className = 'cx-find-bar'
    element.dataset.testid = 'find-bar'
    element.setAttribute('role', 'search')
    element.setAttribute('aria-label', 'Find and replace')
    element.hidden = true

    this.findInput = input(doc, 'Find', 'find-input')
    this.replaceInput = input(doc, 'Replace with', 'replace-input')
    this.lineInput = input(doc, 'Go to line (line or line:column)', 'line-input')
    this.findRow = row(doc)
    this.findRow.append(this.findInput)
    for (const [label, text, option] of [['Use regular expression', '.*', 'regex'], ['Match case', 'Aa', 'caseSensitive'], ['Whole word', '\\b', 'wholeWord']] as const) {
      const button = doc.createElement('button')
      button.type = 'button'
      button.className = 'cx-find-toggle'
      button.textContent = text
      button.title = label
      button.setAttribute('aria-label', label)
      button.setAttribute('aria-pressed', 'false')
      button.dataset.testid = `find-${option}`
      button.addEventListener('click', () => {
        button.setAttribute('aria-pressed', String(button.getAttribute('aria-pressed') !== 'true'))
        this.search()
      })
      this.toggles.push({ button, option })
      this.findRow.append(button)
    }
    this.findRow.append(
      this.button(doc, 'Previous', 'Previous match (Shift+Enter)', () => this.previous()),
      this.button(doc, 'Next', 'Next match (Enter)', () => this.next()),
      this.button(doc, 'All', 'Select all matches (Alt+Enter)', () => this.selectAll()),
    )
    this.replaceRow = row(doc)
    this.replaceRow.append(
      this.replaceInput,
      this.button(doc, 'Replace', 'Replace this match and go to the next (Enter)', () => this.replaceCurrent()),
      this.button(doc, 'Replace All', 'Replace every match (Ctrl+Enter)', () => this.replaceAll()),
    )
    this.lineRow = row(doc)
    this.lineRow.append(this.lineInput)
    this.status = doc.createElement('span')
    this.status.className = 'cx-find-status'
    this.status.dataset.testid = 'find-status'
    this.status.setAttribute('role', 'status')
    this.status.setAttribute('aria-live', 'polite')
    const close = this.button(doc, 'Close', 'Close (Escape)', () => this.close())
    element.append(this.findRow, this.replaceRow, this.lineRow, this.status, close)
    parent.insertBefore(element, parent.firstChild)
    this.element = element

    this.layer = new FindLayer(editor, view.getHighlightElement())
    view.addDecorationLayer(this.layer)
    this.findInput.addEventListener('input', () => this.search())
    element.addEventListener('keydown', (event) => this.onBarKeyDown(event))
    this.onDocumentKeyDown = (event) => this.onPageKeyDown(event)
    doc.addEventListener('keydown', this.onDocumentKeyDown)
  }

  dispose(): void {
    this.element.ownerDocument.removeEventListener('keydown', this.onDocumentKeyDown)
    this.setQuery(null)
    this.element.remove()
  }

  isOpen(): boolean {
    return this.mode !== null
  }

  /** Opens the bar in `mode`, focusing its field (the find field starts with the selected text). */
  open(mode: Mode): void {
    this.mode = mode
    this.element.hidden = false
    this.findRow.hidden = mode === 'line'
    this.replaceRow.hidden = mode !== 'replace'
    this.lineRow.hidden = mode !== 'line'
    if (mode === 'line') {
      this.setQuery(null)
      this.lineInput.value = ''
      this.setStatus(`Line 1 to ${this.editor.getLineCount()}; line:column goes to a column`)
      this.lineInput.focus()
      return
    }
    const selected = this.editor.getSelectedText()
    if (selected !== '' && !selected.includes('\n')) this.findInput.value = selected
    this.findInput.focus()
    this.findInput.select()
    this.search()
  }

  /** Closes the bar; the text gets the focus back, its selection on the last match visited. */
  close(): void {
    if (this.mode === null) return
    this.mode = null
    this.element.hidden = true
    this.setQuery(null)
    this.view.focus()
  }

  next(): void {
    this.step(1)
  }

  previous(): void {
    this.step(-1)
  }

  /** Selects every match, a cursor per match (Atom's find-and-replace:select-all). */
  selectAll(): void {
    if (this.query === null) return
    this.query.selectAll()
    this.view.requestAutoscroll()
    this.view.focus()
  }

  replaceCurrent(): void {
    const query = this.query
    if (query === null || !this.writable()) return
    if (this.current < 0 || this.current >= query.getMatchCount()) return this.next()
    query.replace(this.current, this.replaceInput.value)
    // The match after it is now at the same index.
    if (query.getMatchCount() === 0) this.current = -1
    else this.current %= query.getMatchCount()
    this.reveal()
  }

  replaceAll(): void {
    const query = this.query
    if (query === null || !this.writable()) return
    const count = query.replaceAll(this.replaceInput.value)
    this.current = -1
    this.refresh()
    this.setStatus(query.isTooSlow() ? this.status.textContent ?? '' : `Replaced ${count} ${count === 1 ? 'match' : 'matches'}`)
  }

  /** Goes to `text`: a line number, or line:column (both from 1). False when it is neither. */
  goToLine(text: string): boolean {
    const match = /^\s*(\d+)\s*(?::\s*(\d+)\s*)?$/.exec(text)
    if (match === null) {
      this.setStatus('Enter a line number, or line:column')
      return false
    }
    const row = Math.max(0, Number(match[1]) - 1)
    const column = match[2] === undefined ? 0 : Math.max(0, Number(match[2]) - 1)
    this.editor.setCursorBufferPosition([row, column])
    this.close()
    this.view.requestAutoscroll()
    return true
  }

  // Searching

  private options(): FindOptions {
    const options: FindOptions = { pattern: this.findInput.value }
    for (const { button, option } of this.toggles) options[option] = button.getAttribute('aria-pressed') === 'true'
    return options
  }

  /** Makes the query for what the fields say now and counts in slices. */
  private search(): void {
    this.anchor = this.editor.getSelectedBufferRange().start
    this.error = ''
    this.findInput.removeAttribute('aria-invalid')
    let query: FindQuery | null = null
    try {
      query = this.findInput.value === '' ? null : this.editor.createFindQuery(this.options())
    } catch (error) {
      if (!(error instanceof InvalidPatternError)) throw error
      this.error = error.message
      this.findInput.setAttribute('aria-invalid', 'true')
    }
    this.setQuery(query)
    if (query !== null) this.countSlice()
    this.refresh()
  }

  private setQuery(query: FindQuery | null): void {
    this.querySubscription?.dispose()
    this.querySubscription = null
    this.query?.dispose()
    this.query = query
    this.current = -1
    if (this.timer !== 0) this.win.clearTimeout(this.timer)
    this.timer = 0
    if (query !== null) this.querySubscription = query.onDidUpdate(() => this.refresh())
    this.layer.show(query, -1)
    this.view.requestRender({ decorations: true })
  }

  /** One task of counting: slices until TASK_MS have passed, then the next task. */
  private countSlice(): void {
    this.timer = 0
    const query = this.query
    if (query === null) return
    const started = this.win.performance.now()
    let status = query.search({ maxChars: SLICE_CHARS })
    while (status === 'more' && this.win.performance.now() - started < TASK_MS) status = query.search({ maxChars: SLICE_CHARS })
    if (status === 'more') this.timer = this.win.setTimeout(() => this.countSlice(), 0)
  }

  /** After any change of the results: the current match, the count, the highlights. */
  private refresh(): void {
    const query = this.query
    if (query === null) {
      this.setStatus(this.error || (this.findInput.value === '' ? '' : 'No results'))
      return
    }
    const count = query.getMatchCount()
    if (this.current >= count) this.current = count - 1
    if (this.current < 0 && count > 0 && this.anchor !== null) {
      const at = query.indexAtOrAfter(this.anchor)
      // Past the last match found: the first, once nothing is left to search.
      const first = at >= 0 ? at : query.isComplete() ? 0 : -1
      if (first >= 0) {
        this.current = first
        this.scrollToCurrent()
      }
    }
    this.layer.show(query, this.current)
    this.view.requestRender({ decorations: true })
    const counting = query.isComplete() || query.isTooSlow() ? '' : '…'
    if (query.isTooSlow()) this.setStatus(`Too slow: the search stopped after ${count} ${count === 1 ? 'match' : 'matches'}`)
    else if (count === 0) this.setStatus(query.isComplete() ? 'No results' : 'Searching…')
    else if (this.current >= 0) this.setStatus(`${this.current + 1} of ${count}${counting}`)
    else this.setStatus(`${count} found${counting}`)
  }

  private step(direction: 1 | -1): void {
    const query = this.query
    if (query === null || query.getMatchCount() === 0) {
      if (this.mode === null) this.open('find')
      return
    }
    const count = query.getMatchCount()
    if (this.current < 0) {
      const cursor = this.editor.getSelectedBufferRange()
      const at = direction > 0 ? query.indexAtOrAfter(cursor.end) : query.indexBefore(cursor.start)
      this.current = at >= 0 ? at : direction > 0 ? 0 : count - 1
    } else this.current = (this.current + direction + count) % count
    this.reveal()
  }

  /** Selects the current match in the text and scrolls to it. */
  private reveal(): void {
    const query = this.query
    if (query === null || this.current < 0) return this.refresh()
    this.editor.setSelectedBufferRange(query.getMatchRange(this.current))
    this.scrollToCurrent()
    this.refresh()
  }

  private scrollToCurrent(): void {
    const query = this.query
    const index = this.current
    this.view.requestScrollTo(() => (query !== null && index >= 0 && index < query.getMatchCount() ? this.editor.screenPositionForBufferPosition(query.getMatchRange(index).start) : null))
  }

  private writable(): boolean {
    if (!this.editor.isReadOnly()) return true
    this.view.showHint(this.view.readOnlyHint)
    return false
  }

  private setStatus(text: string): void {
    if (this.status.textContent !== text) this.status.textContent = text
  }

  // Keys

  private onBarKeyDown(event: KeyboardEvent): void {
    const target = event.target
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      this.close()
      return
    }
    if (event.key !== 'Enter') return
    event.preventDefault()
    event.stopPropagation()
    if (target === this.lineInput) this.goToLine(this.lineInput.value)
    else if (target === this.replaceInput) {
      if (event.ctrlKey || event.metaKey) this.replaceAll()
      else this.replaceCurrent()
    } else if (event.altKey) this.selectAll()
    else if (event.shiftKey) this.previous()
    else this.next()
  }

  /** The keys that open the bar or step through matches from anywhere on the page. */
  private onPageKeyDown(event: KeyboardEvent): void {
    if (event.defaultPrevented) return
    const ctrl = event.ctrlKey || event.metaKey
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key
    let handled = true
    if (ctrl && !event.altKey && !event.shiftKey && key === 'f') this.open('find')
    else if (ctrl && !event.altKey && !event.shiftKey && key === 'h') this.open('replace')
    else if (ctrl && !event.altKey && !event.shiftKey && key === 'g') this.open('line')
    else if (key === 'F3' && event.altKey && !ctrl) this.query === null ? this.open('find') : this.selectAll()
    else if (key === 'F3' && !ctrl && !event.altKey) (event.shiftKey ? this.previous() : this.next())
    else handled = false
    if (handled) event.preventDefault()
  }

  private button(doc: Document, text: string, label: string, action: () => void): HTMLButtonElement {
    const button = doc.createElement('button')
    button.type = 'button'
    button.className = 'cx-find-button'
    button.textContent = text
    button.title = label
    button.dataset.testid = `find-${text.toLowerCase().replace(/\s+/g, '-')}`
    button.addEventListener('click', action)
    return button
  }
}

function input(doc: Document, label: string, testId: string): HTMLInputElement {
  const field = doc.createElement('input')
  field.type = 'text'
  field.className = 'cx-find-input'
  field.setAttribute('aria-label', label)
  field.placeholder = label
  field.spellcheck = false
  field.autocomplete = 'off'
  field.dataset.testid = testId
  return field
}

function row(doc: Document): HTMLElement {
  const element = doc.createElement('div')
  element.className = 'cx-find-row'
  return element
}
