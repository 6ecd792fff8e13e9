import { ChangeSet } from './change-set.ts'

/**
 * A timer of the caller's environment: calls `callback` once after `delayMs` unless the returned
 * function cancels it first. In a browser or Node: `(f, ms) => { const t = setTimeout(f, ms); return
 * () => clearTimeout(t) }`; in tests, a manual clock. `core/` keeps no timer of its own.
 */
export type Schedule = (callback: () => void, delayMs: number) => () => void

/**
 * Atom's "did stop changing": after changes pause for `delayMs`, one call with every change since the
 * last call, composed into one ChangeSet. Each change restarts the wait, through the given `schedule`;
 * nothing is kept or scheduled while nobody listens.
 */
export class StopChanging {
  private pending: ChangeSet | null = null
  private cancel: (() => void) | null = null

  constructor(
    private readonly schedule: Schedule | null,
    private readonly delayMs: number,
    private readonly hasListeners: () => boolean,
    private readonly emit: (changes: ChangeSet) => void,
  ) {}

  /** Notes a transaction's change set and restarts the wait. */
  changed(change: ChangeSet): void {
    if (this.schedule === null || !this.hasListeners()) return
    this.pending = this.pending === null ? change : this.pending.compose(change)
    this.cancel?.()
    this.cancel = this.schedule(() => this.fire(), this.delayMs)
  }

  /** Stops waiting; nothing more is announced. */
  dispose(): void {
    this.cancel?.()
    this.cancel = null
    this.pending = null
  }

  private fire(): void {
    this.cancel = null
    const pending = this.pending
    this.pending = null
    if (pending !== null) this.emit(pending)
  }
}
