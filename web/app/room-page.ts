import type { WebsocketProvider } from 'y-websocket'
import type { Awareness } from 'y-protocols/awareness'
import type * as Y from 'yjs'
import { languageForPath, type TextEditor } from '../../core/index.ts'
import { mountEditor, type MountedEditor } from '../mount.ts'
import { FindBar } from '../find/find-bar.ts'
import type { EditorView } from '../view/editor-view.ts'
import { keepColorDistinct } from './color-keeper.ts'
import { restoreCursor } from './cursor-memory.ts'
import { PeerList } from './peer-list.ts'
import { AuthorshipUi } from './authorship-ui.ts'
import { Session, serverUrlFor, type Refusal } from './session.ts'
import { readTokenHint } from './token.ts'
import { Toolbar } from './toolbar.ts'
import { loadUser, saveUser, type UserIdentity } from './user.ts'
import { fitVisualViewport } from './viewport.ts'

/** What the page exposes as `window.cotext`, for scripts and tests. */
export interface CotextHandle {
  editor: TextEditor
  provider: WebsocketProvider
  awareness: Awareness
  doc: Y.Doc
  view: EditorView
  mounted: MountedEditor
  session: Session
  /** Resolves once the text kept in this browser is loaded (before the server answers). */
  whenLocallyLoaded: Promise<void>
  /** Resolves true once the service worker keeps a copy of the page (a reload then works offline). */
  whenOfflineReady: Promise<boolean>
}

declare global {
  interface Window {
    cotext?: CotextHandle
  }
}

const SOFT_WRAP_KEY = 'cotext.softWrap'

/**
 * Builds the editor page for `?room=NAME` (optionally `&name=`, `&color=`); `token` is the link's
 * access token, already taken out of the address bar. The editor is `mountEditor`'s component; the
 * page adds the provider and IndexedDB (Session), the top bar and the people list.
 */
export function openRoomPage(root: HTMLElement, room: string, token: string | null, params: URLSearchParams, win: Window, offlineReady: Promise<boolean>): CotextHandle {
  const doc = root.ownerDocument
  const storage = win.localStorage
  const readOnly = token !== null && readTokenHint(token)?.mode === 'ro'
  let user = loadUser(storage, params)
  const softWrapped = storage.getItem(SOFT_WRAP_KEY) === 'true'
  doc.title = `${room} · Cotext`

  const session = new Session({ room, serverUrl: serverUrlFor(win.location, params), token, readOnly, win })
  const page = doc.createElement('div')
  page.className = 'cx-page'
  root.appendChild(page)

  let mounted: MountedEditor | null = null
  let authorshipUi: AuthorshipUi | null = null
  const toolbar = new Toolbar(doc, {
    room,
    readOnly,
    user,
    softWrapped,
    onSoftWrap: (on) => {
      storage.setItem(SOFT_WRAP_KEY, String(on))
      mounted?.setSoftWrapped(on)
      mounted?.focus()
    },
    onUserChange: (next: UserIdentity) => {
      user = next
      saveUser(storage, next)
      session.setUser(next)
    },
    onKeyHelp: () => mounted?.showKeyHelp(),
    onAuthorship: (on) => authorshipUi?.setAuthorship(on),
    onHistory: () => authorshipUi?.toggleHistory(),
  })
  page.appendChild(toolbar.element)
  const main = doc.createElement('main')
  main.className = 'cx-main'
  page.appendChild(main)
  mounted = mountEditor(main, {
    doc: session.doc,
    awareness: session.awareness,
    user: { name: user.name, color: user.color },
    readOnly,
    softWrapped,
    language: languageForPath(room),
    label: `Document ${room}`,
  })
  const { editor, view } = mounted
  session.setUser(user)
  toolbar.attach(editor)

  new PeerList(toolbar.peers, editor, mounted)
  authorshipUi = new AuthorshipUi({ page, toolbar, mounted, room, token, serverUrl: serverUrlFor(win.location, params), readOnly, win })
  keepColorDistinct(session.awareness, () => user, (color) => {
    user = { ...user, color }
    toolbar.showColor(color)
    session.setUser(user)
  })

  toolbar.setConnection(session.connection.getState(), session.connection.getDetail())
  session.connection.onDidChange((state, detail) => toolbar.setConnection(state, detail))

  // Until the first sync (or a copy kept in this browser) the editor says it is loading, so an
  // empty editor never passes for an empty room.
  view.element.classList.add('cx-loading')
  const loading = doc.createElement('div')
  loading.className = 'cx-status'
  loading.dataset.testid = 'loading'
  loading.setAttribute('role', 'status')
  loading.textContent = 'Loading the document…'
  view.element.appendChild(loading)
  const loaded = (): void => {
    view.element.classList.remove('cx-loading')
    loading.remove()
  }
  void session.whenSynced.then(loaded)
  session.onDidRefuse(loaded)
  void session.whenLocallyLoaded.then(() => {
    if (editor.getBuffer().getLength() > 0) loaded()
  })

  if (session.getRefusal() !== null) showRefusal(page, session.getRefusal()!, mounted)
  session.onDidRefuse((refusal) => showRefusal(page, refusal, mounted))

  restoreCursor(storage, room, editor, session, () => view.requestAutoscroll())
  fitVisualViewport(win, page, mounted)

  // Ctrl+F find, Ctrl+H replace, Ctrl+G go to line (web/find/find-bar.ts).
  new FindBar(view.element, editor, view, win)

  // F1 opens the key help from anywhere on the page (the editor handles it itself when focused).
  doc.addEventListener('keydown', (event) => {
    if (event.key !== 'F1' || event.defaultPrevented) return
    event.preventDefault()
    mounted?.showKeyHelp()
  })

  view.focus()
  const handle: CotextHandle = {
    editor,
    provider: session.provider,
    awareness: session.awareness,
    doc: session.doc,
    view,
    mounted,
    session,
    whenLocallyLoaded: session.whenLocallyLoaded,
    whenOfflineReady: offlineReady,
  }
  win.cotext = handle
  return handle
}

/** The link was refused: say what and why, and stop taking edits (none of them would be kept). */
function showRefusal(page: HTMLElement, refusal: Refusal, mounted: MountedEditor | null): void {
  if (page.querySelector('[data-testid=refused]') !== null) return
  mounted?.editor.setReadOnly(true)
  mounted?.view.element.classList.add('cx-refused')
  if (mounted) mounted.view.readOnlyHint = 'Refused: you need a link with access to this room'
  const doc = page.ownerDocument
  const panel = doc.createElement('section')
  panel.className = 'cx-refusal'
  panel.dataset.testid = 'refused'
  panel.setAttribute('role', 'alert')
  const title = doc.createElement('h2')
  title.textContent = 'You need a link with access to this room'
  const why = doc.createElement('p')
  why.textContent = refusal.explanation
  const what = doc.createElement('p')
  what.textContent = 'Nothing you type here is kept. Ask whoever shared the room for a link with access, or open another room.'
  const home = doc.createElement('a')
  home.href = '/'
  home.textContent = 'Open another room'
  panel.append(title, why, what, home)
  page.insertBefore(panel, page.children[1] ?? null)
}
