import type * as Y from 'yjs'
import { ChangeSet, type SequentialEdit } from './change-set.ts'
import { transactionIds } from './ytext-changes.ts'

/** What the buffer notes while a transaction runs, to make its one change set when it ends. */
export interface TransactionRecord {
  /** Clock ranges the buffer inserted itself (already mirrored). */
  readonly own: [number, number][]
  /** The text's length when the transaction first changed it. */
  readonly oldLength: number
  /** Every replacement applied to the mirror, sequential, in the order applied. */
  readonly edits: SequentialEdit[]
}

/**
 * Turns each Y.Text transaction into one ChangeSet and announces it when Yjs has finished with the
 * transaction. The buffer notes every replacement it mirrors (`record`); the text's observer, while
 * the transaction's items are still as it made them, closes the record (`finish`): the change set is
 * computed there, once, with the transaction's IDs; it is announced on `afterTransactionCleanup`, when
 * the buffer, the markers and Y.UndoManager (which records on `afterTransaction`) are all current.
 */
export class TransactionChanges {
  private readonly records = new WeakMap<Y.Transaction, TransactionRecord>()
  private readonly finished = new WeakMap<Y.Transaction, ChangeSet>()
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
  ) {
    ytext.doc!.on('afterTransactionCleanup', this.cleanupListener)
    ytext.doc!.on('afterAllTransactions', this.allDoneListener)
  }

  destroy(): void {
    this.ytext.doc!.off('afterTransactionCleanup', this.cleanupListener)
    this.ytext.doc!.off('afterAllTransactions', this.allDoneListener)
  }

  /** The record of an open transaction, made when it first changes the text. */
  record(transaction: Y.Transaction): TransactionRecord {
    let record = this.records.get(transaction)
    if (!record) this.records.set(transaction, (record = { own: [], oldLength: this.currentLength(), edits: [] }))
    return record
  }

  /** Clock ranges the buffer inserted itself in `transaction`, if any. */
  ownInsertions(transaction: Y.Transaction): readonly [number, number][] | null {
    const own = this.records.get(transaction)?.own
    return own && own.length > 0 ? own : null
  }

  /** Closes the transaction's record: its one change set (none when the text ends as it began). */
  finish(transaction: Y.Transaction): void {
    const record = this.records.get(transaction)
    this.records.delete(transaction)
    if (!record || record.edits.length === 0) return
    const ids = transactionIds(this.ytext, transaction)
    const change = ChangeSet.fromEdits(record.oldLength, record.edits, {
      origin: transaction.local ? 'local' : 'remote',
      transactionOrigin: transaction.origin,
      author: authorOf(transaction, ids.inserted),
      time: this.clock(),
      insertedIds: ids.inserted,
      deletedIds: ids.deleted,
    })
    if (!change.empty) this.finished.set(transaction, change)
  }

  private announce(transaction: Y.Transaction): void {
    const change = this.finished.get(transaction)
    if (change === undefined) return
    this.finished.delete(transaction)
    try {
      this.emit(change)
    } catch (error) {
      // Throwing here would stop Yjs before it sends the document's update: rethrown when it is done.
      this.deferredError ??= { error }
    }
  }

  private rethrowDeferred(): void {
    const deferred = this.deferredError
    if (deferred === null) return
    this.deferredError = null
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
  for (const [client, after] of transaction.afterState) if (after > (transaction.beforeState.get(client) ?? 0)) return client
  return transaction.local ? transaction.doc.clientID : 0
}
