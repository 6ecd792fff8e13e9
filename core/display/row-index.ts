/**
 * One entry per buffer row: how many screen rows the row starts (0 for a row hidden inside a fold,
 * which belongs to the display line of the row where the fold starts) and a `meta` number packing the
 * display line's unwrapped width with a has-hard-tab bit. A balanced tree of leaves keeps, per node,
 * the row count, the screen-row sum, the widest line and whether any line has a tab, so that
 * buffer row <-> screen row is O(log n) and a setting change visits only the rows it can affect.
 */
import { buildTree, spliceTree, type SummedTreeShape } from '../buffer/summed-tree.ts'

const LEAF_MAX = 128
const BRANCH_MAX = 32

interface Leaf {
  readonly leaf: true
  counts: number[]
  metas: number[]
  screens: number
  maxWidth: number
  anyTab: boolean
}

interface Branch {
  readonly leaf: false
  children: TreeNode[]
  rows: number
  screens: number
  maxWidth: number
  anyTab: boolean
}

type TreeNode = Leaf | Branch

/** Packs a display line's unwrapped width (in wrap columns) and whether it holds a hard tab. */
export function packMeta(width: number, hasTab: boolean): number {
  return width * 2 + (hasTab ? 1 : 0)
}

/**
 * The meta of a row not measured yet (one screen row, nothing wraps): wider than any row in practice (2^28 columns)
 * and holding a tab, so that every setting change visits it and no query takes its columns to map one to one
 * before it is measured. Still a small integer for V8, so the index's arrays stay arrays of small integers.
 */
export const UNMEASURED = packMeta(2 ** 28, true)

export function metaWidth(meta: number): number {
  return (meta - (meta % 2)) / 2
}

export function metaHasTab(meta: number): boolean {
  return meta % 2 === 1
}

function rowsOf(node: TreeNode): number {
  return node.leaf ? node.counts.length : node.rows
}

function refreshLeaf(leaf: Leaf): Leaf {
  let screens = 0
  let maxWidth = 0
  let anyTab = false
  const { counts, metas } = leaf
  for (let i = 0; i < counts.length; i++) {
    screens += counts[i]!
    const meta = metas[i]!
    const width = metaWidth(meta)
    if (width > maxWidth) maxWidth = width
    if (meta % 2 === 1) anyTab = true
  }
  leaf.screens = screens
  leaf.maxWidth = maxWidth
  leaf.anyTab = anyTab
  return leaf
}

function refreshBranch(branch: Branch): Branch {
  let rows = 0
  let screens = 0
  let maxWidth = 0
  let anyTab = false
  for (const child of branch.children) {
    rows += rowsOf(child)
    screens += child.screens
    if (child.maxWidth > maxWidth) maxWidth = child.maxWidth
    if (child.anyTab) anyTab = true
  }
  branch.rows = rows
  branch.screens = screens
  branch.maxWidth = maxWidth
  branch.anyTab = anyTab
  return branch
}

function makeLeaf(counts: number[], metas: number[]): Leaf {
  return refreshLeaf({ leaf: true, counts, metas, screens: 0, maxWidth: 0, anyTab: false })
}

function makeBranch(children: TreeNode[]): Branch {
  return refreshBranch({ leaf: false, children, rows: 0, screens: 0, maxWidth: 0, anyTab: false })
}

interface Entries {
  counts: number[]
  metas: number[]
}

const SHAPE: SummedTreeShape<TreeNode, Entries> = {
  leafMax: LEAF_MAX,
  branchMax: BRANCH_MAX,
  isLeaf: (node) => node.leaf,
  children: (node) => (node.leaf ? [] : node.children),
  count: rowsOf,
  entries: (leaf) => (leaf.leaf ? leaf : { counts: [], metas: [] }),
  entryCount: (entries) => entries.counts.length,
  slice: (entries, from, to) => ({ counts: entries.counts.slice(from, to), metas: entries.metas.slice(from, to) }),
  concat: (parts) => ({ counts: ([] as number[]).concat(...parts.map((p) => p.counts)), metas: ([] as number[]).concat(...parts.map((p) => p.metas)) }),
  leaf: (entries) => makeLeaf(entries.counts, entries.metas),
  branch: makeBranch,
}

