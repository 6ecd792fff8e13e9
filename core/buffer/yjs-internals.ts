import * as Y from 'yjs'
import * as encoding from 'lib0/encoding'
import type { IdRange } from './change-set.ts'

/**
 * Every use of Yjs beyond its documented API, in one place: the struct store (items by client and
 * clock), a transaction's state vectors and delete set, fields Yjs marks internal (`doc._transaction`,
 * `type._item`, `item.redone`) and Y.UndoManager's stack items and capture clock. Yjs's own modules
 * read these; they are exported and typed, but a minor release could change them. The conformance test
 * (test/buffer/yjs-conformance.test.ts, and test/buffer/transaction-update.test.ts for the update writer
 * below) runs against the oldest and the newest Yjs the peer range allows.
 *
 * Walking an item's neighbours (`left`, `right`, `deleted`, `countable`, `content`) stays with the
 * two readers of the text's item list (ytext-changes.ts, content-index.ts): those are Item's typed
 * fields, and the conformance test covers them through both readers.
 *
 * The second half serves authorship, the change log, revert and diff: the authors of the item list,
 * `keep` and `tryGc` for deleted text a change may need back, delete sets built from ID ranges, and
 * Y.UndoManager's undo given a stack item we build.
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

type DeleteItem = DeleteSet['clients'] extends Map<number, (infer D)[]> ? D : never

/** A run of characters inserted by one client. */
export interface ClientRun {
  client: number
  length: number
}

/** Items of `ytext` that hold text (countable), itself and not a nested type's. */
function isTextItem(struct: Y.Item | Y.GC | Y.Skip, ytext: Y.Text): struct is Y.Item {
  return struct instanceof Y.Item && struct.parent === ytext && struct.parentSub === null && struct.countable
}

/** Appends [clock, clock + length) of `client` to `ranges`, joining it to the last range when they touch. */
function pushRange(ranges: IdRange[], client: number, clock: number, length: number): void {
  const last = ranges[ranges.length - 1]
  if (last !== undefined && last.client === client && last.clock + last.length === clock) {
    ranges[ranges.length - 1] = { client, clock: last.clock, length: last.length + length }
  } else {
    ranges.push({ client, clock, length })
  }
}

/** The authors of `length` visible characters of `ytext` from the one whose ID is `id`, in text order. */
export function clientRunsFrom(ytext: Y.Text, id: Y.ID, length: number): ClientRun[] {
  const runs: ClientRun[] = []
  let item: Y.Item | null = Y.getItem(ytext.doc!.store, id) as Y.Item
  let skip = id.clock - item.id.clock
  let remaining = length
  for (; item !== null && remaining > 0; item = item.right) {
    if (item.deleted || !item.countable) {
      skip = 0
      continue
    }
    const n = Math.min(item.length - skip, remaining)
    skip = 0
    remaining -= n
    const last = runs[runs.length - 1]
    if (last !== undefined && last.client === item.id.client) last.length += n
    else runs.push({ client: item.id.client, length: n })
  }
  return runs
}

/** The authors of every visible character of `ytext`, in text order (one walk of the item list). */
export function visibleClientRuns(ytext: Y.Text): ClientRun[] {
  const runs: ClientRun[] = []
  for (let item = ytext._start; item !== null; item = item.right) {
    if (item.deleted || !item.countable) continue
    const last = runs[runs.length - 1]
    if (last !== undefined && last.client === item.id.client) last.length += item.length
    else runs.push({ client: item.id.client, length: item.length })
  }
  return runs
}

/** Calls `f` with each text item of `ytext` in `ranges` (whole items; the ranges' ends may split none). */
function eachItemIn(ytext: Y.Text, ranges: readonly IdRange[], f: (item: Y.Item, from: number, to: number) => void): void {
  const store = ytext.doc!.store
  for (const { client, clock, length } of ranges) {
    const structs = store.clients.get(client)
    if (!structs) continue
    const end = clock + length
    for (let i = Y.findIndexSS(structs, clock); i < structs.length; i++) {
      const struct = structs[i]!
      if (struct.id.clock >= end) break
      if (isTextItem(struct, ytext) || (struct instanceof Y.Item && struct.parent === ytext && struct.parentSub === null)) {
        f(struct, Math.max(clock, struct.id.clock), Math.min(end, struct.id.clock + struct.length))
      }
    }
  }
}

