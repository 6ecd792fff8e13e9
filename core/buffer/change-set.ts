/**
 * A change to the text as a value: every replacement one transaction made, with who made it, when and
 * where it came from. It is computed once per transaction and handed, unchanged, to every part that
 * follows the text (line index, display layer, anchors, language, history, collaboration, listeners).
 *
 * Offsets are UTF-16 code units. Each replacement is stored twice over: `fromA..toA` in the text before
 * the change set and `fromB..toB` in the text after it, so both readers (what was replaced) and writers
 * (where it is now) need no arithmetic. Replacements are sorted and do not overlap.
 */

/** The Yjs IDs of a run of items: clocks `clock .. clock + length - 1` of `client`. */
export interface IdRange {
  readonly client: number
  readonly clock: number
  readonly length: number
}

/**
 * What happens to a position whose surroundings are deleted (CodeMirror's `MapMode`, Atom's marker
 * invalidation): 'simple' always maps it; the others return null when the deletion covers it —
 * 'track-del' when the deletion spans it, 'track-before' when the character before it goes,
 * 'track-after' when the character after it goes.
 */
export type MapMode = 'simple' | 'track-del' | 'track-before' | 'track-after'

/** Where a change set came from: this Y.Doc ('local') or another one applied into it ('remote'). */
export type ChangeOrigin = 'local' | 'remote'

/** A replacement as producers write it: sequential, each offset in the text the earlier ones left. */
export interface SequentialEdit {
  readonly offset: number
  readonly deleteLength: number
  readonly insertText: string
}

export interface ChangeSetMeta {
  readonly origin: ChangeOrigin
  /** The Yjs transaction origin (the editor or buffer for its own edits, a provider for remote ones). */
  readonly transactionOrigin: unknown
  /** The Yjs client ID that made the change (for a remote change: the client of its inserted items, or of the update). */
  readonly author: number
  /** Milliseconds since the epoch, as the caller's clock gave it. */
  readonly time: number
  /** Items this transaction inserted into the text. */
  readonly insertedIds: readonly IdRange[]
  /** Items of the text this transaction deleted (Yjs leaves out IDs that were already deleted). */
  readonly deletedIds: readonly IdRange[]
}

const NO_IDS: readonly IdRange[] = Object.freeze([])

export class ChangeSet implements ChangeSetMeta {
  readonly origin: ChangeOrigin
  readonly transactionOrigin: unknown
  readonly author: number
  readonly time: number
  readonly insertedIds: readonly IdRange[]
  readonly deletedIds: readonly IdRange[]
  /** Length of the text before and after. */
  readonly oldLength: number
  readonly newLength: number
  /** Per replacement i: positions [4i] fromA, [4i+1] toA, [4i+2] fromB, [4i+3] toB. */
  private readonly bounds: readonly number[]
  private readonly texts: readonly string[]

  private constructor(oldLength: number, bounds: number[], texts: string[], meta: ChangeSetMeta) {
    this.oldLength = oldLength
    this.bounds = bounds
    this.texts = texts
    this.newLength = oldLength + shiftBefore(bounds, texts.length)
    this.origin = meta.origin
    this.transactionOrigin = meta.transactionOrigin
    this.author = meta.author
    this.time = meta.time
    this.insertedIds = meta.insertedIds
    this.deletedIds = meta.deletedIds
  }

  /** The change set of `edits` (sequential and sorted, as a transaction's reader yields them) on a text of `oldLength`. */
  static fromSequential(oldLength: number, edits: readonly SequentialEdit[], meta: Partial<ChangeSetMeta> = {}): ChangeSet {
    const bounds: number[] = []
    const texts: string[] = []
    let shift = 0
    for (const { offset, deleteLength, insertText } of edits) {
      if (deleteLength === 0 && insertText.length === 0) continue
      const fromA = offset - shift
      if (texts.length > 0 && fromA < bounds[bounds.length - 3]!) throw new RangeError(`ChangeSet: edits must be sorted; ${fromA} comes after ${bounds[bounds.length - 3]}`)
      if (fromA < 0 || fromA + deleteLength > oldLength) throw new RangeError(`ChangeSet: edit ${offset}+${deleteLength} is outside a text of length ${oldLength}`)
      bounds.push(fromA, fromA + deleteLength, offset, offset + insertText.length)
      texts.push(insertText)
      shift += insertText.length - deleteLength
    }
    return new ChangeSet(oldLength, bounds, texts, withDefaults(meta))
  }

