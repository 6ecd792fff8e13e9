import * as Y from 'yjs'

/** One replacement: delete `deleteLength` characters at `offset`, then insert `insertText` there. */
export interface RawChange {
  readonly offset: number
  readonly deleteLength: number
  readonly insertText: string
}

type Item = Y.Item

const CACHE_LIMIT = 32

/**
 * Reads what a transaction did to a Y.Text without `event.delta`.
 *
 * Yjs computes a text event's delta by walking every item of the text, which costs tens of
 * milliseconds per keystroke on a long, fragmented document. Instead we take the items the
 * transaction inserted (its state-vector difference) and deleted (its delete set), group adjacent
 * ones into runs, and find each run's offset by walking from it to the nearest item whose offset we
 * remember from earlier transactions (or to either end of the text). Typing, local or remote,
 * lands next to the previous keystroke's item, so the walk is usually one step.
 *
 * Returned changes are sorted and sequential: each offset already accounts for the ones before it.
 */
export class YTextChangeReader {
  /** Items whose first character's offset we know: offset = visible characters before the item. */
  private readonly known = new Map<Item, number>()

  constructor(private readonly ytext: Y.Text) {}

  /** Forget every remembered offset (after the text was rebuilt from scratch). */
  reset(): void {
    this.known.clear()
  }

  /** Changes made by `transaction`, given the text's length before it; null when they cannot be read. */
  read(transaction: Y.Transaction, oldLength: number): RawChange[] | null {
    this.refreshKnown()
    const inserted = this.insertedItems(transaction)
    const deleted = this.deletedItems(transaction)
    if (inserted.size === 0 && deleted.size === 0) return []
    const isOldVisible = (item: Item): boolean =>
      item.countable && !inserted.has(item) && (!item.deleted || deleted.has(item)) && !isNewItem(transaction, item)
    const isChanged = (item: Item): boolean => inserted.has(item) || deleted.has(item)
    const isVisibleEither = (item: Item): boolean => item.countable && (isOldVisible(item) || inserted.has(item))

    const runs: { offset: number; first: Item; deleteLength: number; insertText: string; lastInserted: Item | null }[] = []
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
      let lastInserted: Item | null = null
      for (let cur: Item | null = first; cur !== null; cur = cur.right) {
        if (isChanged(cur)) {
          visited.add(cur)
          if (inserted.has(cur)) {
            insertText += contentText(cur)
            lastInserted = cur
          } else deleteLength += cur.length
        } else if (isVisibleEither(cur)) break
      }
      const offset = this.offsetOf(first, oldLength, isOldVisible)
      runs.push({ offset, first, deleteLength, insertText, lastInserted })
    }
    runs.sort((a, b) => a.offset - b.offset)

