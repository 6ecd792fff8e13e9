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
  /** The transaction's first change event as edits (most transactions have one), or all of them composed. */
  private pendingEdits: { oldLength: number; edits: SequentialEdit[] } | null = null
  private pendingSet: ChangeSet | null = null
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
        const oldLength = buffer.getLength() - shift
        if (this.pendingEdits === null && this.pendingSet === null) {
          this.pendingEdits = { oldLength, edits }
          return
        }
        // A second event in one transaction (several cursors): compose change sets.
        const set = ChangeSet.fromSequential(oldLength, edits)
        this.pendingSet = (this.pendingSet ?? this.takeEditsAsSet()).compose(set)
      }),
    )
    const afterTransaction = (transaction: Y.Transaction): void => {
      if (this.pendingEdits === null && this.pendingSet === null) return
      let oldLength: number
      let edits: SequentialEdit[]
      if (this.pendingSet === null) {
        ;({ oldLength, edits } = this.pendingEdits!)
      } else {
        const set = this.pendingSet
        oldLength = set.oldLength
        edits = []
        set.iterChanges((fromA, toA, fromB, _toB, inserted) => edits.push({ offset: fromB, deleteLength: toA - fromA, insertText: inserted }))
      }
      this.pendingEdits = null
      this.pendingSet = null
      const { insertedIds, deletedIds } = transactionIdRanges(transaction, buffer.ytext)
      const local = transaction.local
      const change = ChangeSet.fromSequential(oldLength, edits, {
        origin: local ? 'local' : 'remote',
        transactionOrigin: transaction.origin,
        // A remote deletion does not say who deleted (Yjs records no deleter): client 0 then.
        author: local ? transaction.doc.clientID : (insertedIds[0]?.client ?? 0),
        time: this.now(),
        insertedIds,
        deletedIds,
      })
      deliver(change, transaction)
    }
    buffer.doc.on('afterTransaction', afterTransaction)
    this.subscriptions.push(new Disposable(() => buffer.doc.off('afterTransaction', afterTransaction)))
  }

  private takeEditsAsSet(): ChangeSet {
    const { oldLength, edits } = this.pendingEdits!
    this.pendingEdits = null
    return ChangeSet.fromSequential(oldLength, edits)
  }

  destroy(): void {
    for (const subscription of this.subscriptions) subscription.dispose()
    this.pendingEdits = null
    this.pendingSet = null
  }
}
