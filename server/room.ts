import * as Y from 'yjs'
import * as awarenessProtocol from 'y-protocols/awareness'
import type { Logger } from 'pino'
import { CloseCode } from './close-codes.ts'
import type { Connection } from './connection.ts'
import type { Metrics } from './metrics.ts'
import type { Persistence } from './persistence.ts'
import {
  ProtocolError,
  decodeAwarenessEntries,
  decodeClientMessage,
  encodeAwareness,
  encodeAwarenessEntries,
  encodeSyncStep1,
  encodeSyncStep2,
  encodeUpdate,
} from './protocol.ts'
import { RoomStore } from './room-store.ts'
import type { RoomFollower } from './cluster/cluster-persistence.ts'
import { REMOTE_ORIGIN } from './cluster/origin.ts'

export interface RoomContext {
  persistence: Persistence
  metrics: Metrics
  logger: Logger
  compactAfter: number
  storeBatchMs: number
  follower?: RoomFollower
}

type AwarenessChange = { added: number[]; updated: number[]; removed: number[] }

/** Transaction origin of the stored state applied at load: neither stored again nor relayed. */
const LOAD_ORIGIN = Symbol('load')

/**
 * One document with its awareness and its connections. A room answers nobody until its stored
 * state is loaded: frames that arrive earlier wait in their connection, so no client is ever
 * told that a stored document is empty.
 */
export class Room {
  readonly doc = new Y.Doc()
  readonly awareness = new awarenessProtocol.Awareness(this.doc)
  /** Resolves true once the stored state is in `doc`, false if loading failed. */
  readonly loaded: Promise<boolean>
  private readonly connections = new Set<Connection>()
  private readonly store: RoomStore
  private readonly logger: Logger
  private state: 'loading' | 'ready' | 'failed' | 'destroyed' = 'loading'
  private unfollow: (() => void) | null = null

  constructor(
    readonly name: string,
    private readonly context: RoomContext,
  ) {
    this.logger = context.logger.child({ room: name })
    this.store = new RoomStore(name, context.persistence, {
      compactAfter: context.compactAfter,
      batchMs: context.storeBatchMs,
      metrics: context.metrics,
      logger: this.logger,
    })
    // The server is not a participant: without this it would publish an empty state of its own.
    this.awareness.setLocalState(null)
    this.doc.on('update', this.onUpdate)
    this.awareness.on('update', this.onAwarenessUpdate)
    this.loaded = this.load()
  }

  get connectionCount(): number {
    return this.connections.size
  }

  get isEmpty(): boolean {
    return this.connections.size === 0
  }

  getConnections(): IterableIterator<Connection> {
    return this.connections.values()
  }

  join(connection: Connection): void {
    this.connections.add(connection)
    if (this.state === 'ready') this.greet(connection)
  }

  /** Removes the connection and the awareness state it published. */
  leave(connection: Connection): void {
    if (!this.connections.delete(connection)) return
    const clientId = connection.awarenessClientId
    if (clientId !== null && this.state !== 'destroyed') awarenessProtocol.removeAwarenessStates(this.awareness, [clientId], null)
  }

  /** Handles one binary frame from `connection`; a malformed one closes that connection only. */
  receive(connection: Connection, frame: Uint8Array): void {
    if (!connection.isOpen || !this.connections.has(connection)) return
    if (this.state === 'loading') connection.pending.push(frame)
    else if (this.state === 'ready') this.handle(connection, frame)
  }

  /** Resolves when every update applied so far is stored. */
  async whenStored(): Promise<void> {
    await this.loaded
    await this.store.idle()
  }

  destroy(): void {
    if (this.state === 'destroyed') return
    this.state = 'destroyed'
    this.unfollow?.()
    this.doc.off('update', this.onUpdate)
    this.awareness.off('update', this.onAwarenessUpdate)
    this.awareness.destroy()
    this.doc.destroy()
    this.connections.clear()
  }

  private async load(): Promise<boolean> {
    const { persistence, metrics } = this.context
    try {
      const stored = await persistence.load(this.name)
      if (this.state === 'destroyed') return false
      Y.applyUpdate(this.doc, stored, LOAD_ORIGIN)
    } catch (error) {
      this.state = 'failed'
      metrics.storageErrors += 1
      this.logger.error({ err: error }, 'loading room failed; closing its connections')
      for (const connection of this.connections) {
        metrics.closedByServer.load_failed += 1
        connection.close(CloseCode.internalError, 'room could not be loaded')
      }
      return false
    }
    this.state = 'ready'
    this.unfollow = this.context.follower?.follow(this) ?? null
    metrics.roomsLoaded += 1
    this.logger.debug({ connections: this.connections.size }, 'room loaded')
    // Greet everyone before replaying anyone's frames, so that what those frames change
    // reaches each connection after its sync step 1, as it would in a loaded room.
    const waiting = [...this.connections]
    for (const connection of waiting) this.greet(connection)
    for (const connection of waiting) {
      const pending = connection.pending
      connection.pending = []
      for (const frame of pending) this.receive(connection, frame)
    }
    return true
  }

