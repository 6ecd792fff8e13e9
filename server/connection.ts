import { WebSocket } from 'ws'
import type { AccessMode } from './auth.ts'
import type { Metrics } from './metrics.ts'
import type { Corkable, WriteBatcher } from './write-batcher.ts'

/** One client's WebSocket in one room, with what the server knows about it. */
export class Connection {
  /**
   * The awareness client id this connection speaks for: the first id it publishes that no
   * other open connection in the room holds. Awareness entries for any other id are dropped.
   */
  awarenessClientId: number | null = null
  /** Cleared by each ping and set by the pong (or any message); still clear at the next ping = dead. */
  alive = true
  /** Frames that arrived while the room was still loading, replayed in order once it is ready. */
  pending: Uint8Array[] = []
  private closed = false

  constructor(
    readonly id: number,
    readonly socket: WebSocket,
    readonly mode: AccessMode,
    private readonly metrics: Metrics,
    /** The TCP socket under `socket`, and the batcher that corks it for the rest of the turn. */
    private readonly transport: { socket: Corkable; batcher: WriteBatcher } | null = null,
  ) {}

  get isOpen(): boolean {
    return !this.closed && this.socket.readyState === WebSocket.OPEN
  }

  send(message: Uint8Array): void {
    if (!this.isOpen) return
    this.transport?.batcher.hold(this.transport.socket)
    this.socket.send(message, { binary: true })
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
