import type { MapMode } from '../buffer/change-set.ts'

/** Entries per chunk before it splits in two: each chunk owns this many slots of the index's pool. */
const MAX_CHUNK = 64
const CHUNK_SHIFT = 6

const MODES: readonly MapMode[] = ['simple', 'track-del', 'track-before', 'track-after']

// An entry's flags, the low bits of its `home`: its assoc, its mode (an index into MODES), whether it
// is lost and whether it is in use. Its chunk's number is the bits above.
const FOLLOWS = 1
const MODE_SHIFT = 1
const MODE_MASK = 3 << MODE_SHIFT
const LOST = 8
const USED = 16
const FLAGS = 31
const CHUNK_OF = 5

/** Room for at least `needed` elements: the same values in an array half as large again (or more). */
function grown<T extends Float64Array | Int32Array>(array: T, needed: number, make: (length: number) => T): T {
  if (needed <= array.length) return array
  const bigger = make(Math.max(needed, Math.ceil(array.length * 1.5)))
  bigger.set(array)
  return bigger
}

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
 * Entry numbers are reused once removed (the last removed first). Nothing is allocated per splice.
 * Storage is typed arrays grown by half: per entry 12 bytes (a float64 offset, exact up to 2^53; an
 * int32 for its chunk's number and its flags) and its slot in its chunk (4 bytes, chunks 50-100% full).
 */
export class AnchorIndex {
  /** Per entry: its offset minus its chunk's delta (a free entry: the next free one, or -1). */
  private stored = new Float64Array(16)
  /** Per entry: its chunk's number << CHUNK_OF | FOLLOWS, its mode, LOST and USED (0 for a free entry). */
  private home = new Int32Array(16)
  /** Entries numbered so far (free or not), and the last one freed (-1: none). */
  private length = 0
  private freeEntry = -1
  private size = 0
  /** Chunk k's entries, sorted by offset: `slots[k * 64 .. k * 64 + fill[k])`. */
  private slots = new Int32Array(MAX_CHUNK)
  private fill = new Int32Array(1)
  /** The chunk numbers in text order, and each chunk's place in it (a chunk's number never changes). */
  private order = new Int32Array(1)
  private at = new Int32Array(1)
  private chunkCount = 1
  /** Chunk numbers in use or freed so far, and those freed (to reuse). */
  private chunkNumbers = 1
  private readonly freeChunks: number[] = []
  /** Fenwick tree over the chunks' deltas, by place, in difference form (1-based): delta(c) is a prefix sum. */
  private tree = new Float64Array(2)
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
    const modeIndex = MODES.indexOf(mode)
    if (modeIndex < 0) throw new RangeError(`AnchorIndex: no map mode ${String(mode)}`)
    let id = this.freeEntry
    if (id >= 0) {
      this.freeEntry = this.stored[id]!
    } else {
      id = this.length++
      if (id >= this.home.length) this.growEntries(id + 1)
    }
    this.home[id] = USED | (modeIndex << MODE_SHIFT) | (assoc > 0 ? FOLLOWS : 0)
    this.insert(id, offset)
    this.size++
    return id
  }

  remove(id: number): void {
    this.check(id)
    this.detach(id)
    this.home[id] = 0
    this.stored[id] = this.freeEntry
    this.freeEntry = id
    this.size--
  }

  /** The entry's offset now. */
  offset(id: number): number {
    this.check(id)
    return this.stored[id]! + this.delta(this.at[this.home[id]! >> CHUNK_OF]!)
  }

  /** Moves an entry to `offset` (it is no longer lost). */
  set(id: number, offset: number): void {
    this.check(id)
    this.home[id]! &= ~LOST
    if (this.stored[id]! + this.delta(this.at[this.home[id]! >> CHUNK_OF]!) === offset) return
    this.detach(id)
    this.insert(id, offset)
  }

  /** The entry's association: -1 stays before text inserted at it, 1 goes after it. */
  assoc(id: number): -1 | 1 {
    return (this.home[id]! & FOLLOWS) !== 0 ? 1 : -1
  }

  /** Whether a deletion removed the entry, as its mode says (it still has a position). */
  isLost(id: number): boolean {
    return (this.home[id]! & LOST) !== 0
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
    const firstPos = this.lowerBound(this.order[first]!, start - this.delta(first))
    const slots = this.slots
    const stored = this.stored
    // Walk the entries inside the replaced range; the first one past it is where shifting starts.
    let c = first
    let pos = firstPos
    let stopChunk = -1
    let stopPos = 0
    for (; c < this.chunkCount; c++, pos = 0) {
      const chunk = this.order[c]!
      const base = chunk << CHUNK_SHIFT
      const fill = this.fill[chunk]!
      const delta = this.delta(c)
      for (; pos < fill; pos++) {
        const id = slots[base + pos]!
        const offset = stored[id]! + delta
        if (offset > end) break
        this.touch(id, offset, this.mapOne(id, offset, start, end, newLength))
      }
      if (pos < fill) {
        stopChunk = c
        stopPos = pos
        break
      }
    }
    if (shift !== 0 && stopChunk !== -1) {
      if (stopPos === 0) {
        this.addDelta(stopChunk, shift)
      } else {
        const chunk = this.order[stopChunk]!
        const base = chunk << CHUNK_SHIFT
        for (let i = base + stopPos, last = base + this.fill[chunk]!; i < last; i++) stored[slots[i]!]! += shift
        if (stopChunk + 1 < this.chunkCount) this.addDelta(stopChunk + 1, shift)
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

  private check(id: number): void {
    if (((this.home[id] ?? 0) & USED) === 0) throw new RangeError(`AnchorIndex: no entry ${id}`)
  }

  private mapOne(id: number, offset: number, start: number, end: number, newLength: number): number {
    const flags = this.home[id]!
    const mode = (flags & MODE_MASK) >> MODE_SHIFT
    if (mode !== 0 && end > start && (flags & LOST) === 0) {
      if ((mode === 1 && start < offset && end > offset) || (mode === 2 && start < offset) || (mode === 3 && end > offset)) this.home[id] = flags | LOST
    }
    // As ChangeSet#mapPos: inside (or at the start of) the replaced range, or at an insertion point it
    // stays in front of, the entry goes to the start or end by assoc; at the range's end, to its end.
    const before = (flags & FOLLOWS) === 0
    if (end > offset || (end === offset && start === end && before)) return offset === start || before ? start : start + newLength
    return start + newLength
  }

  private touch(id: number, oldOffset: number, newOffset: number): void {
    const i = this.touched++
    this.touchedIds[i] = id
    this.touchedOld[i] = oldOffset
    this.touchedNew[i] = newOffset
  }

  /** Writes the reached entries back into the slots they came from, sorted by their new offsets. */
  private placeTouched(place: number, pos: number): void {
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
    let chunk = this.order[place]!
    let delta = this.delta(place)
    for (let i = 0; i < n; i++, pos++) {
      while (pos >= this.fill[chunk]!) {
        chunk = this.order[++place]!
        delta = this.delta(place)
        pos = 0
      }
      const id = ids[i]!
      this.slots[(chunk << CHUNK_SHIFT) + pos] = id
      this.home[id] = (chunk << CHUNK_OF) | (this.home[id]! & FLAGS)
      this.stored[id] = offsets[i]! - delta
    }
  }

  /** The place of the first chunk whose last entry is at or after `offset`; -1 when none is. */
  private firstChunkReaching(offset: number): number {
    let lo = 0
    let hi = this.chunkCount
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const chunk = this.order[mid]!
      const fill = this.fill[chunk]!
      if (fill === 0 || this.stored[this.slots[(chunk << CHUNK_SHIFT) + fill - 1]!]! + this.delta(mid) < offset) lo = mid + 1
      else hi = mid
    }
    return lo === this.chunkCount ? -1 : lo
  }

  /** The first place in `chunk` whose stored offset is at least `stored`. */
  private lowerBound(chunk: number, stored: number): number {
    const base = chunk << CHUNK_SHIFT
    let lo = 0
    let hi = this.fill[chunk]!
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.stored[this.slots[base + mid]!]! < stored) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private insert(id: number, offset: number): void {
    let c = this.firstChunkReaching(offset)
    if (c === -1) c = this.chunkCount - 1
    if (this.fill[this.order[c]!] === MAX_CHUNK) {
      this.split(c)
      // The entry joins the second half if it comes after the first half's last entry.
      const upper = this.order[c + 1]!
      if (offset >= this.stored[this.slots[upper << CHUNK_SHIFT]!]! + this.delta(c + 1)) c++
    }
    const chunk = this.order[c]!
    const stored = offset - this.delta(c)
    // After the entries at the same offset: the order among equal offsets does not matter.
    const base = chunk << CHUNK_SHIFT
    const fill = this.fill[chunk]!
    let lo = this.lowerBound(chunk, stored)
    while (lo < fill && this.stored[this.slots[base + lo]!] === stored) lo++
    this.slots.copyWithin(base + lo + 1, base + lo, base + fill)
    this.slots[base + lo] = id
    this.fill[chunk] = fill + 1
    this.stored[id] = stored
    this.home[id] = (chunk << CHUNK_OF) | (this.home[id]! & FLAGS)
  }

  private detach(id: number): void {
    const chunk = this.home[id]! >> CHUNK_OF
    const base = chunk << CHUNK_SHIFT
    const fill = this.fill[chunk]!
    let i = this.lowerBound(chunk, this.stored[id]!)
    while (this.slots[base + i] !== id) i++
    this.slots.copyWithin(base + i, base + i + 1, base + fill)
    this.fill[chunk] = fill - 1
    if (fill === 1 && this.chunkCount > 1) {
      const place = this.at[chunk]!
      const deltas = this.deltas()
      deltas.splice(place, 1)
      this.order.copyWithin(place, place + 1, this.chunkCount)
      this.chunkCount--
      this.freeChunks.push(chunk)
      this.rebuild(deltas)
    }
  }

  /** Splits the full chunk at place `c` in two halves with the same delta (the tree is rebuilt: O(chunks), rare). */
  private split(c: number): void {
    const chunk = this.order[c]!
    const moved = this.newChunk()
    const half = MAX_CHUNK >> 1
    const from = (chunk << CHUNK_SHIFT) + half
    const slots = this.slots
    slots.copyWithin(moved << CHUNK_SHIFT, from, from + MAX_CHUNK - half)
    for (let i = from; i < from + MAX_CHUNK - half; i++) {
      const id = slots[i]!
      this.home[id] = (moved << CHUNK_OF) | (this.home[id]! & FLAGS)
    }
    this.fill[moved] = MAX_CHUNK - half
    this.fill[chunk] = half
    const deltas = this.deltas()
    deltas.splice(c + 1, 0, deltas[c]!)
    this.order.copyWithin(c + 2, c + 1, this.chunkCount)
    this.order[c + 1] = moved
    this.chunkCount++
    this.rebuild(deltas)
  }

  /** A chunk number for a new chunk, with room for it (and for one more place in the order). */
  private newChunk(): number {
    this.order = grown(this.order, this.chunkCount + 1, (n) => new Int32Array(n))
    const reused = this.freeChunks.pop()
    if (reused !== undefined) return reused
    const chunk = this.chunkNumbers++
    this.fill = grown(this.fill, this.chunkNumbers, (n) => new Int32Array(n))
    this.at = grown(this.at, this.chunkNumbers, (n) => new Int32Array(n))
    this.slots = grown(this.slots, this.chunkNumbers << CHUNK_SHIFT, (n) => new Int32Array(n))
    return chunk
  }

  private growEntries(needed: number): void {
    this.stored = grown(this.stored, needed, (n) => new Float64Array(n))
    this.home = grown(this.home, needed, (n) => new Int32Array(n))
  }

  /** Every chunk's delta, by place. */
  private deltas(): number[] {
    const out: number[] = []
    for (let c = 0; c < this.chunkCount; c++) out.push(this.delta(c))
    return out
  }

  /** Renumbers the chunks' places and rebuilds the tree from their deltas, in O(chunks). */
  private rebuild(deltas: readonly number[]): void {
    const n = this.chunkCount
    const tree = new Float64Array(n + 1)
    for (let c = 0; c < n; c++) {
      this.at[this.order[c]!] = c
      tree[c + 1]! += deltas[c]! - (c > 0 ? deltas[c - 1]! : 0)
      const parent = c + 1 + ((c + 1) & -(c + 1))
      if (parent <= n) tree[parent]! += tree[c + 1]!
    }
    this.tree = tree
  }

  /** The lazy delta of the chunk at place `c`. */
  private delta(c: number): number {
    const tree = this.tree
    let sum = 0
    for (let i = c + 1; i > 0; i -= i & -i) sum += tree[i]!
    return sum
  }

  /** Adds `shift` to the delta of the chunk at place `c` and every chunk after it. */
  private addDelta(c: number, shift: number): void {
    const tree = this.tree
    for (let i = c + 1; i < tree.length; i += i & -i) tree[i]! += shift
  }
}