  /**
   * The change set of sequential `edits` in any order (a command may edit bottom-up): sorted ones are
   * read directly, others are first merged into sorted, non-overlapping replacements.
   */
  static fromEdits(oldLength: number, edits: readonly SequentialEdit[], meta: Partial<ChangeSetMeta> = {}): ChangeSet {
    let sorted = true
    let end = 0
    for (const e of edits) {
      if (e.offset < end) {
        sorted = false
        break
      }
      end = e.offset + e.insertText.length
    }
    return ChangeSet.fromSequential(oldLength, sorted ? edits : mergeSequential([], edits), meta)
  }

  /** Number of replacements. */
  get size(): number {
    return this.texts.length
  }

  get empty(): boolean {
    return this.texts.length === 0
  }

  fromA(i: number): number { return this.bounds[4 * i]! }
  toA(i: number): number { return this.bounds[4 * i + 1]! }
  fromB(i: number): number { return this.bounds[4 * i + 2]! }
  toB(i: number): number { return this.bounds[4 * i + 3]! }
  inserted(i: number): string { return this.texts[i]! }

  /** Calls `f` for each replacement in order, with old and new positions; allocates nothing. */
  iterChanges(f: (fromA: number, toA: number, fromB: number, toB: number, inserted: string) => void): void {
    const b = this.bounds
    for (let i = 0; i < this.texts.length; i++) f(b[4 * i]!, b[4 * i + 1]!, b[4 * i + 2]!, b[4 * i + 3]!, this.texts[i]!)
  }

  /**
   * Where `pos` (in the old text) is in the new text. At an insertion point, `assoc` < 0 stays before the
   * inserted text and > 0 goes after it; inside a deleted range the position moves to the replacement's
   * start (assoc < 0) or end (assoc > 0), unless `mode` says a deletion there invalidates it (null).
   */
  mapPos(pos: number, assoc: -1 | 1 = -1, mode: MapMode = 'simple'): number | null {
    const b = this.bounds
    const n = this.texts.length
    // The first replacement that ends at or after pos; those before it only shift pos.
    let lo = 0
    let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (b[4 * mid + 1]! < pos) lo = mid + 1
      else hi = mid
    }
    let i = lo
    for (; i < n && b[4 * i]! <= pos; i++) {
      const fromA = b[4 * i]!
      const toA = b[4 * i + 1]!
      if (mode !== 'simple' && toA > fromA) {
        if (mode === 'track-del' && fromA < pos && toA > pos) return null
        if (mode === 'track-before' && fromA < pos) return null
        if (mode === 'track-after' && toA > pos) return null
      }
      // Inside or at the start of a replaced range, or before an insertion it stays in front of.
      if (toA > pos || (toA === pos && fromA === toA && assoc < 0)) return pos === fromA || assoc < 0 ? b[4 * i + 2]! : b[4 * i + 3]!
      // Otherwise pos is at the replacement's end: it maps after the replacement, as later text does.
    }
    return pos + shiftBefore(b, i)
  }

  /** The change set that applies this one and then `next` (which must start from this one's new text). */
  compose(next: ChangeSet): ChangeSet {
    if (next.oldLength !== this.newLength) throw new RangeError(`ChangeSet.compose: lengths differ (${this.newLength} vs ${next.oldLength})`)
    // Sequential edits of both, replayed over a sparse description of the text; correct for any shapes,
    // linear in the number of replacements, and only used off the keystroke path (undo grouping, logs).
    return ChangeSet.fromSequential(this.oldLength, mergeSequential(toSequential(this), toSequential(next)), {
      origin: this.origin,
      transactionOrigin: this.transactionOrigin,
      author: this.author,
      insertedIds: this.insertedIds.concat(next.insertedIds),
      deletedIds: this.deletedIds.concat(next.deletedIds),
      time: next.time,
    })
  }
}

