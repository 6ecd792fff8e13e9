/**
 * A long line of the line index, kept in pieces: an edit inside it replaces one piece (a few KB), not
 * the whole line, and a reader asking for a column range gets the pieces that hold it. The whole line
 * is joined only when someone asks for it (`toString`), and that join is kept until the next edit.
 */

/** Where lines start to be kept in pieces, and the pieces' usual size (UTF-16 code units). */
export interface PieceSizes {
  /** A line longer than this is kept in pieces; one shorter than half of it goes back to one string. */
  readonly longLine: number
  /** Pieces are cut this long; one grown past twice this is cut again, one under a quarter is merged. */
  readonly piece: number
}

export const PIECE_SIZES: PieceSizes = { longLine: 4096, piece: 2048 }

/** Cuts `text` into pieces of about `size` code units, never between the halves of a surrogate pair. */
function cut(text: string, size: number, out: string[]): void {
  const count = Math.max(1, Math.round(text.length / size))
  let start = 0
  for (let k = 1; k <= count; k++) {
    let end = Math.floor((k * text.length) / count)
    // Keep a surrogate pair in one piece, so that a piece's first unit is never a pair's low half.
    if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++
    if (end > start) out.push(text.slice(start, end))
    start = Math.max(start, end)
  }
  if (out.length === 0) out.push('')
}

export class LongLine {
  /** The pieces, in order; none empty (but the only one, of an empty line). */
  private pieces: string[] = []
  /** Offset in the line of each piece's first code unit. */
  private starts: number[] = []
  /** The whole line, once someone asked for it since the last edit. */
  private joined: string | null = null
  /** The line's length, its ending included. */
  length: number

  constructor(text: string, readonly sizes: PieceSizes = PIECE_SIZES) {
    this.length = text.length
    cut(text, sizes.piece, this.pieces)
    this.restart(0)
    this.joined = text
  }

  /** How many pieces the line is kept in (for tests and diagnostics). */
  get pieceCount(): number {
    return this.pieces.length
  }

  /** The piece lengths, in order (for tests and diagnostics). */
  pieceLengths(): number[] {
    return this.pieces.map((piece) => piece.length)
  }

  /** The whole line (its ending included), joined once per edit. */
  toString(): string {
    if (this.joined === null) this.joined = this.pieces.join('')
    return this.joined
  }

  /** The code unit at `index` (NaN outside the line), as `String#charCodeAt`. */
  charCodeAt(index: number): number {
    if (this.joined !== null) return this.joined.charCodeAt(index)
    if (!(index >= 0 && index < this.length)) return NaN
    const i = this.pieceAt(index)
    return this.pieces[i]!.charCodeAt(index - this.starts[i]!)
  }

  /**
   * The text between two offsets of the line, as `String#slice` (a negative offset counts from the
   * end): the pieces that hold it, concatenated without copying them into one string first.
   */
  slice(from: number, to: number = this.length): string {
    const start = from < 0 ? Math.max(0, this.length + from) : Math.min(from, this.length)
    const end = to < 0 ? Math.max(0, this.length + to) : Math.min(this.length, to)
    if (end <= start) return ''
    if (this.joined !== null) return this.joined.slice(start, end)
    let i = this.pieceAt(start)
    const pieceStart = this.starts[i]!
    const first = this.pieces[i]!
    if (end <= pieceStart + first.length) return first.slice(start - pieceStart, end - pieceStart)
    let text = first.slice(start - pieceStart)
    for (i++; i < this.pieces.length; i++) {
      const piece = this.pieces[i]!
      const local = end - this.starts[i]!
      if (local <= piece.length) return text + (local === piece.length ? piece : piece.slice(0, local))
      text += piece
    }
    return text
  }

  /** Whether the line holds a character that is not whitespace (its ending is whitespace). */
  hasNonWhitespace(): boolean {
    if (this.joined !== null) return /\S/.test(this.joined)
    for (const piece of this.pieces) if (/\S/.test(piece)) return true
    return false
  }

  /**
   * Replaces `deleteLength` code units at `offset` (inside the line) with `text`: only the pieces the
   * edit touches are rebuilt, cut again when one grows past twice the piece size and merged with a
   * neighbour when one shrinks under a quarter of it.
   */
  edit(offset: number, deleteLength: number, text: string): void {
    this.joined = null
    const end = offset + deleteLength
    const first = this.pieceAt(offset)
    // The piece holding the edit's last deleted unit (an insertion stays in the first piece).
    const last = deleteLength === 0 ? first : this.pieceAt(end - 1)
    const firstStart = this.starts[first]!
    const delta = text.length - deleteLength
    this.length += delta
    if (first === last) {
      const piece = this.pieces[first]!
      const edited = piece.slice(0, offset - firstStart) + text + piece.slice(end - firstStart)
      const { piece: size } = this.sizes
      if (edited.length <= 2 * size && (edited.length >= size >> 2 || this.pieces.length === 1)) {
        this.pieces[first] = edited
        for (let i = first + 1; i < this.starts.length; i++) this.starts[i]! += delta
        return
      }
    }
    // The edit spans pieces, or its piece grew too long or too short: rebuild the pieces around it.
    const from = first > 0 ? first - 1 : first
    const to = last + 1 < this.pieces.length ? last + 2 : last + 1
    const around = this.pieces.slice(from, to).join('')
    const local = offset - this.starts[from]!
    const replaced = around.slice(0, local) + text + around.slice(local + deleteLength)
    const rebuilt: string[] = []
    cut(replaced, this.sizes.piece, rebuilt)
    this.pieces.splice(from, to - from, ...rebuilt)
    this.restart(from)
  }

  /** Index of the piece holding `offset` (the last piece for the line's end). */
  private pieceAt(offset: number): number {
    // A binary search by halving steps: the last start not after `offset`.
    const starts = this.starts
    let found = 0
    for (let step = 1 << (31 - Math.clz32(starts.length)); step > 0; step >>= 1) {
      if (found + step < starts.length && starts[found + step]! <= offset) found += step
    }
    return found
  }

  /** Recomputes the piece starts from piece `from` on. */
  private restart(from: number): void {
    this.starts.length = this.pieces.length
    let start = from > 0 ? this.starts[from - 1]! + this.pieces[from - 1]!.length : 0
    for (let i = from; i < this.pieces.length; i++) {
      this.starts[i] = start
      start += this.pieces[i]!.length
    }
  }
}
