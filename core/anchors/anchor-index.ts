import type { MapMode } from '../buffer/change-set.ts'

/** Entries per chunk before it splits in two. */
const MAX_CHUNK = 64

/** A run of entries, sorted by offset, that share one lazy offset delta (kept in the index's tree). */
interface Chunk {
  ids: number[]
  /** Its place in the index's chunk list. */
  at: number
}

const MODES: readonly MapMode[] = ['simple', 'track-del', 'track-before', 'track-after']

/**
 * Every tracked position of one text, as entries sorted by character offset in chunks of at most 64.
 * A chunk's entries store their offset minus the chunk's delta, and the chunks' deltas live in a
 * Fenwick tree, so a replacement shifts every entry after it with one O(log chunks) update: mapping
 * costs O(log n + entries inside the replaced range), not O(entries).
 *
 * Each entry states its association (`assoc` -1: text inserted at it goes after it; 1: before it) and
 * its `MapMode`, with CodeMirror's meaning (`ChangeSet#mapPos` is the same rule): an entry whose mode
 * says the deletion around it removes it is marked lost (`isLost`) and keeps a position as 'simple'
 * would map it. An owner whose rules are richer (Atom's marker semantics) passes `splice` a callback
 * that reads the entries the replacement reached and moves them within the replaced range.
 *
 * Entry numbers are reused once removed. Nothing is allocated per splice.
 */
export class AnchorIndex {
  /** Per entry: its offset minus its chunk's delta; its chunk (null when free); assoc; mode; lost. */
  private stored: number[] = []
  private home: (Chunk | null)[] = []
  private assocs: number[] = []
  private modes: number[] = []
  private lost: boolean[] = []
  private free: number[] = []
  private size = 0
  private chunks: Chunk[] = [{ ids: [], at: 0 }]
  /** Fenwick tree over the chunks' deltas, in difference form (1-based): delta(c) is a prefix sum. */
  private tree: number[] = [0, 0]
  // The replacement being applied (see `splice`): the entries it reached, their old and new offsets.
  private readonly touchedIds: number[] = []
  private readonly touchedOld: number[] = []
  private readonly touchedNew: number[] = []
  private touched = 0
  private spliceFrom = 0
  private spliceTo = 0

  /** How many entries are tracked. */
  get count(): number {
    return this.size
  }

  /** A new entry at `offset`; its number. */
  add(offset: number, assoc: -1 | 1 = -1, mode: MapMode = 'simple'): number {
    const id = this.free.pop() ?? this.stored.length
    this.assocs[id] = assoc
    this.modes[id] = MODES.indexOf(mode)
    this.lost[id] = false
    this.insert(id, offset)
    this.size++
    return id
  }

  remove(id: number): void {
    if (this.home[id] == null) throw new RangeError(`AnchorIndex: no entry ${id}`)
    this.detach(id)
    this.free.push(id)
    this.size--
  }

  /** The entry's offset now. */
  offset(id: number): number {
    const chunk = this.home[id]
    if (chunk == null) throw new RangeError(`AnchorIndex: no entry ${id}`)
    return this.stored[id]! + this.delta(chunk.at)
  }

  /** Moves an entry to `offset` (it is no longer lost). */
  set(id: number, offset: number): void {
    const chunk = this.home[id]
    if (chunk == null) throw new RangeError(`AnchorIndex: no entry ${id}`)
    this.lost[id] = false
    if (this.stored[id]! + this.delta(chunk.at) === offset) return
    this.detach(id)
    this.insert(id, offset)
  }

  /** The entry's association: -1 stays before text inserted at it, 1 goes after it. */
  assoc(id: number): -1 | 1 {
    return this.assocs[id]! < 0 ? -1 : 1
  }

  /** Whether a deletion removed the entry, as its mode says (it still has a position). */
  isLost(id: number): boolean {
    return this.lost[id] === true
  }

