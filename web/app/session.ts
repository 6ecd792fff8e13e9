import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'
import { IndexeddbPersistence } from 'y-indexeddb'
import type { Awareness } from 'y-protocols/awareness'
import { TextEditor, languageForPath } from '../../core/index.ts'
import { SystemClipboard } from '../input/system-clipboard.ts'
import { ConnectionMonitor } from './connection.ts'
import type { UserIdentity } from './user.ts'

export interface SessionOptions {
  room: string
  /** `ws://host:port` of the Cotext server; the room is the path under it. */
  serverUrl: string
  token: string | null
  user: UserIdentity
  readOnly: boolean
  win: Window
}

/**
 * One open room: the Y.Doc, kept in IndexedDB (so the last text shows before the server answers,
 * and offline edits survive a reload) and synced over y-websocket (which reconnects with backoff);
 * the editor over the doc's text, publishing the user's cursors through the provider's awareness.
 */
export class Session {
  readonly doc: Y.Doc
  readonly persistence: IndexeddbPersistence
  readonly provider: WebsocketProvider
  readonly awareness: Awareness
  readonly clipboard: SystemClipboard
  readonly editor: TextEditor
  readonly connection: ConnectionMonitor
  /** Resolves once the text stored in this browser (if any) is in the doc. */
  readonly whenLocallyLoaded: Promise<void>

  constructor(options: SessionOptions) {
    this.doc = new Y.Doc()
    this.persistence = new IndexeddbPersistence(`cotext:${options.room}`, this.doc)
    this.whenLocallyLoaded = this.persistence.whenSynced.then(() => undefined)
    this.provider = new WebsocketProvider(options.serverUrl, options.room, this.doc, {
      params: options.token ? { token: options.token } : {},
    })
    this.awareness = this.provider.awareness
    this.clipboard = new SystemClipboard()
    this.editor = new TextEditor({
      doc: this.doc,
      awareness: this.awareness,
      user: { ...options.user },
      readOnly: options.readOnly,
      clipboard: this.clipboard,
      language: languageForPath(options.room),
    })
    this.connection = new ConnectionMonitor(this.provider, options.win)
  }

  /** Renames or recolours the local user for everyone in the room. */
  setUser(user: UserIdentity): void {
    this.awareness.setLocalStateField('user', { name: user.name, color: user.color })
  }

  destroy(): void {
    this.connection.dispose()
    this.editor.destroy()
    this.provider.destroy()
    void this.persistence.destroy()
    this.doc.destroy()
  }
}

/** The server's WebSocket URL for a page served by it (`?server=` overrides, for development). */
export function serverUrlFor(location: Location, params: URLSearchParams): string {
  const override = params.get('server')
  if (override !== null && /^wss?:\/\//.test(override)) return override.replace(/\/+$/, '')
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`
}
