import type { WebsocketProvider } from 'y-websocket'
import type { Awareness } from 'y-protocols/awareness'
import type * as Y from 'yjs'
import type { TextEditor } from '../../core/index.ts'
import { KeyboardInput, type InputHost } from '../input/keyboard-input.ts'
import { MouseInput } from '../input/mouse-input.ts'
import { EditorView } from '../view/editor-view.ts'
import type { PeerLike } from '../view/peer-types.ts'
import { PeersLayer } from '../view/peers-layer.ts'
import { PeerList } from './peer-list.ts'
import { Session, serverUrlFor } from './session.ts'
import { readTokenHint } from './token.ts'
import { Toolbar } from './toolbar.ts'
import { loadUser, saveUser, type UserIdentity } from './user.ts'

/** What the page exposes as `window.cotext`, for scripts and tests. */
export interface CotextHandle {
  editor: TextEditor
  provider: WebsocketProvider
  awareness: Awareness
  doc: Y.Doc
  view: EditorView
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

/** Builds the editor page for `?room=NAME` (optionally `&token=`, `&name=`, `&color=`). */
export function openRoomPage(root: HTMLElement, room: string, params: URLSearchParams, win: Window, offlineReady: Promise<boolean>): CotextHandle {
  const doc = root.ownerDocument
  const storage = win.localStorage
  const token = params.get('token')
  const readOnly = token !== null && readTokenHint(token)?.mode === 'ro'
  const user = loadUser(storage, params)
  const softWrapped = storage.getItem(SOFT_WRAP_KEY) === 'true'
  doc.title = `${room} · Cotext`

  const session = new Session({ room, serverUrl: serverUrlFor(win.location, params), token, user, readOnly, win })
  const { editor } = session
  const page = doc.createElement('div')
  page.className = 'cx-page'
  root.appendChild(page)

  let view: EditorView | null = null
  const toolbar = new Toolbar(doc, editor, {
    room,
    readOnly,
    user,
    softWrapped,
    onSoftWrap: (on) => {
      storage.setItem(SOFT_WRAP_KEY, String(on))
      view?.setSoftWrapped(on)
      view?.focus()
    },
    onUserChange: (next: UserIdentity) => {
      saveUser(storage, next)
      session.setUser(next)
    },
  })
  page.appendChild(toolbar.element)
  view = new EditorView(editor, page)
  if (softWrapped) view.setSoftWrapped(true)

  // Following a peer keeps their last cursor in view until the local user types, clicks or scrolls.
  let followed: PeerLike | null = null
  const peersLayer = new PeersLayer(view, editor)
  const peerList = new PeerList(toolbar.peers, editor, (peer) => follow(peer))
  const follow = (peer: PeerLike | null): void => {
    followed = peer
    peersLayer.setFollowed(peer)
    peerList.setFollowed(peer)
  }
  const host: InputHost = {
    editor,
    view,
    clipboard: session.clipboard,
    didLocalInput: () => {
      if (followed !== null) follow(null)
    },
  }
  const keyboard = new KeyboardInput(host)
  new MouseInput(host, () => keyboard.placeCaret())

  toolbar.setConnection(session.connection.getState(), session.connection.getDetail())
  session.connection.onDidChange((state, detail) => toolbar.setConnection(state, detail))

  view.focus()
  const handle: CotextHandle = {
    editor,
    provider: session.provider,
    awareness: session.awareness,
    doc: session.doc,
    view,
    session,
    whenLocallyLoaded: session.whenLocallyLoaded,
    whenOfflineReady: offlineReady,
  }
  win.cotext = handle
  return handle
}

