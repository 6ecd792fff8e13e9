import type { Emitter } from '../events/emitter.ts'
import type { DisplayMarker } from '../anchors/display-marker.ts'
import type { Cursor, CursorPositionEvent } from '../selection/cursor.ts'
import { Selection, type SelectionRangeEvent, type SetRangeOptions } from '../selection/selection.ts'
import type { SelectionContext, SelectionEditing, SelectionHost, WriteOptions } from '../selection/host.ts'
import type { MergeRule, OperationScope } from './operation.ts'
import type { EditorEvents } from './editor-events.ts'

/**
 * This editor's own selections, in the order they were added, and the host they run their changes
 * through: every change joins the editor's operation scope, which merges what now coincides and
 * announces the selections that survived when the outermost operation ends (Atom's
 * `mergeIntersectingSelections`, `onDidAddSelection` only for survivors).
 */
export class SelectionList implements SelectionHost {
  readonly local = true
  readonly ownerName = ''
  private selections: Selection[] = []
  private readonly announced = new WeakSet<Selection>()
  private pending: Selection[] = []
  private closed = false

  constructor(
    private readonly context: SelectionContext,
    readonly editing: SelectionEditing,
    private readonly scope: OperationScope,
    private readonly emitter: Emitter<EditorEvents>,
    /** Where a selection goes when none is left (Atom's `createLastSelectionIfNeeded`). */
    private readonly createDefault: () => DisplayMarker,
  ) {}

  // SelectionHost

  change<T>(_what: 'selection' | 'cursor', _action: string, fn: () => T): T {
    return this.scope.run(fn)
  }

  write<T>(name: string, options: WriteOptions, fn: () => T): T {
    return this.scope.write(name, options, fn)
  }

  isLastSelection(selection: Selection): boolean {
    return selection === this.last()
  }

  reportsMoves(): boolean {
    return this.emitter.hasListeners('did-change-cursor-position') || this.emitter.hasListeners('did-change-selection-range')
  }

  /** Every selection follows its marker's moves (the editor got a listener for them). */
  followMoves(): void {
    for (const selection of this.selections) selection.subscribeToMarker()
  }

  lastCursor(): Cursor | undefined {
    return this.last().cursor
  }

  cursorMoved(event: CursorPositionEvent): void {
    this.emitter.emit('did-change-cursor-position', event)
  }

  selectionRangeChanged(event: SelectionRangeEvent): void {
    this.emitter.emit('did-change-selection-range', event)
  }

  selectionDestroyed(selection: Selection): void {
    const index = this.selections.indexOf(selection)
    if (index === -1) return
    this.selections.splice(index, 1)
    if (this.announced.has(selection) && !this.closed) {
      this.emitter.emit('did-remove-cursor', selection.cursor)
      this.emitter.emit('did-remove-selection', selection)
    }
  }

  // The list

  /** Every selection in the order added; never empty while the editor lives. */
  all(): Selection[] {
    this.ensureOne()
    return [...this.selections]
  }

  count(): number {
    return this.selections.length
  }

  last(): Selection {
    this.ensureOne()
    return this.selections[this.selections.length - 1]!
  }

  ordered(): Selection[] {
    return this.all().sort((a, b) => a.compare(b))
  }

  /**
   * Every selection by its buffer offsets (start, then end), as `ordered()` orders them by range, without
   * resolving a position: what a keystroke at every cursor reads.
   */
  byOffset(): Selection[] {
    return this.all().sort((a, b) => startOffset(a) - startOffset(b) || endOffset(a) - endOffset(b))
  }

  /** The offsets of every selection, in the order added (the undo history's snapshot). */
  offsets(): { anchor: number; head: number }[] {
    return this.selections.map((s) => ({ anchor: s.marker.tailOffset, head: s.marker.headOffset }))
  }

  /** Adds a selection on `marker`; where it meets another, the two merge and the survivor is returned. */
  add(marker: DisplayMarker, options: SetRangeOptions = {}): Selection {
    const added = new Selection(this.context, this, marker)
    const range = added.getBufferRange()
    this.scope.run(() => {
      this.selections.push(added)
      this.pending.push(added)
    }, options.reversed ? 'intersecting-reversed' : 'intersecting')
    if (!added.destroyed) return added
    return this.selections.find((s) => s.intersectsBufferRange(range)) ?? this.last()
  }

  /** Runs `fn` over the selections as one operation, merging per `rule` when the outermost ends. */
  each(rule: MergeRule, fn: (selection: Selection) => void): void {
    this.scope.run(() => this.all().forEach(fn), rule)
  }

  /** Merges now: selections on the same screen rows (deleteLine), or per a merge rule. */
  merge(rule: MergeRule | 'same-rows'): void {
    if (rule === 'cursors') {
      const seen = new Set<string>()
      for (const selection of [...this.selections]) {
        const key = selection.cursor.getBufferPosition().toString()
        if (seen.has(key)) selection.destroy()
        else seen.add(key)
      }
      return
    }
    if (rule !== 'same-rows' && this.apartByOffsets()) return
    const shouldMerge =
      rule === 'same-rows'
        ? (previous: Selection, current: Selection) => {
            const range = current.getScreenRange()
            return previous.intersectsScreenRowRange(range.start.row, range.end.row)
          }
        : (previous: Selection, current: Selection) => previous.intersectsWith(current, !current.isEmpty() && !previous.isEmpty())
    const options = rule === 'intersecting-reversed' ? { reversed: true } : {}
    const ordered = [...this.selections].sort((a, b) => a.compare(b))
    let last = ordered.shift()
    for (const selection of ordered) {
      if (last && shouldMerge(last, selection)) last.merge(selection, options)
      else last = selection
    }
  }

  /**
   * Whether no two selections can touch, read from offsets alone (the common end of a keystroke): at
   * least two characters apart, since clipping a position moves it back by one at most.
   */
  private apartByOffsets(): boolean {
    if (this.selections.length < 2) return true
    const ordered = this.byOffset()
    for (let i = 1; i < ordered.length; i++) if (endOffset(ordered[i - 1]!) + 1 >= startOffset(ordered[i]!)) return false
    return true
  }

  /** The end of an operation: merge as asked, then announce the added selections that survived. */
  settle(rule: MergeRule | null): void {
    if (rule !== null) this.merge(rule)
    // Most operations add no selection: keep the empty list rather than make a new one.
    if (this.pending.length === 0) return
    const added = this.pending
    this.pending = []
    for (const selection of added) {
      if (selection.destroyed || this.closed) continue
      this.announced.add(selection)
      this.emitter.emit('did-add-cursor', selection.cursor)
      this.emitter.emit('did-add-selection', selection)
    }
  }

  /** Destroys every selection without events (the editor is being destroyed). */
  close(): void {
    this.closed = true
    for (const selection of [...this.selections]) selection.marker.destroy()
  }

  private ensureOne(): void {
    if (this.selections.length === 0 && !this.closed) this.add(this.createDefault())
  }
}

function startOffset({ marker }: Selection): number {
  return Math.min(marker.headOffset, marker.tailOffset)
}

function endOffset({ marker }: Selection): number {
  return Math.max(marker.headOffset, marker.tailOffset)
}
