/**
 * A token bucket: up to `burst` requests at once, then one more every `intervalMs`. Used per
 * connection for the requests whose answer costs the server far more than the request: a sync
 * step 1 (answered with the whole document) and a query for awareness (every peer's state); for
 * awareness updates (relayed to every peer); and for the log lines of refusals (log-once.ts).
 */
export class RateLimit {
  private tokens: number
  private refilledAt: number

  constructor(
    private readonly burst: number,
    private readonly intervalMs: number,
    now = performance.now(),
  ) {
    this.tokens = burst
    this.refilledAt = now
  }

  /** Takes one token; false when none is left, and the request should be dropped. */
  take(now = performance.now()): boolean {
    const earned = Math.floor((now - this.refilledAt) / this.intervalMs)
    if (earned > 0) {
      this.tokens = Math.min(this.burst, this.tokens + earned)
      this.refilledAt = this.tokens === this.burst ? now : this.refilledAt + earned * this.intervalMs
    }
    if (this.tokens === 0) return false
    this.tokens -= 1
    return true
  }

  /** Milliseconds until `take` can succeed again (0: now). */
  msUntilNext(now = performance.now()): number {
    if (this.tokens > 0) return 0
    return Math.max(0, this.refilledAt + this.intervalMs - now)
  }
}
