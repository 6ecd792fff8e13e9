import * as Y from 'yjs'
import * as awarenessProtocol from 'y-protocols/awareness'
import type { Logger } from 'pino'
import { CloseCode } from './close-codes.ts'
import type { Connection } from './connection.ts'
import type { Metrics } from './metrics.ts'
import {
  ProtocolError,
  decodeAwarenessEntries,
  decodeClientMessage,
  encodeAwareness,
  encodeAwarenessEntries,
  encodeSyncStep1,
} from './protocol.ts'
import { RoomStore } from './room-store.ts'
import { RoomFanout, awarenessEntries } from './fanout.ts'
import { AnswerSource } from './answer-source.ts'
import type { AnswerEncoder } from './answer-encoder.ts'
import type { SlicedSender } from './sliced-send.ts'
import type { StoreWriter } from './store-writer.ts'
import type { RoomFollower } from './cluster/cluster-store.ts'
import { REMOTE_ORIGIN } from './cluster/origin.ts'
import { RoomHistory } from './room-history.ts'
import { encodeTransactionUpdate } from './transaction-update.ts'
import type { HistorySettings } from './room-history.ts'

export interface RoomContext {
  writer: StoreWriter
  metrics: Metrics
  logger: Logger
  compactAfter: number
  /** false relays before storing; only to measure what storing first costs. */
  storeBeforeRelay: boolean
  /** Cluster mode: makes the loaded room follow its stream. */
  follower?: RoomFollower
  /** The longest a relay waits to be batched with others in a busy room (ms; 0: none); see RoomFanout. */
  fanoutWindowMs: number
  /** Attested authorship, change log and versions (room-history.ts); absent: none of them. */
  history?: HistorySettings
  /** Sends large sync answers in slices, round-robin over every room's joiners. */
  answers: SlicedSender
  /** Encodes a large document's sync answers off the event loop (answer-encoder.ts). */
  encoder: AnswerEncoder
}

type AwarenessChange = { added: number[]; updated: number[]; removed: number[] }

/** The longest the room handles frames that waited for its load before it yields to other work. */
const REPLAY_SLICE_MS = 10

/** Transaction origin of the stored state applied at load: neither stored again nor relayed. */
const LOAD_ORIGIN = Symbol('load')

/**
 * One document with its awareness and its connections. A room answers nobody until its stored
 * state is loaded: frames that arrive earlier wait in the room, so no client is ever told that a
 * stored document is empty, and are handled once it is loaded, the updates among them even when
 * their sender has left meanwhile. Nothing a client sends reaches anyone else before it is
 * stored: see RoomStore.
 */
export class Room {
  // With a history, deleted text is kept for the revert window: reverting a deletion brings it back (docs/authorship-server.md).
  readonly doc = new Y.Doc({ gcFilter: (item) => this.history === null || !this.history.keepsDeleted(item) })
  readonly awareness = new awarenessProtocol.Awareness(this.doc)
  /** Resolves true once the stored state is in `doc`, false if loading failed. */
  readonly loaded: Promise<boolean>
  private readonly connections = new Set<Connection>()
  /** Frames that arrived while the room was loading, and while those are handled, in arrival order; null once all are. */
  private pending: Array<{ connection: Connection; frame: Uint8Array }> | null = []
  private readonly store: RoomStore
  /** Made by the first relay (see relays): an idle room never relays anything. */
  private fanout: RoomFanout | null = null
  private readonly answers: AnswerSource
  private roomLogger: Logger | null = null
  private state: 'loading' | 'ready' | 'failed' | 'destroyed' = 'loading'
  private unfollow: (() => void) | null = null
  /** Attested authorship, change log and versions; null when the server keeps none. */
  readonly history: RoomHistory | null
  /** REST requests using the room: it stays loaded while any runs (see RoomRegistry.hold). */
  holds = 0
  /** The history's close, from destroy (null before, or without a history). */
  private closingHistory: Promise<void> | null = null

  /** The room's logger (its lines name the room), made when first used: an idle room logs nothing. */
  private readonly logger = (): Logger => (this.roomLogger ??= this.context.logger.child({ room: this.name }))