  private greet(connection: Connection): void {
    connection.send(encodeSyncStep1(this.doc))
    if (this.awareness.getStates().size > 0) connection.send(encodeAwareness(this.awareness, [...this.awareness.getStates().keys()]))
  }

  private handle(connection: Connection, frame: Uint8Array): void {
    const { metrics } = this.context
    try {
      // Yjs and lib0 throw plain Errors on malformed updates and state vectors, caught below.
      const message = decodeClientMessage(frame)
      switch (message.type) {
        case 'sync-step-1':
          connection.send(encodeSyncStep2(this.doc, message.stateVector))
          break
        case 'sync-step-2':
        case 'update':
          if (connection.mode === 'ro') {
            metrics.dropped.read_only += 1
            this.logger.debug({ conn: connection.id, type: message.type }, 'dropped a write from a read-only connection')
          } else {
            Y.applyUpdate(this.doc, message.update, connection)
          }
          break
        case 'awareness': {
          const own = this.ownAwareness(connection, message.update)
          if (own !== null) awarenessProtocol.applyAwarenessUpdate(this.awareness, own, connection)
          break
        }
        case 'query-awareness':
          connection.send(encodeAwareness(this.awareness, [...this.awareness.getStates().keys()]))
          break
      }
    } catch (error) {
      this.refuse(connection, error instanceof ProtocolError ? error.message : `${(error as Error).name}: ${(error as Error).message}`)
    }
  }

  /** Closes `connection` with 4400 for a frame that is not a y-websocket message, with one log line. */
  refuse(connection: Connection, reason: string): void {
    if (!connection.isOpen) return
    this.context.metrics.closedByServer.malformed += 1
    this.logger.warn({ conn: connection.id, code: CloseCode.malformed, reason }, 'closing connection: malformed message')
    connection.close(CloseCode.malformed, 'malformed message')
  }

  /**
   * The entries of `update` that `connection` may publish: those for its own client id, which
   * is the first id it publishes a state for that no other connection in the room holds. The
   * stock client re-sends every awareness change it receives, a departed client's `null`
   * included, so neither an id held by another connection nor a removal can claim an id.
   */
  private ownAwareness(connection: Connection, update: Uint8Array): Uint8Array | null {
    const entries = decodeAwarenessEntries(update)
    if (connection.awarenessClientId === null) {
      const free = entries.find((entry) => entry.state !== 'null' && !this.isAwarenessIdHeld(entry.clientId))
      if (free !== undefined) connection.awarenessClientId = free.clientId
    }
    const own = entries.filter((entry) => entry.clientId === connection.awarenessClientId)
    if (own.length < entries.length) {
      this.context.metrics.dropped.foreign_awareness += entries.length - own.length
      this.logger.debug({ conn: connection.id, clientId: connection.awarenessClientId }, 'dropped awareness published for another client')
    }
    if (own.length === 0) return null
    return own.length === entries.length ? update : encodeAwarenessEntries(own)
  }

  private isAwarenessIdHeld(clientId: number): boolean {
    for (const other of this.connections) if (other.awarenessClientId === clientId) return true
    return false
  }

  private readonly onUpdate = (update: Uint8Array, origin: unknown): void => {
    if (origin === LOAD_ORIGIN) return
    // Another process's update from the stream: stored already, only relayed here.
    if (origin !== REMOTE_ORIGIN) this.store.push(update)
    this.broadcast(encodeUpdate(update), origin)
  }

  private readonly onAwarenessUpdate = ({ added, updated, removed }: AwarenessChange, origin: unknown): void => {
    this.broadcast(encodeAwareness(this.awareness, [...added, ...updated, ...removed]), origin)
  }

  /** Sends to every greeted connection but the one the change came from (it has it already). */
  private broadcast(message: Uint8Array, origin: unknown): void {
    if (this.state !== 'ready') return
    for (const connection of this.connections) if (connection !== origin) connection.send(message)
  }
}