  /**
   * Maps every entry through `oldLength` characters at `start` replaced by `newLength` new ones.
   * Entries before `start` stay; entries after the replaced range shift (lazily, per chunk); entries
   * in `start..start + oldLength` are mapped one by one by their assoc and mode, then `adjust` (if
   * given) may move any of them within `start..start + newLength` (`touchedCount`, `touchedEntry`,
   * `touchedOldOffset`, `moveTouched`) before they are put back in order.
   */
  splice(start: number, oldLength: number, newLength: number, adjust?: (index: AnchorIndex) => void): void {
    const end = start + oldLength
    const shift = newLength - oldLength
    this.touched = 0
    this.spliceFrom = start
    this.spliceTo = start + newLength
    const first = this.firstChunkReaching(start)
    if (first === -1) return
    const firstPos = this.lowerBound(this.chunks[first]!, start - this.delta(first))
    // Walk the entries inside the replaced range; the first one past it is where shifting starts.
    let c = first
    let pos = firstPos
    let stopChunk = -1
    let stopPos = 0
    for (; c < this.chunks.length; c++, pos = 0) {
      const ids = this.chunks[c]!.ids
      const delta = this.delta(c)
      for (; pos < ids.length; pos++) {
        const id = ids[pos]!
        const offset = this.stored[id]! + delta
        if (offset > end) break
        this.touch(id, offset, this.mapOne(id, offset, start, end, newLength))
      }
      if (pos < ids.length) {
        stopChunk = c
        stopPos = pos
        break
      }
    }
    if (shift !== 0 && stopChunk !== -1) {
      if (stopPos === 0) {
        this.addDelta(stopChunk, shift)
      } else {
        const ids = this.chunks[stopChunk]!.ids
        for (let i = stopPos; i < ids.length; i++) this.stored[ids[i]!]! += shift
        if (stopChunk + 1 < this.chunks.length) this.addDelta(stopChunk + 1, shift)
      }
    }
    if (this.touched === 0) return
    adjust?.(this)
    this.placeTouched(first, firstPos)
  }

  // What `splice`'s callback reads and moves

  /** How many entries the replacement reached (their old offsets were in `start..start + oldLength`). */
  get touchedCount(): number {
    return this.touched
  }

  touchedEntry(i: number): number {
    return this.touchedIds[i]!
  }

  touchedOldOffset(i: number): number {
    return this.touchedOld[i]!
  }

  /** Where the entry goes by its own assoc and mode (or as moved). */
  touchedNewOffset(i: number): number {
    return this.touchedNew[i]!
  }

  /** Puts a reached entry at `offset`, forced into the replacement's new range. */
  moveTouched(i: number, offset: number): void {
    this.touchedNew[i] = Math.max(this.spliceFrom, Math.min(this.spliceTo, offset))
  }

  // Internals

  private mapOne(id: number, offset: number, start: number, end: number, newLength: number): number {
    const assoc = this.assocs[id]!
    const mode = this.modes[id]!
    if (mode !== 0 && end > start && !this.lost[id]) {
      if ((mode === 1 && start < offset && end > offset) || (mode === 2 && start < offset) || (mode === 3 && end > offset)) this.lost[id] = true
    }
    // As ChangeSet#mapPos: inside (or at the start of) the replaced range, or at an insertion point it
    // stays in front of, the entry goes to the start or end by assoc; at the range's end, to its end.
    if (end > offset || (end === offset && start === end && assoc < 0)) return offset === start || assoc < 0 ? start : start + newLength
    return start + newLength
  }

  private touch(id: number, oldOffset: number, newOffset: number): void {
    const i = this.touched++
    this.touchedIds[i] = id
    this.touchedOld[i] = oldOffset
    this.touchedNew[i] = newOffset
  }

  /** Writes the reached entries back into the slots they came from, sorted by their new offsets. */
  private placeTouched(chunkIndex: number, pos: number): void {
    const n = this.touched
    const ids = this.touchedIds
    const offsets = this.touchedNew
    // Insertion sort: a replacement reaches few entries, and they are mostly in order already.
    for (let i = 1; i < n; i++) {
      const id = ids[i]!
      const offset = offsets[i]!
      let j = i - 1
      for (; j >= 0 && offsets[j]! > offset; j--) {
        ids[j + 1] = ids[j]!
        offsets[j + 1] = offsets[j]!
      }
      ids[j + 1] = id
      offsets[j + 1] = offset
    }
    let chunk = this.chunks[chunkIndex]!
    let delta = this.delta(chunkIndex)
    for (let i = 0; i < n; i++, pos++) {
      while (pos >= chunk.ids.length) {
        chunk = this.chunks[++chunkIndex]!
        delta = this.delta(chunkIndex)
        pos = 0
      }
      const id = ids[i]!
      chunk.ids[pos] = id
      this.home[id] = chunk
      this.stored[id] = offsets[i]! - delta
    }
  }