/**
 * Keeps the content of the deleted items in `ranges` from garbage collection (as Y.UndoManager's
 * `keepItem` does; a text at the root has no parent item to keep too). Returns the ranges this call
 * kept, leaving out items someone else (the editor's undo manager) keeps already, and how many
 * characters they hold.
 */
export function keepDeleted(ytext: Y.Text, ranges: readonly IdRange[]): { kept: IdRange[]; chars: number } {
  const kept: IdRange[] = []
  let chars = 0
  if (!ytext.doc!.gc) return { kept, chars }
  eachItemIn(ytext, ranges, (item, from, to) => {
    if (!item.deleted || item.keep || !(item.content instanceof Y.ContentString)) return
    item.keep = true
    pushRange(kept, item.id.client, from, to - from)
    chars += to - from
  })
  return { kept, chars }
}

/**
 * `keepDeleted` for the text `transaction` deleted that was there before it (the `deleted` IDs of
 * `transactionIds`), read from the transaction's delete set alone: called after every transaction, and
 * transactionIds would walk the inserted items too.
 */
export function keepTransactionDeletions(ytext: Y.Text, transaction: Y.Transaction): { kept: IdRange[]; chars: number } {
  const ranges: IdRange[] = []
  forEachDeletedRange(transaction, (client, clock, length) => {
    // Items both inserted and deleted by this transaction were never visible: nothing to keep.
    const end = Math.min(clock + length, clockBefore(transaction, client))
    if (end > clock) ranges.push({ client, clock, length: end - clock })
  })
  return keepDeleted(ytext, ranges)
}

/** Lets Yjs collect the deleted items in `ranges` (kept by `keepDeleted`) and collects them now. */
export function releaseDeleted(ytext: Y.Text, ranges: readonly IdRange[]): void {
  const doc = ytext.doc!
  if (ranges.length === 0) return
  eachItemIn(ytext, ranges, (item) => {
    if (item.deleted) item.keep = false
  })
  doc.transact((transaction) => {
    // Deleted items that nobody keeps are garbage collected when a transaction ends (Yjs's own rule).
    Y.tryGc(deleteSetOf(ranges), transaction.doc.store, doc.gcFilter)
  }, releaseDeleted)
}

/** Whether every deleted item in `ranges` still has its text (not yet garbage collected). */
export function deletedContentKept(ytext: Y.Text, ranges: readonly IdRange[]): boolean {
  let kept = true
  eachItemIn(ytext, ranges, (item) => {
    if (item.content instanceof Y.ContentDeleted) kept = false
  })
  return kept
}

/** A Yjs delete set naming exactly `ranges`. */
function deleteSetOf(ranges: readonly IdRange[]): DeleteSet {
  const ds = Y.createDeleteSet()
  for (const { client, clock, length } of ranges) {
    let list = ds.clients.get(client)
    if (!list) ds.clients.set(client, (list = []))
    list.push({ clock, len: length } as DeleteItem)
  }
  // Sorted and merged per client, as Yjs requires of a delete set (by our code: Y.mergeDeleteSets is not
  // exported by Yjs 13.6.0).
  joinDeleteSets(ds, [])
  return ds
}

/**
 * An undo manager that reverts chosen IDs: the text inserted under `insertedIds` is deleted (where
 * an earlier revert re-created it, the re-created copy), the text deleted under `deletedIds` comes
 * back at its place. Text others inserted inside stays; text others deleted stays deleted. This is
 * Y.UndoManager's own undo, given a stack item we build; its transactions have the reverter as origin.
 */
export class IdReverter {
  /**
   * Made at the first revert: a Y.UndoManager's handler runs on every transaction of the document,
   * while most editors never revert anything.
   */
  private undoManager: Y.UndoManager | null = null
  /** Stands for the origin until the manager exists: no transaction can carry it. */
  private readonly noOriginYet = {}

