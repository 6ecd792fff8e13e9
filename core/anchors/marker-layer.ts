import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { BufferChangeEvent, TextChange } from '../buffer/text-change.ts'
import type { DisplayLayer } from '../display/display-layer.ts'
import type { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import { DisplayMarker, type MarkerHome, type MarkerOptions } from './display-marker.ts'
import { mapOffset } from './offset-mapping.ts'

/**
 * Owns markers of one editor and moves them through every change of the text, whoever made it.
 * Mapping is O(markers) per change and resolves no position; events are computed only for markers
 * that have listeners, after the buffer's public listeners have run.
 */
export class MarkerLayer implements MarkerHome {
  private readonly markers = new Set<DisplayMarker>()
  /**
   * Markers of other users' selections, held weakly: a peer's `Selection` (and its marker) lives only
   * while someone holds or listens to it; the collaboration keeps the peer's offsets meanwhile.
   */
  private readonly remoteMarkers = new Set<WeakRef<DisplayMarker>>()
  private nextId = 1
  private readonly subscriptions: Disposable[]
  private moved = new Set<DisplayMarker>()

  constructor(
    readonly buffer: TextBuffer,
    readonly display: DisplayLayer,
  ) {
    this.subscriptions = [
      buffer.addChangeHook('markers', (event) => this.applyChanges(event)),
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
      if (marker === undefined) this.remoteMarkers.delete(ref)
      else markers.push(marker)
    }
    return markers
  }

  getMarkerCount(): number {
    return this.getMarkers().length
  }

  /** Internal: called by a marker being destroyed. */
  forget(marker: DisplayMarker): void {
    this.moved.delete(marker)
    if (!marker.remote) {
      this.markers.delete(marker)
      return
    }
    for (const ref of this.remoteMarkers) if (ref.deref() === marker) this.remoteMarkers.delete(ref)
  }

  private add(headOffset: number, tailOffset: number, options: MarkerOptions): DisplayMarker {
    const marker = new DisplayMarker(this, this.nextId++, headOffset, tailOffset, options)
    if (marker.remote) this.remoteMarkers.add(new WeakRef(marker))
    else this.markers.add(marker)
    return marker
  }

  private applyChanges(event: BufferChangeEvent): void {
    for (const change of event.changes) {
      // A change that adds or removes no row moves (in row/column terms) only the endpoints between
      // it and the next row; markers further on shift in offsets alone and need no event.
      const sameRows = change.oldExtent.row === 0 && change.newExtent.row === 0
      const limit = sameRows ? this.buffer.characterIndexForPosition([change.newRange.end.row + 1, 0]) : Infinity
      const rowEnd = sameRows && change.newRange.end.row === this.buffer.getLastRow() ? Infinity : limit
      for (const marker of this.markers) this.applyChange(marker, change, event.local, rowEnd)
      for (const ref of this.remoteMarkers) {
        const marker = ref.deref()
        if (marker === undefined) this.remoteMarkers.delete(ref)
        else this.applyChange(marker, change, event.local, rowEnd)
      }
    }
  }

  private applyChange(marker: DisplayMarker, change: TextChange, local: boolean, moveLimit: number): void {
    const { startOffset: start, oldLength, newLength } = change
    const head = marker.headOffset
    const tail = marker.tailOffset
    const end = start + oldLength
    if (head < start && tail < start) return
    const lo = Math.min(head, tail)
    const hi = Math.max(head, tail)
    const isInsertion = oldLength === 0
    // Another user's typing never pushes a position it reaches: each user's cursor stays after
    // their own text, and remote markers agree with their owner's published (left-bound) position.
    const leftBound = marker.remote || !local
    const exclusive = marker.isExclusive()
    const empty = lo === hi
    // Atom: an insertion moves an exclusive start (and then the end with it) and a non-exclusive end;
    // a deletion moves an exclusive start only when the marker is not empty.
    const moveStart = !leftBound && exclusive && (isInsertion || !empty)
    // The end follows an insertion at it when non-exclusive, or when the start moved with it too.
    const moveEnd = !leftBound && isInsertion && (!exclusive || (moveStart && lo === start))
    const newLo = mapOffset(lo, start, oldLength, newLength, moveStart)
    const newHi = Math.max(newLo, mapOffset(hi, start, oldLength, newLength, moveEnd))
    if (marker.invalidate !== 'never' && marker.valid && isInvalidatedBy(marker.invalidate, lo, hi, start, end)) marker.valid = false
    if (!marker.tailed) {
      marker.headOffset = marker.tailOffset = newHi
    } else if (head < tail) {
      marker.headOffset = newLo
      marker.tailOffset = newHi
    } else {
      marker.headOffset = newHi
      marker.tailOffset = newLo
    }
    const touched = (newLo >= start && newLo < moveLimit) || (newHi >= start && newHi < moveLimit)
    if (touched && marker.hasChangeListeners()) this.moved.add(marker)
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
