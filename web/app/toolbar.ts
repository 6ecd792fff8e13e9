import { isLanguageId, LANGUAGE_IDS, languageInfo, type TextEditor } from '../../core/index.ts'
import type { ConnectionState } from './connection.ts'
import { normalizeColor, normalizeName, type UserIdentity } from './user.ts'

export interface ToolbarOptions {
  room: string
  readOnly: boolean
  user: UserIdentity
  softWrapped: boolean
  onSoftWrap(softWrapped: boolean): void
  onUserChange(user: UserIdentity): void
  onKeyHelp(): void
  /** Switches the authorship colours on or off (the button is shown when given). */
  onAuthorship?(on: boolean): void
  /** Opens or closes the history panel (the button is shown when given). */
  onHistory?(): void
}

/**
 * The bar above the editor, always one row: room, read-only badge, the people in the room, then
 * language, soft wrap, the local user's name and colour (editable) and the key help, and the
 * connection state, which is always visible. On a narrow screen (style: under 40rem) the middle
 * settings fold into a "Menu" button's panel, so the bar fits a 360 px phone.
 */
export class Toolbar {
  readonly element: HTMLElement
  /** Where the peer list renders its entries. */
  readonly peers: HTMLElement
  private readonly connection: HTMLElement
  private readonly language: HTMLSelectElement
  private readonly softWrap: HTMLButtonElement
  private readonly nameInput: HTMLInputElement
  private readonly colorInput: HTMLInputElement
  private readonly menuButton: HTMLButtonElement
  private readonly menu: HTMLElement
  private user: UserIdentity
  private readonly authorship: HTMLButtonElement | null = null
  private readonly history: HTMLButtonElement | null = null

  constructor(
    doc: Document,
    options: ToolbarOptions,
  ) {
    this.user = { ...options.user }
    const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, testid?: string): HTMLElementTagNameMap[K] => {
      const element = doc.createElement(tag)
      element.className = className
      if (testid) element.dataset.testid = testid
      return element
    }
    this.element = el('header', 'cx-toolbar')
    const brand = el('a', 'cx-brand')
    brand.href = '/'
    brand.textContent = 'Cotext'
    brand.title = 'Open another room'
    const room = el('span', 'cx-room', 'room')
    room.textContent = options.room
    room.title = 'Room: share this page’s address to edit together'
    this.element.append(brand, room)
    if (options.readOnly) {
      const badge = el('span', 'cx-badge', 'read-only')
      badge.textContent = 'read-only'
      badge.title = 'This link can follow the document but not change it'
      this.element.appendChild(badge)
    }

    this.language = el('select', 'cx-language', 'language')
    this.language.title = 'Language'
    this.language.setAttribute('aria-label', 'Language')
    for (const id of LANGUAGE_IDS) {
      const option = doc.createElement('option')
      option.value = id
      option.textContent = languageInfo(id).name
      this.language.appendChild(option)
    }

    this.softWrap = el('button', 'cx-toggle', 'soft-wrap')
    this.softWrap.type = 'button'
    this.softWrap.textContent = 'Soft wrap'
    this.setSoftWrapped(options.softWrapped)
    this.softWrap.addEventListener('click', () => {
      const next = this.softWrap.getAttribute('aria-pressed') !== 'true'
      this.setSoftWrapped(next)
      options.onSoftWrap(next)
    })

    const spacer = el('span', 'cx-spacer')
    this.peers = el('div', 'cx-peers', 'peers')
    this.peers.setAttribute('role', 'group')
    this.peers.setAttribute('aria-label', 'People in this room (click to follow)')

