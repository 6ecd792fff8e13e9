import type * as Y from 'yjs'
import type { Awareness } from 'y-protocols/awareness'
import { TextEditor, type LanguageId, type Logger } from '../core/index.ts'
import { KeyboardInput, type InputHost } from './input/keyboard-input.ts'
import { MouseInput } from './input/mouse-input.ts'
import { SystemClipboard } from './input/system-clipboard.ts'
import { EditorView } from './view/editor-view.ts'
import { KeyHelp } from './view/key-help.ts'
import { PeerActivity } from './view/peer-activity.ts'
import type { PeerLike } from './view/peer-types.ts'
import { BracketLayer } from './view/bracket-layer.ts'
import { PeerAnnouncer } from './view/peer-announcer.ts'
import { PeersLayer } from './view/peers-layer.ts'

export interface MountEditorOptions {
  /** The shared document; the app brings it and whatever provider syncs it. */
  doc: Y.Doc
  /** The provider's awareness: the user's cursors go out, everyone else's are drawn. */
  awareness?: Awareness
  /** The `Y.Text` to edit, `doc.getText(textName)`; default `'text'`. */
  textName?: string
  /** How others see this user (name and `#rrggbb` colour). */
  user?: { name: string; color: string }
  language?: LanguageId
  readOnly?: boolean
  softWrapped?: boolean
  /** The editing surface's accessible name; default `'Document'`. */
  label?: string
  /** How long a peer's name label stays after they last acted, in ms; default 3000. */
  labelMs?: number
  /** Where the editor reports what it ignores (a peer's malformed state); default `console.warn`. */
  logger?: Logger
}

export interface MountedEditor {
  /** The editor over the shared text: Atom's TextEditor API. */
  readonly editor: TextEditor
  /** The rendering (scroller, surface, layers), for measuring and scrolling. */
  readonly view: EditorView
  /** When each peer last acted (for ordering a people list). */
  readonly activity: PeerActivity
  /** Keeps a peer's last cursor in view until the local user acts; null stops. */
  follow(peer: PeerLike | null): void
  getFollowed(): PeerLike | null
  onDidChangeFollowed(listener: (peer: PeerLike | null) => void): () => void
  setSoftWrapped(softWrapped: boolean): void
  /** Whether Tab moves focus instead of indenting (Ctrl+M toggles it). */
  setTabMovesFocus(on: boolean): void
  showKeyHelp(): void
  focus(): void
  /** Removes every element and listener this added and destroys the editor it made. */
  destroy(): void
}

/**
 * The editor as a component: rendering, everyone's cursors and labels, Atom's keymap, the mouse, IME
 * and following a peer, inside `element`, over a `Y.Doc` the app syncs with its own provider.
 *
 *     const provider = new WebsocketProvider(url, room, doc)
 *     const { editor, destroy } = mountEditor(parent, { doc, awareness: provider.awareness, user })
 */
export function mountEditor(element: HTMLElement, options: MountEditorOptions): MountedEditor {
  const clipboard = new SystemClipboard()
  const editor = new TextEditor({
    doc: options.doc,
    textName: options.textName,
    awareness: options.awareness,
    user: options.user === undefined ? undefined : { ...options.user },
    readOnly: options.readOnly,
    clipboard,
    language: options.language,
    logger: options.logger,
    // The page's timer drives onDidStopChanging (core/ keeps none of its own).
    schedule: (callback, delayMs) => {
      const timer = element.ownerDocument.defaultView!.setTimeout(callback, delayMs)
      return () => element.ownerDocument.defaultView!.clearTimeout(timer)
    },
  })
  const view = new EditorView(editor, element, { label: options.label })
  if (options.softWrapped) view.setSoftWrapped(true)
  const activity = new PeerActivity(editor)
  const peersLayer = new PeersLayer(view, editor, activity, options.labelMs)
  const keyHelp = new KeyHelp(view.element)
  const announcer = new PeerAnnouncer(view.element, editor, element.ownerDocument.defaultView!)
  const brackets = new BracketLayer(view, editor)

  let followed: PeerLike | null = null
  const followListeners = new Set<(peer: PeerLike | null) => void>()
  const follow = (peer: PeerLike | null): void => {
    if (peer === followed) return
    followed = peer
    peersLayer.setFollowed(peer)
    for (const listener of followListeners) listener(peer)
  }
  const removed = editor.onDidRemovePeer((peer) => {
    if (peer === followed) follow(null)
  })
  const host: InputHost = {
    editor,
    view,
    clipboard,
    didLocalInput: () => follow(null),
    showKeyHelp: () => keyHelp.open(),
  }
  const keyboard = new KeyboardInput(host)
  const mouse = new MouseInput(host, () => keyboard.placeCaret())

  let destroyed = false
  return {
    editor,
    view,
    activity,
    follow,
    getFollowed: () => followed,
    onDidChangeFollowed: (listener) => {
      followListeners.add(listener)
      return () => followListeners.delete(listener)
    },
    setSoftWrapped: (softWrapped) => view.setSoftWrapped(softWrapped),
    setTabMovesFocus: (on) => keyboard.setTabMovesFocus(on),
    showKeyHelp: () => keyHelp.open(),
    focus: () => view.focus(),
    destroy: () => {
      if (destroyed) return
      destroyed = true
      followListeners.clear()
      removed.dispose()
      mouse.dispose()
      keyboard.dispose()
      keyHelp.dispose()
      announcer.dispose()
      brackets.dispose()
      peersLayer.dispose()
      activity.dispose()
      view.destroy()
      editor.destroy()
    },
  }
}
