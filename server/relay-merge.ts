import * as Y from 'yjs'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'

/**
 * Merging a room's batch of relayed updates without rebuilding their structs. `Y.mergeUpdates`
 * decodes every struct into an object and encodes it again, and the fan-out merges each batch once
 * for everyone and once more per sender in it (without the sender's own updates), so in a room of
 * typists that is most of the relay's cost, and it grows with the square of the batch. Updates from
 * different Yjs clients do not need that: a Yjs (v1) update is a list of per-client sections of
 * structs followed by a delete set, and when no client has a section in two of the updates, their
 * merge is their sections side by side and their delete sets combined. Here each update is read once
 * (struct bytes are skipped, not decoded) and every merge of the batch is made by copying bytes.
 * Anything else (two updates from one client, a struct this reader does not know) is left to
 * `Y.mergeUpdates`: `split` says null.
 */

/** One v1 update, read into the byte ranges of its client sections and its deleted ranges per client. */
export interface SplitUpdate {
  /** Each client's section as it is in the update: struct count, client, first clock, structs. */
  sections: Array<{ client: number; bytes: Uint8Array }>
  /** Deleted ranges per client, as [clock, length]. */
  deletes: Map<number, Array<[number, number]>>
}

const BITS5 = 31
const BIT6 = 32
const BIT7 = 64
const BIT8 = 128
const TYPE_XML_ELEMENT = 3
const TYPE_XML_HOOK = 5

/** Reads `update` (v1), or null when it holds a struct this reader does not know or is malformed. */
export function splitUpdate(update: Uint8Array): SplitUpdate | null {
  try {
    const decoder = decoding.createDecoder(update)
    const sections: SplitUpdate['sections'] = []
    for (let count = decoding.readVarUint(decoder); count > 0; count--) {
      const start = decoder.pos
      const structs = decoding.readVarUint(decoder)
      const client = decoding.readVarUint(decoder)
      decoding.readVarUint(decoder) // first clock
      for (let i = 0; i < structs; i++) if (!skipStruct(decoder)) return null
      sections.push({ client, bytes: update.subarray(start, decoder.pos) })
    }
    const deletes: SplitUpdate['deletes'] = new Map()
    for (let count = decoding.readVarUint(decoder); count > 0; count--) {
      const client = decoding.readVarUint(decoder)
      const ranges = deletes.get(client) ?? []
      for (let n = decoding.readVarUint(decoder); n > 0; n--) ranges.push([decoding.readVarUint(decoder), decoding.readVarUint(decoder)])
      if (ranges.length > 0) deletes.set(client, ranges)
    }
    return decoding.hasContent(decoder) ? null : { sections, deletes }
  } catch {
    return null
  }
}

/** How many clients' sections `update` (v1) holds, at least 1 (also for bytes that do not say). */
export function sectionCount(update: Uint8Array): number {
  try {
    return Math.max(1, decoding.readVarUint(decoding.createDecoder(update)))
  } catch {
    return 1
  }
}

/**
 * The merge of `updates` (v1), as `Y.mergeUpdates` makes it: by copying when no client has a section
 * in two of them (what a room's store writes in one go is usually one update from each of several
 * typists), else by Yjs.
 */
export function mergeUpdates(updates: readonly Uint8Array[]): Uint8Array {
  const split: SplitUpdate[] = []
  for (const update of updates) {
    const parts = splitUpdate(update)
    if (parts === null) return Y.mergeUpdates(updates as Uint8Array[])
    split.push(parts)
  }
  return disjointClients(split) ? joinUpdates(split) : Y.mergeUpdates(updates as Uint8Array[])
}

/**
 * `update` with its client sections and deletions in Yjs's order (see joinUpdates), as `Y.mergeUpdates` needs it;
 * itself when it is in that order already or cannot be read. Earlier versions of the store wrote joins in arrival
 * order; compaction puts the stored updates of every run it merges in order first.
 */
