import type { Logger } from 'pino'
import type { Connection } from './connection.ts'
import type { Metrics } from './metrics.ts'

/** Slice size of a large message (a big document's sync answer) by default; see SlicedSender. */
export const DEFAULT_ANSWER_SLICE_BYTES = 4 * 1024 * 1024

/** How long one event-loop turn may write slices before the sender yields to other work. */
const TURN_MS = 4
/** Slices one socket may hold unwritten; past that its connection waits for the socket to drain. */
const UNWRITTEN_SLICES = 2

export interface SlicedSenderOptions {
  /** Bytes per slice; a message no larger than this is sent whole. */
  sliceBytes: number
  /** Bytes of other messages that may wait behind one connection's large message; past it the connection is cut (it is not reading). */
  maxHeldBytes: number
  metrics: Metrics
  logger: Logger
}

/**
 * One message waiting to go out. A reserved place (`message` null) holds an answer still being encoded:
 * what comes after it waits until it is there and sent.
 */
interface Queued {
  message: Uint8Array | null
  sliced: boolean
  /** What it counts towards `maxHeldBytes` while it waits behind another (its length; 0 while a place is empty or at the head). */
  held: number
}

/** What waits to go out to one connection: the large message in progress first, then what was sent after it. */
interface Outgoing {
  readonly connection: Connection
  readonly queue: Queued[]
  /** Bytes of the head message already handed to the socket. */
  offset: number
  /** Bytes handed to the socket and not yet written by it (its write callbacks have not run). */
  unwritten: number
  /** Bytes of the queue behind the head. */
  held: number
}

/**
 * Large messages sent a slice at a time, so that a join storm never stalls the process. A stock client
 * needs a sync answer as one WebSocket message, so the message is cut at the socket level: the first
 * slice opens a fragmented message (`fin: false`), the others continue it, the last ends it. Between
 * slices the event loop is free: each turn writes slices, round-robin over every connection with one
 * in progress (of any room), for at most TURN_MS, and then yields (setImmediate), so other rooms'
 * messages are handled in between and no joiner starves. A connection whose socket holds
 * UNWRITTEN_SLICES slices unwritten waits until the socket has written them (backpressure), so a client
 * that reads slowly costs the server at most that much beside the message, which is referenced, not
 * copied: one encoded answer shared by every joiner stays one buffer.
 *
 * While a connection's large message goes out, whatever else it is sent (relays, presence, another
 * answer) waits behind it, in order: nothing may come between the fragments of a message. More than
 * `maxHeldBytes` waiting means the client is not reading, and it is cut, as Connection.send cuts one.
 * A place can be reserved for an answer still being encoded (off the event loop: answer-source.ts), so
 * that the joiner gets its answer before whatever it is sent meanwhile, as from a server that answers
 * at once.
 */
export class SlicedSender {
  private ring: Outgoing[] = []
  private readonly byConnection = new Map<Connection, Outgoing>()
  private cursor = 0
  private scheduled = false

  constructor(private readonly options: SlicedSenderOptions) {}

  /** Connections with a large message in progress. */
  get active(): number {
    return this.ring.length
  }

  /** Sends `message` to `connection`: in slices if it is large, else whole (behind any large one in progress). */
  send(connection: Connection, message: Uint8Array): void {
    if (!connection.isOpen) return this.cancel(connection)
    const sliced = this.isLarge(message)
    const outgoing = this.byConnection.get(connection)
    if (outgoing !== undefined) return this.hold(outgoing, message, sliced)
    if (!sliced) return connection.send(message)
    this.start(connection, { message, sliced: true, held: 0 })
    this.schedule()
  }

  /** Reserves the next place in what goes out to `connection` for a message that `fill` gives later; what is sent to it meanwhile waits behind. */
  reserve(connection: Connection): void {
    if (!connection.isOpen) return
    const place: Queued = { message: null, sliced: false, held: 0 }
    const outgoing = this.byConnection.get(connection)
    if (outgoing !== undefined) outgoing.queue.push(place)
    else this.start(connection, place)
  }

  /** Sends `message` in the first place reserved for it on `connection` (sends it as `send` would if none is). */
  fill(connection: Connection, message: Uint8Array): void {
    const outgoing = this.byConnection.get(connection)
    const place = outgoing?.queue.find((queued) => queued.message === null)
    if (outgoing === undefined || place === undefined || !connection.isOpen) return this.send(connection, message)
    place.message = message
    place.sliced = this.isLarge(message)
    // Behind another message it waits as anything sent then would (a client asking again and again while it reads nothing is cut).
    if (outgoing.queue[0] !== place) {
      place.held = message.length
      outgoing.held += message.length
      if (this.overHeld(outgoing)) return
    }
    this.schedule()
  }

  /** Drops what waits for `connection` (it has left); a message cut short goes with the socket. */
  cancel(connection: Connection): void {
    const outgoing = this.byConnection.get(connection)
    if (outgoing !== undefined) this.remove(outgoing)
  }

