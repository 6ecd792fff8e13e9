import * as Y from 'yjs'

/**
 * Every use of Yjs beyond its documented API, in one place: the struct store (items by client and
 * clock), a transaction's state vectors and delete set, fields Yjs marks internal (`doc._transaction`,
 * `type._item`, `item.redone`) and Y.UndoManager's stack items and capture clock. Yjs's own modules
 * read these; they are exported and typed, but a minor release could change them. The conformance test
 * (test/buffer/yjs-conformance.test.ts) runs against the oldest and the newest Yjs the peer range allows.
 *
 * Walking an item's neighbours (`left`, `right`, `deleted`, `countable`, `content`) stays with the
 * two readers of the text's item list (ytext-changes.ts, content-index.ts): those are Item's typed
 * fields, and the conformance test covers them through both readers.
 */

/** A step of Y.UndoManager's stacks. */
export type StackItem = Y.UndoManager['undoStack'][number]

/** Calls `f` with each item (GC'd structs skipped) of `client` whose clocks meet [from, to). */
export function forEachItemOfClient(doc: Y.Doc, client: number, from: number, to: number, f: (item: Y.Item) => void): void {
  if (to <= from) return
  const structs = doc.store.clients.get(client)
  if (!structs) return
  for (let i = Y.findIndexSS(structs, from); i < structs.length; i++) {
    const struct = structs[i]!
    if (struct.id.clock >= to) break
    if (struct instanceof Y.Item) f(struct)
  }
}

/** Calls `f` with each client's clock range [from, to) that `transaction` created. */
export function forEachNewClockRange(transaction: Y.Transaction, f: (client: number, from: number, to: number) => void): void {
  for (const [client, after] of transaction.afterState) {
    const before = transaction.beforeState.get(client) ?? 0
    if (after > before) f(client, before, after)
  }
}

/** Calls `f` with each range of IDs `transaction` deleted (Yjs leaves out IDs that were deleted already). */
export function forEachDeletedRange(transaction: Y.Transaction, f: (client: number, clock: number, length: number) => void): void {
  for (const [client, ranges] of transaction.deleteSet.clients) for (const range of ranges) f(client, range.clock, range.len)
}

/** The clock `client` had when `transaction` began: items at or after it are new in the transaction. */
export function clockBefore(transaction: Y.Transaction, client: number): number {
  return transaction.beforeState.get(client) ?? 0
}

/** Whether `doc` is inside a transaction (observers run after it, with none open). */
export function isTransacting(doc: Y.Doc): boolean {
  return doc._transaction !== null
}

/**
 * Whether Yjs has a transaction open or still finishing (its observers and cleanup listeners run): a
 * transaction started then is cleaned up later, after the caller's flags are reset.
 */
export function hasPendingTransactions(doc: Y.Doc): boolean {
  return doc._transaction !== null || doc._transactionCleanups.length > 0
}

/** The item a nested type lives in; null for a root type. */
export function itemOfType(type: Y.Text): Y.Item | null {
  return type._item
}

/** Whether an undo brought this item's content back as a new item (the link only the undoing doc has). */
export function wasRedone(item: Y.Item): boolean {
  return item.redone !== null
}

/** Whether the item holding `id` is deleted (or was never received, or was garbage collected). */
export function isIdDeleted(doc: Y.Doc, id: Y.ID): boolean {
  const structs = doc.store.clients.get(id.client)
  if (!structs) return true
  const last = structs[structs.length - 1]
  if (!last || last.id.clock + last.length <= id.clock) return true
  return structs[Y.findIndexSS(structs, id.clock)]!.deleted
}

/** When Y.UndoManager last added to its undo stack (0: the next change starts a new step). */
export function lastChangeTime(um: Y.UndoManager): number {
  return um.lastChange
}

/** Makes the next tracked change join the top undo step, however long ago it was made. */
export function joinNextChange(um: Y.UndoManager): void {
  um.captureTimeout = Number.MAX_SAFE_INTEGER
  if (um.lastChange === 0) um.lastChange = 1
}

/**
 * Folds the later stack items into the first one (its insertions and deletions become theirs too). Yjs
 * exports `mergeDeleteSets` only since 13.6.x, so the ranges are joined here: per client, sorted by
 * clock, overlapping or touching ranges made one. The later items are dropped by the caller.
 */
export function mergeStackItems(first: StackItem, rest: readonly StackItem[]): void {
  joinDeleteSets(first.insertions, rest.map((item) => item.insertions))
  joinDeleteSets(first.deletions, rest.map((item) => item.deletions))
}

type DeleteSet = StackItem['insertions']

function joinDeleteSets(into: DeleteSet, others: readonly DeleteSet[]): void {
  for (const other of others) {
    for (const [client, ranges] of other.clients) {
      const list = into.clients.get(client)
      if (list === undefined) into.clients.set(client, ranges.slice())
      else list.push(...ranges)
    }
  }
  for (const [client, ranges] of into.clients) {
    ranges.sort((a, b) => a.clock - b.clock)
    const joined: typeof ranges = []
    for (const range of ranges) {
      const last = joined[joined.length - 1]
      if (last !== undefined && range.clock <= last.clock + last.len) last.len = Math.max(last.len, range.clock + range.len - last.clock)
      else joined.push(range)
    }
    into.clients.set(client, joined)
  }
}
