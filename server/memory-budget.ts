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
  /** Bytes of the current frame's header received so far (at most 14). */
  private readonly header = new Uint8Array(14)
  private headerBytes = 0
  /** Payload bytes of the current frame still to come; -1 while its header is being read. */
  private remaining = -1
  private frameIsData = false
  private frameIsFinal = false
  /** Set on a header no WebSocket library would accept: the socket is being closed anyway. */
  private broken = false

  /** Reads `chunk`, the next bytes from the socket; returns the change in `held`. */
  feed(chunk: Uint8Array): number {
    const before = this.held
    let at = 0
    while (at < chunk.length && !this.broken) {
      if (this.remaining < 0) {
        this.header[this.headerBytes++] = chunk[at++]!
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

  /** The full length of the header being read, or null while too little of it has arrived to tell. */
  private headerLength(): number | null {
    if (this.headerBytes < 2) return null
    const second = this.header[1]!
    const short = second & 0x7f
    const extended = short === 126 ? 2 : short === 127 ? 8 : 0
    return 2 + extended + ((second & 0x80) !== 0 ? 4 : 0)
  }

  private startFrame(): void {
    const first = this.header[0]!
    const second = this.header[1]!
    const opcode = first & 0x0f
    const short = second & 0x7f
    let length = short
    if (short === 126) length = (this.header[2]! << 8) | this.header[3]!
    else if (short === 127) {
      const high = ((this.header[2]! << 24) >>> 0) + (this.header[3]! << 16) + (this.header[4]! << 8) + this.header[5]!
      const low = ((this.header[6]! << 24) >>> 0) + (this.header[7]! << 16) + (this.header[8]! << 8) + this.header[9]!
      length = high * 2 ** 32 + low
    }
    if (opcode > 2 && opcode < FIRST_CONTROL) this.broken = true
    this.frameIsData = opcode < FIRST_CONTROL
    this.frameIsFinal = (first & 0x80) !== 0
    if (this.frameIsData && opcode !== CONTINUATION) this.held = 0
    this.remaining = length
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
