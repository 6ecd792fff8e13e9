import type * as Y from 'yjs'
import { ChangeSet, type SequentialEdit } from './change-set.ts'
import { transactionIds } from './ytext-changes.ts'
import { forEachNewClockRange } from './yjs-internals.ts'

/** What the buffer notes while a transaction runs, to make its one change set when it ends. */
export interface TransactionRecord {
  /** Clock ranges the buffer inserted itself (already mirrored). */
  readonly own: [number, number][]
  /** The text's length when the transaction first changed it. */
  readonly oldLength: number
  /** Every replacement applied to the mirror, sequential, in the order applied. */
  readonly edits: SequentialEdit[]
}

/** An open transaction's record, then (once the observer closed it) its change set until announced. */
interface Pending {
  readonly transaction: Y.Transaction
  readonly record: TransactionRecord
  change: ChangeSet | null
}

/**
 * Turns each Y.Text transaction into one ChangeSet and announces it when Yjs has finished with the
 * transaction. The buffer notes every replacement it mirrors (`record`); the text's observer, while
 * the transaction's items are still as it made them, closes the record (`finish`): the change set is
 * computed there, once, with the transaction's IDs; it is announced on `afterTransactionCleanup`, when
 * the buffer, the markers and Y.UndoManager (which records on `afterTransaction`) are all current.
 *
 * The open records are a short list (one transaction, or a few when listeners edit while Yjs cleans
 * up), searched from its end; every transaction's cleanup drops its entry, announced or not. A
 * WeakMap keyed by transactions cost about as much per keystroke as Yjs's own bookkeeping.
 */
export class TransactionChanges {
  private readonly pending: Pending[] = []
  /** The first error a listener threw, rethrown once Yjs has finished every pending transaction. */
  private deferredError: { error: unknown } | null = null
  private readonly cleanupListener = (transaction: Y.Transaction): void => this.announce(transaction)
  private readonly allDoneListener = (): void => this.rethrowDeferred()

  constructor(
    private readonly ytext: Y.Text,
    /** Milliseconds since the epoch, for each change set's `time`. */
    private readonly clock: () => number,
    /** The text's current length (the mirror's), read when a transaction first changes it. */
    private readonly currentLength: () => number,
    private readonly emit: (change: ChangeSet) => void,
    /** Whether anyone wants the change sets now; when not, `finish` computes none. */
    private readonly wanted: () => boolean = () => true,
  ) {
    ytext.doc!.on('afterTransactionCleanup', this.cleanupListener)
  }

  destroy(): void {
    this.ytext.doc!.off('afterTransactionCleanup', this.cleanupListener)
    this.ytext.doc!.off('afterAllTransactions', this.allDoneListener)
    this.pending.length = 0
  }

  /** The record of an open transaction, made when it first changes the text. */
  record(transaction: Y.Transaction): TransactionRecord {
    const entry = this.entry(transaction)
    if (entry !== undefined) return entry.record
    const record: TransactionRecord = { own: [], oldLength: this.currentLength(), edits: [] }
    this.pending.push({ transaction, record, change: null })
    return record
  }

  /** Clock ranges the buffer inserted itself in `transaction`, if any. */
  ownInsertions(transaction: Y.Transaction): readonly [number, number][] | null {
    const own = this.entry(transaction)?.record.own
    return own && own.length > 0 ? own : null
  }

  /** Closes the transaction's record: its one change set (none when the text ends as it began). */
  finish(transaction: Y.Transaction): void {
    const entry = this.entry(transaction)
    if (entry === undefined || entry.change !== null) return
    const record = entry.record
    if (record.edits.length === 0 || !this.wanted()) return this.drop(entry)
    const ids = transactionIds(this.ytext, transaction)
    const change = ChangeSet.fromEdits(record.oldLength, record.edits, {
      origin: transaction.local ? 'local' : 'remote',
      transactionOrigin: transaction.origin,
      author: authorOf(transaction, ids.inserted),
      time: this.clock(),
      insertedIds: ids.inserted,
      deletedIds: ids.deleted,
    })
    if (change.empty) this.drop(entry)
    else entry.change = change
  }

  private entry(transaction: Y.Transaction): Pending | undefined {
    const pending = this.pending
    for (let i = pending.length - 1; i >= 0; i--) if (pending[i]!.transaction === transaction) return pending[i]
    return undefined
  }

  private drop(entry: Pending): void {
    const i = this.pending.lastIndexOf(entry)
    if (i >= 0) this.pending.splice(i, 1)
  }

  private announce(transaction: Y.Transaction): void {
    if (this.pending.length === 0) return
    const entry = this.entry(transaction)
    if (entry === undefined) return
    this.drop(entry)
    if (entry.change === null) return
    try {
      this.emit(entry.change)
    } catch (error) {
      // Throwing here would stop Yjs before it sends the document's update: rethrown when it is done.
      // The listener is there only while an error waits, not on every transaction; Yjs emits
      // 'afterAllTransactions' after this cleanup.
      if (this.deferredError === null) this.ytext.doc!.on('afterAllTransactions', this.allDoneListener)
      this.deferredError ??= { error }
    }
  }

  private rethrowDeferred(): void {
    const deferred = this.deferredError
    if (deferred === null) return
    this.deferredError = null
    this.ytext.doc!.off('afterAllTransactions', this.allDoneListener)
    throw deferred.error
  }
}

/**
 * Who made a transaction: the client of the text it inserted; for a deletion alone, the client whose
 * clock the transaction advanced (it inserted something elsewhere), else the local client for a local
 * transaction; 0 when a remote update only deleted (a Yjs delete set does not say who deleted).
 */
function authorOf(transaction: Y.Transaction, inserted: readonly { client: number }[]): number {
  if (inserted.length > 0) return inserted[0]!.client
  let advanced: number | null = null
  forEachNewClockRange(transaction, (client) => {
    advanced ??= client
  })
  return advanced ?? (transaction.local ? transaction.doc.clientID : 0)
}
