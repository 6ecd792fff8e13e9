import * as Y from 'yjs'
import { ContentIndex } from './content-index.ts'
import type { IdRange } from './change-set.ts'
import { clockBefore, forEachDeletedRange, forEachItemOfClient, forEachNewClockRange, itemOfType, wasRedone } from './yjs-internals.ts'

/** One replacement: delete `deleteLength` characters at `offset`, then insert `insertText` there. */
export interface RawChange {
  readonly offset: number
  readonly deleteLength: number
  readonly insertText: string
}

type Item = Y.Item

/**
 * Reads what a transaction did to a Y.Text without `event.delta`, and keeps the text's content
 * index (offset <-> item ID) current.
 *
 * Yjs computes a text event's delta by walking every item of the text, which costs tens of
 * milliseconds per keystroke on a long, fragmented document. Instead we take the items the
 * transaction inserted (its state-vector difference) and deleted (its delete set), group adjacent
 * ones into runs, and find each run's offset in the content index, which still describes the text
 * before the transaction; then we bring the index up to date.
 *
 * Returned changes are sorted and sequential: each offset already accounts for the ones before it.
 */
export class YTextChangeReader {
  private readonly index: ContentIndex
  private typeName: string | null | undefined = undefined
  private typeId: Y.ID | null = null

  constructor(private readonly ytext: Y.Text) {
    this.index = new ContentIndex(ytext)
  }

  /** Builds the index again (after the text was rebuilt from scratch, or a transaction could not be read). */
  reset(): void {
    this.index.rebuild()
  }

  /** Changes made by `transaction`, given the text's length before it; null when they cannot be read. */
  read(transaction: Y.Transaction, oldLength: number): RawChange[] | null {
    const inserted = this.insertedItems(transaction)
    const deleted = this.deletedItems(transaction)
    if (inserted.size === 0 && deleted.size === 0) {
      this.indexTransaction(transaction)
      return []
    }
    const isOldVisible = (item: Item): boolean =>
      item.countable && !inserted.has(item) && (!item.deleted || deleted.has(item)) && !isNewItem(transaction, item)
    const isChanged = (item: Item): boolean => inserted.has(item) || deleted.has(item)
    const isVisibleEither = (item: Item): boolean => item.countable && (isOldVisible(item) || inserted.has(item))

    const runs: { offset: number; deleteLength: number; insertText: string }[] = []
    const visited = new Set<Item>()
    for (const seed of [...inserted, ...deleted]) {
      if (visited.has(seed)) continue
      // Extend to the maximal run of changed items, stepping over items invisible before and after.
      let first = seed
      for (let cur = seed.left; cur !== null; cur = cur.left) {
        if (isChanged(cur)) first = cur
        else if (isVisibleEither(cur)) break
      }
      let deleteLength = 0
      let insertText = ''
      for (let cur: Item | null = first; cur !== null; cur = cur.right) {
        if (isChanged(cur)) {
          visited.add(cur)
          if (inserted.has(cur)) insertText += contentText(cur)
          else deleteLength += cur.length
        } else if (isVisibleEither(cur)) break
      }
      runs.push({ offset: this.oldOffset(first, transaction, oldLength), deleteLength, insertText })
    }
    runs.sort((a, b) => a.offset - b.offset)

    const changes: RawChange[] = []
    let shift = 0
    for (const run of runs) {
      changes.push({ offset: run.offset + shift, deleteLength: run.deleteLength, insertText: run.insertText })
      shift += run.insertText.length - run.deleteLength
    }
    this.indexTransaction(transaction)
    if (oldLength + shift !== this.ytext.length || this.index.length !== this.ytext.length) {
      this.index.rebuild()
      return null
    }
    return changes
  }

  /** The ID of the character a relative position for `offset` binds to (null outside the text). */
  idAt(offset: number, assoc: number): Y.ID | null {
    return this.index.idAt(assoc < 0 ? offset - 1 : offset)
  }

