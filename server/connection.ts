import type { Duplex } from 'node:stream'
import { WebSocket } from 'ws'
import type { Logger } from 'pino'
import type { ApplyBudget } from './apply-budget.ts'
import type { AccessMode } from './auth.ts'
import type { AwarenessThrottle } from './awareness-throttle.ts'
import type { Metrics } from './metrics.ts'
import type { FrameMeter } from './memory-budget.ts'
import { RateLimit } from './rate-limit.ts'
import type { WriteBatcher } from './write-batcher.ts'

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
  /** The room's name (for its log lines). */
  room?: string
  /** The client's address, as the per-address limits count it. */
  remote?: string
}

/**
 * What every connection of a server shares: one object per server, not one per connection, so that
 * an idle connection holds little more than its sockets (docs/server-scale.md).
 */
export interface ConnectionContext {
  /** Unsent bytes past which the socket is cut: the client is not reading what it is sent. */
  maxBufferedBytes: number
  metrics: Metrics
  /** Corks each connection's TCP socket for the rest of the event-loop turn. */
  batcher: WriteBatcher
  /** The server's logger; a connection's own (with its id and room) is made the first time it is needed. */
  logger: Logger
  /** Told once when `connection` is cut for not reading (`bufferedBytes` unsent). */
  onSlowReader(connection: Connection, bufferedBytes: number): void
}

/**
 * One client's WebSocket in one room, with what the server knows about it. Everything a quiet
 * connection does not need is made when first used (its rate limits, awareness throttle, logger), and
 * the server's event handlers are shared by all connections (server.ts), not closures of each.
 */
export class Connection {
  /**
   * The awareness client id this connection speaks for: the first id it publishes a state for
   * that it may own (awareness-guard.ts). Awareness entries for any other id are dropped.
   */
  awarenessClientId: number | null = null
  /** Cleared by each ping and set by anything the client sends (its pong, any frame); still clear at the next ping = dead. */
  alive = true
  readonly mode: AccessMode
  readonly subject: string | null
  readonly name: string | null
  readonly expiresAt: number | null
  /** The room's name ('' when unknown). */
  readonly roomName: string
  /** The client's address ('' when unknown). */
  readonly remote: string
  /** Set once an oversized awareness state has been logged, so a client cannot flood the log. */
  awarenessSizeLogged = false
  /** Set while a large message goes out in slices (sliced-send.ts): every other message waits behind it there. */
  holder: ((message: Uint8Array) => void) | null = null
  /** The time its address may spend applying what it sends (apply-budget.ts), set as it joins. */
  applyBudget: ApplyBudget | null = null
  /**
   * Reads its incoming frame headers for the unfinished-message budget (memory-budget.ts) while a
   * frame or a message is split across reads; null between whole frames, as a connection mostly is (server.ts).
   */
  meter: FrameMeter | null = null
  /** The timer that closes it when its token expires, if it has one. */
  expiry: NodeJS.Timeout | undefined = undefined
  /** Holds back its awareness updates past their rate limit (awareness-throttle.ts); made by the frame guard when first needed. */
  awarenessThrottle: AwarenessThrottle | null = null
  private syncLimit: RateLimit | null = null
  /** When its first sync step 1 came (-1: none yet); its rate limit is made by the second (see takeSyncRequest). */
  private firstSyncRequestAt = -1
  private queryLimit: RateLimit | null = null
  private logger: Logger | null = null
  /** Bytes sent in the current event-loop turn: corked, so still counted as unsent. */
  private turnBytes = 0
  private closed = false

  constructor(
    readonly id: number,
    readonly socket: WebSocket,
    options: ConnectionOptions,
    private readonly context: ConnectionContext,
    /** The TCP socket under `socket`, corked by the context's batcher; null: every send is written at once. */
    readonly tcp: Duplex | null = null,
  ) {
    this.mode = options.mode
    this.subject = options.subject
    this.name = options.name ?? null
    this.expiresAt = options.expiresAt
    this.roomName = options.room ?? ''
    this.remote = options.remote ?? ''
  }

