import * as Y from 'yjs'
import { forEachItemOfClient } from './yjs-internals.ts'

/**
 * An order-statistic tree over the items of one Y.Text, by ID.
 *
 * Yjs keeps a text as a linked list of items and has no way from an offset to an item, or back,
 * other than walking the list: on a long, fragmented document that is hundreds of thousands of
 * steps for every relative position created or resolved. This index keeps the list's content as
 * runs of consecutive IDs (one client, consecutive clocks, side by side in the list, all visible or
 * all not) in a balanced tree summing visible lengths, plus, per client, the runs sorted by clock.
 * IDs never change when Yjs splits or merges its Item objects, so the index survives both; it is
 * kept current from each transaction's new items and delete set, and Yjs stays the source of truth.
 *
 * Every item of the text is indexed, deleted ones too (with visible length 0), so that a position
 * bound to deleted text resolves where Yjs resolves it.
 */

const LEAF_MAX = 64
const BRANCH_MAX = 32
const CHUNK_MAX = 128

interface Run {
  readonly client: number
  clock: number
  length: number
  visible: boolean
  leaf: Leaf
}

interface Leaf {
  readonly leaf: true
  runs: Run[]
  /** Visible characters in this leaf. */
  size: number
  parent: Branch | null
}

interface Branch {
  readonly leaf: false
  children: TreeNode[]
  size: number
  parent: Branch | null
}

type TreeNode = Leaf | Branch

/** One client's runs sorted by clock, in chunks so that inserting one is cheap. */
class ClientRuns {
  readonly chunks: Run[][] = []

  /** Index of the chunk whose range may hold `clock`. */
  private chunkFor(clock: number): number {
    const chunks = this.chunks
    let lo = 0
    let hi = chunks.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (chunks[mid]![0]!.clock <= clock) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  /** Index in `chunk` of the last run starting at or before `clock` (0 when none does). */
  private static lastStartingBy(chunk: Run[], clock: number): number {
    let lo = 0
    let hi = chunk.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (chunk[mid]!.clock <= clock) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  find(clock: number): Run | null {
    if (this.chunks.length === 0) return null
    const chunk = this.chunks[this.chunkFor(clock)]!
    const run = chunk[ClientRuns.lastStartingBy(chunk, clock)]!
    return run.clock <= clock && clock < run.clock + run.length ? run : null
  }

  /** The run holding `clock`, else the first run after it; null when there is none. */
  atOrAfter(clock: number): Run | null {
    if (this.chunks.length === 0) return null
    const c = this.chunkFor(clock)
    const chunk = this.chunks[c]!
    const i = ClientRuns.lastStartingBy(chunk, clock)
    const run = chunk[i]!
    if (clock < run.clock + run.length) return run
    if (i + 1 < chunk.length) return chunk[i + 1]!
    return c + 1 < this.chunks.length ? this.chunks[c + 1]![0]! : null
  }

  add(run: Run): void {
    const chunks = this.chunks
    if (chunks.length === 0) {
      chunks.push([run])
      return
    }
    const c = this.chunkFor(run.clock)
    const chunk = chunks[c]!
    // New items have the client's highest clocks: usually an append.
    let i = chunk.length
    while (i > 0 && chunk[i - 1]!.clock > run.clock) i--
    if (i === chunk.length || chunk.length - i < 16) chunk.splice(i, 0, run)
    else {
      let lo = 0
      let hi = chunk.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (chunk[mid]!.clock < run.clock) lo = mid + 1
        else hi = mid
      }
      chunk.splice(lo, 0, run)
    }
    if (chunk.length > CHUNK_MAX) chunks.splice(c, 1, chunk.slice(0, chunk.length >> 1), chunk.slice(chunk.length >> 1))
  }
}

function visibleLength(run: Run): number {
  return run.visible ? run.length : 0
}

function isIndexed(item: Y.Item, ytext: Y.Text): boolean {
  return item.parent === ytext && item.parentSub === null
}

export class ContentIndex {
  private root: TreeNode = { leaf: true, runs: [], size: 0, parent: null }
  private clients = new Map<number, ClientRuns>()

  constructor(private readonly ytext: Y.Text) {
    this.rebuild()
  }

  /** Visible characters: the text's length. */
  get length(): number {
    return this.root.size
  }