  constructor(private readonly ytext: Y.Text) {}

  /** The origin of every revert transaction. */
  get origin(): unknown {
    return this.undoManager ?? this.noOriginYet
  }

  /** Reverts, as one transaction; false when there was nothing left to revert. */
  revert(insertedIds: readonly IdRange[], deletedIds: readonly IdRange[]): boolean {
    const um = (this.undoManager ??= new Y.UndoManager(this.ytext, { trackedOrigins: new Set(), captureTimeout: 0 }))
    const item = { insertions: deleteSetOf(insertedIds), deletions: deleteSetOf(deletedIds), meta: new Map<unknown, unknown>() }
    um.undoStack.push(item as unknown as StackItem)
    try {
      return um.undo() !== null
    } finally {
      // The manager's own record of the revert is not needed (the log has it); its `keep` flags stay for
      // the log to release (clear() would drop them before the log could revert the revert).
      um.undoStack.length = 0
      um.redoStack.length = 0
    }
  }

  destroy(): void {
    this.undoManager?.destroy()
  }
}

/** A character range of the current text, or deleted text where it was, with its author. */
export interface ItemDiff {
  inserted: { from: number; to: number; client: number }[]
  deleted: { at: number; text: string; client: number }[]
}

/**
 * What changed in `ytext` since the state `oldDoc` holds (a document made from an earlier update of
 * the same one): inserted text as ranges of the current text, deleted text (read from `oldDoc`, since
 * the current document may have collected it) at the offset where it was. One walk of the item list.
 */
export function diffSince(ytext: Y.Text, oldDoc: Y.Doc): ItemDiff {
  const oldVector = Y.decodeStateVector(Y.encodeStateVector(oldDoc))
  const oldDeletes = Y.createDeleteSetFromStructStore(oldDoc.store)
  const result: ItemDiff = { inserted: [], deleted: [] }
  let offset = 0
  for (let item = ytext._start; item !== null; item = item.right) {
    if (!item.countable) continue
    const { client, clock } = item.id
    const known = oldVector.get(client) ?? 0
    const visibleNow = !item.deleted
    // Cut the item where its old visibility changes: at the old state vector and at old deletions.
    let at = clock
    const end = clock + item.length
    while (at < end) {
      let segmentEnd = end
      let visibleThen: boolean
      if (at >= known) {
        visibleThen = false
      } else {
        segmentEnd = Math.min(segmentEnd, known)
        const deleted = deletedRangeAt(oldDeletes, client, at)
        if (deleted.deleted) {
          visibleThen = false
          segmentEnd = Math.min(segmentEnd, deleted.end)
        } else {
          visibleThen = true
          segmentEnd = Math.min(segmentEnd, deleted.end)
        }
      }
      const n = segmentEnd - at
      if (visibleNow && !visibleThen) {
        const last = result.inserted[result.inserted.length - 1]
        if (last !== undefined && last.to === offset && last.client === client) last.to += n
        else result.inserted.push({ from: offset, to: offset + n, client })
      } else if (!visibleNow && visibleThen) {
        const text = textOfIds(oldDoc, client, at, n)
        const last = result.deleted[result.deleted.length - 1]
        if (last !== undefined && last.at === offset && last.client === client) last.text += text
        else result.deleted.push({ at: offset, text, client })
      }
      if (visibleNow) offset += n
      at = segmentEnd
    }
  }
  return result
}

/** Whether `clock` of `client` is in the delete set, and where that answer stops holding. */
function deletedRangeAt(ds: DeleteSet, client: number, clock: number): { deleted: boolean; end: number } {
  const list = ds.clients.get(client)
  if (!list) return { deleted: false, end: Infinity }
  let lo = 0
  let hi = list.length
  // The first range that ends after `clock`.
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (list[mid]!.clock + list[mid]!.len <= clock) lo = mid + 1
    else hi = mid
  }
  const range = list[lo]
  if (range === undefined) return { deleted: false, end: Infinity }
  if (range.clock <= clock) return { deleted: true, end: range.clock + range.len }
  return { deleted: false, end: range.clock }
}