function withDefaults(meta: Partial<ChangeSetMeta>): ChangeSetMeta {
  return {
    origin: meta.origin ?? 'local',
    transactionOrigin: meta.transactionOrigin ?? null,
    author: meta.author ?? 0,
    time: meta.time ?? 0,
    insertedIds: meta.insertedIds ?? NO_IDS,
    deletedIds: meta.deletedIds ?? NO_IDS,
  }
}

/** How far text after the first `i` replacements moves: toB - toA of the last of them. */
function shiftBefore(b: readonly number[], i: number): number {
  return i === 0 ? 0 : b[4 * i - 1]! - b[4 * i - 3]!
}

function toSequential(set: ChangeSet): SequentialEdit[] {
  const out: SequentialEdit[] = []
  set.iterChanges((fromA, toA, fromB, _toB, inserted) => out.push({ offset: fromB, deleteLength: toA - fromA, insertText: inserted }))
  return out
}

/**
 * Composes two lists of sequential edits into one sorted, non-overlapping list over the first one's
 * old text. The first list is turned into pieces of the intermediate text (kept old text or inserted
 * text); the second list's edits cut and replace those pieces; the pieces are then read back as edits.
 */
function mergeSequential(first: readonly SequentialEdit[], second: readonly SequentialEdit[]): SequentialEdit[] {
  type Piece = { kind: 'old'; from: number; to: number } | { kind: 'new'; text: string; deleted: number }
  // Intermediate text as pieces; 'new' pieces remember how much old text they replaced (attributed once).
  const pieces: Piece[] = []
  let oldPos = 0
  let shift = 0
  for (const e of first) {
    const fromA = e.offset - shift
    shift += e.insertText.length - e.deleteLength
    if (fromA > oldPos) pieces.push({ kind: 'old', from: oldPos, to: fromA })
    pieces.push({ kind: 'new', text: e.insertText, deleted: e.deleteLength })
    oldPos = fromA + e.deleteLength
  }
  pieces.push({ kind: 'old', from: oldPos, to: Number.MAX_SAFE_INTEGER })
  for (const e of second) {
    // Cut pieces at e.offset and e.offset + e.deleteLength, then replace what lies between.
    const startIdx = cut(pieces, e.offset)
    const endIdx = cut(pieces, e.offset + e.deleteLength)
    let deletedOld = 0
    for (let i = startIdx; i < endIdx; i++) {
      const p = pieces[i]!
      deletedOld += p.kind === 'old' ? p.to - p.from : p.deleted
    }
    pieces.splice(startIdx, endIdx - startIdx, { kind: 'new', text: e.insertText, deleted: deletedOld })
  }
  // Read back: consecutive non-old pieces form one replacement.
  const out: SequentialEdit[] = []
  let pos = 0
  let pending: { offset: number; deleteLength: number; insertText: string } | null = null
  for (const p of pieces) {
    if (p.kind === 'old') {
      if (pending) { out.push(pending); pending = null }
      pos += p.to - p.from
      continue
    }
    if (!pending) pending = { offset: pos, deleteLength: 0, insertText: '' }
    pending.deleteLength += p.deleted
    pending.insertText += p.text
    pos += p.text.length
  }
  if (pending) out.push(pending)
  // Pieces that replaced old text but kept old-text neighbours may leave empty replacements out.
  return out.filter((e) => e.deleteLength > 0 || e.insertText.length > 0)

  function cut(list: Piece[], at: number): number {
    let pos = 0
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!
      const len = p.kind === 'old' ? p.to - p.from : p.text.length
      if (at === pos) return i
      if (at < pos + len) {
        const k = at - pos
        if (p.kind === 'old') list.splice(i, 1, { kind: 'old', from: p.from, to: p.from + k }, { kind: 'old', from: p.from + k, to: p.to })
        else list.splice(i, 1, { kind: 'new', text: p.text.slice(0, k), deleted: p.deleted }, { kind: 'new', text: p.text.slice(k), deleted: 0 })
        return i + 1
      }
      pos += len
    }
    return list.length
  }
}
