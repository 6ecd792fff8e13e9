import type { ClientRun } from '../buffer/yjs-internals.ts'

/**
 * Who inserted each character of the text, as runs of one client, kept in offset order and mapped
 * through every change. Runs live in leaves of at most LEAF_MAX runs; a Fenwick tree over the leaves'
 * lengths finds the leaf of an offset in O(log leaves), so a query is O(log n + runs). Text a client
 * inserts next to its own run extends that run: typing adds no run per character.
 */

const LEAF_MAX = 64

interface Leaf {
  clients: number[]
  lengths: number[]
  size: number
}

/** A run of the text by one client: characters [from, to). */
export interface ClientSpan {
  from: number
  to: number
  client: number
}

export class AuthorshipIndex {
  private leaves: Leaf[] = []
  /** Fenwick tree over leaf sizes (1-based). */
  private tree = new Float64Array(1)
  private total = 0

  constructor(runs: readonly ClientRun[] = []) {
    this.reset(runs)
  }

  /** Replaces the whole index with `runs` (in text order). */
  reset(runs: readonly ClientRun[]): void {
    const leaves: Leaf[] = []
    let leaf: Leaf = { clients: [], lengths: [], size: 0 }
    for (const { client, length } of runs) {
      if (length <= 0) continue
      const n = leaf.clients.length
      if (n > 0 && leaf.clients[n - 1] === client) {
        leaf.lengths[n - 1]! += length
      } else {
        if (n >= LEAF_MAX / 2) {
          leaves.push(leaf)
          leaf = { clients: [], lengths: [], size: 0 }
        }
        leaf.clients.push(client)
        leaf.lengths.push(length)
      }
      leaf.size += length
    }
    if (leaf.clients.length > 0) leaves.push(leaf)
    this.leaves = leaves
    this.rebuildTree()
  }

  /** Characters indexed (the text's length when in step). */
  get length(): number {
    return this.total
  }

  /** Number of runs (for tests and the benchmark). */
  get runCount(): number {
    let n = 0
    for (const leaf of this.leaves) n += leaf.clients.length
    return n
  }

  /** Removes characters [from, from + length). */
  delete(from: number, length: number): void {
    if (length <= 0) return
    if (from < 0 || from + length > this.total) throw new RangeError(`AuthorshipIndex: delete ${from}+${length} outside ${this.total}`)
    let remaining = length
    while (remaining > 0) {
      const { leafIndex, runIndex, inRun } = this.locate(from)
      const leaf = this.leaves[leafIndex]!
      const runLength = leaf.lengths[runIndex]!
      const n = Math.min(runLength - inRun, remaining)
      if (n === runLength) {
        leaf.clients.splice(runIndex, 1)
        leaf.lengths.splice(runIndex, 1)
      } else {
        leaf.lengths[runIndex] = runLength - n
      }
      leaf.size -= n
      remaining -= n
      this.total -= n
      if (leaf.clients.length === 0) {
        this.leaves.splice(leafIndex, 1)
        this.rebuildTree()
      } else {
        this.add(leafIndex, -n)
      }
    }
    this.mergeAround(from)
  }

  /** Inserts `runs` (in text order) at offset `at`. */
  insert(at: number, runs: readonly ClientRun[]): void {
    if (at < 0 || at > this.total) throw new RangeError(`AuthorshipIndex: insert at ${at} outside ${this.total}`)
    let offset = at
    for (const { client, length } of runs) {
      if (length <= 0) continue
      this.insertRun(offset, client, length)
      offset += length
    }
  }

  /** The runs covering [from, to), clipped to it. */
  spans(from = 0, to = this.total): ClientSpan[] {
    const out: ClientSpan[] = []
    this.forEachSpan(from, to, (spanFrom, spanTo, client) => out.push({ from: spanFrom, to: spanTo, client }))
    return out
  }

  /** Calls `f` with each run covering [from, to), clipped to it, in order; allocates nothing. */
  forEachSpan(from: number, to: number, f: (from: number, to: number, client: number) => void): void {
    from = Math.max(0, from)
    to = Math.min(this.total, to)
    if (from >= to) return
    let { leafIndex, runIndex, inRun } = this.locate(from)
    let pos = from - inRun
    for (; leafIndex < this.leaves.length; leafIndex++, runIndex = 0) {
      const { clients, lengths } = this.leaves[leafIndex]!
      for (; runIndex < clients.length; runIndex++) {
        const end = pos + lengths[runIndex]!
        f(pos > from ? pos : from, end < to ? end : to, clients[runIndex]!)
        if (end >= to) return
        pos = end
      }
    }
  }

