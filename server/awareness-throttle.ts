import { RateLimit } from './rate-limit.ts'

/**
 * Awareness updates from one connection, at most a burst and then one per interval: each is
 * relayed to every peer in the room, so one connection could otherwise make the server send
 * each peer as much as it likes (18 MB each in one test, which cut honest peers as slow
 * readers). Past the limit an update is held rather than dropped, and a later one replaces it,
 * since a connection speaks for one client id and its latest state is all that matters; the
 * held update is handed on by a timer as soon as the limit allows, so the last state a
 * client publishes always arrives.
 */

/** Awareness updates at once, then one more every AWARENESS_INTERVAL_MS (the stock client sends one per cursor move). */
export const AWARENESS_BURST = 20
export const AWARENESS_INTERVAL_MS = 50

export class AwarenessThrottle {
  private readonly limit: RateLimit
  private held: Uint8Array | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  private disposed = false

  constructor(
    /** Hands an update on (to the room) once the limit allows it. */
    private readonly deliver: (frame: Uint8Array) => void,
    /** Told each time a held update is replaced by a newer one before it went out. */
    private readonly onCoalesced: () => void = () => {},
    burst = AWARENESS_BURST,
    intervalMs = AWARENESS_INTERVAL_MS,
  ) {
    this.limit = new RateLimit(burst, intervalMs)
  }

  /** The update to hand on now, or null when it is held until the limit allows it. */
  offer(frame: Uint8Array): Uint8Array | null {
    if (this.disposed) return null
    if (this.held === null && this.limit.take()) return frame
    if (this.held !== null) this.onCoalesced()
    this.held = frame
    this.schedule()
    return null
  }

  /** Drops what is held and stops the timer (the connection has closed). */
  dispose(): void {
    this.disposed = true
    this.held = null
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  private schedule(): void {
    if (this.timer !== null) return
    // +1: a timer may fire a little early by performance.now()'s measure.
    this.timer = setTimeout(this.flush, Math.ceil(this.limit.msUntilNext()) + 1)
  }

  private readonly flush = (): void => {
    this.timer = null
    if (this.held === null || this.disposed) return
    if (!this.limit.take()) {
      this.schedule()
      return
    }
    const frame = this.held
    this.held = null
    this.deliver(frame)
  }
}
