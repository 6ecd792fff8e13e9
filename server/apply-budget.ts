/**
 * Time spent applying what one client address sends. Counting structs before applying bounds
 * what one update builds, not what integrating it costs: Yjs places each inserted item among
 * the concurrent items at its position by walking them, so updates whose items all compete for
 * one spot cost the product of their counts (10,000 such items into a room holding 10,000 took
 * over a minute on a loaded machine). What cannot be known beforehand is measured afterwards:
 * each address may spend a burst of MAX_APPLY_MS, earning back a tenth of each second; past it,
 * the connection whose frame spent the last of it is closed with 4413 and logged.
 */

/** Milliseconds earned back per second of wall time: a tenth of a core per client address. */
export const APPLY_MS_PER_SECOND = 100
/** A single frame taking longer than this is logged (once per connection): every room waited for it. */
export const SLOW_APPLY_MS = 100

export class ApplyBudget {
  private available: number
  private refilledAt: number

  constructor(
    private readonly burstMs: number,
    now = performance.now(),
    private readonly msPerSecond = APPLY_MS_PER_SECOND,
  ) {
    this.available = burstMs
    this.refilledAt = now
  }

  /** Charges `ms` of applying; false once the budget is spent. */
  charge(ms: number, now = performance.now()): boolean {
    this.available = Math.min(this.burstMs, this.available + ((now - this.refilledAt) * this.msPerSecond) / 1000)
    this.refilledAt = now
    this.available -= ms
    return this.available >= 0
  }
}

/** One budget per client address, kept while the address has connections. */
export class ApplyBudgets {
  private readonly budgets = new Map<string, { budget: ApplyBudget; connections: number }>()

  constructor(private readonly burstMs: number) {}

  /** The budget of `address`, counting one more connection from it. */
  join(address: string): ApplyBudget {
    let entry = this.budgets.get(address)
    if (entry === undefined) {
      entry = { budget: new ApplyBudget(this.burstMs), connections: 0 }
      this.budgets.set(address, entry)
    }
    entry.connections += 1
    return entry.budget
  }

  leave(address: string): void {
    const entry = this.budgets.get(address)
    if (entry === undefined) return
    entry.connections -= 1
    if (entry.connections === 0) this.budgets.delete(address)
  }
}