  /** A relative position in this text bound to the character `id` (null: outside the text, by `assoc`). */
  relativePositionFor(id: Y.ID | null, assoc: number): Y.RelativePosition {
    // The text's name (a root type) or item (a nested one) never changes: found once.
    if (this.typeName === undefined) {
      const typeItem = itemOfType(this.ytext)
      this.typeName = typeItem === null ? Y.findRootTypeKey(this.ytext) : null
      this.typeId = typeItem === null ? null : typeItem.id
    }
    const typeId = this.typeId === null ? null : Y.createID(this.typeId.client, this.typeId.clock)
    // Outside the text (before the start bound left, at the end bound right) Yjs names no item.
    return new Y.RelativePosition(typeId, this.typeName, id, assoc)
  }

  /**
   * The offset a relative position resolves to, as Y.createAbsolutePositionFromRelativePosition gives
   * it. Undefined when the index does not apply (start/end positions, followed undo-redone items,
   * other types): use Yjs's then.
   */
  offsetForRelativePosition(position: Y.RelativePosition, followRedone: boolean): number | null | undefined {
    const id = position.item
    if (id === null) return undefined
    const store = this.ytext.doc!.store
    if (Y.getState(store, id.client) <= id.clock) return null
    const struct = Y.getItem(store, id)
    if (!(struct instanceof Y.Item) || (followRedone && wasRedone(struct)) || struct.parent !== this.ytext || struct.parentSub !== null) {
      return undefined
    }
    const before = this.index.offsetOfId(id.client, id.clock)
    if (before < 0) return undefined
    return before + (position.assoc < 0 && this.index.isVisible(id.client, id.clock) ? 1 : 0)
  }

  /** Called when this buffer deleted [offset, offset + length) itself (already mirrored). */
  noteOwnDelete(offset: number, length: number): void {
    this.index.deleteOffsets(offset, length)
  }

  /** Called when this buffer inserted text itself: the items of `client` with clocks in [from, to). */
  noteOwnInsert(client: number, from: number, to: number): void {
    this.index.insertClockRange(client, from, to)
  }

  /** Visible characters according to the index (a consistency check). */
  get indexedLength(): number {
    return this.index.length
  }

  /** Adds the transaction's new items to the index and marks its deletions. */
  private indexTransaction(transaction: Y.Transaction): void {
    forEachNewClockRange(transaction, (client, from, to) => this.index.insertClockRange(client, from, to))
    forEachDeletedRange(transaction, (client, clock, length) => this.index.deleteIds(client, clock, length))
  }

  /**
   * Offset of `item` in the text before the transaction: that of the first item from it rightwards
   * that existed before (new items held no characters then), or the old length when there is none.
   */
  private oldOffset(item: Item, transaction: Y.Transaction, oldLength: number): number {
    for (let cur: Item | null = item; cur !== null; cur = cur.right) {
      if (isNewItem(transaction, cur)) continue
      const offset = this.index.offsetOfId(cur.id.client, cur.id.clock)
      if (offset >= 0) return offset
    }
    return oldLength
  }

  private insertedItems(transaction: Y.Transaction): Set<Item> {
    const result = new Set<Item>()
    forEachNewClockRange(transaction, (client, from, to) =>
      forEachItemOfClient(transaction.doc, client, from, to, (item) => {
        if (this.isOwnItem(item) && !item.deleted) result.add(item)
      }),
    )
    return result
  }

  private deletedItems(transaction: Y.Transaction): Set<Item> {
    const result = new Set<Item>()
    forEachDeletedRange(transaction, (client, clock, length) => {
      const before = clockBefore(transaction, client)
      forEachItemOfClient(transaction.doc, client, clock, clock + length, (item) => {
        // Items both inserted and deleted by this transaction were never visible: not a change.
        if (this.isOwnItem(item) && item.id.clock < before) result.add(item)
      })
    })
    return result
  }

  private isOwnItem(item: Item): boolean {
    return item.parent === this.ytext && item.parentSub === null && item.countable
  }

  /** Whether every item of this text the transaction inserted lies in the given clock ranges of our client. */
  insertedOnlyIn(transaction: Y.Transaction, ranges: readonly [number, number][]): boolean {
    const own = this.ytext.doc!.clientID
    // Runs after every local transaction: each new item is visited once, without collecting them first.
    let only = true
    forEachNewClockRange(transaction, (client, from, to) => {
      if (!only) return
      forEachItemOfClient(transaction.doc, client, from, to, (item) => {
        if (only && this.isOwnItem(item) && !item.deleted && !insideRanges(item, own, ranges)) only = false
      })
    })
    return only
  }
}

