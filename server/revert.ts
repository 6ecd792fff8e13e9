import * as Y from 'yjs'
import type { IdRange } from './change-journal.ts'

/**
 * Edits to the room's text computed against its current state: a revert of changes named by
 * their Yjs ids, and a restore to an earlier text. Each is applied as one transaction
 * (applyEdits), so it is one update, one change in the log, and can itself be reverted.
 */

/** Offsets are UTF-16 offsets into the text as it is before any of the edits. */
export interface TextEdits {
  deletes: Array<{ index: number; length: number }>
  inserts: Array<{ index: number; text: string }>
  /** Deleted characters in the window whose content is gone (collected): they cannot come back. */
  unrevertable: number
}

/** Sorted, merged `[start, end)` clock intervals per client. */
export type IdSet = Map<number, Array<[number, number]>>

export function idSet(ranges: readonly IdRange[]): IdSet {
  const set: IdSet = new Map()
  for (const { client, clock, length } of ranges) {
    let list = set.get(client)
    if (list === undefined) set.set(client, (list = []))
    list.push([clock, clock + length])
  }
  for (const [client, list] of set) {
    list.sort((a, b) => a[0] - b[0])
    const merged: Array<[number, number]> = []
    for (const interval of list) {
      const last = merged[merged.length - 1]
      if (last !== undefined && interval[0] <= last[1]) last[1] = Math.max(last[1], interval[1])
      else merged.push([interval[0], interval[1]])
    }
    set.set(client, merged)
  }
  return set
}

/** The parts of `[clock, clock + length)` of `client` in `set`, as offsets into it. */
export function overlaps(set: IdSet, client: number, clock: number, length: number): Array<[number, number]> {
  const list = set.get(client)
  if (list === undefined) return []
  let low = 0
  let high = list.length
  // The first interval that ends after `clock`.
  while (low < high) {
    const middle = (low + high) >> 1
    if (list[middle]![1] <= clock) low = middle + 1
    else high = middle
  }
  const parts: Array<[number, number]> = []
  for (let index = low; index < list.length && list[index]![0] < clock + length; index++) {
    const [start, end] = list[index]!
    parts.push([Math.max(start, clock) - clock, Math.min(end, clock + length) - clock])
  }
  return parts
}

/** Subtracts `minus` from the offsets `parts` (both sorted, disjoint). */
function without(parts: Array<[number, number]>, minus: Array<[number, number]>): Array<[number, number]> {
  let result = parts
  for (const [from, to] of minus) {
    result = result.flatMap(([start, end]): Array<[number, number]> => {
      if (to <= start || from >= end) return [[start, end]]
      const pieces: Array<[number, number]> = []
      if (start < from) pieces.push([start, from])
      if (to < end) pieces.push([to, end])
      return pieces
    })
  }
  return result
}

/**
 * Reverting changes that inserted `inserted` and deleted `deleted`: their inserted text that
 * is still visible is deleted, and the text they deleted that is still deleted comes back where
 * it was. Text others inserted inside stays; text others deleted stays deleted; text a change
 * of the window both inserted and deleted stays deleted. One walk over the text's items.
 */
export function planRevert(text: Y.Text, inserted: readonly IdRange[], deleted: readonly IdRange[]): TextEdits {
  const insertedSet = idSet(inserted)
  const deletedSet = idSet(deleted)
  const edits: TextEdits = { deletes: [], inserts: [], unrevertable: 0 }
  let index = 0
  for (let item = text._start; item !== null; item = item.right) {
    const { client, clock } = item.id
    if (!item.deleted) {
      if (!item.countable) continue
      for (const [from, to] of overlaps(insertedSet, client, clock, item.length)) edits.deletes.push({ index: index + from, length: to - from })
      index += item.length
      continue
    }
    const back = without(overlaps(deletedSet, client, clock, item.length), overlaps(insertedSet, client, clock, item.length))
    if (back.length === 0) continue
    const content = item.content
    if (content instanceof Y.ContentString) {
      for (const [from, to] of back) edits.inserts.push({ index, text: content.str.slice(from, to) })
    } else if (content instanceof Y.ContentDeleted) {
      for (const [from, to] of back) edits.unrevertable += to - from
    }
  }
  return edits
}

/** The edits that turn `current` into `target`: one deletion and one insertion around their common prefix and suffix. */
export function planRestore(current: string, target: string): TextEdits {
  let prefix = 0
  const shorter = Math.min(current.length, target.length)
  while (prefix < shorter && current.charCodeAt(prefix) === target.charCodeAt(prefix)) prefix++
  // Never split a surrogate pair.
  if (prefix > 0 && isHighSurrogate(current.charCodeAt(prefix - 1))) prefix--
  let suffix = 0
  while (suffix < shorter - prefix && current.charCodeAt(current.length - 1 - suffix) === target.charCodeAt(target.length - 1 - suffix)) suffix++
  if (suffix > 0 && isLowSurrogate(current.charCodeAt(current.length - suffix))) suffix--
  const edits: TextEdits = { deletes: [], inserts: [], unrevertable: 0 }
  if (current.length - suffix > prefix) edits.deletes.push({ index: prefix, length: current.length - suffix - prefix })
  if (target.length - suffix > prefix) edits.inserts.push({ index: prefix, text: target.slice(prefix, target.length - suffix) })
  return edits
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

/**
 * Applies `edits` in one transaction with `origin`, last position first so that each offset
 * still means what it meant in the text before; at one offset a deletion goes before the
 * insertions there, and insertions keep their order.
 */
export function applyEdits(text: Y.Text, edits: TextEdits, origin: unknown, before?: () => void): void {
  type Op = { index: number; order: number; run: () => void }
  const ops: Op[] = []
  edits.inserts.forEach(({ index, text: inserted }, order) => ops.push({ index, order: order * 2, run: () => text.insert(index, inserted) }))
  edits.deletes.forEach(({ index, length }) => ops.push({ index, order: Number.MAX_SAFE_INTEGER, run: () => text.delete(index, length) }))
  // Descending offset; at one offset the deletion first, then the insertions from the last to the first.
  ops.sort((a, b) => b.index - a.index || b.order - a.order)
  text.doc!.transact(() => {
    before?.()
    for (const op of ops) op.run()
  }, origin)
}