  /** The first chunk whose last entry is at or after `offset`; -1 when none is. */
  private firstChunkReaching(offset: number): number {
    let lo = 0
    let hi = this.chunks.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const ids = this.chunks[mid]!.ids
      if (ids.length === 0 || this.stored[ids[ids.length - 1]!]! + this.delta(mid) < offset) lo = mid + 1
      else hi = mid
    }
    return lo === this.chunks.length ? -1 : lo
  }

  /** The first place in `chunk` whose stored offset is at least `stored`. */
  private lowerBound(chunk: Chunk, stored: number): number {
    const ids = chunk.ids
    let lo = 0
    let hi = ids.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.stored[ids[mid]!]! < stored) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private insert(id: number, offset: number): void {
    let c = this.firstChunkReaching(offset)
    if (c === -1) c = this.chunks.length - 1
    const chunk = this.chunks[c]!
    const stored = offset - this.delta(c)
    // After the entries at the same offset: the order among equal offsets does not matter.
    const ids = chunk.ids
    let lo = this.lowerBound(chunk, stored)
    while (lo < ids.length && this.stored[ids[lo]!] === stored) lo++
    ids.splice(lo, 0, id)
    this.stored[id] = stored
    this.home[id] = chunk
    if (ids.length > MAX_CHUNK) this.split(c)
  }

  private detach(id: number): void {
    const chunk = this.home[id]!
    const ids = chunk.ids
    let i = this.lowerBound(chunk, this.stored[id]!)
    while (ids[i] !== id) i++
    ids.splice(i, 1)
    this.home[id] = null
    if (ids.length === 0 && this.chunks.length > 1) {
      const deltas = this.deltas()
      this.chunks.splice(chunk.at, 1)
      deltas.splice(chunk.at, 1)
      this.rebuild(deltas)
    }
  }

  /** Splits a full chunk in two halves with the same delta (the tree is rebuilt: O(chunks), rare). */
  private split(c: number): void {
    const chunk = this.chunks[c]!
    const half = chunk.ids.length >> 1
    const moved: Chunk = { ids: chunk.ids.splice(half), at: c + 1 }
    for (const id of moved.ids) this.home[id] = moved
    const deltas = this.deltas()
    this.chunks.splice(c + 1, 0, moved)
    deltas.splice(c + 1, 0, deltas[c]!)
    this.rebuild(deltas)
  }

  /** Every chunk's delta. */
  private deltas(): number[] {
    const out: number[] = []
    for (let c = 0; c < this.chunks.length; c++) out.push(this.delta(c))
    return out
  }

  /** Renumbers the chunks and rebuilds the tree from their deltas, in O(chunks). */
  private rebuild(deltas: readonly number[]): void {
    const n = this.chunks.length
    const tree = new Array<number>(n + 1).fill(0)
    for (let c = 0; c < n; c++) {
      this.chunks[c]!.at = c
      tree[c + 1]! += deltas[c]! - (c > 0 ? deltas[c - 1]! : 0)
      const parent = c + 1 + ((c + 1) & -(c + 1))
      if (parent <= n) tree[parent]! += tree[c + 1]!
    }
    this.tree = tree
  }

  /** The lazy delta of chunk `c`. */
  private delta(c: number): number {
    let sum = 0
    for (let i = c + 1; i > 0; i -= i & -i) sum += this.tree[i]!
    return sum
  }

  /** Adds `shift` to the delta of chunk `c` and every chunk after it. */
  private addDelta(c: number, shift: number): void {
    const tree = this.tree
    for (let i = c + 1; i < tree.length; i += i & -i) tree[i]! += shift
  }
}