    const changes: RawChange[] = []
    let shift = 0
    for (const run of runs) {
      changes.push({ offset: run.offset + shift, deleteLength: run.deleteLength, insertText: run.insertText })
      shift += run.insertText.length - run.deleteLength
    }
    if (oldLength + shift !== this.ytext.length) {
      this.known.clear()
      return null
    }
    this.remember(changes, runs)
    return changes
  }

  /**
   * A relative position for `offset` (assoc < 0: bound to the character before it; otherwise to the
   * one after), found by walking from the nearest remembered item rather than from the text's start.
   */
  relativePositionAt(offset: number, assoc: number): Y.RelativePosition {
    const length = this.ytext.length
    const target = assoc < 0 ? offset - 1 : offset
    if (target < 0 || target >= length) {
      return Y.createRelativePositionFromTypeIndex(this.ytext, Math.max(0, Math.min(offset, length)), assoc)
    }
    this.refreshKnown()
    let best: Item | null = null
    let bestOffset = 0
    let bestDistance = Infinity
    for (const [item, known] of this.known) {
      if (!this.isLinked(item)) continue
      const distance = target < known ? known - target : Math.max(0, target - (known + item.length - 1))
      if (distance < bestDistance) {
        best = item
        bestOffset = known
        bestDistance = distance
      }
    }
    // Past a few thousand characters a walk from the nearest end is no worse than Yjs's own search.
    if (best === null || bestDistance > Math.min(target, length - target, 4096)) {
      return Y.createRelativePositionFromTypeIndex(this.ytext, offset, assoc)
    }
    let cur: Item | null = best
    let pos = bestOffset
    if (target >= pos) {
      while (cur !== null) {
        if (!cur.deleted && cur.countable) {
          if (target < pos + cur.length) return this.positionInItem(cur, target - pos, assoc)
          pos += cur.length
        }
        cur = cur.right
      }
    } else {
      cur = cur.left
      while (cur !== null) {
        if (!cur.deleted && cur.countable) {
          pos -= cur.length
          if (target >= pos) return this.positionInItem(cur, target - pos, assoc)
        }
        cur = cur.left
      }
    }
    return Y.createRelativePositionFromTypeIndex(this.ytext, offset, assoc)
  }

  /**
   * The offset a relative position resolves to, as Y.createAbsolutePositionFromRelativePosition gives
   * it, found by walking from the position's item to the nearest remembered one. Undefined when the
   * fast way does not apply (start/end positions, undo-redone items, other types): use Yjs's then.
   */
  offsetForRelativePosition(position: Y.RelativePosition): number | null | undefined {
    const id = position.item
    if (id === null) return undefined
    const store = this.ytext.doc!.store
    if (Y.getState(store, id.client) <= id.clock) return null
    const struct = Y.getItem(store, id)
    if (!(struct instanceof Y.Item) || struct.redone !== null || struct.parent !== this.ytext || struct.parentSub !== null) return undefined
    this.refreshKnown()
    const visible = (item: Item): boolean => item.countable && !item.deleted
    const inside = visible(struct) ? id.clock - struct.id.clock + (position.assoc >= 0 ? 0 : 1) : 0
    // A peer's cursor is usually bound to the item it just typed, which reading its change remembered.
    const known = this.known.get(struct)
    return (known ?? this.offsetOf(struct, this.ytext.length, visible)) + inside
  }

  /**
   * After a transaction Yjs merges runs of one client's items into the first of them, unlinking the
   * others; a remembered item that was merged away is re-keyed to the item that now holds it.
   */
  private refreshKnown(): void {
    let stale: Item[] | null = null
    for (const item of this.known.keys()) if (!this.isLinked(item)) (stale ??= []).push(item)
    if (stale === null) return
    const store = this.ytext.doc!.store
    for (const item of stale) {
      const known = this.known.get(item)!
      this.known.delete(item)
      if (item.deleted) continue
      const holder = Y.getItem(store, item.id)
      if (holder instanceof Y.Item && holder !== item && !holder.deleted && this.isLinked(holder) && !this.known.has(holder)) {
        this.known.set(holder, known - (item.id.clock - holder.id.clock))
      }
    }
  }

  private positionInItem(item: Item, index: number, assoc: number): Y.RelativePosition {
    const ytext = this.ytext
    const typeItem = ytext._item
    const typeId = typeItem === null ? null : Y.createID(typeItem.id.client, typeItem.id.clock)
    const tname = typeItem === null ? Y.findRootTypeKey(ytext) : null
    return new Y.RelativePosition(typeId, tname, Y.createID(item.id.client, item.id.clock + index), assoc)
  }

  /** A remembered item may since have been merged into its left neighbour and left the list. */
  private isLinked(item: Item): boolean {
    if (item.deleted) return false
    return item.left === null ? this.ytext._start === item : item.left.right === item
  }

  private insertedItems(transaction: Y.Transaction): Set<Item> {
    const result = new Set<Item>()
    const store = transaction.doc.store
    for (const [client, after] of transaction.afterState) {
      const before = transaction.beforeState.get(client) ?? 0
      if (after <= before) continue
      const structs = store.clients.get(client)
      if (!structs) continue
      for (let i = Y.findIndexSS(structs, before); i < structs.length; i++) {
        const struct = structs[i]!
        if (struct.id.clock >= after) break
        if (struct instanceof Y.Item && this.isOwnItem(struct) && !struct.deleted) result.add(struct)
      }
    }
    return result
  }

  private deletedItems(transaction: Y.Transaction): Set<Item> {
    const result = new Set<Item>()
    const store = transaction.doc.store
    for (const [client, ranges] of transaction.deleteSet.clients) {
      const structs = store.clients.get(client)
      if (!structs) continue
      const before = transaction.beforeState.get(client) ?? 0
      for (const range of ranges) {
        const end = range.clock + range.len
        for (let i = Y.findIndexSS(structs, range.clock); i < structs.length; i++) {
          const struct = structs[i]!
          if (struct.id.clock >= end) break
          // Items both inserted and deleted by this transaction were never visible: not a change.
          if (struct instanceof Y.Item && this.isOwnItem(struct) && struct.id.clock < before) result.add(struct)
        }
      }
    }
    return result
  }

  private isOwnItem(item: Item): boolean {
    return item.parent === this.ytext && item.parentSub === null && item.countable
  }

  /** Offset of `item` in the text before the transaction, walking both ways to a known place. */
  private offsetOf(item: Item, oldLength: number, isOldVisible: (item: Item) => boolean): number {
    let left = item.left
    let leftSum = 0
    let right: Item | null = item
    let rightSum = 0
    for (;;) {
      if (left === null) return leftSum
      const knownLeft = this.known.get(left)
      const leftLength = isOldVisible(left) ? left.length : 0
      if (knownLeft !== undefined) return knownLeft + leftLength + leftSum
      leftSum += leftLength
      left = left.left
      if (right === null) return oldLength - rightSum
      if (right !== item) {
        const knownRight = this.known.get(right)
        if (knownRight !== undefined) return knownRight - rightSum
      }
      rightSum += isOldVisible(right) ? right.length : 0
      right = right.right
    }
  }

  /**
   * Called for an edit this buffer made itself and mirrored at once: keeps remembered offsets right,
   * and remembers the inserted item (`lastInsertedId` is its last character).
   */
  noteOwnChange(change: RawChange, lastInsertedId: Y.ID | null): void {
    this.shiftKnown(change)
    if (lastInsertedId === null) return
    const struct = Y.getItem(this.ytext.doc!.store, lastInsertedId)
    if (struct instanceof Y.Item && struct.countable && struct.parent === this.ytext) {
      this.known.set(struct, change.offset + change.insertText.length - struct.length)
      this.trim()
    }
  }

  /** Whether every item of this text the transaction inserted lies in the given clock ranges of our client. */
  insertedOnlyIn(transaction: Y.Transaction, ranges: readonly [number, number][]): boolean {
    const own = this.ytext.doc!.clientID
    for (const item of this.insertedItems(transaction)) {
      if (item.id.client !== own) return false
      const clock = item.id.clock
      if (!ranges.some(([from, to]) => clock >= from && clock + item.length <= to)) return false
    }
    return true
  }

  private shiftKnown(change: RawChange): void {
    const { offset, deleteLength, insertText } = change
    for (const [item, known] of this.known) {
      if (known < offset) continue
      if (known < offset + deleteLength) this.known.delete(item)
      else this.known.set(item, known - deleteLength + insertText.length)
    }
  }

  private trim(): void {
    while (this.known.size > CACHE_LIMIT) this.known.delete(this.known.keys().next().value!)
  }

  private remember(changes: RawChange[], runs: { first: Item; lastInserted: Item | null }[]): void {
    for (const change of changes) this.shiftKnown(change)
    runs.forEach((run, i) => {
      const change = changes[i]!
      if (run.lastInserted !== null) {
        this.known.set(run.lastInserted, change.offset + change.insertText.length - run.lastInserted.length)
      }
      // After a deletion the next edit is usually just left of it: remember the visible item there.
      let left = run.first.left
      while (left !== null && (left.deleted || !left.countable)) left = left.left
      if (left !== null && left.parent === this.ytext) this.known.set(left, change.offset - left.length)
    })
    this.trim()
  }
}

function isNewItem(transaction: Y.Transaction, item: Item): boolean {
  return item.id.clock >= (transaction.beforeState.get(item.id.client) ?? 0)
}

function contentText(item: Item): string {
  const content = item.content
  return content instanceof Y.ContentString ? content.str : '\ufffc'.repeat(item.length)
}
