import * as Y from 'yjs'
import type { IdRange } from '../buffer/change-set.ts'

/*
 * Every read of Yjs internals that authorship, the change log, revert and diff need, in one module
 * (issue 20 wants Yjs internals behind one door; this one is authorship's, to be merged into the
 * engine's when it lands): the item list of a Y.Text, items by ID, `keep`, `tryGc`, delete sets,
 * and Y.UndoManager's stack items, which revert borrows to undo any set of IDs.
 */

type DeleteSet = ReturnType<typeof Y.createDeleteSet>
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

/**
 * The IDs `transaction` inserted into `ytext` (still there at its end) and deleted from it (items that
 * existed before it; Yjs's delete set leaves out text that was already deleted).
 */
export function transactionIdRanges(transaction: Y.Transaction, ytext: Y.Text): { insertedIds: IdRange[]; deletedIds: IdRange[] } {
  const store = transaction.doc.store
  const insertedIds: IdRange[] = []
  const deletedIds: IdRange[] = []
  for (const [client, after] of transaction.afterState) {
    const before = transaction.beforeState.get(client) ?? 0
    const structs = store.clients.get(client)
    if (after <= before || !structs) continue
    for (let i = Y.findIndexSS(structs, before); i < structs.length; i++) {
      const struct = structs[i]!
      if (struct.id.clock >= after) break
      if (isTextItem(struct, ytext) && !struct.deleted) pushRange(insertedIds, client, struct.id.clock, struct.length)
    }
  }
  for (const [client, deletes] of transaction.deleteSet.clients) {
    const structs = store.clients.get(client)
    if (!structs) continue
    const before = transaction.beforeState.get(client) ?? 0
    for (const { clock, len } of deletes) {
      const end = Math.min(clock + len, before)
      if (clock >= end) continue
      for (let i = Y.findIndexSS(structs, clock); i < structs.length; i++) {
        const struct = structs[i]!
        if (struct.id.clock >= end) break
        if (!isTextItem(struct, ytext)) continue
        const from = Math.max(clock, struct.id.clock)
        const to = Math.min(end, struct.id.clock + struct.length)
        if (to > from) pushRange(deletedIds, client, from, to - from)
      }
    }
  }
  return { insertedIds, deletedIds }
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
  // Sorted and merged per client, as Yjs requires of a delete set.
  return Y.mergeDeleteSets([ds])
}

/**
 * An undo manager that reverts chosen IDs: the text inserted under `insertedIds` is deleted (where
 * an earlier revert re-created it, the re-created copy), the text deleted under `deletedIds` comes
 * back at its place. Text others inserted inside stays; text others deleted stays deleted. This is
 * Y.UndoManager's own undo, given a stack item we build; its transactions have the reverter as origin.
 */
export class IdReverter {
  private readonly undoManager: Y.UndoManager

  constructor(ytext: Y.Text) {
    this.undoManager = new Y.UndoManager(ytext, { trackedOrigins: new Set(), captureTimeout: 0 })
  }

  /** The origin of every revert transaction. */
  get origin(): unknown {
    return this.undoManager
  }

  /** Reverts, as one transaction; false when there was nothing left to revert. */
  revert(insertedIds: readonly IdRange[], deletedIds: readonly IdRange[]): boolean {
    const um = this.undoManager
    const item = { insertions: deleteSetOf(insertedIds), deletions: deleteSetOf(deletedIds), meta: new Map<unknown, unknown>() }
    um.undoStack.push(item as unknown as Y.UndoManager['undoStack'][number])
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
    this.undoManager.destroy()
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