  private insertRun(at: number, client: number, length: number): void {
    this.total += length
    if (this.leaves.length === 0) {
      this.leaves.push({ clients: [client], lengths: [length], size: length })
      this.rebuildTree()
      return
    }
    // The run holding the character before `at` (at 0: the first run).
    const { leafIndex, runIndex, inRun } = at === 0 ? { leafIndex: 0, runIndex: 0, inRun: 0 } : this.locate(at - 1)
    const leaf = this.leaves[leafIndex]!
    leaf.size += length
    const endOfRun = at === 0 ? 0 : inRun + 1
    const runLength = leaf.lengths[runIndex]!
    if (at > 0 && leaf.clients[runIndex] === client) {
      leaf.lengths[runIndex] = runLength + length
    } else if (at === 0) {
      if (leaf.clients[0] === client) leaf.lengths[0]! += length
      else {
        leaf.clients.unshift(client)
        leaf.lengths.unshift(length)
      }
    } else if (endOfRun === runLength) {
      // After the run: join the next run when it is the same client, in this leaf or first in the next.
      const next = this.leaves[leafIndex + 1]
      if (runIndex + 1 === leaf.clients.length && next?.clients[0] === client) {
        leaf.size -= length
        next.lengths[0]! += length
        next.size += length
        this.add(leafIndex + 1, length)
        return
      }
      if (runIndex + 1 < leaf.clients.length && leaf.clients[runIndex + 1] === client) leaf.lengths[runIndex + 1]! += length
      else {
        leaf.clients.splice(runIndex + 1, 0, client)
        leaf.lengths.splice(runIndex + 1, 0, length)
      }
    } else {
      // Inside another client's run: split it around the new one.
      leaf.lengths[runIndex] = endOfRun
      leaf.clients.splice(runIndex + 1, 0, client, leaf.clients[runIndex]!)
      leaf.lengths.splice(runIndex + 1, 0, length, runLength - endOfRun)
    }
    if (leaf.clients.length > LEAF_MAX) {
      const half = leaf.clients.length >> 1
      const right: Leaf = { clients: leaf.clients.splice(half), lengths: leaf.lengths.splice(half), size: 0 }
      for (const n of right.lengths) right.size += n
      leaf.size -= right.size
      this.leaves.splice(leafIndex + 1, 0, right)
      this.rebuildTree()
    } else {
      this.add(leafIndex, length)
    }
  }

  /** Joins the runs on either side of offset `at` when one client wrote both (after a deletion). */
  private mergeAround(at: number): void {
    if (at <= 0 || at >= this.total) return
    const left = this.locate(at - 1)
    const right = this.locate(at)
    if (right.inRun !== 0) return
    const a = this.leaves[left.leafIndex]!
    const b = this.leaves[right.leafIndex]!
    if (a.clients[left.runIndex] !== b.clients[right.runIndex]) return
    const n = b.lengths[right.runIndex]!
    b.clients.splice(right.runIndex, 1)
    b.lengths.splice(right.runIndex, 1)
    b.size -= n
    a.lengths[left.runIndex]! += n
    a.size += n
    if (b.clients.length === 0) {
      this.leaves.splice(right.leafIndex, 1)
      this.rebuildTree()
    } else if (a !== b) {
      this.add(left.leafIndex, n)
      this.add(right.leafIndex, -n)
    }
  }

  /** The run holding character `offset` (0 <= offset < length). */
  private locate(offset: number): { leafIndex: number; runIndex: number; inRun: number } {
    // Fenwick descent: the last leaf whose preceding total is <= offset.
    const tree = this.tree
    const n = this.leaves.length
    let index = 0
    let rest = offset
    let step = 1
    while (step * 2 <= n) step *= 2
    for (; step > 0; step >>= 1) {
      const next = index + step
      if (next <= n && tree[next]! <= rest) {
        index = next
        rest -= tree[next]!
      }
    }
    const leafIndex = Math.min(index, n - 1)
    if (index > n - 1) rest += this.leaves[n - 1]!.size
    const leaf = this.leaves[leafIndex]!
    let runIndex = 0
    while (runIndex < leaf.lengths.length - 1 && rest >= leaf.lengths[runIndex]!) rest -= leaf.lengths[runIndex++]!
    return { leafIndex, runIndex, inRun: rest }
  }

  private add(leafIndex: number, delta: number): void {
    for (let i = leafIndex + 1; i < this.tree.length; i += i & -i) this.tree[i]! += delta
  }

  private rebuildTree(): void {
    const n = this.leaves.length
    const tree = new Float64Array(n + 1)
    let total = 0
    for (let i = 1; i <= n; i++) {
      const size = this.leaves[i - 1]!.size
      total += size
      tree[i]! += size
      const parent = i + (i & -i)
      if (parent <= n) tree[parent]! += tree[i]!
    }
    this.tree = tree
    this.total = total
  }
}