  /** Builds the index again from the Y.Text's item list (O(items)). */
  rebuild(): void {
    this.clients = new Map()
    const runs: Run[] = []
    let last: Run | null = null
    for (let item = this.ytext._start; item !== null; item = item.right) {
      const visible = !item.deleted && item.countable
      const { client, clock } = item.id
      if (last !== null && last.client === client && last.clock + last.length === clock && last.visible === visible) {
        last.length += item.length
        continue
      }
      last = { client, clock, length: item.length, visible, leaf: null! }
      runs.push(last)
    }
    this.root = this.build(runs)
    const byClient = new Map<number, Run[]>()
    for (const run of runs) {
      let list = byClient.get(run.client)
      if (!list) byClient.set(run.client, (list = []))
      list.push(run)
    }
    for (const [client, list] of byClient) {
      list.sort((a, b) => a.clock - b.clock)
      const entry = new ClientRuns()
      for (let i = 0; i < list.length; i += CHUNK_MAX / 2) entry.chunks.push(list.slice(i, i + CHUNK_MAX / 2))
      this.clients.set(client, entry)
    }
  }

  private build(runs: Run[]): TreeNode {
    let level: TreeNode[] = []
    for (let i = 0; i < runs.length; i += LEAF_MAX / 2) {
      const leaf: Leaf = { leaf: true, runs: runs.slice(i, i + LEAF_MAX / 2), size: 0, parent: null }
      for (const run of leaf.runs) {
        run.leaf = leaf
        leaf.size += visibleLength(run)
      }
      level.push(leaf)
    }
    if (level.length === 0) return { leaf: true, runs: [], size: 0, parent: null }
    while (level.length > 1) {
      const next: TreeNode[] = []
      for (let i = 0; i < level.length; i += BRANCH_MAX / 2) {
        const branch: Branch = { leaf: false, children: level.slice(i, i + BRANCH_MAX / 2), size: 0, parent: null }
        for (const child of branch.children) {
          child.parent = branch
          branch.size += child.size
        }
        next.push(branch)
      }
      level = next
    }
    return level[0]!
  }

  // Queries

  /** The ID of the visible character at `offset` (0 <= offset < length), or null outside the text. */
  idAt(offset: number): Y.ID | null {
    if (offset < 0 || offset >= this.root.size) return null
    let node = this.root
    let remaining = offset
    while (!node.leaf) {
      const children = node.children
      let i = 0
      while (remaining >= children[i]!.size) remaining -= children[i++]!.size
      node = children[i]!
    }
    for (const run of node.runs) {
      if (!run.visible) continue
      if (remaining < run.length) return Y.createID(run.client, run.clock + remaining)
      remaining -= run.length
    }
    return null
  }

  /** Visible characters before the character with this ID; -1 when the ID is not in the text. */
  offsetOfId(client: number, clock: number): number {
    const run = this.clients.get(client)?.find(clock)
    if (!run) return -1
    return this.offsetOfRun(run) + (run.visible ? clock - run.clock : 0)
  }

  /** Whether the character with this ID is indexed and visible. */
  isVisible(client: number, clock: number): boolean {
    return this.clients.get(client)?.find(clock)?.visible === true
  }

  /** Whether the index holds the character with this ID. */
  has(client: number, clock: number): boolean {
    return this.clients.get(client)?.find(clock) != null
  }

  private offsetOfRun(run: Run): number {
    const leaf = run.leaf
    let offset = 0
    for (const other of leaf.runs) {
      if (other === run) break
      if (other.visible) offset += other.length
    }
    let child: TreeNode = leaf
    for (let parent = leaf.parent; parent !== null; child = parent, parent = parent.parent) {
      for (const sibling of parent.children) {
        if (sibling === child) break
        offset += sibling.size
      }
    }
    return offset
  }

  // Updates

  /**
   * Adds items new to the list (one transaction's, in any order). Each goes right after its nearest
   * left neighbour that is already indexed: the items between them are new too, and are added later
   * right after that same neighbour, so before it, as in the list.
   */
  insertItems(items: Iterable<Y.Item>): void {
    for (const item of items) this.insertItem(item)
  }

  /** Adds the items of this text that `client` created with clocks in [from, to). */
  insertClockRange(client: number, from: number, to: number): void {
    forEachItemOfClient(this.ytext.doc!, client, from, to, (item) => {
      if (isIndexed(item, this.ytext)) this.insertItem(item)
    })
  }

