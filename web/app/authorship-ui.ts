import type { MountedEditor } from '../mount.ts'
import { AuthorshipLayer } from '../view/authorship-layer.ts'
import { HistoryPanel } from './history-panel.ts'
import type { Toolbar } from './toolbar.ts'

export interface AuthorshipUiOptions {
  page: HTMLElement
  toolbar: Toolbar
  mounted: MountedEditor
  room: string
  token: string | null
  /** The server's websocket URL (`ws(s)://host`); its REST API is at the same host over http(s). */
  serverUrl: string
  readOnly: boolean
  win: Window
}

/**
 * The page's "who wrote what" and history: the authorship view (toolbar "Authors", Alt+Shift+A), the
 * history panel (toolbar "History", Alt+Shift+H), and Alt+Shift+W, which says in a status line who
 * wrote the text at the cursor and when (for keyboard and screen-reader users; the mouse gets a hover).
 */
export class AuthorshipUi {
  readonly layer: AuthorshipLayer
  readonly history: HistoryPanel
  private readonly announcer: HTMLElement
  private readonly onKeyDown = (event: KeyboardEvent): void => this.keyDown(event)

  constructor(private readonly options: AuthorshipUiOptions) {
    const { page, mounted, toolbar, win } = options
    const doc = page.ownerDocument
    this.layer = new AuthorshipLayer(mounted.view, mounted.editor)
    this.history = new HistoryPanel(doc, {
      room: options.room,
      token: options.token,
      baseUrl: options.serverUrl.replace(/^ws/, 'http'),
      editor: mounted.editor,
      readOnly: options.readOnly,
      fetch: win.fetch.bind(win),
      onClose: () => {
        toolbar.setHistoryOpen(false)
        mounted.focus()
      },
    })
    this.history.element.id = 'cx-history'
    page.appendChild(this.history.element)
    toolbar.setHistoryOpen(false, this.history.element.id)
    this.announcer = doc.createElement('div')
    this.announcer.className = 'cx-visually-hidden'
    this.announcer.dataset.testid = 'author-announcer'
    this.announcer.setAttribute('role', 'status')
    page.appendChild(this.announcer)
    doc.addEventListener('keydown', this.onKeyDown)
  }

  setAuthorship(on: boolean): void {
    this.layer.setEnabled(on)
    this.options.toolbar.setAuthorship(on)
    this.announcer.textContent = on ? 'Authorship colours on' : 'Authorship colours off'
  }

  toggleHistory(): void {
    this.history.toggle()
    this.options.toolbar.setHistoryOpen(this.history.isOpen())
  }

  /** Says who wrote the character at the cursor (or just before it, at the end of a line). */
  announceAuthor(): void {
    const editor = this.options.mounted.editor
    const cursor = editor.getCursorBufferPosition()
    const lineLength = editor.getBuffer().lineLengthForRow(cursor.row)
    const at = cursor.column < lineLength || cursor.column === 0 ? cursor : cursor.translate([0, -1])
    this.announcer.textContent = this.layer.describeAt(at)
  }

  dispose(): void {
    this.options.page.ownerDocument.removeEventListener('keydown', this.onKeyDown)
    this.layer.dispose()
    this.history.dispose()
    this.announcer.remove()
  }

  private keyDown(event: KeyboardEvent): void {
    if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return
    const key = event.code
    if (key === 'KeyA') this.setAuthorship(!this.layer.isEnabled())
    else if (key === 'KeyH') this.toggleHistory()
    else if (key === 'KeyW') this.announceAuthor()
    else return
    event.preventDefault()
  }
}