/** Overwrites one entry, updating the leaf's sums without a rescan unless its widest row narrowed. */
function assignOne(leaf: Leaf, index: number, count: number, meta: number): void {
  const oldMeta = leaf.metas[index]!
  leaf.screens += count - leaf.counts[index]!
  leaf.counts[index] = count
  leaf.metas[index] = meta
  const width = metaWidth(meta)
  const hasTab = meta % 2 === 1
  if (metaWidth(oldMeta) === leaf.maxWidth && width < leaf.maxWidth) refreshLeaf(leaf)
  else if (oldMeta % 2 === 1 && !hasTab) refreshLeaf(leaf)
  else {
    if (width > leaf.maxWidth) leaf.maxWidth = width
    if (hasTab) leaf.anyTab = true
  }
}

/** Overwrites entries in place from row `from` (no change of shape); refreshes the sums on the way up. */
function assignNode(node: TreeNode, from: number, counts: number[], metas: number[], offset: number): void {
  if (node.leaf) {
    const end = Math.min(node.counts.length, from + counts.length - offset)
    if (end === from + 1 && from < node.counts.length) {
      assignOne(node, from, counts[offset]!, metas[offset]!)
      return
    }
    for (let row = from, i = offset; row < end; row++, i++) {
      node.counts[row] = counts[i]!
      node.metas[row] = metas[i]!
    }
    refreshLeaf(node)
    return
  }
  let start = 0
  const until = from + counts.length - offset
  for (const child of node.children) {
    const size = rowsOf(child)
    const end = start + size
    if (end > from && start < until) {
      const localFrom = Math.max(0, from - start)
      assignNode(child, localFrom, counts, metas, offset + Math.max(0, start - from))
    }
    if (end >= until) break
    start = end
  }
  refreshBranch(node)
}

/** A row's entry and where its screen rows start. */
export interface RowEntry {
  readonly row: number
  readonly screenStart: number
  readonly count: number
  readonly meta: number
}

/** What `RowIndex.update` may change for one row: a new entry, or undefined to keep it. */
export type RowUpdate = { count: number; meta: number } | undefined

export class RowIndex {
  private root: TreeNode

  constructor(counts: number[] = [1], metas: number[] = [0]) {
    this.root = buildTree(SHAPE, { counts, metas })
  }

  get rowCount(): number {
    return rowsOf(this.root)
  }

  get screenCount(): number {
    return this.root.screens
  }

  /**
   * The leaf holding `row` and the row's index in it (null past the end); pushes the branches passed
   * on the way into `path` when given.
   */
  private leafOf(row: number, path?: Branch[]): { leaf: Leaf; local: number; screens: number } | null {
    let node = this.root
    let local = row
    let screens = 0
    while (!node.leaf) {
      let next: TreeNode | null = null
      for (const child of node.children) {
        const size = rowsOf(child)
        if (local < size) {
          next = child
          break
        }
        local -= size
        screens += child.screens
      }
      if (next === null) return null
      path?.push(node)
      node = next
    }
    return { leaf: node, local, screens }
  }

  /** Screen rows started by `row` (0 when it is hidden in a fold, or outside the index). */
  count(row: number): number {
    const found = this.leafOf(row)
    return found === null ? 0 : (found.leaf.counts[found.local] ?? 0)
  }

  /** Number of screen rows before buffer row `row`. */
  screenStart(row: number): number {
    return this.lookup(row).screenStart
  }

  /** One descent: the entry of `row` and the number of screen rows before it. */
  lookup(row: number): RowEntry {
    const found = this.leafOf(row)
    // Only a row past the end is in no leaf: every screen row comes before it.
    if (found === null) return { row, screenStart: this.root.screens, count: 0, meta: 0 }
    const { leaf, local } = found
    let screens = found.screens
    const counts = leaf.counts
    const end = Math.min(local, counts.length)
    for (let i = 0; i < end; i++) screens += counts[i]!
    return { row, screenStart: screens, count: counts[local] ?? 0, meta: leaf.metas[local] ?? 0 }
  }

