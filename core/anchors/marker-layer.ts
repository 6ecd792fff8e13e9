import type { MapMode } from '../buffer/change-set.ts'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { BufferChangeEvent, TextChange } from '../buffer/text-change.ts'
import type { DisplayLayer } from '../display/display-layer.ts'
import type { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import { AnchorIndex } from './anchor-index.ts'
import { DisplayMarker, type MarkerHome, type MarkerOptions } from './display-marker.ts'
import { mapOffset } from './offset-mapping.ts'

/**
 * Positions bound to the character before them that other parts keep in the layer's index: text
 * inserted at one never pushes it. Without a mode (the peers' selections) a replacement around it
 * sends it to the end of the new text, as a peer's marker; with one, the index's rule applies
 * (`MapMode`: the published snapshot uses 'track-before', which loses a position whose preceding
 * character is deleted).
 */
export interface PositionTracker {
  /** A new position; its entry. */
  /** `assoc` 1: text inserted at the position pushes it (bound to the character after it). */
  track(offset: number, mode?: MapMode, assoc?: -1 | 1): number
  untrack(entry: number): void
  offset(entry: number): number
  /** Moves a position (it is no longer lost). */
  move(entry: number, offset: number): void
  /** The association it was tracked with. */
  assoc(entry: number): -1 | 1
  /** Whether a deletion removed the position, as its mode says. */
  isLost(entry: number): boolean
}

/**
 * What an entry of the index belongs to, as one int32 per entry (a peer's position costs no more): a
 * peer's position (PEER), a position the index's own rule maps (MAPPED), an end of the marker in
 * slot `owner - FIRST_MARKER` (see `MarkerLayer#slots`), or nothing (FREE).
 */
const FREE = -1
const PEER = 0
const MAPPED = 1
const FIRST_MARKER = 2

/**
 * Owns the markers of one editor and moves them through every change of the text, whoever made it.
 * Every marker's head and tail, and every position the collaboration tracks for peers, is an entry of
 * one `AnchorIndex`: a replacement visits only the entries it reaches (O(log n + those)), and the
 * layer applies Atom's marker rules to them. Events are computed only for markers that have listeners,
 * after the buffer's public listeners have run.
 */
export class MarkerLayer implements MarkerHome, PositionTracker {
  /** Every position of this text the layer tracks. */
  readonly anchors = new AnchorIndex()
  private readonly markers = new Set<DisplayMarker>()
  /**
   * Markers of other users' selections, held weakly: a peer's `Selection` (and its marker) lives only
   * while someone holds or listens to it; the collaboration keeps the peer's offsets meanwhile.
   */
  private readonly remoteMarkers = new Set<WeakRef<DisplayMarker>>()
  /** Per entry of the index, its owner (FREE, PEER, MAPPED or FIRST_MARKER + a slot). */
  private owners = new Int32Array(16).fill(FREE)
  /**
   * The markers with entries in the index, by slot (a peer's held weakly; undefined: a free slot),
   * and each slot's head and tail entries (a collected marker's entries are released together).
   */
  private readonly slots: (DisplayMarker | WeakRef<DisplayMarker> | undefined)[] = []
  private readonly slotEntries: number[] = []
  private readonly freeSlots: number[] = []
  /** Valid markers that a change may invalidate (their strategy is not 'never'). */
  private readonly watched = new Set<DisplayMarker>()
  /** Markers that got a change listener (the only ones whose moves are reported). */
  private readonly listened = new Set<DisplayMarker>()
  /** Peers' markers at the last sweep of collected ones. */
  private remoteAtSweep = 0
  private nextId = 1
  private readonly subscriptions: Disposable[]
  private moved = new Set<DisplayMarker>()
  // The replacement being mapped, for `adjustReached`.
  private spliceStamp = 0
  private changeStart = 0
  private changeOldLength = 0
  private changeNewLength = 0
  private changeLocal = true
  private readonly dead: number[] = []
  private mappedHead = 0
  private mappedTail = 0
  private readonly adjust = (index: AnchorIndex): void => this.adjustReached(index)

  constructor(
    readonly buffer: TextBuffer,
    readonly display: DisplayLayer,
  ) {
    this.subscriptions = [
      buffer.addChangeHook('anchors', (event) => this.applyChanges(event)),
      buffer.addAfterChangeHook('markers', () => this.emitMoves()),
    ]
  }

  destroy(): void {
    for (const subscription of this.subscriptions) subscription.dispose()
    for (const marker of this.getMarkers()) marker.destroy()
  }

  markBufferRange(range: RangeLike, options: MarkerOptions = {}): DisplayMarker {
    const r = this.buffer.clipRange(Range.fromObject(range, false, 'range'))
    const start = this.buffer.characterIndexForPosition(r.start)
    const end = this.buffer.characterIndexForPosition(r.end)
    const reversed = options.reversed ?? false
    return this.add(reversed ? start : end, reversed ? end : start, options)
  }

  markBufferPosition(position: PointLike, options: MarkerOptions = {}): DisplayMarker {
    const offset = this.buffer.characterIndexForPosition(Point.fromObject(position, false, 'position'))
    return this.add(offset, offset, { tailed: false, ...options })
  }

  markScreenRange(range: RangeLike, options: MarkerOptions = {}): DisplayMarker {
    return this.markBufferRange(this.display.bufferRangeForScreenRange(range), options)
  }

  markScreenPosition(position: PointLike, options: MarkerOptions = {}): DisplayMarker {
    return this.markBufferPosition(this.display.bufferPositionForScreenPosition(position), options)
  }

  /**
   * Internal: a marker at exact character offsets, not clipped to positions. Positions resolved from
   * another user's relative positions keep the very offset their owner has (even between '\r' and
   * '\n'), so that both map every later edit alike.
   */
  markOffsets(headOffset: number, tailOffset: number, options: MarkerOptions = {}): DisplayMarker {
    return this.add(this.clampOffset(headOffset), this.clampOffset(tailOffset), options)
  }

  /** Internal: an offset forced into [0, length]. */
  clampOffset(offset: number): number {
    return Math.max(0, Math.min(this.buffer.getLength(), Math.floor(offset)))
  }

  getMarkers(): DisplayMarker[] {
    const markers = [...this.markers]
    for (const ref of this.remoteMarkers) {
      const marker = ref.deref()
      if (marker !== undefined) markers.push(marker)
    }
    return markers
  }

  getMarkerCount(): number {
    return this.getMarkers().length
  }

  /** Internal: called by a marker being destroyed; its entries leave the index. */
  forget(marker: DisplayMarker): void {
    this.moved.delete(marker)
    this.watched.delete(marker)
    this.listened.delete(marker)
    const owner = this.owners[marker.headEntry]!
    // (A marker whose entries already left, as a collected one's do, has nothing more to release.)
    if (owner >= FIRST_MARKER && this.markerOf(marker.headEntry) === marker) this.releaseSlot(owner - FIRST_MARKER)
  }

  /** Internal: a marker got a change listener: its moves are reported from now on. */
  listen(marker: DisplayMarker): void {
    this.listened.add(marker)
  }

  // PositionTracker: the peers' positions, in the same index

  track(offset: number, mode?: MapMode, assoc: -1 | 1 = -1): number {
    const entry = this.anchors.add(this.clampOffset(offset), assoc, mode)
    this.own(entry, mode === undefined ? PEER : MAPPED)
    return entry
  }

  untrack(entry: number): void {
    this.release(entry)
  }

  offset(entry: number): number {
    return this.anchors.offset(entry)
  }

  move(entry: number, offset: number): void {
    this.anchors.set(entry, this.clampOffset(offset))
  }

  isLost(entry: number): boolean {
    return this.anchors.isLost(entry)
  }

  assoc(entry: number): -1 | 1 {
    return this.anchors.assoc(entry)
  }

  private add(headOffset: number, tailOffset: number, options: MarkerOptions): DisplayMarker {
    const head = this.anchors.add(headOffset)
    const tail = this.anchors.add(tailOffset)
    const marker = new DisplayMarker(this, this.nextId++, head, tail, options)
    if (marker.remote && this.remoteMarkers.size >= 2 * this.remoteAtSweep + 64) this.sweepCollected()
    const slot = this.freeSlots.pop() ?? this.slots.length
    if (marker.remote) {
      const ref = new WeakRef(marker)
      this.remoteMarkers.add(ref)
      this.slots[slot] = ref
    } else {
      this.markers.add(marker)
      this.slots[slot] = marker
    }
    this.slotEntries[2 * slot] = head
    this.slotEntries[2 * slot + 1] = tail
    this.own(head, FIRST_MARKER + slot)
    this.own(tail, FIRST_MARKER + slot)
    if (marker.invalidate !== 'never') this.watched.add(marker)
    return marker
  }

  private own(entry: number, owner: number): void {
    if (entry >= this.owners.length) {
      const owners = new Int32Array(Math.max(entry + 1, Math.ceil(this.owners.length * 1.5))).fill(FREE)
      owners.set(this.owners)
      this.owners = owners
    }
    this.owners[entry] = owner
  }

  private release(entry: number): void {
    this.anchors.remove(entry)
    this.owners[entry] = FREE
  }

  /** A destroyed or collected marker leaves: its entries (those still in the index) and its slot. */
  private releaseSlot(slot: number): void {
    const held = this.slots[slot]
    if (held instanceof WeakRef) this.remoteMarkers.delete(held)
    else if (held !== undefined) this.markers.delete(held)
    for (let end = 2 * slot; end < 2 * slot + 2; end++) {
      const entry = this.slotEntries[end]!
      if (this.owners[entry] === FIRST_MARKER + slot) this.release(entry)
    }
    this.slots[slot] = undefined
    this.freeSlots.push(slot)
  }

  /** Drops the entries of peers' markers that were garbage collected (amortised over additions). */
  private sweepCollected(): void {
    for (let slot = 0; slot < this.slots.length; slot++) {
      const held = this.slots[slot]
      if (held instanceof WeakRef && held.deref() === undefined) this.releaseSlot(slot)
    }
    this.remoteAtSweep = this.remoteMarkers.size
  }

  private applyChanges(event: BufferChangeEvent): void {
    for (const change of event.changes) {
      const { startOffset: start, oldLength, newLength } = change
      if (this.watched.size > 0) this.invalidate(start, start + oldLength)
      this.changeStart = start
      this.changeOldLength = oldLength
      this.changeNewLength = newLength
      this.changeLocal = event.local
      this.anchors.splice(start, oldLength, newLength, this.adjust)
      if (this.dead.length > 0) {
        // (Both ends of a collected marker may be here: the first releases the slot and both.)
        for (const entry of this.dead) if (this.owners[entry]! >= FIRST_MARKER) this.releaseSlot(this.owners[entry]! - FIRST_MARKER)
        this.dead.length = 0
      }
      if (this.listened.size > 0) this.noteMoves(change)
    }
  }

  /** Marks markers invalid by their strategy, with their offsets before the change. */
  private invalidate(start: number, end: number): void {
    for (const marker of this.watched) {
      const head = marker.headOffset
      const tail = marker.tailOffset
      if (isInvalidatedBy(marker.invalidate, Math.min(head, tail), Math.max(head, tail), start, end)) {
        marker.valid = false
        this.watched.delete(marker)
      }
    }
  }

  /**
   * The index's callback for the entries a replacement reached: a peer's position goes to the end of
   * the new text when the replacement covers it; a marker's ends follow Atom's rules, which depend on
   * both ends (one of them may be outside the replaced range).
   */
  private adjustReached(index: AnchorIndex): void {
    const stamp = ++this.spliceStamp
    const start = this.changeStart
    const newEnd = start + this.changeNewLength
    const n = index.touchedCount
    for (let i = 0; i < n; i++) {
      const entry = index.touchedEntry(i)
      const marker = this.markerOf(entry)
      if (marker === MAPPED) continue
      if (marker === null) {
        if (index.touchedOldOffset(i) > start) index.moveTouched(i, newEnd)
      } else if (marker === undefined) {
        this.dead.push(entry)
      } else {
        if (marker.spliceStamp !== stamp) {
          marker.spliceStamp = stamp
          marker.headSlot = marker.tailSlot = -1
        }
        if (entry === marker.headEntry) marker.headSlot = i
        else marker.tailSlot = i
      }
    }
    const shift = this.changeNewLength - this.changeOldLength
    for (let i = 0; i < n; i++) {
      const marker = this.markerOf(index.touchedEntry(i))
      if (marker == null || marker === MAPPED || marker.spliceStamp !== stamp) continue
      const { headSlot, tailSlot } = marker
      // Each marker once, at its first reached end.
      if (i !== (headSlot === -1 ? tailSlot : tailSlot === -1 ? headSlot : Math.min(headSlot, tailSlot))) continue
      const head = headSlot >= 0 ? index.touchedOldOffset(headSlot) : oldOffset(index.offset(marker.headEntry), start, shift)
      const tail = tailSlot >= 0 ? index.touchedOldOffset(tailSlot) : oldOffset(index.offset(marker.tailEntry), start, shift)
      this.mapEnds(marker, head, tail, start)
      if (headSlot >= 0) index.moveTouched(headSlot, this.mappedHead)
      if (tailSlot >= 0) index.moveTouched(tailSlot, this.mappedTail)
    }
  }

  /** Atom's rules for a marker's ends (before: `head`, `tail`) through the current replacement: sets `mappedHead`, `mappedTail`. */
  private mapEnds(marker: DisplayMarker, head: number, tail: number, start: number): void {
    const oldLength = this.changeOldLength
    const newLength = this.changeNewLength
    const lo = Math.min(head, tail)
    const hi = Math.max(head, tail)
    const isInsertion = oldLength === 0
    if (isInsertion && marker.remote && (marker.headFollows || marker.tailFollows)) {
      // A peer's end bound to the character after it moves with text inserted at it, as Yjs resolves it.
      this.mappedHead = mapOffset(head, start, 0, newLength, marker.headFollows)
      this.mappedTail = marker.tailed ? mapOffset(tail, start, 0, newLength, marker.tailFollows) : this.mappedHead
      return
    }
    // Another user's typing never pushes a position it reaches: each user's cursor stays after
    // their own text, and remote markers agree with their owner's published (left-bound) position.
    const leftBound = marker.remote || !this.changeLocal
    const exclusive = marker.isExclusive()
    const empty = lo === hi
    // Atom: an insertion moves an exclusive start (and then the end with it) and a non-exclusive end;
    // a deletion moves an exclusive start only when the marker is not empty.
    const moveStart = !leftBound && exclusive && (isInsertion || !empty)
    // The end follows an insertion at it when non-exclusive, or when the start moved with it too.
    const moveEnd = !leftBound && isInsertion && (!exclusive || (moveStart && lo === start))
    const newLo = mapOffset(lo, start, oldLength, newLength, moveStart)
    const newHi = Math.max(newLo, mapOffset(hi, start, oldLength, newLength, moveEnd))
    const reversed = marker.tailed && head < tail
    this.mappedHead = reversed ? newLo : newHi
    this.mappedTail = !marker.tailed ? newHi : reversed ? newHi : newLo
  }

  /**
   * Queues a move event for each listened marker with an end the change may have moved in row/column
   * terms: from the change's start on, or, for a change that adds or removes no row, up to the next row
   * (markers further on shift in offsets alone). A marker already queued in this transaction is not
   * looked at again: its event compares positions anyway.
   */
  private noteMoves(change: TextChange): void {
    const start = change.startOffset
    let moveLimit = -1
    for (const marker of this.listened) {
      if (this.moved.has(marker) || !marker.hasChangeListeners()) continue
      const head = marker.headOffset
      const tail = marker.tailOffset
      if (head < start && tail < start) continue
      if (moveLimit === -1) moveLimit = this.moveLimit(change)
      if ((head >= start && head < moveLimit) || (tail >= start && tail < moveLimit)) this.moved.add(marker)
    }
  }

  /** Where positions stop moving in row/column terms: the next row's start for a change within one row. */
  private moveLimit(change: TextChange): number {
    const row = change.startRow
    if (change.oldEndRow !== row || change.newEndRow !== row) return Infinity
    return row === this.buffer.getLastRow() ? Infinity : this.buffer.characterIndexForPosition([row + 1, 0])
  }

  /** The marker an entry is an end of; null or MAPPED for a tracked position; undefined for a collected marker's. */
  private markerOf(entry: number): DisplayMarker | null | typeof MAPPED | undefined {
    const owner = this.owners[entry]!
    if (owner === PEER) return null
    if (owner === MAPPED) return MAPPED
    const held = this.slots[owner - FIRST_MARKER]
    return held instanceof WeakRef ? held.deref() : held
  }

  private emitMoves(): void {
    if (this.moved.size === 0) return
    const moved = [...this.moved]
    this.moved = new Set()
    let firstError: unknown = null
    for (const marker of moved) {
      try {
        marker.notifyTextChanged()
      } catch (error) {
        firstError ??= error
      }
    }
    if (firstError !== null) throw firstError
  }
}

/** An end's offset before the replacement, from its offset after (it was not reached, so only shifted). */
function oldOffset(offset: number, start: number, shift: number): number {
  return offset < start ? offset : offset - shift
}

function isInvalidatedBy(strategy: string, lo: number, hi: number, start: number, end: number): boolean {
  switch (strategy) {
    case 'surround':
      return start < lo && end > hi
    case 'overlap':
      return (start < lo && end > lo) || (start < hi && end > hi) || (start < lo && end > hi) || (start > lo && end < hi && start !== end)
    case 'inside':
      return start > lo && end < hi
    case 'touch':
      return start <= hi && end >= lo
    default:
      return false
  }
}
