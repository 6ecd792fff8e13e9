import { WebSocket } from 'ws'
import type { AccessMode } from './auth.ts'
import type { Metrics } from './metrics.ts'
import { RateLimit } from './rate-limit.ts'
import type { Corkable, WriteBatcher } from './write-batcher.ts'

/**
 * Sync step 1 is answered with everything the client lacks: the whole document for an empty
 * state vector. The stock client sends one per connection (and one per `resyncInterval`), so a
 * burst of 8 and one a second leaves honest clients untouched while bounding what a client can
 * make the server encode and send; past the limit a step 1 is dropped, not answered.
 */
const SYNC_REQUEST_BURST = 8
const SYNC_REQUEST_INTERVAL_MS = 1000
/** Queries for awareness are answered with every peer's state; the stock client sends none. */
const AWARENESS_QUERY_BURST = 8
const AWARENESS_QUERY_INTERVAL_MS = 1000

export interface ConnectionOptions {
  mode: AccessMode
  /** The token's `sub`, or null (no subject, or no AUTH_SECRET). */
  subject: string | null
  /** The token's `name` (the subject's display name), or null. */
  name?: string | null
  /** When the token expires, in ms since the epoch; null: never. */
  expiresAt: number | null
  /** Unsent bytes past which the socket is cut: the client is not reading what it is sent. */
  maxBufferedBytes: number
}

/** One client's WebSocket in one room, with what the server knows about it. */
export class Connection {
  /**
   * The awareness client id this connection speaks for: the first id it publishes a state for
   * that it may own (awareness-guard.ts). Awareness entries for any other id are dropped.
   */
  awarenessClientId: number | null = null
  /** Cleared by each ping and set by the pong (or any message); still clear at the next ping = dead. */
  alive = true
  readonly mode: AccessMode
  readonly subject: string | null
  readonly name: string | null
  readonly expiresAt: number | null
  readonly syncRequests = new RateLimit(SYNC_REQUEST_BURST, SYNC_REQUEST_INTERVAL_MS)
  readonly awarenessQueries = new RateLimit(AWARENESS_QUERY_BURST, AWARENESS_QUERY_INTERVAL_MS)
  /** Set once an oversized awareness state has been logged, so a client cannot flood the log. */
  awarenessSizeLogged = false
  /** Set while a large message goes out in slices (sliced-send.ts): every other message waits behind it there. */
  holder: ((message: Uint8Array) => void) | null = null
  private readonly maxBufferedBytes: number
  /** Bytes sent in the current event-loop turn: corked, so still counted as unsent. */
  private turnBytes = 0
  private closed = false

  constructor(
    readonly id: number,
    readonly socket: WebSocket,
    options: ConnectionOptions,
    private readonly metrics: Metrics,
    /** The TCP socket under `socket`, and the batcher that corks it for the rest of the turn. */
    private readonly transport: { socket: Corkable & { readonly writableCorked: number }; batcher: WriteBatcher } | null = null,
    /** Told once when the connection is cut for not reading. */
    private readonly onSlowReader: (bufferedBytes: number) => void = () => {},
  ) {
    this.mode = options.mode
    this.subject = options.subject
    this.name = options.name ?? null
    this.expiresAt = options.expiresAt
    this.maxBufferedBytes = options.maxBufferedBytes
  }

  get isOpen(): boolean {
    return !this.closed && this.socket.readyState === WebSocket.OPEN
  }

  hasExpired(now = Date.now()): boolean {
    return this.expiresAt !== null && now >= this.expiresAt
  }

  /**
   * Sends `message`, unless what earlier turns sent is still unsent past MAX_BUFFERED_BYTES:
   * then the client is not reading, and the socket is cut. Only earlier turns count, so one
   * message larger than the cap (a big document's sync step 2) still goes out, and so does a
   * burst of messages in one turn (the write batcher holds them all until the turn ends).
   */
  send(message: Uint8Array): void {
    if (!this.isOpen) return
    if (this.holder !== null) return this.holder(message)
    if (this.transport === null || this.transport.socket.writableCorked === 0) this.turnBytes = 0
    if (this.transport !== null) this.transport.batcher.hold(this.transport.socket)
    const backlog = this.socket.bufferedAmount - this.turnBytes
    if (backlog > this.maxBufferedBytes) {
      this.metrics.closedByServer.slow_reader += 1
      this.onSlowReader(backlog)
      // Cut rather than close: a close frame would wait behind the data the client is not reading.
      this.terminate()
      return
    }
    const before = this.socket.bufferedAmount
    this.socket.send(message, { binary: true })
    this.turnBytes += this.socket.bufferedAmount - before
    this.metrics.messagesOut += 1
    this.metrics.bytesOut += message.length
  }

  /** Starts the closing handshake; the socket's `close` event follows. Later frames are ignored. */
  close(code: number, reason: string): void {
    if (this.closed) return
    this.closed = true
    this.socket.close(code, reason)
  }

  /** Drops the socket without a closing handshake (a peer that no longer answers pings). */
  terminate(): void {
    this.closed = true
    this.socket.terminate()
  }
}
