import type { ChangeEntry, Disposable, TextEditor } from '../../core/index.ts'
import { authorName } from '../view/authorship-layer.ts'

/** A version as the server lists it (GET /api/rooms/{room}/versions). */
export interface VersionSummary {
  id: string
  time: number | string
  name?: string | null
  authors?: unknown[]
}

export interface HistoryPanelOptions {
  room: string
  /** The page's access token (sent as `Authorization: Bearer`), or null. */
  token: string | null
  /** `http(s)://host` of the server. */
  baseUrl: string
  editor: TextEditor
  readOnly: boolean
  fetch: typeof fetch
  /** Called when the panel closes, to give the editor its focus back. */
  onClose(): void
}

const RECENT = 30

/**
 * The history panel beside the editor: the server's versions (save one, preview one with its
 * differences from the current text, restore it) and the recent activity of everyone in this
 * session from the editor's change log (revert any change). A labelled region of ordinary buttons
 * and lists: Tab moves through it, Escape closes it, and results are announced in a status line.
 */
export class HistoryPanel {
  readonly element: HTMLElement
  private readonly versionList: HTMLUListElement
  private readonly activityList: HTMLOListElement
  private readonly preview: HTMLElement
  private readonly status: HTMLElement
  private readonly nameInput: HTMLInputElement
  private readonly subscriptions: Disposable[] = []
  private activityFrame = 0

  constructor(
    private readonly doc: Document,
    private readonly options: HistoryPanelOptions,
  ) {
    const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, testid?: string): HTMLElementTagNameMap[K] => {
      const element = doc.createElement(tag)
      element.className = className
      if (testid) element.dataset.testid = testid
      return element
    }
    this.element = el('aside', 'cx-history', 'history-panel')
    this.element.setAttribute('aria-labelledby', 'cx-history-title')
    this.element.hidden = true
    const header = el('div', 'cx-history-header')
    const title = el('h2', 'cx-history-title')
    title.id = 'cx-history-title'
    title.textContent = 'History'
    const close = el('button', 'cx-toggle', 'history-close')
    close.type = 'button'
    close.textContent = 'Close'
    close.setAttribute('aria-label', 'Close history')
    close.addEventListener('click', () => this.close())
    header.append(title, close)

    this.status = el('p', 'cx-history-status', 'history-status')
    this.status.setAttribute('role', 'status')

    const versions = el('section', 'cx-history-section')
    const versionsTitle = el('h3', '')
    versionsTitle.textContent = 'Versions'
    const save = el('form', 'cx-history-save')
    this.nameInput = el('input', 'cx-history-name', 'version-name')
    this.nameInput.placeholder = 'Version name'
    this.nameInput.setAttribute('aria-label', 'Name of the version to save')
    const saveButton = el('button', 'cx-toggle', 'save-version')
    saveButton.type = 'submit'
    saveButton.textContent = 'Save version'
    saveButton.disabled = options.readOnly
    save.append(this.nameInput, saveButton)
    save.addEventListener('submit', (event) => {
      event.preventDefault()
      void this.saveVersion()
    })
    this.versionList = el('ul', 'cx-history-list', 'version-list')
    this.versionList.setAttribute('aria-label', 'Versions')
    this.preview = el('section', 'cx-history-preview', 'version-preview')
    this.preview.hidden = true
    this.preview.setAttribute('aria-label', 'Version preview')
    versions.append(versionsTitle, save, this.versionList, this.preview)

    const activity = el('section', 'cx-history-section')
    const activityTitle = el('h3', '')
    activityTitle.textContent = 'Recent activity'
    this.activityList = el('ol', 'cx-history-list', 'activity-list')
    this.activityList.setAttribute('aria-label', 'Recent changes, newest first')
    activity.append(activityTitle, this.activityList)

