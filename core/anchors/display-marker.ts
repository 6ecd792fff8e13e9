import { Emitter } from '../events/emitter.ts'
import { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'
import type { ClipOptions, DisplayLayer } from '../display/display-layer.ts'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { AnchorIndex } from './anchor-index.ts'

export type InvalidationStrategy = 'never' | 'surround' | 'overlap' | 'inside' | 'touch'

export interface MarkerOptions {
  reversed?: boolean
  /** False for a position marker (cursor): it has no tail until one is planted. */
  tailed?: boolean
  /** Insertions at an exclusive marker's edges go outside it; default: exclusive when it has no tail. */
  exclusive?: boolean
  invalidate?: InvalidationStrategy
  /** A marker that follows another user's position: insertions at its edges never push it. */
  remote?: boolean
  properties?: Record<string, unknown>
}

export interface MarkerChangeEvent {
  oldHeadBufferPosition: Point
  newHeadBufferPosition: Point
  oldTailBufferPosition: Point
  newTailBufferPosition: Point
  oldHeadScreenPosition: Point
  newHeadScreenPosition: Point
  oldTailScreenPosition: Point
  newTailScreenPosition: Point
  wasValid: boolean
  isValid: boolean
  textChanged: boolean
}

interface MarkerEvents {
  'did-change': MarkerChangeEvent
  'did-destroy': undefined
}

interface Snapshot {
  head: Point
  tail: Point
  headScreen: Point
  tailScreen: Point
  valid: boolean
}

/**
 * The layer a marker belongs to (`MarkerLayer` is the one): the text and layout the marker resolves
 * against, the layer's queries, and the two calls a marker makes into it. Declared here so that the
 * marker does not import the layer that creates it.
 */
export interface MarkerHome {
  readonly buffer: TextBuffer
  readonly display: DisplayLayer
  /** The index whose entries are the markers' ends. */
  readonly anchors: AnchorIndex
  markBufferRange(range: RangeLike, options?: MarkerOptions): DisplayMarker
  markBufferPosition(position: PointLike, options?: MarkerOptions): DisplayMarker
  markScreenRange(range: RangeLike, options?: MarkerOptions): DisplayMarker
  markScreenPosition(position: PointLike, options?: MarkerOptions): DisplayMarker
  getMarkers(): DisplayMarker[]
  getMarkerCount(): number
  /** Internal: an offset forced into [0, length]. */
  clampOffset(offset: number): number
  /** Internal: called by a marker being destroyed. */
  forget(marker: DisplayMarker): void
  /** Internal: the marker got a change listener, so the layer reports its moves. */
  listen(marker: DisplayMarker): void
}

/**
 * A range in the buffer that moves with edits, as Atom's `DisplayMarker`: a head and a tail (equal
 * when it has none), resolved to buffer and screen coordinates on demand. Its ends are two entries of
 * the layer's `AnchorIndex` (character offsets, which survive every edit, '\r\n' joins included),
 * mapped by the layer; the marker is a view over them.
 */
export class DisplayMarker {
  readonly id: number
  /** Internal: the entries of the layer's index that are the marker's head and tail. */
  readonly headEntry: number
  readonly tailEntry: number
  /** Internal: scratch for the layer while it maps a replacement that reached this marker. */
  spliceStamp = 0
  headSlot = -1
  tailSlot = -1
  tailed: boolean
  valid = true
  /**
   * Internal, peers' markers: an end the peer published bound to the character after it (a Yjs relative
   * position with `assoc >= 0`, as y-codemirror.next publishes) moves with text inserted at it.
   */
  headFollows = false
  tailFollows = false
  private destroyed = false
  private readonly exclusive: boolean | undefined
  readonly invalidate: InvalidationStrategy
  readonly remote: boolean
  private properties: Record<string, unknown>
  private readonly emitter = new Emitter<MarkerEvents>()
  private snapshot: Snapshot | null = null
  private cacheVersion = -1
  private cachedHead: Point | null = null
  private cachedTail: Point | null = null
  /** The ends' offsets when the marker was destroyed (its entries are gone). */
  private finalHead = 0
  private finalTail = 0

  constructor(
    readonly layer: MarkerHome,
    id: number,
    headEntry: number,
    tailEntry: number,
    options: MarkerOptions,
  ) {
    this.id = id
    this.headEntry = headEntry
    this.tailEntry = tailEntry
    this.tailed = options.tailed ?? true
    this.exclusive = options.exclusive
    this.invalidate = options.invalidate ?? 'overlap'
    this.remote = options.remote ?? false
    this.properties = { ...(options.properties ?? {}) }
  }

  /** Internal: the head's character offset. */
  get headOffset(): number {
    return this.destroyed ? this.finalHead : this.layer.anchors.offset(this.headEntry)
  }

  set headOffset(offset: number) {
    this.layer.anchors.set(this.headEntry, offset)
  }

  /** Internal: the tail's character offset. */
  get tailOffset(): number {
    return this.destroyed ? this.finalTail : this.layer.anchors.offset(this.tailEntry)
  }

  set tailOffset(offset: number) {
    this.layer.anchors.set(this.tailEntry, offset)
  }

  // Queries

  getBufferRange(): Range {
    return new Range(this.getHeadBufferPosition(), this.getTailBufferPosition())
  }

  getScreenRange(): Range {
    return this.layer.display.screenRangeForBufferRange(this.getBufferRange())
  }

  getHeadBufferPosition(): Point {
    this.refresh()
    return this.cachedHead!
  }

  getTailBufferPosition(): Point {
    this.refresh()
    return this.cachedTail!
  }

  getStartBufferPosition(): Point {
    return this.isReversed() ? this.getHeadBufferPosition() : this.getTailBufferPosition()
  }

  getEndBufferPosition(): Point {
    return this.isReversed() ? this.getTailBufferPosition() : this.getHeadBufferPosition()
  }

  getHeadScreenPosition(options?: ClipOptions): Point {
    return this.layer.display.screenPositionForBufferPosition(this.getHeadBufferPosition(), options)
  }

  getTailScreenPosition(options?: ClipOptions): Point {
    return this.layer.display.screenPositionForBufferPosition(this.getTailBufferPosition(), options)
  }

  getStartScreenPosition(options?: ClipOptions): Point {
    return this.layer.display.screenPositionForBufferPosition(this.getStartBufferPosition(), options)
  }

  getEndScreenPosition(options?: ClipOptions): Point {
    return this.layer.display.screenPositionForBufferPosition(this.getEndBufferPosition(), options)
  }

  isReversed(): boolean {
    return this.tailed && this.headOffset < this.tailOffset
  }

  hasTail(): boolean {
    return this.tailed
  }

  isEmpty(): boolean {
    return this.headOffset === this.tailOffset
  }

  isValid(): boolean {
    return this.valid && !this.destroyed
  }

  isDestroyed(): boolean {
    return this.destroyed
  }

  isExclusive(): boolean {
    return this.exclusive ?? !this.tailed
  }

  getInvalidationStrategy(): InvalidationStrategy {
    return this.invalidate
  }

  getProperties(): Record<string, unknown> {
    return { ...this.properties }
  }

  setProperties(properties: Record<string, unknown>): void {
    Object.assign(this.properties, properties)
  }

  compare(other: DisplayMarker): number {
    return this.getBufferRange().compare(other.getBufferRange())
  }

  isEqual(other: DisplayMarker): boolean {
    return this.getBufferRange().isEqual(other.getBufferRange()) && this.isReversed() === other.isReversed()
  }

  // Changes

  setBufferRange(range: RangeLike, options: { reversed?: boolean } = {}): void {
    const r = this.layer.buffer.clipRange(Range.fromObject(range, false, 'range'))
    const reversed = options.reversed ?? this.isReversed()
    const start = this.layer.buffer.characterIndexForPosition(r.start)
    const end = this.layer.buffer.characterIndexForPosition(r.end)
    this.update(() => {
      this.tailed = true
      this.headOffset = reversed ? start : end
      this.tailOffset = reversed ? end : start
    })
  }

  setScreenRange(range: RangeLike, options: { reversed?: boolean } & ClipOptions = {}): void {
    this.setBufferRange(this.layer.display.bufferRangeForScreenRange(range, options), options)
  }

  setHeadBufferPosition(position: PointLike): void {
    const offset = this.layer.buffer.characterIndexForPosition(position)
    this.update(() => {
      this.headOffset = offset
      if (!this.tailed) this.tailOffset = offset
    })
  }

  setHeadScreenPosition(position: PointLike, options?: ClipOptions): void {
    this.setHeadBufferPosition(this.layer.display.bufferPositionForScreenPosition(position, options))
  }

  setTailBufferPosition(position: PointLike): void {
    const offset = this.layer.buffer.characterIndexForPosition(position)
    this.update(() => {
      this.tailed = true
      this.tailOffset = offset
    })
  }

  setTailScreenPosition(position: PointLike, options?: ClipOptions): void {
    this.setTailBufferPosition(this.layer.display.bufferPositionForScreenPosition(position, options))
  }

  /** Internal: moves both ends to exact character offsets (see MarkerLayer#markOffsets); gives it a tail. */
  setOffsets(headOffset: number, tailOffset: number): void {
    const head = this.layer.clampOffset(headOffset)
    const tail = this.layer.clampOffset(tailOffset)
    this.update(() => {
      this.tailed = true
      this.headOffset = head
      this.tailOffset = tail
    })
  }

  /** Gives the marker a tail where its head is, if it has none. */
  plantTail(): void {
    if (this.tailed) return
    this.update(() => {
      this.tailed = true
      this.tailOffset = this.headOffset
    })
  }

  /** Removes the tail: the marker becomes its head position. */
  clearTail(): void {
    this.update(() => {
      this.tailed = false
      this.tailOffset = this.headOffset
    })
  }

  destroy(): void {
    if (this.destroyed) return
    this.finalHead = this.headOffset
    this.finalTail = this.tailOffset
    this.destroyed = true
    this.layer.forget(this)
    try {
      this.emitter.emit('did-destroy')
    } finally {
      this.emitter.dispose()
    }
  }

  // Events

  onDidChange(callback: (event: MarkerChangeEvent) => void): Disposable {
    if (this.snapshot === null) this.snapshot = this.takeSnapshot()
    if (!this.destroyed) this.layer.listen(this)
    const subscription = this.emitter.on('did-change', callback)
    return new Disposable(() => {
      subscription.dispose()
      // With nobody listening the snapshot goes stale: the next listener starts from its own time.
      if (!this.emitter.hasListeners('did-change')) this.snapshot = null
    })
  }

  onDidDestroy(callback: () => void): Disposable {
    return this.emitter.once('did-destroy', callback)
  }

  /** Internal: whether anybody listens, so the layer can skip resolving positions nobody reads. */
  hasChangeListeners(): boolean {
    return this.emitter.hasListeners('did-change')
  }

  /** Internal: called by the layer after a text change moved this marker. */
  notifyTextChanged(): void {
    this.emitChangeIfMoved(true)
  }

  private update(mutate: () => void): void {
    if (this.destroyed) throw new Error('This marker has been destroyed')
    if (this.hasChangeListeners() && this.snapshot === null) this.snapshot = this.takeSnapshot()
    const { headOffset, tailOffset, tailed } = this
    mutate()
    // Most calls (clearing an empty selection, re-setting a cursor) change nothing: skip resolving.
    if (this.headOffset === headOffset && this.tailOffset === tailOffset && this.tailed === tailed) return
    this.cacheVersion = -1
    this.emitChangeIfMoved(false)
  }

  private emitChangeIfMoved(textChanged: boolean): void {
    if (!this.hasChangeListeners() || this.destroyed) return
    const old = this.snapshot ?? this.takeSnapshot()
    const now = this.takeSnapshot()
    this.snapshot = now
    if (
      old.head.isEqual(now.head) &&
      old.tail.isEqual(now.tail) &&
      old.headScreen.isEqual(now.headScreen) &&
      old.tailScreen.isEqual(now.tailScreen) &&
      old.valid === now.valid
    ) {
      return
    }
    this.emitter.emit('did-change', {
      oldHeadBufferPosition: old.head,
      newHeadBufferPosition: now.head,
      oldTailBufferPosition: old.tail,
      newTailBufferPosition: now.tail,
      oldHeadScreenPosition: old.headScreen,
      newHeadScreenPosition: now.headScreen,
      oldTailScreenPosition: old.tailScreen,
      newTailScreenPosition: now.tailScreen,
      wasValid: old.valid,
      isValid: now.valid,
      textChanged,
    })
  }

  private takeSnapshot(): Snapshot {
    const head = this.getHeadBufferPosition()
    const tail = this.getTailBufferPosition()
    const display = this.layer.display
    const headScreen = display.screenPositionForBufferPosition(head)
    const tailScreen = tail === head || tail.isEqual(head) ? headScreen : display.screenPositionForBufferPosition(tail)
    return { head, tail, headScreen, tailScreen, valid: this.valid }
  }

  private refresh(): void {
    const version = this.layer.buffer.version
    if (this.cacheVersion === version && this.cachedHead !== null) return
    const buffer = this.layer.buffer
    this.cachedHead = buffer.positionForCharacterIndex(this.headOffset)
    this.cachedTail = this.tailOffset === this.headOffset ? this.cachedHead : buffer.positionForCharacterIndex(this.tailOffset)
    this.cacheVersion = version
  }
}
