import type { Logger } from 'pino'
import { RateLimit } from './rate-limit.ts'

/**
 * The log of refusals and closes: what a client makes the server refuse must not let it flood
 * the log. A line is written once per connection and reason (a refused upgrade, which has no
 * connection yet, counts each time), and all of them share one budget, a burst then a steady
 * rate; lines left out for that budget are counted, and the next line written says how many
 * (`suppressed`); each line names its reason (`kind`), so nothing goes unnoticed and the log stays bounded whatever clients send.
 */

/** Lines at once, then one more every REFUSAL_LINE_INTERVAL_MS, across the whole process. */
const REFUSAL_LINE_BURST = 100
const REFUSAL_LINE_INTERVAL_MS = 50

export type RefusalLevel = 'info' | 'warn'

export class RefusalLog {
  private readonly seen = new WeakMap<object, Set<string>>()
  private readonly budget: RateLimit
  private suppressed = 0

  constructor(
    burst = REFUSAL_LINE_BURST,
    intervalMs = REFUSAL_LINE_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.budget = new RateLimit(burst, intervalMs, now())
  }

  /**
   * Writes `msg` with `fields` to `logger` at `level`, unless `owner` (a connection, or null for
   * none) has logged `reason` before or the process's line budget is spent; says whether it did.
   */
  write(logger: Logger, level: RefusalLevel, owner: object | null, reason: string, fields: Record<string, unknown>, msg: string): boolean {
    if (owner !== null) {
      let reasons = this.seen.get(owner)
      if (reasons === undefined) {
        reasons = new Set()
        this.seen.set(owner, reasons)
      }
      if (reasons.has(reason)) return false
      reasons.add(reason)
    }
    if (!this.budget.take(this.now())) {
      this.suppressed += 1
      return false
    }
    const suppressed = this.suppressed
    this.suppressed = 0
    logger[level](suppressed === 0 ? { ...fields, kind: reason } : { ...fields, kind: reason, suppressed }, msg)
    return true
  }
}