  private insertItem(item: Y.Item): void {
    const { client, clock } = item.id
    if (this.has(client, clock)) return
    const visible = !item.deleted && item.countable
    let left = item.left
    let after: Run | null = null
    while (left !== null) {
      const lastClock = left.id.clock + left.length - 1
      const run = this.clients.get(left.id.client)?.find(lastClock)
      if (run) {
        after = this.splitAfter(run, lastClock)
        break
      }
      left = left.left
    }
    // Typing: the new item continues the run of its left neighbour (same client, next clock).
    if (after !== null && after.client === client && after.clock + after.length === clock && after.visible === visible) {
      after.length += item.length
      if (visible) this.addSize(after.leaf, item.length)
      return
    }
    const run: Run = { client, clock, length: item.length, visible, leaf: null! }
    if (after === null) this.insertAtStart(run)
    else this.insertRunAfter(after, run)
    this.clientRuns(client).add(run)
  }

  /** Marks the characters `client` created with clocks in [clock, clock + length) deleted. */
  deleteIds(client: number, clock: number, length: number): void {
    const runs = this.clients.get(client)
    if (!runs) return
    const end = clock + length
    let at = clock
    while (at < end) {
      // The run holding `at`, or else the next one of this client (IDs of other types are skipped).
      let run = runs.atOrAfter(at)
      if (run === null || run.clock >= end) return
      if (run.clock < at) {
        this.splitAfter(run, at - 1)
        run = runs.find(at)!
      }
      if (run.clock + run.length > end) this.splitAfter(run, end - 1)
      if (run.visible) {
        run.visible = false
        this.addSize(run.leaf, -run.length)
      }
      at = run.clock + run.length
    }
  }

  /** Marks the visible characters in [offset, offset + length) deleted (this buffer's own deletion). */
  deleteOffsets(offset: number, length: number): void {
    let remaining = length
    while (remaining > 0) {
      const id = this.idAt(offset)
      if (id === null) return
      const run = this.clients.get(id.client)!.find(id.clock)!
      const take = Math.min(remaining, run.clock + run.length - id.clock)
      this.deleteIds(id.client, id.clock, take)
      remaining -= take
    }
  }

  private clientRuns(client: number): ClientRuns {
    let runs = this.clients.get(client)
    if (!runs) this.clients.set(client, (runs = new ClientRuns()))
    return runs
  }

  private indexInLeaf(run: Run): number {
    return run.leaf.runs.indexOf(run)
  }

  /** Splits `run` so that `clock` is its last clock; returns the (left) run ending at `clock`. */
  private splitAfter(run: Run, clock: number): Run {
    const cut = clock - run.clock + 1
    if (cut >= run.length) return run
    const right: Run = { client: run.client, clock: clock + 1, length: run.length - cut, visible: run.visible, leaf: null! }
    run.length = cut
    this.insertRunAfter(run, right, false)
    this.clientRuns(run.client).add(right)
    return run
  }

  private insertAtStart(run: Run): void {
    let node = this.root
    while (!node.leaf) node = node.children[0]!
    this.insertIntoLeaf(node, 0, run, true)
  }

  /** Puts `run` right after `after` in the list; `counts` is false when it splits `after` (no size change). */
  private insertRunAfter(after: Run, run: Run, counts = true): void {
    const leaf = after.leaf
    this.insertIntoLeaf(leaf, this.indexInLeaf(after) + 1, run, counts)
  }

  private insertIntoLeaf(leaf: Leaf, index: number, run: Run, counts: boolean): void {
    run.leaf = leaf
    leaf.runs.splice(index, 0, run)
    if (counts && run.visible) this.addSize(leaf, run.length)
    if (leaf.runs.length > LEAF_MAX) this.splitNode(leaf)
  }

  private addSize(leaf: Leaf, delta: number): void {
    if (delta === 0) return
    for (let node: TreeNode | null = leaf; node !== null; node = node.parent) node.size += delta
  }

  /** Splits an overfull node in two, carrying the split up as far as it goes. */
  private splitNode(node: TreeNode): void {
    let right: TreeNode
    if (node.leaf) {
      const runs = node.runs.splice(node.runs.length >> 1)
      right = { leaf: true, runs, size: 0, parent: node.parent }
      for (const run of runs) {
        run.leaf = right
        right.size += visibleLength(run)
      }
    } else {
      const children = node.children.splice(node.children.length >> 1)
      right = { leaf: false, children, size: 0, parent: node.parent }
      for (const child of children) {
        child.parent = right
        right.size += child.size
      }
    }
    node.size -= right.size
    const parent = node.parent
    if (parent === null) {
      const root: Branch = { leaf: false, children: [node, right], size: node.size + right.size, parent: null }
      node.parent = root
      right.parent = root
      this.root = root
      return
    }
    parent.children.splice(parent.children.indexOf(node) + 1, 0, right)
    if (parent.children.length > BRANCH_MAX) this.splitNode(parent)
  }
}
