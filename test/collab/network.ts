import * as Y from 'yjs'
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate, removeAwarenessStates } from 'y-protocols/awareness'
import { TextEditor, type TextEditorOptions } from '../../core/editor/text-editor.ts'
import type { Random } from '../helpers/random.ts'

/*
 * In-memory peers for collaboration tests: each client has a Y.Doc, an Awareness and (usually) a
 * TextEditor, and a full mesh forwards every doc update and every client's own awareness changes to
 * the other online clients, as a y-websocket room would. Delivery is immediate (but in order, never
 * re-entrant), or queued per connection until `deliver`/`deliverAll`/`deliverSome`. Disconnecting
 * loses what was on its way to the client and, like an awareness timeout, removes its state from the
 * others; reconnecting exchanges the missing updates and renews everyone's awareness state.
 */

/** The origin of every update this network applies, so that it is never forwarded again. */
export const NETWORK = Symbol('test-network')

export interface Client {
  readonly name: string
  readonly doc: Y.Doc
  readonly awareness: Awareness
  readonly editor: TextEditor | null
  online: boolean
  /** Warnings the editor logged. */
  readonly warnings: string[]
  /** Awareness updates this client made itself (its `'update'` events with origin 'local'). */
  localAwarenessUpdates: number
}

export interface ClientOptions extends Omit<TextEditorOptions, 'doc' | 'awareness'> {
  /** False for a client with only a doc and an awareness (to play a y-codemirror.next user). */
  editor?: boolean
  online?: boolean
}

type Kind = 'doc' | 'awareness'

interface Message {
  from: Client
  to: Client
  kind: Kind
  payload: Uint8Array
}

export class Network {
  readonly clients: Client[] = []
  private queue: Message[] = []
  private delivering = false

  /** `queued`: messages wait for `deliver*`; otherwise they are applied as they are sent. */
  constructor(readonly options: { queued?: boolean } = {}) {}

  /** A new client with its own doc; online, it first receives the current text from the others. */
  addClient(name: string, options: ClientOptions = {}): Client {
    const { editor: withEditor = true, online = true, text, ...editorOptions } = options
    const doc = new Y.Doc()
    // Fixed client ids make concurrent inserts order the same way on every run of a seed.
    doc.clientID = 1000 + this.clients.length
    const awareness = new Awareness(doc)
    const warnings: string[] = []
    const client: Client = { name, doc, awareness, editor: null, online, warnings, localAwarenessUpdates: 0 }
    doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== NETWORK) this.broadcast(client, 'doc', update)
    })
    awareness.on('update', ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
      if (origin !== 'local') return
      client.localAwarenessUpdates++
      this.broadcast(client, 'awareness', encodeAwarenessUpdate(awareness, [...added, ...updated, ...removed]))
    })
    this.clients.push(client)
    if (online) this.exchangeDocs(client)
    if (withEditor) {
      // The editor announces the client with its first state (one awareness update).
      ;(client as { editor: TextEditor | null }).editor = new TextEditor({
        ...editorOptions,
        doc,
        awareness,
        logger: { warn: (message) => warnings.push(message) },
      })
      // Written outside the editor's history: undo in tests reverts only what the test did.
      if (text !== undefined) client.editor!.getBuffer().ytext.insert(0, text)
    } else {
      // Peers ignore a state with clock 0 (the constructor's): announce it with a newer one.
      awareness.setLocalState(awareness.getLocalState())
    }
    if (online) this.receiveAwareness(client)
    return client
  }

  /**
   * Takes a client offline. What it already sent still arrives (as through a server that got it);
   * what was on its way to it is lost. With `timeout`, the others time its awareness state out.
   */
  disconnect(client: Client, { timeout = true }: { timeout?: boolean } = {}): void {
    client.online = false
    const outgoing = this.queue.filter((message) => message.from === client)
    this.queue = this.queue.filter((message) => message.from !== client && message.to !== client)
    for (const message of outgoing) this.apply(message)
    if (!timeout) return
    for (const other of this.onlineOthers(client)) {
      removeAwarenessStates(other.awareness, [client.doc.clientID], 'timeout')
      removeAwarenessStates(client.awareness, [other.doc.clientID], 'timeout')
    }
  }

  /** Brings a client back: missing doc updates are exchanged, then every awareness state renewed. */
  reconnect(client: Client): void {
    client.online = true
    this.exchangeDocs(client)
    this.receiveAwareness(client)
    // A state whose clock did not move since the others timed it out would be ignored: renew them.
    for (const each of [client, ...this.onlineOthers(client)]) {
      const state = each.awareness.getLocalState()
      if (state !== null) each.awareness.setLocalState(state)
    }
  }

  /** How many messages wait. */
  get pending(): number {
    return this.queue.length
  }

  /** Delivers waiting messages, optionally only of one kind, until none of that kind is left. */
  deliver(kind?: Kind): void {
    for (;;) {
      const index = this.queue.findIndex((message) => kind === undefined || message.kind === kind)
      if (index === -1) return
      this.apply(this.queue.splice(index, 1)[0]!)
    }
  }

  /** Delivers everything, including what delivering causes to be sent. */
  deliverAll(): void {
    this.deliver()
  }

  /** Delivers up to `count` messages from random connections, each connection in order. */
  deliverSome(random: Random, count: number): void {
    for (let i = 0; i < count && this.queue.length > 0; i++) {
      const pick = this.queue[random.int(this.queue.length)]!
      const index = this.queue.findIndex((message) => message.from === pick.from && message.to === pick.to)
      this.apply(this.queue.splice(index, 1)[0]!)
    }
  }

  /** Stops every awareness's timer and destroys the editors. */
  destroy(): void {
    for (const client of this.clients) {
      client.editor?.destroy()
      client.awareness.destroy()
    }
  }

  private onlineOthers(client: Client): Client[] {
    return this.clients.filter((other) => other !== client && other.online)
  }

  private exchangeDocs(client: Client): void {
    for (const other of this.onlineOthers(client)) {
      this.send(other, client, 'doc', Y.encodeStateAsUpdate(other.doc, Y.encodeStateVector(client.doc)))
      this.send(client, other, 'doc', Y.encodeStateAsUpdate(client.doc, Y.encodeStateVector(other.doc)))
    }
    this.pump()
  }

  private receiveAwareness(client: Client): void {
    for (const other of this.onlineOthers(client)) {
      if (other.awareness.getLocalState() !== null) this.send(other, client, 'awareness', encodeAwarenessUpdate(other.awareness, [other.doc.clientID]))
    }
    this.pump()
  }

  private broadcast(from: Client, kind: Kind, payload: Uint8Array): void {
    if (!from.online) return
    for (const to of this.onlineOthers(from)) this.send(from, to, kind, payload)
    this.pump()
  }

  private send(from: Client, to: Client, kind: Kind, payload: Uint8Array): void {
    this.queue.push({ from, to, kind, payload })
  }

  /** Without queueing, delivers what was just sent (after everything sent before it). */
  private pump(): void {
    if (!this.options.queued && !this.delivering) {
      // In order, never re-entrantly: what a delivery causes to be sent waits for the ones before
      // it, as through a relay server.
      this.delivering = true
      try {
        this.deliverAll()
      } finally {
        this.delivering = false
      }
    }
  }

  private apply({ to, kind, payload }: Message): void {
    if (!to.online) return
    if (kind === 'doc') Y.applyUpdate(to.doc, payload, NETWORK)
    else applyAwarenessUpdate(to.awareness, payload, NETWORK)
  }
}