  constructor(
    readonly name: string,
    private readonly context: RoomContext,
  ) {
    this.store = new RoomStore(name, this.doc, context.writer, {
      compactAfter: context.compactAfter,
      storeBeforeRelay: context.storeBeforeRelay,
      metrics: context.metrics,
      logger: this.logger,
    })
    // The server is not a participant: without this it would publish an empty state of its own.
    this.awareness.setLocalState(null)
    this.awareness.on('update', this.onAwarenessUpdate)
    this.history = context.history === undefined ? null : new RoomHistory(name, this.doc, context.history, this.logger)
    this.answers = new AnswerSource(this.doc, context.encoder, this.logger)
    this.loaded = this.load()
  }

  /** Resolves once the history has stored what it holds, after destroy. */
  get historyClosed(): Promise<void> {
    return this.closingHistory ?? Promise.resolve()
  }

  get connectionCount(): number {
    return this.connections.size
  }

  get isEmpty(): boolean {
    return this.connections.size === 0 && this.holds === 0
  }

  getConnections(): IterableIterator<Connection> {
    return this.connections.values()
  }

  /** What storage recovery needs of this room. */
  get recoverable(): RoomStore {
    return this.store
  }

  join(connection: Connection): void {
    if (!this.context.writer.healthy) {
      this.closeForStorage(connection)
      return
    }
    this.connections.add(connection)
    if (this.state === 'ready') this.greet(connection)
  }

  /** Closes every connection with 1013: the store failed, and they should come back once it is written again. */
  closeAllForStorage(): void {
    for (const connection of this.connections) this.closeForStorage(connection)
  }

  /** Removes the connection and the awareness state it published. */
  leave(connection: Connection): void {
    if (!this.connections.delete(connection)) return
    this.context.answers.cancel(connection)
    const clientId = connection.awarenessClientId
    if (clientId !== null && this.state !== 'destroyed') awarenessProtocol.removeAwarenessStates(this.awareness, [clientId], null)
  }

  /** Handles one binary frame from `connection`; a malformed one closes that connection only. */
  receive(connection: Connection, frame: Uint8Array): void {
    if (!connection.isOpen || !this.connections.has(connection)) return
    if (this.pending !== null && (this.state === 'loading' || this.state === 'ready')) this.pending.push({ connection, frame })
    else if (this.state === 'ready') this.handle(connection, frame)
  }

  /** Resolves when every update applied so far is stored (after a storage failure: written again). */
  async whenStored(): Promise<void> {
    await this.loaded
    // A recovery writes the whole room, so after it nothing is left unstored; but the store
    // can fail again meanwhile.
    do {
      await this.store.idle()
      await this.context.writer.whenHealthy()
    } while (!this.context.writer.healthy)
  }

  destroy(): void {
    if (this.state === 'destroyed') return
    this.state = 'destroyed'
    // First: in cluster mode it may store the document, which must still be whole.
    this.unfollow?.()
    this.closingHistory = this.history?.close() ?? null
    this.doc.off('afterTransactionCleanup', this.onCleanup)
    this.awareness.off('update', this.onAwarenessUpdate)
    this.fanout?.dispose()
    this.answers.dispose()
    this.awareness.destroy()
    this.doc.destroy()
    this.connections.clear()
  }