    this.element.append(header, this.status, versions, activity)
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return
      event.preventDefault()
      event.stopPropagation()
      this.close()
    })
    this.subscriptions.push(options.editor.onDidAddChange(() => this.scheduleActivity()))
  }

  isOpen(): boolean {
    return !this.element.hidden
  }

  /** Opens the panel, loads the versions and moves focus into it. */
  open(): void {
    this.element.hidden = false
    this.renderActivity()
    void this.loadVersions()
    this.element.querySelector<HTMLElement>('h2 + button, button')?.focus()
  }

  close(): void {
    if (this.element.hidden) return
    this.element.hidden = true
    this.options.onClose()
  }

  toggle(): void {
    if (this.isOpen()) this.close()
    else this.open()
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose()
    if (this.activityFrame) this.doc.defaultView?.cancelAnimationFrame(this.activityFrame)
    this.element.remove()
  }

  private say(message: string): void {
    this.status.textContent = message
  }

  private url(path: string): string {
    return `${this.options.baseUrl}/api/rooms/${encodeURIComponent(this.options.room)}${path}`
  }

  private async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = {}
    if (this.options.token !== null) headers.Authorization = `Bearer ${this.options.token}`
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    const response = await this.options.fetch(this.url(path), { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    const text = await response.text()
    let json: unknown = null
    try {
      json = text ? JSON.parse(text) : null
    } catch {
      json = null
    }
    if (!response.ok) {
      const message = json !== null && typeof json === 'object' && typeof (json as { error?: unknown }).error === 'string' ? (json as { error: string }).error : response.statusText
      throw new Error(`${response.status} ${message}`.trim())
    }
    return json
  }

  private async loadVersions(): Promise<void> {
    this.versionList.replaceChildren()
    try {
      const json = (await this.request('GET', '/versions')) as { versions?: VersionSummary[] }
      const versions = Array.isArray(json?.versions) ? json.versions : []
      if (versions.length === 0) this.versionList.append(this.item('No versions yet'))
      for (const version of [...versions].reverse()) this.versionList.append(this.versionItem(version))
    } catch (error) {
      this.versionList.append(this.item(`Versions are not available: ${(error as Error).message}`))
    }
  }

  private versionItem(version: VersionSummary): HTMLLIElement {
    const li = this.item(`${version.name ? `${version.name} · ` : ''}${formatTime(version.time)}`)
    li.dataset.testid = 'version'
    const preview = this.button('Preview', `Preview version ${version.name ?? formatTime(version.time)}`, () => void this.showPreview(version))
    const restore = this.button('Restore', `Restore version ${version.name ?? formatTime(version.time)}`, () => void this.restore(version))
    restore.disabled = this.options.readOnly
    li.append(preview, restore)
    return li
  }

  private async saveVersion(): Promise<void> {
    try {
      await this.request('POST', '/versions', { name: this.nameInput.value.trim() })
      this.nameInput.value = ''
      this.say('Version saved')
      await this.loadVersions()
    } catch (error) {
      this.say(`Could not save the version: ${(error as Error).message}`)
    }
  }

  private async showPreview(version: VersionSummary): Promise<void> {
    try {
      const json = (await this.request('GET', `/versions/${encodeURIComponent(version.id)}`)) as { text?: unknown }
      const text = typeof json?.text === 'string' ? json.text : ''
      const lines = lineDiff(text, this.options.editor.getText())
      const list = this.doc.createElement('pre')
      list.className = 'cx-history-diff'
      for (const { kind, line } of lines) {
        const row = this.doc.createElement(kind === 'same' ? 'span' : kind === 'added' ? 'ins' : 'del')
        row.textContent = `${kind === 'same' ? '  ' : kind === 'added' ? '+ ' : '- '}${line}\n`
        list.append(row)
      }
      const heading = this.doc.createElement('h4')
      const added = lines.filter((l) => l.kind === 'added').length
      const removed = lines.filter((l) => l.kind === 'removed').length
      heading.textContent = `${version.name || 'Version'} → now: ${plural(added, 'line')} added, ${removed} removed`
      const close = this.button('Close preview', 'Close the preview', () => (this.preview.hidden = true))
      this.preview.replaceChildren(heading, close, list)
      this.preview.hidden = false
      this.say(heading.textContent)
    } catch (error) {
      this.say(`Could not load the version: ${(error as Error).message}`)
    }
  }

  private async restore(version: VersionSummary): Promise<void> {
    try {
      await this.request('POST', `/versions/${encodeURIComponent(version.id)}/restore`)
      this.say(`Restored ${version.name || 'the version'}; the restore can be reverted below`)
    } catch (error) {
      this.say(`Could not restore: ${(error as Error).message}`)
    }
  }

  private scheduleActivity(): void {
    if (this.element.hidden || this.activityFrame) return
    const win = this.doc.defaultView
    if (!win) return
    this.activityFrame = win.requestAnimationFrame(() => {
      this.activityFrame = 0
      this.renderActivity()
    })
  }

  private renderActivity(): void {
    const groups = groupChanges(this.options.editor.getChanges().slice(-RECENT * 20)).slice(-RECENT).reverse()
    // Keep focus on the same group's button when the list is redrawn.
    const focusedId = (this.doc.activeElement as HTMLElement | null)?.closest?.('[data-change-id]')?.getAttribute('data-change-id')
    this.activityList.replaceChildren()
    if (groups.length === 0) this.activityList.append(this.item('No changes since you opened the document'))
    for (const group of groups) this.activityList.append(this.changeItem(group))
    if (focusedId) this.activityList.querySelector<HTMLElement>(`[data-change-id="${focusedId}"] button`)?.focus()
  }

  private changeItem(group: ChangeEntry[]): HTMLLIElement {
    const first = group[0]!
    const last = group[group.length - 1]!
    const summary = describeChanges(group)
    const li = this.item(summary)
    li.dataset.testid = 'change'
    li.dataset.changeId = first.id
    const revert = this.button('Revert', `Revert: ${summary}`, () => {
      try {
        const editor = this.options.editor
        // One change, or one author's consecutive changes (a burst of typing): reverted as one change.
        const result = group.length === 1 ? editor.revertChange(first.id) : editor.revertChanges({ author: first.author.clientID, since: first.time, until: last.time })
        this.say(result === null ? 'Nothing left of that change to revert' : 'Change reverted')
      } catch (error) {
        this.say((error as Error).message)
      }
    })
    revert.disabled = this.options.readOnly || group.some((change) => !change.revertible)
    li.append(revert)
    return li
  }

  private item(text: string): HTMLLIElement {
    const li = this.doc.createElement('li')
    const span = this.doc.createElement('span')
    span.textContent = text
    li.append(span)
    return li
  }

  private button(text: string, label: string, onClick: () => void): HTMLButtonElement {
    const button = this.doc.createElement('button')
    button.type = 'button'
    button.className = 'cx-toggle'
    button.textContent = text
    button.setAttribute('aria-label', label)
    button.addEventListener('click', onClick)
    return button
  }
}

