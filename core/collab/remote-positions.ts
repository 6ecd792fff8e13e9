import { mapOffset } from '../anchors/offset-mapping.ts'

/**
 * Every peer's selections as (head, tail) character offsets in one flat index, mapped through each
 * change of the text: 8 bytes a selection and one tight loop per change, instead of a marker object
 * (with its selection and cursor) per remote selection. Positions are bound to the character before
 * them, as peers publish them, so text inserted at an offset never pushes it (as a remote marker).
 * Entries are numbered; a removed entry's number is reused.
 */
export class RemotePositions {
  /** head at 2n, tail at 2n + 1; -1 for a free entry. */
  private offsets = new Int32Array(64).fill(-1)
  private free: number[] = []
  private used = 0

  /** A new entry at these offsets; its number. */
  add(head: number, tail: number): number {
    let entry = this.free.pop()
    if (entry === undefined) {
      entry = this.used++
      if (2 * this.used > this.offsets.length) {
        const grown = new Int32Array(this.offsets.length * 2).fill(-1)
        grown.set(this.offsets)
        this.offsets = grown
      }
    }
    this.set(entry, head, tail)
    return entry
  }

  remove(entry: number): void {
    this.offsets[2 * entry] = this.offsets[2 * entry + 1] = -1
    this.free.push(entry)
  }

  set(entry: number, head: number, tail: number): void {
    this.offsets[2 * entry] = head
    this.offsets[2 * entry + 1] = tail
  }

  head(entry: number): number {
    return this.offsets[2 * entry]!
  }

  tail(entry: number): number {
    return this.offsets[2 * entry + 1]!
  }

  /** Maps every entry through `oldLength` characters at `start` replaced by `newLength`. */
  map(start: number, oldLength: number, newLength: number): void {
    const offsets = this.offsets
    const end = 2 * this.used
    for (let i = 0; i < end; i++) {
      const offset = offsets[i]!
      if (offset >= start) offsets[i] = mapOffset(offset, start, oldLength, newLength, false)
    }
  }
}
