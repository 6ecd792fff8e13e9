/**
 * The shape shared by the buffer's line index and the display's row index: a balanced tree whose
 * leaves hold runs of entries (lines; rows' screen counts) and whose nodes keep sums over them.
 * Each tree keeps its own node type and writes its own descents (they run on every conversion and
 * stay monomorphic that way); this module builds the tree and splices entries in and out of it,
 * keeping leaves and branches between half full and full.
 */
export interface SummedTreeShape<N, E> {
  readonly leafMax: number
  readonly branchMax: number
  isLeaf(node: N): boolean
  children(node: N): readonly N[]
  /** Entries under a node: what the tree is spliced by. */
  count(node: N): number
  /** A leaf's entries. */
  entries(leaf: N): E
  entryCount(entries: E): number
  slice(entries: E, from: number, to: number): E
  concat(parts: readonly E[]): E
  /** A new leaf over `entries` (with its sums), and a new branch over `children`. */
  leaf(entries: E): N
  branch(children: N[]): N
}

/** Cuts `length` items into even chunks of at most `max`, as [start, end) pairs. */
function chunkBounds(length: number, max: number): [number, number][] {
  if (length <= max) return [[0, length]]
  const count = Math.ceil(length / max)
  const size = Math.ceil(length / count)
  const bounds: [number, number][] = []
  for (let i = 0; i < length; i += size) bounds.push([i, Math.min(length, i + size)])
  return bounds
}

function leavesOf<N, E>(shape: SummedTreeShape<N, E>, entries: E): N[] {
  const length = shape.entryCount(entries)
  if (length === 0) return []
  if (length <= shape.leafMax) return [shape.leaf(entries)]
  return chunkBounds(length, shape.leafMax).map(([a, b]) => shape.leaf(shape.slice(entries, a, b)))
}

function branchesOf<N, E>(shape: SummedTreeShape<N, E>, nodes: N[]): N[] {
  if (nodes.length <= shape.branchMax) return [shape.branch(nodes)]
  return chunkBounds(nodes.length, shape.branchMax).map(([a, b]) => shape.branch(nodes.slice(a, b)))
}

/** A tree over `entries`; a leaf with no entries when there are none. */
export function buildTree<N, E>(shape: SummedTreeShape<N, E>, entries: E): N {
  let level = leavesOf(shape, entries)
  if (level.length === 0) return shape.leaf(entries)
  while (level.length > 1) level = branchesOf(shape, level)
  return level[0]!
}

/** Replaces entries [from, to) of the tree by `insert`; returns the new root. */
export function spliceTree<N, E>(shape: SummedTreeShape<N, E>, root: N, from: number, to: number, insert: E): N {
  let nodes = spliceNode(shape, root, from, to, insert)
  if (nodes.length === 0) return shape.leaf(shape.slice(shape.entries(firstLeaf(shape, root)), 0, 0))
  while (nodes.length > 1) nodes = branchesOf(shape, nodes)
  let result = nodes[0]!
  while (!shape.isLeaf(result) && shape.children(result).length === 1) result = shape.children(result)[0]!
  return result
}

function firstLeaf<N, E>(shape: SummedTreeShape<N, E>, node: N): N {
  while (!shape.isLeaf(node)) node = shape.children(node)[0]!
  return node
}

/** Replaces entries [from, to) of `node` by `insert`; returns the nodes that take its place. */
function spliceNode<N, E>(shape: SummedTreeShape<N, E>, node: N, from: number, to: number, insert: E): N[] {
  if (shape.isLeaf(node)) {
    const entries = shape.entries(node)
    const count = shape.entryCount(entries)
    return leavesOf(shape, shape.concat([shape.slice(entries, 0, from), insert, shape.slice(entries, to, count)]))
  }
  const children: N[] = []
  const source = shape.children(node)
  const none = shape.slice(insert, 0, 0)
  let start = 0
  let inserted = false
  const last = source.length - 1
  for (let i = 0; i <= last; i++) {
    const child = source[i]!
    const count = shape.count(child)
    const end = start + count
    // The insertion goes into the child holding entry `from` (the last child when appending).
    const holdsInsert = !inserted && (from < end || (i === last && from <= end))
    const overlaps = from < end && to > start
    if (holdsInsert || overlaps) {
      const localFrom = Math.max(from - start, 0)
      const localTo = Math.min(Math.max(to - start, localFrom), count)
      for (const replacement of spliceNode(shape, child, localFrom, localTo, holdsInsert ? insert : none)) children.push(replacement)
      if (holdsInsert) inserted = true
    } else {
      children.push(child)
    }
    start = end
  }
  mergeSmallLeaves(shape, children)
  if (children.length === 0) return []
  return branchesOf(shape, children)
}

/** Joins neighbouring leaves that fit in one, so that deletions do not leave the tree full of slivers. */
function mergeSmallLeaves<N, E>(shape: SummedTreeShape<N, E>, children: N[]): void {
  for (let i = children.length - 1; i > 0; i--) {
    const a = children[i - 1]!
    const b = children[i]!
    if (shape.isLeaf(a) && shape.isLeaf(b) && shape.count(a) + shape.count(b) <= shape.leafMax / 2) {
      children.splice(i - 1, 2, shape.leaf(shape.concat([shape.entries(a), shape.entries(b)])))
    }
  }
}
