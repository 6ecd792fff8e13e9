/**
 * What applying a client's update will cost, read before it is applied. Yjs builds an object per
 * struct (and per element of an array of values) and walks each deleted range: one update of a
 * million one-character items held the process for seconds and every room with it. The update
 * (format v1, as y-websocket sends) is walked here without building anything, counting items,
 * and the walk stops as soon as the count passes the limit, so refusing costs less than
 * applying would. Strings and binary contents are skipped by length, never decoded.
 */

/** Thrown for bytes that cannot be walked: Yjs will refuse the update when it is applied. */
class Truncated extends Error {}

class Reader {
  at = 0
  readonly size: UpdateSize = { structs: 0, deletes: 0 }
  constructor(
    private readonly bytes: Uint8Array,
    private readonly limit: number,
  ) {}

  /** Counts `by` more of `field`; throws TOO_LARGE once the counts pass the limit together. */
  count(field: keyof UpdateSize, by: number): void {
    this.size[field] += by
    if (this.size.structs + this.size.deletes > this.limit) throw TOO_LARGE
  }

  byte(): number {
    if (this.at >= this.bytes.length) throw new Truncated()
    return this.bytes[this.at++]!
  }

  varUint(): number {
    let value = 0
    let shift = 1
    for (let i = 0; i < 8; i++) {
      const byte = this.byte()
      value += (byte & 0x7f) * shift
      if (byte < 0x80) return value
      shift *= 128
    }
    throw new Truncated()
  }

  skip(length: number): void {
    if (length > this.bytes.length - this.at) throw new Truncated()
    this.at += length
  }

  /** An ID: a client and a clock. */
  skipId(): void {
    this.varUint()
    this.varUint()
  }

  /** A varString or a varUint8Array: a length, then that many bytes. */
  skipBytes(): void {
    this.skip(this.varUint())
  }
}

/** Counts of what an update would make Yjs build. */
export interface UpdateSize {
  /** Structs (items, GC and skip ranges) plus elements of value arrays. */
  structs: number
  /** Deleted ranges in the update's delete set. */
  deletes: number
}

/**
 * The counts of `update` (v1); 'too-large' as soon as they pass `limit` together (the walk stops
 * there); null when the update is malformed (left for Yjs to refuse).
 */
export function measureUpdate(update: Uint8Array, limit: number): UpdateSize | 'too-large' | null {
  // Counted by a method of the reader, not a closure made per update: this runs on every update a client sends.
  const reader = new Reader(update, limit)
  try {
    const clients = reader.varUint()
    for (let c = 0; c < clients; c++) {
      const structs = reader.varUint()
      reader.varUint() // client
      reader.varUint() // first clock
      for (let s = 0; s < structs; s++) {
        reader.count('structs', 1)
        skipStruct(reader)
      }
    }
    const deleting = reader.varUint()
    for (let c = 0; c < deleting; c++) {
      reader.varUint() // client
      const ranges = reader.varUint()
      reader.count('deletes', ranges)
      for (let r = 0; r < ranges; r++) {
        reader.varUint()
        reader.varUint()
      }
    }
  } catch (error) {
    if (error === TOO_LARGE) return 'too-large'
    // RangeError: values nested deeper than the stack; Yjs's own reader fails on them too.
    if (error instanceof Truncated || error instanceof RangeError) return null
    throw error
  }
  return reader.size
}

const TOO_LARGE = new Error('too large')

/** Skips one struct (Yjs's readStructs and readItemContent, v1). */
function skipStruct(reader: Reader): void {
  const info = reader.byte()
  const ref = info & 0x1f
  if (ref === 0 || ref === 10) {
    reader.varUint() // GC or skip: a length
    return
  }
  if ((info & 0x80) !== 0) reader.skipId() // origin
  if ((info & 0x40) !== 0) reader.skipId() // right origin
  if ((info & 0xc0) === 0) {
    // No origin to copy the parent from: the parent is named (a root type's key) or an ID.
    if (reader.varUint() === 1) reader.skipBytes()
    else reader.skipId()
    if ((info & 0x20) !== 0) reader.skipBytes() // parent sub
  }
  switch (ref) {
    case 1: // deleted
      reader.varUint()
      return
    case 2: {
      // JSON: an array of strings
      const length = reader.varUint()
      reader.count('structs', length)
      for (let i = 0; i < length; i++) reader.skipBytes()
      return
    }
    case 3: // binary
    case 4: // string
    case 5: // embed (JSON text)
      reader.skipBytes()
      return
    case 6: // format: a key and a JSON text
      reader.skipBytes()
      reader.skipBytes()
      return
    case 7: {
      // a type: its kind, and a name for XML elements and hooks
      const kind = reader.varUint()
      if (kind === 3 || kind === 4) reader.skipBytes()
      return
    }
    case 8: {
      // values
      const length = reader.varUint()
      reader.count('structs', length)
      for (let i = 0; i < length; i++) skipAny(reader)
      return
    }
    case 9: // a sub-document: its guid and options
      reader.skipBytes()
      skipAny(reader)
      return
    default:
      throw new Truncated()
  }
}

/** Skips one value in lib0's `writeAny` encoding, counting the elements of nested arrays and objects. */
function skipAny(reader: Reader): void {
  const type = reader.byte()
  switch (type) {
    case 127: // undefined
    case 126: // null
    case 121: // false
    case 120: // true
      return
    case 125: // integer
      while (reader.byte() >= 0x80);
      return
    case 124: // float32
      reader.skip(4)
      return
    case 123: // float64
    case 122: // bigint64
      reader.skip(8)
      return
    case 119: // string
    case 116: // bytes
      reader.skipBytes()
      return
    case 118: {
      // object: key, value pairs
      const length = reader.varUint()
      reader.count('structs', length)
      for (let i = 0; i < length; i++) {
        reader.skipBytes()
        skipAny(reader)
      }
      return
    }
    case 117: {
      const length = reader.varUint()
      reader.count('structs', length)
      for (let i = 0; i < length; i++) skipAny(reader)
      return
    }
    default:
      throw new Truncated()
  }
}