  private async load(): Promise<boolean> {
    const { metrics } = this.context
    try {
      // The change log is read only when there is stored state to load (what it says decides what loading collects).
      const history = this.history
      const stored = await this.store.load(LOAD_ORIGIN, {
        isDestroyed: () => this.state === 'destroyed',
        onRead: (read) => this.answers.loading(read),
        // The answer thread's mirror is fed each update as the room applies it: posting them all at once copied a
        // 20 MB room's log in one turn of the event loop (about 100 ms of the main thread, every room waiting).
        onApplied: (update) => this.answers.loadedUpdate(update),
        beforeApply: history === null ? undefined : () => history.prepareLoad(),
      })
      if (this.state === 'destroyed') return false
      this.answers.loaded(stored)
    } catch (error) {
      this.state = 'failed'
      metrics.storageErrors += 1
      this.logger().error({ err: error }, 'loading room failed; closing its connections')
      for (const connection of this.connections) {
        metrics.closedByServer.load_failed += 1
        connection.close(CloseCode.internalError, 'room could not be loaded')
      }
      this.pending = null
      return false
    }
    this.state = 'ready'
    // Only now: while loading, it would encode every stored update once more.
    this.doc.on('afterTransactionCleanup', this.onCleanup)
    this.history?.start()
    this.unfollow = this.context.follower?.follow(this) ?? null
    metrics.roomsLoaded += 1
    // Through the server's logger: the room's own is made only when the room has something to say.
    this.context.logger.debug({ room: this.name, connections: this.connections.size }, 'room loaded')
    // Greet everyone before replaying anyone's frames, so that what those frames change
    // reaches each connection after its sync step 1, as it would in a loaded room.
    const greeting = encodeSyncStep1(this.doc)
    for (const connection of this.connections) this.greet(connection, greeting)
    await this.replay()
    return this.state === 'ready'
  }

  /**
   * Handles the frames that arrived while the room loaded, in order, and those that arrive meanwhile behind
   * them, yielding to other work every REPLAY_SLICE_MS: a cold room's 150 joiners' frames took a loaded
   * machine's event loop 100-150 ms in one go, every room waiting. The room counts as loaded (whenStored,
   * REST) once they are handled.
   */
  private async replay(): Promise<void> {
    const pending = this.pending!
    let sliceStart = performance.now()
    for (let next = 0; next < pending.length && this.state === 'ready'; next++) {
      const { connection, frame } = pending[next]!
      // A sender that is closing (its close frame came in behind its update) counts as departed.
      if (this.connections.has(connection) && connection.isOpen) this.handle(connection, frame)
      else this.handleDeparted(connection, frame)
      if (performance.now() - sliceStart > REPLAY_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        sliceStart = performance.now()
      }
    }
    this.pending = null
  }

  private greet(connection: Connection, greeting = encodeSyncStep1(this.doc)): void {
    connection.send(greeting)
    if (this.awareness.getStates().size > 0) connection.send(encodeAwareness(this.awareness, [...this.awareness.getStates().keys()]))
  }

  private handle(connection: Connection, frame: Uint8Array): void {
    const { metrics } = this.context
    try {
      // Yjs and lib0 throw plain Errors on malformed updates and state vectors, caught below.
      const message = decodeClientMessage(frame)
      switch (message.type) {
        case 'sync-step-1': {
          // Holds what the room has applied; it leaves once all of that is stored.
          // Shared with every joiner that asks with the same state vector while the document is unchanged.
          const answer = this.answers.answer(message.stateVector)
          // In slices if it is large (a big document for a new client), so that a join storm stalls nothing.
          if (answer instanceof Uint8Array) this.store.after(() => this.context.answers.send(connection, answer))
          else {
            // Encoded off the event loop: what the joiner is sent meanwhile goes after it.
            this.context.answers.reserve(connection)
            void answer.then((encoded) => this.store.after(() => this.context.answers.fill(connection, encoded)))
          }
          break
        }
        case 'sync-step-2':
        case 'update':
          if (connection.mode === 'ro') {
            metrics.dropped.read_only += 1
            this.logger().debug({ conn: connection.id, type: message.type }, 'dropped a write from a read-only connection')
          } else if (this.history === null || this.history.admit(connection, message.update)) {
            Y.applyUpdate(this.doc, message.update, connection)
          }
          break
        case 'awareness': {
          const own = this.ownAwareness(connection, message.update)
          if (own !== null) awarenessProtocol.applyAwarenessUpdate(this.awareness, own, connection)
          break
        }
        case 'query-awareness': {
          const answer = encodeAwareness(this.awareness, [...this.awareness.getStates().keys()])
          this.store.after(() => connection.send(answer))
          break
        }
      }
    } catch (error) {
      this.refuse(connection, error instanceof ProtocolError ? error.message : `${(error as Error).name}: ${(error as Error).message}`)
    }
  }