  private isLarge(message: Uint8Array): boolean {
    return this.options.sliceBytes > 0 && message.length > this.options.sliceBytes
  }

  private start(connection: Connection, first: Queued): void {
    const started: Outgoing = { connection, queue: [first], offset: 0, unwritten: 0, held: 0 }
    this.byConnection.set(connection, started)
    this.ring.push(started)
    connection.holder = (other) => this.hold(started, other, false)
    this.options.metrics.answerSendsActive = this.ring.length
  }

  private hold(outgoing: Outgoing, message: Uint8Array, sliced: boolean): void {
    // Behind an answer still being encoded the client has had nothing to read yet: what waits there (an update
    // stored and relayed while a joiner's answer is encoded) is the server's doing, not a sign of a client that
    // does not read, so it does not count towards the limit. A joiner was cut for the relay of a 1 MB update.
    const held = outgoing.queue[0]!.message === null ? 0 : message.length
    outgoing.queue.push({ message, sliced, held })
    outgoing.held += held
    if (held > 0) this.overHeld(outgoing)
  }

  /** Cuts the connection of `outgoing` if more than `maxHeldBytes` wait behind its head; true if it did. */
  private overHeld(outgoing: Outgoing): boolean {
    const { metrics, maxHeldBytes, logger } = this.options
    if (outgoing.held <= maxHeldBytes) return false
    const connection = outgoing.connection
    this.remove(outgoing)
    metrics.closedByServer.slow_reader += 1
    // As Connection.send words it: the same limit, reached behind a large message.
    logger.warn({ conn: connection.id, kind: 'slow_reader', buffered: outgoing.held, max: maxHeldBytes }, 'dropping a connection that does not read what it is sent (MAX_BUFFERED_BYTES)')
    connection.terminate()
    return true
  }

  private remove(outgoing: Outgoing): void {
    if (this.byConnection.get(outgoing.connection) !== outgoing) return
    this.byConnection.delete(outgoing.connection)
    const index = this.ring.indexOf(outgoing)
    this.ring.splice(index, 1)
    if (index < this.cursor) this.cursor -= 1
    outgoing.connection.holder = null
    this.options.metrics.answerSendsActive = this.ring.length
  }

  private schedule(): void {
    this.options.metrics.answerSendsActive = this.ring.length
    if (this.scheduled || this.ring.length === 0) return
    this.scheduled = true
    setImmediate(this.pump)
  }

  /** One turn: a slice per connection that may take one, round and round, until TURN_MS is spent or none may. */
  private readonly pump = (): void => {
    this.scheduled = false
    const started = performance.now()
    let wrote = true
    while (wrote && this.ring.length > 0) {
      wrote = false
      for (let visits = this.ring.length; visits > 0 && this.ring.length > 0; visits--) {
        if (this.cursor >= this.ring.length) this.cursor = 0
        const outgoing = this.ring[this.cursor]!
        if (!outgoing.connection.isOpen) {
          this.remove(outgoing)
          continue
        }
        if (this.step(outgoing)) wrote = true
        if (outgoing.queue.length === 0) this.remove(outgoing)
        else this.cursor += 1
        if (performance.now() - started >= TURN_MS) {
          // Time is up: the rest, and whoever is next, in the next turn.
          this.schedule()
          return
        }
      }
    }
    // Nobody may write now: the write callbacks call for the next turn as the sockets drain.
    if (wrote) this.schedule()
  }

  /**
   * Writes the next slice (or the next message held behind) of `outgoing` unless its socket would then hold
   * more than UNWRITTEN_SLICES slices unwritten; true if it wrote.
   */
  private step(outgoing: Outgoing): boolean {
    const { sliceBytes, metrics } = this.options
    const head = outgoing.queue[0]!
    // A reserved place not filled yet: its answer is still being encoded.
    if (head.message === null) return false
    const end = head.sliced ? Math.min(head.message.length, outgoing.offset + sliceBytes) : head.message.length
    // A message held behind may be larger than the bound: it goes once the socket has written everything else.
    if (outgoing.unwritten > 0 && outgoing.unwritten + end - outgoing.offset > UNWRITTEN_SLICES * sliceBytes) return false
    const piece = outgoing.offset === 0 && end === head.message.length ? head.message : head.message.subarray(outgoing.offset, end)
    const fin = end === head.message.length
    outgoing.unwritten += piece.length
    metrics.answerUnwrittenPeakBytes = Math.max(metrics.answerUnwrittenPeakBytes, outgoing.unwritten)
    outgoing.connection.socket.send(piece, { binary: true, fin }, () => {
      outgoing.unwritten -= piece.length
      if (this.byConnection.get(outgoing.connection) === outgoing) this.schedule()
    })
    outgoing.offset = end
    if (fin) {
      outgoing.queue.shift()
      if (outgoing.queue.length > 0) outgoing.held -= outgoing.queue[0]!.held
      outgoing.offset = 0
      metrics.messagesOut += 1
      metrics.bytesOut += head.message.length
      if (head.sliced) metrics.slicedAnswers += 1
    }
    return true
  }
}