    const me = el('div', 'cx-me')
    this.colorInput = el('input', 'cx-color', 'user-color')
    this.colorInput.type = 'color'
    this.colorInput.value = this.user.color
    this.colorInput.title = 'Your colour'
    this.colorInput.setAttribute('aria-label', 'Your colour')
    this.nameInput = el('input', 'cx-name', 'user-name')
    this.nameInput.value = this.user.name
    this.nameInput.title = 'Your name, as others see it'
    this.nameInput.setAttribute('aria-label', 'Your name, as others see it')
    this.nameInput.maxLength = 40
    this.nameInput.spellcheck = false
    const commit = (): void => {
      const name = normalizeName(this.nameInput.value) ?? this.user.name
      const color = normalizeColor(this.colorInput.value) ?? this.user.color
      this.nameInput.value = name
      if (name === this.user.name && color === this.user.color) return
      this.user = { name, color, colorChosen: this.user.colorChosen || color !== this.user.color }
      options.onUserChange({ ...this.user })
    }
    this.nameInput.addEventListener('change', commit)
    this.nameInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.nameInput.blur()
    })
    this.colorInput.addEventListener('input', commit)
    me.append(this.colorInput, this.nameInput)

    const help = el('button', 'cx-toggle cx-help-button', 'key-help-button')
    help.type = 'button'
    help.textContent = '?'
    help.title = 'Keys (F1)'
    help.setAttribute('aria-label', '? Key help (F1)')
    help.addEventListener('click', () => options.onKeyHelp())

    this.connection = el('span', 'cx-connection', 'connection')
    this.connection.setAttribute('role', 'status')
    // Who wrote what, and the history panel (web/view/authorship-layer.ts, web/app/history-panel.ts).
    if (options.onAuthorship) {
      const authorship = (this.authorship = el('button', 'cx-toggle', 'authorship-toggle'))
      authorship.type = 'button'
      authorship.textContent = 'Authors'
      authorship.title = 'Colour the text by who wrote it (Alt+Shift+A)'
      authorship.setAttribute('aria-pressed', 'false')
      authorship.addEventListener('click', () => options.onAuthorship!(authorship.getAttribute('aria-pressed') !== 'true'))
    }
    if (options.onHistory) {
      const history = (this.history = el('button', 'cx-toggle', 'history-toggle'))
      history.type = 'button'
      history.textContent = 'History'
      history.title = 'Versions and recent changes (Alt+Shift+H)'
      history.setAttribute('aria-expanded', 'false')
      history.addEventListener('click', () => options.onHistory!())
    }
    // The settings: inline in the bar on a wide screen, a panel under "Menu" on a narrow one.
    this.menu = el('div', 'cx-menu', 'menu')
    this.menu.id = 'cx-menu'
    this.menu.append(this.language, this.softWrap, ...[this.authorship, this.history].filter((button): button is HTMLButtonElement => button !== null), me, help)
    this.menuButton = el('button', 'cx-toggle cx-menu-button', 'menu-button')
    this.menuButton.type = 'button'
    this.menuButton.textContent = 'Menu'
    this.menuButton.setAttribute('aria-controls', this.menu.id)
    this.menuButton.setAttribute('aria-expanded', 'false')
    this.menuButton.addEventListener('click', () => this.setMenuOpen(this.menuButton.getAttribute('aria-expanded') !== 'true'))
    this.menu.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return
      this.setMenuOpen(false)
      this.menuButton.focus()
    })
    help.addEventListener('click', () => this.setMenuOpen(false))
    this.element.append(spacer, this.peers, this.menuButton, this.menu, this.connection)
  }

  /** Opens or closes the settings panel of a narrow screen. */
  setMenuOpen(open: boolean): void {
    this.menuButton.setAttribute('aria-expanded', String(open))
    this.element.classList.toggle('cx-menu-open', open)
  }

  /** Shows whether the authorship colours are on. */
  setAuthorship(on: boolean): void {
    this.authorship?.setAttribute('aria-pressed', String(on))
  }

  /** Shows whether the history panel is open, and which element it is. */
  setHistoryOpen(open: boolean, panelId?: string): void {
    this.history?.setAttribute('aria-expanded', String(open))
    if (panelId !== undefined) this.history?.setAttribute('aria-controls', panelId)
  }

  /** Connects the language selector to the editor. */
  attach(editor: TextEditor): void {
    this.language.value = editor.getLanguage()
    this.language.addEventListener('change', () => {
      const id = this.language.value
      if (isLanguageId(id)) editor.setLanguage(id)
    })
    editor.onDidChangeLanguage((id) => (this.language.value = id))
  }

  setConnection(state: ConnectionState, detail: string): void {
    this.connection.textContent = state
    this.connection.dataset.state = state
    this.connection.title = detail
  }

  setSoftWrapped(softWrapped: boolean): void {
    this.softWrap.setAttribute('aria-pressed', String(softWrapped))
  }

  /** Shows the colour others see (the page may change an automatic one so nobody else shares it). */
  showColor(color: string): void {
    this.colorInput.value = color
    this.user = { ...this.user, color }
  }

  getUser(): UserIdentity {
    return { ...this.user }
  }
}