export function inYjsOrder(update: Uint8Array): Uint8Array {
  const split = splitUpdate(update)
  // A client in two sections is not an update Yjs writes: left as it is.
  if (split === null || !disjointClients([split])) return update
  const descending = (clients: readonly number[]): boolean => clients.every((client, i) => i === 0 || client < clients[i - 1]!)
  if (descending(split.sections.map((section) => section.client)) && descending([...split.deletes.keys()])) return update
  return joinUpdates([split])
}

/** Whether no client has a section in two of `updates` (then `joinUpdates` merges them). */
export function disjointClients(updates: readonly SplitUpdate[]): boolean {
  const seen = new Set<number>()
  for (const update of updates) {
    for (const { client } of update.sections) {
      if (seen.has(client)) return false
      seen.add(client)
    }
  }
  return true
}

/**
 * The merge of `updates` (v1), which `disjointClients` must have accepted: their sections side by side, their delete
 * sets combined, both in Yjs's order (higher client ids first). The order matters: `Y.mergeUpdates` reads each update
 * as one run of clients from high to low, and silently drops a struct it meets after a higher client's. A join in
 * arrival order, stored and later compacted with the update after it, lost two typists' characters that everyone
 * had seen (the fan-out test's SIGKILL case, 1 run in 30).
 */
export function joinUpdates(updates: readonly SplitUpdate[]): Uint8Array {
  const encoder = encoding.createEncoder()
  const sections = updates.flatMap((update) => update.sections).sort((a, b) => b.client - a.client)
  encoding.writeVarUint(encoder, sections.length)
  for (const section of sections) encoding.writeUint8Array(encoder, section.bytes)
  const deletes = new Map<number, Array<[number, number]>>()
  for (const update of updates) {
    for (const [client, ranges] of update.deletes) {
      const all = deletes.get(client)
      if (all === undefined) deletes.set(client, ranges)
      else deletes.set(client, all.concat(ranges))
    }
  }
  encoding.writeVarUint(encoder, deletes.size)
  for (const [client, ranges] of [...deletes].sort((a, b) => b[0] - a[0])) {
    const merged = mergeRanges(ranges)
    encoding.writeVarUint(encoder, client)
    encoding.writeVarUint(encoder, merged.length)
    for (const [clock, length] of merged) {
      encoding.writeVarUint(encoder, clock)
      encoding.writeVarUint(encoder, length)
    }
  }
  return encoding.toUint8Array(encoder)
}

/** `ranges` sorted by clock, overlapping and touching ones joined (as Yjs writes a delete set). */
function mergeRanges(ranges: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0])
  const merged: Array<[number, number]> = []
  for (const [clock, length] of sorted) {
    const last = merged.at(-1)
    if (last !== undefined && clock <= last[0] + last[1]) last[1] = Math.max(last[1], clock + length - last[0])
    else merged.push([clock, length])
  }
  return merged
}

/**
 * Reads one struct of a v1 update (Yjs's readClientsStructRefs, without building it) and returns the clock
 * ticks it covers, or null for one it does not know. With `measure` false a string's length is not counted
 * (its UTF-8 bytes are skipped) and 0 is returned for it. With `refs`, the ids the struct points at (its
 * origins and the item holding it) are pushed there as client, clock pairs.
 */
export function readStruct(decoder: decoding.Decoder, measure = true, refs: number[] | null = null): number | null {
  const info = decoding.readUint8(decoder)
  const ref = info & BITS5
  if (ref === 0 || ref === 10) return decoding.readVarUint(decoder) // a GC's or a skip's length
  if ((info & BIT8) !== 0) readId(decoder, refs) // origin
  if ((info & BIT7) !== 0) readId(decoder, refs) // right origin
  if ((info & (BIT7 | BIT8)) === 0) {
    // The parent: a root type's name, or the id of the item holding it; then the key in a map.
    if (decoding.readVarUint(decoder) === 1) decoding.readVarUint8Array(decoder)
    else readId(decoder, refs)
    if ((info & BIT6) !== 0) decoding.readVarUint8Array(decoder)
  }
  return readContent(decoder, ref, measure)
}