  get isOpen(): boolean {
    return !this.closed && this.socket.readyState === WebSocket.OPEN
  }

  /**
   * Takes a token of its sync step 1 requests' rate limit; false: drop the request. Every client sends one
   * step 1 as it connects and most never another, so the bucket is made by the second: made then as
   * it would have been by the first, and taken from at the first's time, it holds exactly what it would.
   */
  takeSyncRequest(now = performance.now()): boolean {
    if (this.syncLimit === null) {
      if (this.firstSyncRequestAt < 0) {
        this.firstSyncRequestAt = now
        return true
      }
      this.syncLimit = new RateLimit(SYNC_REQUEST_BURST, SYNC_REQUEST_INTERVAL_MS, this.firstSyncRequestAt)
      this.syncLimit.take(this.firstSyncRequestAt)
    }
    return this.syncLimit.take(now)
  }

  /** Its awareness queries' rate limit (made by the first query; the stock client sends none). */
  get awarenessQueries(): RateLimit {
    return (this.queryLimit ??= new RateLimit(AWARENESS_QUERY_BURST, AWARENESS_QUERY_INTERVAL_MS))
  }

  /** Its logger, with its id and room in every line (made by the first line). */
  get log(): Logger {
    return (this.logger ??= this.context.logger.child({ conn: this.id, room: this.roomName }))
  }

  hasExpired(now = Date.now()): boolean {
    return this.expiresAt !== null && now >= this.expiresAt
  }

  /**
   * Sends `message`, unless what earlier turns sent is still unsent past MAX_BUFFERED_BYTES:
   * then the client is not reading, and the socket is cut. Only earlier turns count, so one
   * message larger than the cap (a big document's sync step 2) still goes out, and so does a
   * burst of messages in one turn (the write batcher holds them all until the turn ends).
   * `frame`, when given, is `message` as a WebSocket frame (binaryFrame), shared by many recipients.
   */
  send(message: Uint8Array, frame: Uint8Array | null = null): void {
    if (!this.isOpen) return
    if (this.holder !== null) return this.holder(message)
    const { tcp, context } = this
    if (tcp === null || tcp.writableCorked === 0) this.turnBytes = 0
    if (tcp !== null) context.batcher.hold(tcp)
    const backlog = this.socket.bufferedAmount - this.turnBytes
    if (backlog > context.maxBufferedBytes) {
      context.metrics.closedByServer.slow_reader += 1
      context.onSlowReader(this, backlog)
      // Cut rather than close: a close frame would wait behind the data the client is not reading.
      this.terminate()
      return
    }
    const before = this.socket.bufferedAmount
    // A relay's frame is made once for all its recipients and written under ws, which writes
    // straight to the same socket itself (no compression is negotiated), so frames keep their order.
    if (frame !== null && tcp !== null) tcp.write(frame)
    else this.socket.send(message, { binary: true })
    this.turnBytes += this.socket.bufferedAmount - before
    context.metrics.messagesOut += 1
    context.metrics.bytesOut += message.length
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

/**
 * `payload` as one unmasked, unfragmented binary WebSocket frame (RFC 6455 5.2), as the server sends
 * it: a relay going to every client of a room is framed once, not once per client by ws.
 */
export function binaryFrame(payload: Uint8Array): Uint8Array {
  const length = payload.length
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10
  const frame = Buffer.allocUnsafe(header + length)
  frame[0] = 0x82 // FIN, binary
  if (length < 126) frame[1] = length
  else if (length < 65536) {
    frame[1] = 126
    frame.writeUInt16BE(length, 2)
  } else {
    frame[1] = 127
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2)
    frame.writeUInt32BE(length >>> 0, 6)
  }
  frame.set(payload, header)
  return frame
}