  /**
   * A frame that arrived while the room loaded, from a connection that has left (or is leaving) since: its
   * document updates are applied (and so stored) all the same; nothing is answered.
   */
  private handleDeparted(connection: Connection, frame: Uint8Array): void {
    try {
      const message = decodeClientMessage(frame)
      if ((message.type === 'update' || message.type === 'sync-step-2') && connection.mode === 'rw' && (this.history === null || this.history.admit(connection, message.update))) {
        Y.applyUpdate(this.doc, message.update, connection)
      }
    } catch (error) {
      this.context.metrics.closedByServer.malformed += 1
      this.logger().warn({ conn: connection.id, reason: (error as Error).message }, 'dropped a malformed frame from a connection that has left')
    }
  }

  private closeForStorage(connection: Connection): void {
    if (!connection.isOpen) return
    this.context.metrics.closedByServer.storage_unavailable += 1
    connection.close(CloseCode.storageUnavailable, 'storage unavailable, retry')
  }

  /** Closes `connection` with 4400 for a frame that is not a y-websocket message, with one log line. */
  refuse(connection: Connection, reason: string): void {
    if (!connection.isOpen) return
    this.context.metrics.closedByServer.malformed += 1
    this.logger().warn({ conn: connection.id, code: CloseCode.malformed, reason }, 'closing connection: malformed message')
    connection.close(CloseCode.malformed, 'malformed message')
  }

  /**
   * The entries of `update` for the connection's own client id. The frame guard (awareness-guard.ts)
   * gives a connection its id, by the room's ownership rules, and passes only its entries; but a state
   * held back by the connection's awareness throttle arrives later, and the connection may have lost
   * the id meanwhile (another claimed it): what is no longer its own is dropped here, never claimed.
   */
  private ownAwareness(connection: Connection, update: Uint8Array): Uint8Array | null {
    const entries = decodeAwarenessEntries(update)
    const own = entries.filter((entry) => entry.clientId === connection.awarenessClientId)
    if (own.length < entries.length) {
      this.context.metrics.dropped.foreign_awareness += entries.length - own.length
      this.logger().debug({ conn: connection.id, clientId: connection.awarenessClientId }, 'dropped awareness published for another client')
    }
    if (own.length === 0) return null
    return own.length === entries.length ? update : encodeAwarenessEntries(own)
  }

  /**
   * Each transaction's update, written where Yjs would write it for an 'update' listener, but for
   * the clients it changed only (transaction-update.ts): Yjs reads every client of the document.
   */
  private readonly onCleanup = (transaction: Y.Transaction): void => {
    const update = encodeTransactionUpdate(transaction)
    if (update !== null) this.onUpdate(update, transaction.origin)
  }

  private onUpdate(update: Uint8Array, origin: unknown): void {
    if (origin === LOAD_ORIGIN) return
    this.answers.updated(update)
    // Another process's update, read from the room's stream: stored already, so relayed at once.
    if (origin === REMOTE_ORIGIN) this.relays()?.relayUpdate(update, null)
    else this.store.commit(update, () => this.relays()?.relayUpdate(update, this.senderOf(origin)))
  }

  private readonly onAwarenessUpdate = ({ added, updated, removed }: AwarenessChange, origin: unknown): void => {
    const entries = awarenessEntries(this.awareness, [...added, ...updated, ...removed])
    // After the updates before it, so that a cursor never points into text not yet relayed.
    this.store.after(() => this.relays()?.relayAwareness(entries, this.senderOf(origin)))
  }

  /** The room's fan-out, made by its first relay; null once the room is destroyed (what is released later goes nowhere). */
  private relays(): RoomFanout | null {
    if (this.state === 'destroyed') return null
    return (this.fanout ??= new RoomFanout({
      windowMs: this.context.fanoutWindowMs,
      // Only greeted connections, and none before the room is loaded or after it is destroyed.
      recipients: () => (this.state === 'ready' ? this.connections : []),
      metrics: this.context.metrics,
    }))
  }

  /** The connection a change came from (it has it already), or null when it came from none of this room's. */
  private senderOf(origin: unknown): Connection | null {
    return this.connections.has(origin as Connection) ? (origin as Connection) : null
  }
}