/** How long one author's consecutive changes are shown (and reverted) as one. */
const GROUP_MS = 60_000

/** Consecutive changes of one client within a minute of each other, as groups, oldest first; a revert stands alone. */
export function groupChanges(changes: readonly ChangeEntry[]): ChangeEntry[][] {
  const groups: ChangeEntry[][] = []
  for (const change of changes) {
    const group = groups[groups.length - 1]
    const last = group?.[group.length - 1]
    const joins = group && last && !change.isRevert && !last.isRevert && last.author.clientID === change.author.clientID && change.author.clientID !== 0
    if (joins && change.time - last.time <= GROUP_MS) group.push(change)
    else groups.push([change])
  }
  return groups
}

/** "Ada inserted 5 characters and deleted 2 · 12:03:04" for a group of one author's changes. */
export function describeChanges(group: readonly ChangeEntry[]): string {
  const first = group[0]!
  let inserted = 0
  let deleted = 0
  for (const change of group) {
    for (const range of change.insertedIds) inserted += range.length
    for (const range of change.deletedIds) deleted += range.length
  }
  const parts: string[] = []
  if (inserted > 0) parts.push(`inserted ${plural(inserted, 'character')}`)
  if (deleted > 0) parts.push(`deleted ${plural(deleted, 'character')}`)
  const who = first.author.clientID === 0 ? 'Someone' : authorName(first.author)
  const what = first.isRevert ? `reverted a change (${parts.join(' and ') || 'nothing left'})` : parts.join(' and ') || 'changed nothing'
  return `${who}${first.author.attested ? ' (verified)' : ''} ${what} · ${formatTime(group[group.length - 1]!.time)}`
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

function formatTime(time: number | string): string {
  const date = new Date(typeof time === 'string' && /^\d+$/.test(time) ? Number(time) : time)
  return Number.isNaN(date.getTime()) ? String(time) : date.toLocaleString()
}

/**
 * Lines of `before` and `after` as kept, removed or added: common lines found by a longest common
 * subsequence over the lines between the common prefix and suffix (for a preview, not for merging).
 */
export function lineDiff(before: string, after: string): { kind: 'same' | 'added' | 'removed'; line: string }[] {
  const a = before.split('\n')
  const b = after.split('\n')
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const out: { kind: 'same' | 'added' | 'removed'; line: string }[] = a.slice(0, start).map((line) => ({ kind: 'same' as const, line }))
  const midA = a.slice(start, endA)
  const midB = b.slice(start, endB)
  if (midA.length * midB.length > 4_000_000) {
    // Too large to align line by line: show it as replaced.
    for (const line of midA) out.push({ kind: 'removed', line })
    for (const line of midB) out.push({ kind: 'added', line })
  } else {
    const n = midA.length
    const m = midB.length
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1))
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
    let i = 0
    let j = 0
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        out.push({ kind: 'same', line: midA[i]! })
        i++
        j++
      } else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) out.push({ kind: 'added', line: midB[j++]! })
      else out.push({ kind: 'removed', line: midA[i++]! })
    }
  }
  for (const line of a.slice(endA)) out.push({ kind: 'same', line })
  return out
}
