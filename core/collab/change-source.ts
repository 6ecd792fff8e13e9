import type * as Y from 'yjs'
import { ChangeSet, type SequentialEdit } from '../buffer/change-set.ts'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import { Disposable } from '../events/disposable.ts'
import { transactionIdRanges } from './yjs-items.ts'

/**
 * One ChangeSet per transaction that changed the text, with its IDs, author and time: the buffer's
 * change events of a transaction composed, completed when the transaction ends. (The engine's
 * pipeline will deliver the same value through `onDidChangeText`; this is where authorship takes it
 * from until then.)
 */
export class ChangeSetSource {
  private pending: ChangeSet | null = null
  private readonly subscriptions: Disposable[] = []

  constructor(
    buffer: TextBuffer,
    private readonly now: () => number,
    deliver: (change: ChangeSet, transaction: Y.Transaction) => void,
  ) {
    this.subscriptions.push(
      buffer.onDidChange(({ changes }) => {
        const edits: SequentialEdit[] = []
        let shift = 0
        for (const { startOffset, oldLength, newText } of changes) {
          edits.push({ offset: startOffset, deleteLength: oldLength, insertText: newText })
          shift += newText.length - oldLength
        }
        const set = ChangeSet.fromSequential(buffer.getLength() - shift, edits)
        this.pending = this.pending === null ? set : this.pending.compose(set)
      }),
    )
    const afterTransaction = (transaction: Y.Transaction): void => {
      const pending = this.pending
      if (pending === null) return
      this.pending = null
      const { insertedIds, deletedIds } = transactionIdRanges(transaction, buffer.ytext)
      const local = transaction.local
      const author = local ? transaction.doc.clientID : (insertedIds[0]?.client ?? 0)
      const edits: SequentialEdit[] = []
      pending.iterChanges((fromA, toA, fromB, _toB, inserted) => edits.push({ offset: fromB, deleteLength: toA - fromA, insertText: inserted }))
      const change = ChangeSet.fromSequential(pending.oldLength, edits, {
        origin: local ? 'local' : 'remote',
        transactionOrigin: transaction.origin,
        author,
        time: this.now(),
        insertedIds,
        deletedIds,
      })
      deliver(change, transaction)
    }
    buffer.doc.on('afterTransaction', afterTransaction)
    this.subscriptions.push(new Disposable(() => buffer.doc.off('afterTransaction', afterTransaction)))
  }

  destroy(): void {
    for (const subscription of this.subscriptions) subscription.dispose()
    this.pending = null
  }
}