/** The text of `client`'s clocks [clock, clock + length) in `doc` (U+FFFC for embeds, nothing if collected). */
function textOfIds(doc: Y.Doc, client: number, clock: number, length: number): string {
  const structs = doc.store.clients.get(client)
  if (!structs) return ''
  let text = ''
  const end = clock + length
  for (let i = Y.findIndexSS(structs, clock); i < structs.length; i++) {
    const struct = structs[i]!
    if (struct.id.clock >= end) break
    if (!(struct instanceof Y.Item)) continue
    const from = Math.max(clock, struct.id.clock) - struct.id.clock
    const to = Math.min(end, struct.id.clock + struct.length) - struct.id.clock
    text += struct.content instanceof Y.ContentString ? struct.content.str.slice(from, to) : '\ufffc'.repeat(to - from)
  }
  return text
}

// A transaction's update written for its changed clients only (the server's hot rooms)

/**
 * A transaction's change as a v1 update, the same bytes Yjs hands to 'update' listeners, written
 * for the clients the transaction changed only. Yjs writes that update by building the state
 * vector of every client the document has ever seen and looking each one up in the store, so in a
 * room of hundreds of typists every one-character insert paid for hundreds of clients (a tenth of
 * a profiled hot room's CPU). Here the transaction's own after-state is walked once, without
 * building anything, and only the changed clients' structs are written, in Yjs's order (higher
 * client ids first), followed by the transaction's delete set. Call it once the transaction is
 * cleaned up ('afterTransactionCleanup'), when Yjs itself would write the update: its structs are
 * merged then. Null when the transaction changed nothing (Yjs emits no update then). `changed`:
 * `clientsChangedBy(transaction)`, passed in by a caller that keeps it for other readers too.
 */
export function encodeTransactionUpdate(transaction: Y.Transaction, changed: ReadonlyArray<readonly [number, number]> = clientsChangedBy(transaction)): Uint8Array | null {
  const { deleteSet } = transaction
  if (changed.length === 0 && deleteSet.clients.size === 0) return null
  const store = transaction.doc.store
  const encoder = new Y.UpdateEncoderV1()
  encoding.writeVarUint(encoder.restEncoder, changed.length)
  for (const [client, clock] of [...changed].sort((a, b) => b[0] - a[0])) writeStructs(encoder, store.clients.get(client)!, client, clock)
  writeDeletes(encoder, deletesOf(deleteSet))
  return encoder.toUint8Array()
}

/** A delete set's ranges by client, in Yjs's order (higher client ids first; Yjs has sorted and merged each client's ranges before the transaction's observers run). */
function deletesOf(deleteSet: Y.Transaction['deleteSet']): Array<readonly [number, ReadonlyArray<{ readonly clock: number; readonly len: number }>]> {
  return [...deleteSet.clients].sort((a, b) => b[0] - a[0])
}

/** Writes the delete-set part of an update (Yjs's writeDeleteSet). */
function writeDeletes(encoder: Y.UpdateEncoderV1, deletes: ReadonlyArray<readonly [number, ReadonlyArray<{ readonly clock: number; readonly len: number }>]>): void {
  encoding.writeVarUint(encoder.restEncoder, deletes.length)
  for (const [client, items] of deletes) {
    encoder.resetDsCurVal()
    encoding.writeVarUint(encoder.restEncoder, client)
    encoding.writeVarUint(encoder.restEncoder, items.length)
    for (const item of items) {
      encoder.writeDsClock(item.clock)
      encoder.writeDsLen(item.len)
    }
  }
}

/**
 * `encodeTransactionUpdate` written later: copies of the transaction's new structs are taken now and
 * the returned function writes the same bytes from them whenever it is called (once; it keeps the
 * result), however the document changed meanwhile (later edits split, merge and collect the structs
 * in the store, never the copies). A copy shares its item's string, so capturing a 2 MB paste copies
 * no text; the UTF-8 encoding of it, the costly part, moves to the call. Null as encodeTransactionUpdate.
 */