  /**
   * The entry of the buffer row whose screen rows include `screenRow`, with the first screen row of
   * that row. Past the end it answers row `rowCount` with `screenStart` = `screenCount` and count 0.
   */
  rowForScreen(screenRow: number): RowEntry {
    if (screenRow >= this.root.screens) return { row: this.rowCount, screenStart: this.root.screens, count: 0, meta: 0 }
    let node = this.root
    let remaining = Math.max(0, screenRow)
    let row = 0
    let screenStart = 0
    while (!node.leaf) {
      let next: TreeNode | null = null
      for (const child of node.children) {
        if (remaining < child.screens) {
          next = child
          break
        }
        remaining -= child.screens
        screenStart += child.screens
        row += rowsOf(child)
      }
      node = next!
    }
    const counts = node.counts
    for (let i = 0; i < counts.length; i++) {
      const count = counts[i]!
      if (remaining < count) return { row: row + i, screenStart, count, meta: node.metas[i]! }
      remaining -= count
      screenStart += count
    }
    return { row: row + counts.length, screenStart, count: 0, meta: 0 }
  }

  /** The row that starts the display line holding `row` (itself unless it is hidden in a fold). */
  ownerRow(row: number): number {
    if (row <= 0 || this.count(row) > 0) return row
    const start = this.screenStart(row)
    return start === 0 ? 0 : this.rowForScreen(start - 1).row
  }

  /** The last row of the display line that `row` starts or belongs to. */
  displayLineEnd(row: number): number {
    const rowCount = this.rowCount
    if (row + 1 >= rowCount) return rowCount - 1
    // Usually the next row starts a display line of its own.
    if (this.count(row + 1) > 0) return row
    const owner = this.ownerRow(row)
    const next = this.screenStart(owner) + Math.max(1, this.count(owner))
    return next >= this.root.screens ? this.rowCount - 1 : this.rowForScreen(next).row - 1
  }

  /** Overwrites the entry of one row. */
  set(row: number, count: number, meta: number): void {
    const path: Branch[] = []
    const found = this.leafOf(row, path)
    if (found === null) return
    const { leaf: node, local } = found
    if (local >= node.counts.length) return
    const oldCount = node.counts[local]!
    const oldMeta = node.metas[local]!
    assignOne(node, local, count, meta)
    // The sums on the path change by this entry alone, unless a widest row narrowed or a tab went.
    const width = metaWidth(meta)
    const oldWidth = metaWidth(oldMeta)
    const lostTab = metaHasTab(oldMeta) && !metaHasTab(meta)
    for (let i = path.length - 1; i >= 0; i--) {
      const branch = path[i]!
      if (lostTab || (width < oldWidth && branch.maxWidth === oldWidth)) refreshBranch(branch)
      else {
        branch.screens += count - oldCount
        if (width > branch.maxWidth) branch.maxWidth = width
        if (metaHasTab(meta)) branch.anyTab = true
      }
    }
  }

  /** Replaces rows [from, to) by the given entries. */
  splice(from: number, to: number, counts: number[], metas: number[]): void {
    if (to - from === counts.length && counts.length > 0) {
      assignNode(this.root, from, counts, metas, 0)
      return
    }
    this.root = spliceTree(SHAPE, this.root, from, to, { counts, metas })
  }

  /** Replaces every entry. */
  reset(counts: number[], metas: number[]): void {
    this.root = buildTree(SHAPE, { counts, metas })
  }

  /**
   * Visits, in order, the rows of subtrees that `mayMatch(maxWidth, anyTab)` admits, and lets `update`
   * replace their entries. `screenStart` is the row's first screen row counting the updates already
   * made, which is what a listener replaying the changes in order needs.
   */
  update(
    mayMatch: (maxWidth: number, anyTab: boolean) => boolean,
    update: (row: number, count: number, meta: number, screenStart: number) => RowUpdate,
  ): void {
    const walk = (node: TreeNode, firstRow: number, firstScreen: number): void => {
      if (node.leaf) {
        let screen = firstScreen
        for (let i = 0; i < node.counts.length; i++) {
          const count = node.counts[i]!
          const result = update(firstRow + i, count, node.metas[i]!, screen)
          if (result) {
            node.counts[i] = result.count
            node.metas[i] = result.meta
          }
          screen += node.counts[i]!
        }
        refreshLeaf(node)
        return
      }
      let row = firstRow
      let screen = firstScreen
      for (const child of node.children) {
        if (mayMatch(child.maxWidth, child.anyTab)) walk(child, row, screen)
        row += rowsOf(child)
        screen += child.screens
      }
      refreshBranch(node)
    }
    if (mayMatch(this.root.maxWidth, this.root.anyTab)) walk(this.root, 0, 0)
  }
}