/** True if the struct at `pos` of a v1 update is a skip (a gap in its client's clocks). */
export function isSkip(update: Uint8Array, pos: number): boolean {
  return (update[pos]! & BITS5) === 10
}

/** Skips one struct of a v1 update; false for one it does not know. */
function skipStruct(decoder: decoding.Decoder): boolean {
  return readStruct(decoder, false) !== null
}

function readId(decoder: decoding.Decoder, refs: number[] | null): void {
  const client = decoding.readVarUint(decoder)
  const clock = decoding.readVarUint(decoder)
  if (refs !== null) refs.push(client, clock)
}

/** Reads an item's content of type `ref` (Yjs's contentRefs) and returns its length (Yjs's getLength). */
function readContent(decoder: decoding.Decoder, ref: number, measure: boolean): number | null {
  switch (ref) {
    case 1: // deleted: a length
      return decoding.readVarUint(decoder)
    case 2: {
      // JSON: strings
      const count = decoding.readVarUint(decoder)
      for (let n = count; n > 0; n--) decoding.readVarUint8Array(decoder)
      return count
    }
    case 4: {
      // a string: its length in UTF-16 code units, as Yjs counts it
      const bytes = decoding.readVarUint8Array(decoder)
      return measure ? utf16Length(bytes) : 0
    }
    case 3: // binary
    case 5: // embed (JSON text)
      decoding.readVarUint8Array(decoder)
      return 1
    case 6: // format: key and JSON text
      decoding.readVarUint8Array(decoder)
      decoding.readVarUint8Array(decoder)
      return 1
    case 7: {
      // a type: its kind, and the tag name of an XML element or hook
      const type = decoding.readVarUint(decoder)
      if (type === TYPE_XML_ELEMENT || type === TYPE_XML_HOOK) decoding.readVarUint8Array(decoder)
      return 1
    }
    case 8: {
      // any: values
      const count = decoding.readVarUint(decoder)
      for (let n = count; n > 0; n--) decoding.readAny(decoder)
      return count
    }
    case 9: // a subdocument: guid and options
      decoding.readVarUint8Array(decoder)
      decoding.readAny(decoder)
      return 1
    default:
      return null
  }
}

/**
 * The UTF-16 length of the string whose UTF-8 bytes are `bytes` (a code unit per sequence, two for a four-byte
 * one), or null when they are not well-formed UTF-8: Yjs decodes those with replacement characters, whose
 * count this does not try to follow (the caller then leaves the update whole).
 */
function utf16Length(bytes: Uint8Array): number | null {
  let length = 0
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!
    if (lead < 0x80) {
      // ASCII, most of any text: a unit a byte, without the checks below (a stored update's 256 KiB string was read
      // at about 3 ms each with them, in every step of a cold room's load).
      length += 1
      i += 1
      continue
    }
    // Continuation bytes and the range of the first one, as the WHATWG decoder accepts them.
    let count: number
    let low = 0x80
    let high = 0xbf
    if (lead < 0xc2) return null
    else if (lead < 0xe0) count = 1
    else if (lead < 0xf0) {
      count = 2
      if (lead === 0xe0) low = 0xa0
      else if (lead === 0xed) high = 0x9f
    } else if (lead < 0xf5) {
      count = 3
      if (lead === 0xf0) low = 0x90
      else if (lead === 0xf4) high = 0x8f
    } else return null
    if (i + count >= bytes.length) return null
    const second = bytes[i + 1]!
    if (second < low || second > high) return null
    for (let k = 2; k <= count; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return null
    length += count === 3 ? 2 : 1
    i += count + 1
  }
  return length
}