export function captureTransactionUpdate(transaction: Y.Transaction): (() => Uint8Array) | null {
  const changed = clientsChangedBy(transaction)
  const { deleteSet } = transaction
  if (changed.length === 0 && deleteSet.clients.size === 0) return null
  const store = transaction.doc.store
  const structs: Array<readonly [number, number, Array<Y.Item | Y.GC>]> = []
  for (const [client, clock] of [...changed].sort((a, b) => b[0] - a[0])) {
    const all = store.clients.get(client)!
    const from = Math.max(clock, all[0]!.id.clock)
    structs.push([client, from, all.slice(Y.findIndexSS(all, from)).map(copyStruct)])
  }
  // Copies: later transactions merge into the ranges Yjs keeps.
  const deletes = deletesOf(deleteSet).map(([client, items]) => [client, items.map(({ clock, len }) => ({ clock, len }))] as const)
  let bytes: Uint8Array | null = null
  return () => {
    if (bytes !== null) return bytes
    const encoder = new Y.UpdateEncoderV1()
    encoding.writeVarUint(encoder.restEncoder, structs.length)
    for (const [client, from, copies] of structs) writeStructs(encoder, copies, client, from)
    writeDeletes(encoder, deletes)
    bytes = encoder.toUint8Array()
    return bytes
  }
}

/** The contents Item#split cuts (or collecting shortens) in place. */
const SPLITS = [Y.ContentString, Y.ContentDeleted, Y.ContentAny, Y.ContentJSON]

/**
 * A struct as it is now, for writing later. Splitting an item or collecting its content changes the
 * item's content in place (a string is cut, a deleted length shortened, the content replaced), so the
 * copy has its own content object when its kind can be cut; the others (one unit long) are never
 * changed in place, and a type's content, though collected, writes only its kind.
 * An item without origins writes its parent, which is named now: a root type that arrived before
 * anyone asked for it is a placeholder, replaced (items re-parented) once someone does, and the
 * placeholder is no longer found under its name. Item#write takes a parent given as the root type's
 * name or as the parent item's ID as it is (the form updates decoded without a document have).
 */
function copyStruct(struct: Y.Item | Y.GC): Y.Item | Y.GC {
  if (!(struct instanceof Y.Item)) return new Y.GC(struct.id, struct.length)
  const content = SPLITS.some((kind) => struct.content instanceof kind) ? struct.content.copy() : struct.content
  let parent = struct.parent
  if (struct.origin === null && struct.rightOrigin === null && parent instanceof Y.AbstractType) {
    parent = parent._item === null ? (Y.findRootTypeKey(parent) as unknown as Y.ID) : parent._item.id
  }
  return new Y.Item(struct.id, null, struct.origin, null, struct.rightOrigin, parent, struct.parentSub, content)
}

/** The clients `transaction` inserted under, each with its clock before the transaction. */
export function clientsChangedBy(transaction: Y.Transaction): Array<readonly [number, number]> {
  const found: Array<readonly [number, number]> = []
  for (const [client, clock] of transaction.afterState) {
    const before = transaction.beforeState.get(client) ?? 0
    if (clock > before) found.push([client, before])
  }
  return found
}

/** `client`'s structs from `clock` on, the first one cut at `clock` (Yjs's writeStructs). */
function writeStructs(encoder: Y.UpdateEncoderV1, structs: ReadonlyArray<Y.Item | Y.GC>, client: number, clock: number): void {
  const from = Math.max(clock, structs[0]!.id.clock)
  const start = Y.findIndexSS(structs as Array<Y.Item | Y.GC>, from)
  encoding.writeVarUint(encoder.restEncoder, structs.length - start)
  encoder.writeClient(client)
  encoding.writeVarUint(encoder.restEncoder, from)
  const first = structs[start]!
  first.write(encoder, from - first.id.clock)
  for (let i = start + 1; i < structs.length; i++) structs[i]!.write(encoder, 0)
}
