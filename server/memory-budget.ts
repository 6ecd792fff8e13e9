/**
 * Bytes held for messages that clients have begun but not finished. The WebSocket library keeps
 * every fragment of a message, and the part of a frame received so far, until the message is
 * complete, up to MAX_MESSAGE_BYTES per connection; a client that never finishes (and answers
 * pings) holds that memory for as long as it likes, on as many connections as it may open.
 *
 * Each connection's incoming bytes are read as frame headers here (FrameMeter), which tells how
 * many payload bytes of an unfinished data message have arrived; the sum over connections
 * (UnfinishedBudget) is checked against MAX_UNFINISHED_BYTES, and each connection's share against
 * MAX_CONNECTION_UNFINISHED_BYTES. What the library holds is these bytes, so the two limits bound
 * its memory for unfinished messages (the report of the test in memory-budget.test.ts gives RSS).
 */

/** RFC 6455 opcodes: 0 continues a message, 1 and 2 start one, 8 and above are control frames. */
const CONTINUATION = 0
const FIRST_CONTROL = 8

/**
 * Follows the frames of one connection's incoming byte stream, client to server (masked), and
 * counts the payload bytes received for the data message in progress.
 */
export class FrameMeter {
  /** Payload bytes received for the data message not yet finished: its fragments and the frame in progress. */
  held = 0
  /** Bytes of the current frame's header received so far (at most 14); read as they come, none kept. */
  private headerBytes = 0
  /** The header's first two bytes, and the payload length read so far from it. */
  private first = 0
  private second = 0
  private length = 0
  /** Payload bytes of the current frame still to come; -1 while its header is being read. */
  private remaining = -1
  private frameIsData = false
  private frameIsFinal = false
  /** Set on a header no WebSocket library would accept: the socket is being closed anyway. */
  private broken = false

  /** Between whole frames, holding nothing: a connection at rest needs no meter of its own (server.ts). */
  get atRest(): boolean {
    return this.held === 0 && this.remaining < 0 && this.headerBytes === 0 && !this.broken
  }

  /** Reads `chunk`, the next bytes from the socket; returns the change in `held`. */
  feed(chunk: Uint8Array): number {
    const before = this.held
    let at = 0
    while (at < chunk.length && !this.broken) {
      if (this.remaining < 0) {
        this.readHeaderByte(chunk[at++]!)
        const length = this.headerLength()
        if (length === null || this.headerBytes < length) continue
        this.startFrame()
        if (this.remaining === 0) this.endFrame()
        continue
      }
      const take = Math.min(this.remaining, chunk.length - at)
      at += take
      this.remaining -= take
      if (this.frameIsData) this.held += take
      if (this.remaining === 0) this.endFrame()
    }
    return this.held - before
  }

  private readHeaderByte(byte: number): void {
    const index = this.headerBytes++
    if (index === 0) this.first = byte
    else if (index === 1) {
      this.second = byte
      this.length = byte & 0x7f
    } else if (index < 2 + this.extendedLengthBytes()) {
      // The extended length, big-endian (2 or 8 bytes), replaces the 7-bit one; the mask bytes after it are skipped.
      this.length = (index === 2 ? 0 : this.length) * 256 + byte
    }
  }

  private extendedLengthBytes(): number {
    const short = this.second & 0x7f
    return short === 126 ? 2 : short === 127 ? 8 : 0
  }

  /** The full length of the header being read, or null while too little of it has arrived to tell. */
  private headerLength(): number | null {
    if (this.headerBytes < 2) return null
    return 2 + this.extendedLengthBytes() + ((this.second & 0x80) !== 0 ? 4 : 0)
  }

  private startFrame(): void {
    const opcode = this.first & 0x0f
    if (opcode > 2 && opcode < FIRST_CONTROL) this.broken = true
    this.frameIsData = opcode < FIRST_CONTROL
    this.frameIsFinal = (this.first & 0x80) !== 0
    if (this.frameIsData && opcode !== CONTINUATION) this.held = 0
    this.remaining = this.length
    this.headerBytes = 0
  }

  private endFrame(): void {
    if (this.frameIsData && this.frameIsFinal) this.held = 0
    this.remaining = -1
  }
}

/** Which budget a connection's unfinished message passed. */
export type BudgetScope = 'connection' | 'process'

/** The process-wide count of bytes held in unfinished messages, against the two limits. */
export class UnfinishedBudget {
  /** Bytes held in unfinished messages across every connection. */
  total = 0
  /** The most `total` has been since the process started. */
  peak = 0

  constructor(
    readonly maxPerConnection: number,
    readonly maxTotal: number,
  ) {}

  /**
   * Reads the chunks of connections that have no meter: between whole frames, as they mostly are
   * (an idle connection then holds none). Handed to the connection whose chunk ends inside a frame
   * or a message (see meter).
   */
  private resting = new FrameMeter()

  /**
   * Counts `chunk`, just received on `connection`, as `account` does, with `connection.meter` made
   * only while one of its frames or messages is split across reads and dropped once it is whole.
   */
  meter(connection: { meter: FrameMeter | null }, chunk: Uint8Array): BudgetScope | null {
    const meter = connection.meter ?? this.resting
    const over = this.account(meter, chunk)
    if (meter === this.resting && !meter.atRest) {
      connection.meter = meter
      this.resting = new FrameMeter()
    } else if (meter !== this.resting && meter.atRest) connection.meter = null
    return over
  }

  /**
   * Counts `chunk`, just received on the connection `meter` follows; returns the budget it
   * takes past, if any (the connection should then be closed, and `release` called once it is).
   */
  account(meter: FrameMeter, chunk: Uint8Array): BudgetScope | null {
    this.total += meter.feed(chunk)
    if (this.total > this.peak) this.peak = this.total
    if (meter.held > this.maxPerConnection) return 'connection'
    if (this.total > this.maxTotal && meter.held > 0) return 'process'
    return null
  }

  /** Stops counting what `meter`'s connection holds (its socket has closed). */
  release(meter: FrameMeter): void {
    this.total -= meter.held
    meter.held = 0
  }
}
