import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { readStruct } from './relay-merge.ts'

/**
 * A stored update cut into parts that apply one after the other, so that loading a room never spends
 * long on one update. Applying a Yjs update costs per struct it integrates, and one update of a much-edited
 * document (2,000 edits scattered over long strings, each splitting one) took up to a second to apply: the
 * event loop, and every other room, waited for it.
 *
 * A v1 update is per-client sections of structs, then a delete set. A section's structs have consecutive
 * clocks from its first clock, and each is written on its own (its origins as full ids), so a run of a
 * section's structs is a section too, starting at the clock its first struct has. Only an update of one
 * client's section is cut (what one client sent: the long ones): its structs' origins are its own earlier
 * structs or other clients' structs applied before it, never a later part, so the parts, applied in order,
 * integrate as the whole does. An update of several clients is left whole: their structs point into each
 * other's, and a part whose origins lie in a later part waits in Yjs's pending structs, which Yjs merges and
 * retries with every part after it (a 27,000-struct state of 20 clients took 20 times the CPU in parts).
 */

/** A section's struct, as its byte range and the clock ticks it covers. */
type Struct = { start: number; end: number; length: number }
type Section = { client: number; clock: number; structs: Struct[] }

/**
 * `update` (v1) in parts of at most `maxStructs` structs, the delete set in the last, or null when it is not
 * one client's section of more than that many structs, holds a struct this reader does not know, or is
 * malformed (then it is applied whole, and Yjs judges it).
 */
export function updateParts(update: Uint8Array, maxStructs: number): Uint8Array[] | null {
  const read = readSections(update)
  if (read === null || read.sections.length !== 1) return null
  const { sections: [section], deleteSet } = read
  const { client, structs } = section!
  if (structs.length <= maxStructs) return null
  const parts: Uint8Array[] = []
  let clock = section!.clock
  for (let from = 0; from < structs.length; from += maxStructs) {
    const run = structs.slice(from, from + maxStructs)
    const last = from + maxStructs >= structs.length
    const encoder = encoding.createEncoder()
    encoding.writeVarUint(encoder, 1)
    encoding.writeVarUint(encoder, run.length)
    encoding.writeVarUint(encoder, client)
    encoding.writeVarUint(encoder, clock)
    encoding.writeUint8Array(encoder, update.subarray(run[0]!.start, run.at(-1)!.end))
    if (last) encoding.writeUint8Array(encoder, deleteSet)
    else encoding.writeVarUint(encoder, 0)
    parts.push(encoding.toUint8Array(encoder))
    for (const struct of run) clock += struct.length
  }
  return parts
}

/** The sections of `update` with each struct's bytes and clock length, and the bytes of its delete set; null if unreadable. */
function readSections(update: Uint8Array): { sections: Section[]; deleteSet: Uint8Array } | null {
  try {
    const decoder = decoding.createDecoder(update)
    const sections: Section[] = []
    for (let count = decoding.readVarUint(decoder); count > 0; count--) {
      const structCount = decoding.readVarUint(decoder)
      const client = decoding.readVarUint(decoder)
      const clock = decoding.readVarUint(decoder)
      const structs: Struct[] = []
      for (let i = 0; i < structCount; i++) {
        const start = decoder.pos
        const length = readStruct(decoder)
        if (length === null) return null
        structs.push({ start, end: decoder.pos, length })
      }
      if (structs.length > 0) sections.push({ client, clock, structs })
    }
    const deleteSet = update.subarray(decoder.pos)
    // The delete set must read to the end (Yjs's own reader would throw on what follows it otherwise).
    for (let count = decoding.readVarUint(decoder); count > 0; count--) {
      decoding.readVarUint(decoder)
      for (let n = decoding.readVarUint(decoder); n > 0; n--) {
        decoding.readVarUint(decoder)
        decoding.readVarUint(decoder)
      }
    }
    return decoding.hasContent(decoder) ? null : { sections, deleteSet }
  } catch {
    return null
  }
}
