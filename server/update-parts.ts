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
 * section's structs is a section too, starting at the clock its first struct has. The parts are runs of at
 * most `maxStructs` structs, in the update's order, the delete set in the last: applied in order, they
 * give the document the update gives it (a struct whose origin is in a later part waits in Yjs's pending
 * structs until that part arrives, as it would for an update received out of order).
 */

/** A section's struct, as its byte range and the clock ticks it covers. */
type Struct = { start: number; end: number; length: number }
type Section = { client: number; clock: number; structs: Struct[] }

/**
 * `update` (v1) in parts of at most `maxStructs` structs, or null when it has no more than that, holds a
 * struct this reader does not know, or is malformed (then it is applied whole, and Yjs judges it).
 */
export function updateParts(update: Uint8Array, maxStructs: number): Uint8Array[] | null {
  const read = readSections(update)
  if (read === null) return null
  const { sections, deleteSet } = read
  let total = 0
  for (const section of sections) total += section.structs.length
  if (total <= maxStructs) return null
  const parts: Uint8Array[] = []
  // The runs of the part being made: each a run of one section's structs, no client twice.
  let runs: Array<{ client: number; clock: number; structs: Struct[] }> = []
  let structs = 0
  const flush = (last: boolean): void => {
    const encoder = encoding.createEncoder()
    encoding.writeVarUint(encoder, runs.length)
    for (const run of runs) {
      encoding.writeVarUint(encoder, run.structs.length)
      encoding.writeVarUint(encoder, run.client)
      encoding.writeVarUint(encoder, run.clock)
      encoding.writeUint8Array(encoder, update.subarray(run.structs[0]!.start, run.structs.at(-1)!.end))
    }
    if (last) encoding.writeUint8Array(encoder, deleteSet)
    else encoding.writeVarUint(encoder, 0)
    parts.push(encoding.toUint8Array(encoder))
    runs = []
    structs = 0
  }
  for (const section of sections) {
    let clock = section.clock
    for (let from = 0; from < section.structs.length; ) {
      if (structs === maxStructs || runs.some((run) => run.client === section.client)) flush(false)
      const taken = section.structs.slice(from, from + maxStructs - structs)
      runs.push({ client: section.client, clock, structs: taken })
      structs += taken.length
      for (const struct of taken) clock += struct.length
      from += taken.length
    }
  }
  flush(true)
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
