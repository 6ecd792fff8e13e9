import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'
import { IndexeddbPersistence } from 'y-indexeddb'
import type { Awareness } from 'y-protocols/awareness'
import { ConnectionMonitor } from './connection.ts'
import { DeferredUpdates } from './deferred-updates.ts'

export interface SessionOptions {
  room: string
  /** `ws://host:port` of the Cotext server; the room is the path under it. */
  serverUrl: string
  token: string | null
  readOnly: boolean
  win: Window
}

/** Why the server refused this link for good (it closed with a 44xx code), for people. */
export interface Refusal {
  code: number
  reason: string
  /** What was refused and why, in a sentence. */
  explanation: string
}

const WRITABLE_KEY = 'cotext.writable:'

/**
 * One open room: the Y.Doc, synced over y-websocket (which reconnects with backoff) and kept in
 * IndexedDB (so the last text shows before the server answers, and offline edits survive a reload).
 *
 * IndexedDB only ever holds a room this browser may write: the copy is opened once the server has
 * accepted this link for writing (its first sync) and remembered per room and link, so later visits
 * (offline ones too) open it at once. A read-only link keeps nothing, and when the server refuses the
 * link the copy is closed and forgotten, so nothing typed while refused is kept or merges later.
 */
export class Session {
  readonly doc: Y.Doc
  readonly provider: WebsocketProvider
  readonly awareness: Awareness
  readonly connection: ConnectionMonitor
  /** The IndexedDB copy, or null while this browser does not (yet) know it may write the room. */
  persistence: IndexeddbPersistence | null = null
  /** Resolves once the text stored in this browser (if any) is in the doc. */
  readonly whenLocallyLoaded: Promise<void>
  /** Resolves on the first sync with the server. */
  readonly whenSynced: Promise<void>
  private refusal: Refusal | null = null
  /** The providers' update listeners, run after a big update's task (a paste) instead of inside it. */
  private readonly updates: DeferredUpdates
  private readonly refusalListeners = new Set<(refusal: Refusal) => void>()
  private readonly writableKey: string
  private readonly storage: Storage | null
  private destroyed = false

  constructor(private readonly options: SessionOptions) {
    this.doc = new Y.Doc()
    // After the frame that shows a paste: writing, sending and storing its update wait for that frame.
    this.updates = new DeferredUpdates(this.doc, (callback) => afterNextFrame(options.win, callback))
    this.storage = safeLocalStorage(options.win)
    this.writableKey = `${WRITABLE_KEY}${options.room}`
    const linkId = fingerprint(options.token ?? '')
    const knownWritable = !options.readOnly && this.storage?.getItem(this.writableKey) === linkId
    this.whenLocallyLoaded = knownWritable ? this.openPersistence() : Promise.resolve()
    this.provider = new WebsocketProvider(options.serverUrl, options.room, this.doc, {
      params: options.token ? { token: options.token } : {},
    })
    this.awareness = this.provider.awareness
    const provider = this.provider
    this.updates.relay(provider._updateHandler, (origin) => origin === provider)
    this.whenSynced = new Promise((resolve) => {
      const onSync = (synced: boolean): void => {
        if (!synced) return
        this.provider.off('sync', onSync)
        if (!options.readOnly && this.refusal === null) {
          this.remember(linkId)
          // After the frame that shows the text: y-indexeddb's first write encodes the whole doc (half a
          // second for 5 MB), which would otherwise hold back the first screen of a big room.
          if (this.persistence === null) afterNextFrame(options.win, () => {
            if (this.persistence === null && this.refusal === null && !this.destroyed) void this.openPersistence()
          })
        }
        resolve()
      }
      this.provider.on('sync', onSync)
    })
    this.provider.on('closed', ({ code, reason }: { code: number; reason: string }) => this.refused(code, reason))
    this.connection = new ConnectionMonitor(this.provider, options.win)
  }

  getRefusal(): Refusal | null {
    return this.refusal
  }

  onDidRefuse(listener: (refusal: Refusal) => void): () => void {
    this.refusalListeners.add(listener)
    return () => this.refusalListeners.delete(listener)
  }

  /** Renames or recolours the local user for everyone in the room. */
  setUser(user: { name: string; color: string; colorChosen: boolean }): void {
    this.awareness.setLocalStateField('user', { name: user.name, color: user.color, colorChosen: user.colorChosen })
  }

  destroy(): void {
    this.destroyed = true
    this.connection.dispose()
    this.updates.dispose(true)
    this.provider.destroy()
    this.awareness.destroy()
    void this.persistence?.destroy()
    this.doc.destroy()
  }

  private openPersistence(): Promise<void> {
    const persistence = new IndexeddbPersistence(`cotext:${this.options.room}`, this.doc)
    this.persistence = persistence
    this.updates.relay(persistence._storeUpdate, (origin) => origin === persistence)
    return persistence.whenSynced.then(() => undefined)
  }

  private remember(linkId: string): void {
    try {
      this.storage?.setItem(this.writableKey, linkId)
    } catch {
      // Without storage the copy opens after each first sync instead.
    }
  }

  private refused(code: number, reason: string): void {
    if (this.refusal !== null) return
    this.refusal = { code, reason, explanation: explainRefusal(code, reason) }
    try {
      this.storage?.removeItem(this.writableKey)
    } catch {
      // Nothing remembered, nothing to forget.
    }
    const persistence = this.persistence
    this.persistence = null
    // Nothing typed while refused is kept: what waits to be stored is dropped with the copy.
    if (persistence !== null) this.updates.stop(persistence._storeUpdate, false)
    void persistence?.destroy()
    for (const listener of this.refusalListeners) listener(this.refusal)
  }
}

/**
 * Runs `then` once, in a task after the next frame is painted (a message posted from requestAnimationFrame),
 * or after a second if no frame comes first (a hidden tab paints none).
 */
function afterNextFrame(win: Window, then: () => void): void {
  let done = false
  const once = (): void => {
    if (done) return
    done = true
    then()
  }
  win.setTimeout(once, 1000)
  win.requestAnimationFrame(() => {
    const channel = new MessageChannel()
    channel.port1.onmessage = once
    channel.port2.postMessage(0)
  })
}

/** A sentence saying what the server refused and why, from its close code (README: close codes). */
export function explainRefusal(code: number, reason: string): string {
  const detail = reason ? ` (the server said: ${reason})` : ''
  if (code === 4401) return `This link has no valid access token for this room: it is missing, expired or not signed by this server${detail}.`
  if (code === 4403) return `This link’s token gives access to another room, not this one${detail}.`
  if (code === 4400) return `The server does not accept this room name${detail}.`
  return `The server refused the connection with code ${code}${detail}.`
}

/** A short, stable id of a link's token (the token itself stays out of localStorage). */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return hash.toString(16)
}

function safeLocalStorage(win: Window): Storage | null {
  try {
    return win.localStorage
  } catch {
    return null
  }
}

/** The server's WebSocket URL for a page served by it (`?server=` overrides, for development). */
export function serverUrlFor(location: Location, params: URLSearchParams): string {
  const override = params.get('server')
  if (override !== null && /^wss?:\/\//.test(override)) return override.replace(/\/+$/, '')
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`
}