/** Whether `item` is `own`'s and lies in one of `ranges` (our client's clock ranges, in clock order). */
function insideRanges(item: Item, own: number, ranges: readonly [number, number][]): boolean {
  if (item.id.client !== own) return false
  const clock = item.id.clock
  // The ranges come in clock order (one per write of the transaction): binary search, as a replace
  // all writes thousands of them.
  let lo = 0
  let hi = ranges.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (ranges[mid]![0] <= clock) lo = mid
    else hi = mid - 1
  }
  const range = ranges[lo]
  if (range !== undefined && clock >= range[0] && clock + item.length <= range[1]) return true
  return ranges.some(([from, to]) => clock >= from && clock + item.length <= to)
}

function isNewItem(transaction: Y.Transaction, item: Item): boolean {
  return item.id.clock >= clockBefore(transaction, item.id.client)
}

function contentText(item: Item): string {
  const content = item.content
  return content instanceof Y.ContentString ? content.str : '\ufffc'.repeat(item.length)
}

/** The Yjs IDs of this text's items that a transaction inserted (still visible) and deleted (visible before). */
export interface TransactionIds {
  readonly inserted: IdRange[]
  readonly deleted: IdRange[]
}

/**
 * Reads a transaction's inserted and deleted IDs of `ytext`'s items, as ranges (adjacent clocks of one
 * client joined). Called from the text's observer, before Yjs merges the transaction's items, so each
 * item lies wholly inside or outside a range; ranges are clipped all the same.
 */
export function transactionIds(ytext: Y.Text, transaction: Y.Transaction): TransactionIds {
  const inserted: IdRange[] = []
  forEachNewClockRange(transaction, (client, from, to) => collectIds(ytext, transaction.doc, client, from, to, false, inserted))
  const deleted: IdRange[] = []
  forEachDeletedRange(transaction, (client, clock, length) => {
    // Items both inserted and deleted by this transaction were never visible: neither list has them.
    const end = Math.min(clock + length, clockBefore(transaction, client))
    if (end > clock) collectIds(ytext, transaction.doc, client, clock, end, true, deleted)
  })
  return { inserted, deleted }
}

function collectIds(ytext: Y.Text, doc: Y.Doc, client: number, from: number, to: number, deleted: boolean, out: IdRange[]): void {
  forEachItemOfClient(doc, client, from, to, (item) => {
    if (item.parent !== ytext || item.parentSub !== null || !item.countable) return
    if (!deleted && item.deleted) return
    const clock = item.id.clock
    const start = Math.max(clock, from)
    const end = Math.min(clock + item.length, to)
    const last = out[out.length - 1]
    if (last !== undefined && last.client === client && last.clock + last.length === start) out[out.length - 1] = { client, clock: last.clock, length: end - last.clock }
    else out.push({ client, clock: start, length: end - start })
  })
}

/** The slow path: Yjs's own delta walks the whole text, so it is used only if the fast reader fails. */
export function rawChangesFromDelta(event: Y.YTextEvent): RawChange[] {
  const changes: RawChange[] = []
  let offset = 0
  let pending: { offset: number; deleteLength: number; insertText: string } | null = null
  const flush = () => {
    if (pending === null) return
    changes.push(pending)
    offset = pending.offset + pending.insertText.length
    pending = null
  }
  for (const op of event.delta) {
    if (op.retain !== undefined) {
      flush()
      offset += op.retain
      continue
    }
    pending ??= { offset, deleteLength: 0, insertText: '' }
    if (op.delete !== undefined) pending.deleteLength += op.delete
    else if (op.insert !== undefined) pending.insertText += typeof op.insert === 'string' ? op.insert : '\ufffc'
  }
  flush()
  return changes
}

/** One change turning `before` into `after`: everything between their common prefix and suffix. */
export function diffChange(before: string, after: string): RawChange {
  let prefix = 0
  const max = Math.min(before.length, after.length)
  while (prefix < max && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++
  let suffix = 0
  while (suffix < max - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++
  return { offset: prefix, deleteLength: before.length - prefix - suffix, insertText: after.slice(prefix, after.length - suffix) }
}
