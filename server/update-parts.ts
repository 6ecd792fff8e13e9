import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { isSkip, readStruct } from './relay-merge.ts'

/**
 * A stored update cut into parts that apply one after the other, so that loading a room never spends
 * long on one update. Applying a Yjs update costs per struct it integrates, and one update of a much-edited
 * document (2,000 edits scattered over long strings, each splitting one) took up to a second to apply: the
 * event loop, and every other room, waited for it.
 *
 * A v1 update is per-client sections of structs, then a delete set. A section's structs have consecutive
 * clocks from its first clock, and each is written on its own (its origins as full ids), so a run of a
 * section's structs is a section too, starting at the clock its first struct has. The structs are put in an
 * order in which each comes after every struct it points at (its origins and the item holding it), as Yjs
 * integrates them, and that order is cut into runs: each part holds only structs whose references are in
 * the document or in an earlier part, so nothing waits in Yjs's pending structs. (A first version cut
 * several clients' updates in the order they are written: a part whose origins lay in a later part waited
 * there, and Yjs merged and retried the pending structs with every part after it; a 27,000-struct state of
 * 20 clients took 20 times the CPU.) An update that points at what neither it nor the document holds, or
 * has a gap in a client's clocks, is left whole: Yjs holds it pending either way.
 */

/** A section's struct, as its byte range, the clock ticks it covers and where the ids it points at are in the update's `refs` (client, clock pairs). */
type Struct = { start: number; end: number; length: number; refsFrom: number; refsTo: number }
type Section = { client: number; clock: number; structs: Struct[] }
/** How far a section has been put in order: its next struct, and the clock that struct starts at. */
type Cursor = { section: Section; next: number; clock: number }
type Placed = { section: Section; index: number; clock: number }

/** A step of `loadSteps` that applies nothing: work towards the parts was done, and the caller may yield before the next. */
export const PREPARING = 'preparing'
export type LoadStep = Uint8Array | typeof PREPARING

/** Structs read, or put in order, between two PREPARING steps (a few milliseconds of work). */
const PREPARE_STEP = 2048

/**
 * The steps of applying `update` (v1): its parts of at most `maxStructs` structs, then its delete set in parts
 * of at most `maxStructs` ranges (a deletion costs Yjs about what a struct does: one search and up to two
 * splits), each made when asked for. Reading the update and putting its structs in order take PREPARING
 * steps of their own, so that a caller yielding between steps never holds the event loop for the whole
 * update (cutting a 570 KiB update at once took 25–90 ms, a third of applying it whole). The only
 * step that applies something is `update` itself, whole, when it is no longer than one part, holds a struct
 * this reader does not know, is malformed (Yjs judges it), or would wait for what the document does not
 * hold; nothing of it was applied before. `state` gives the document's state vector (asked once the update
 * has been read).
 */
export function* loadSteps(update: Uint8Array, maxStructs: number, state: () => ReadonlyMap<number, number>): Generator<LoadStep, void, undefined> {
  // Most stored updates are one part: counted without reading their content (a 256 KiB string took 1–3 ms to measure).
  if (fitsOnePart(update, maxStructs)) {
    yield update
    return
  }
  const read = yield* readSections(update)
  if (read === null || read.sections.reduce((count, section) => count + section.structs.length, 0) + read.deletes.length / 3 <= maxStructs) {
    yield update
    return
  }
  const { sections, refs, deletes } = read
  const known = state()
  const order = yield* integrationOrder(sections, refs, known)
  if (order === null || !deletesKnown(deletes, sections, known)) {
    yield update
    return
  }
  for (let from = 0; from < order.length; from += maxStructs) yield encodePart(update, order.slice(from, from + maxStructs), [])
  for (let from = 0; from < deletes.length; from += 3 * maxStructs) yield encodePart(update, [], deletes.slice(from, from + 3 * maxStructs))
}

/**
 * True if `update` holds no more than `maxStructs` structs and deleted ranges together, counted by skipping
 * over each struct (strings are not measured); false if it holds more or cannot be read that way.
 */
function fitsOnePart(update: Uint8Array, maxStructs: number): boolean {
  try {
    const decoder = decoding.createDecoder(update)
    let count = 0
    for (let sections = decoding.readVarUint(decoder); sections > 0; sections--) {
      const structs = decoding.readVarUint(decoder)
      count += structs
      if (count > maxStructs) return false
      decoding.readVarUint(decoder) // client
      decoding.readVarUint(decoder) // clock
      for (let i = 0; i < structs; i++) if (readStruct(decoder, false) === null) return false
    }
    for (let clients = decoding.readVarUint(decoder); clients > 0; clients--) {
      decoding.readVarUint(decoder) // client
      const ranges = decoding.readVarUint(decoder)
      count += ranges
      if (count > maxStructs) return false
      for (let n = ranges; n > 0; n--) {
        decoding.readVarUint(decoder)
        decoding.readVarUint(decoder)
      }
    }
    return true
  } catch {
    return false
  }
}

/** True if every deletion of `deletes` is of what the document or the update holds (else Yjs would keep it pending, and retry it with every part). */
function deletesKnown(deletes: readonly number[], sections: readonly Section[], known: ReadonlyMap<number, number>): boolean {
  const ends = new Map(known)
  for (const { client, clock, structs } of sections) {
    const end = structs.reduce((sum, struct) => sum + struct.length, clock)
    ends.set(client, Math.max(end, ends.get(client) ?? 0))
  }
  for (let i = 0; i < deletes.length; i += 3) if (deletes[i + 1]! + deletes[i + 2]! > (ends.get(deletes[i]!) ?? 0)) return false
  return true
}

/**
 * Every struct of `sections`, each after the structs it points at and its client's earlier ones (a depth-first
 * walk, as Yjs's integrateStructs takes them), or null if one points at what neither the update nor the
 * document (`state`) holds, a client has two sections, one starts past the document's clock, or references
 * go round in a circle (a malformed update).
 */
function* integrationOrder(sections: readonly Section[], refs: readonly number[], state: ReadonlyMap<number, number>): Generator<typeof PREPARING, Placed[] | null, undefined> {
  const cursors = new Map<number, Cursor>()
  for (const section of sections) {
    if (cursors.has(section.client) || section.clock > (state.get(section.client) ?? 0)) return null
    cursors.set(section.client, { section, next: 0, clock: section.clock })
  }
  const order: Placed[] = []
  const stack: Array<{ cursor: Cursor; until: number }> = []
  const walking = new Set<Cursor>()
  for (const start of cursors.values()) {
    stack.push({ cursor: start, until: Infinity })
    walking.add(start)
    while (stack.length > 0) {
      const { cursor, until } = stack.at(-1)!
      const { section } = cursor
      if (cursor.clock > until || cursor.next === section.structs.length) {
        // Wanted up to a clock its section does not reach.
        if (cursor.clock <= until && until !== Infinity) return null
        stack.pop()
        walking.delete(cursor)
        continue
      }
      const struct = section.structs[cursor.next]!
      const wanted = firstWanted(refs, struct, cursors, state)
      if (wanted === null) return null
      if (wanted !== undefined) {
        if (walking.has(wanted.cursor)) return null
        stack.push(wanted)
        walking.add(wanted.cursor)
        continue
      }
      order.push({ section, index: cursor.next, clock: cursor.clock })
      cursor.clock += struct.length
      cursor.next += 1
      if (order.length % PREPARE_STEP === 0) yield PREPARING
    }
  }
  return order
}

/** The first reference of `struct` not yet in order (undefined: none), or null for one nothing holds. */
function firstWanted(refs: readonly number[], struct: Struct, cursors: ReadonlyMap<number, Cursor>, state: ReadonlyMap<number, number>): { cursor: Cursor; until: number } | undefined | null {
  for (let i = struct.refsFrom; i < struct.refsTo; i += 2) {
    const client = refs[i]!
    const clock = refs[i + 1]!
    if (clock < (state.get(client) ?? 0)) continue
    const cursor = cursors.get(client)
    if (cursor === undefined) return null
    if (clock < cursor.clock) continue
    return { cursor, until: clock }
  }
  return undefined
}

/**
 * One part: a section per client of `placed` (a client's structs in a run are consecutive), then a delete set
 * of `deletes` (client, clock, length triples, a client's in a row, as the update lists them).
 */
function encodePart(update: Uint8Array, placed: readonly Placed[], deletes: readonly number[]): Uint8Array {
  const runs = new Map<Section, { from: number; to: number; clock: number }>()
  for (const { section, index, clock } of placed) {
    const run = runs.get(section)
    if (run === undefined) runs.set(section, { from: index, to: index, clock })
    else run.to = index
  }
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, runs.size)
  for (const [section, { from, to, clock }] of runs) {
    encoding.writeVarUint(encoder, to - from + 1)
    encoding.writeVarUint(encoder, section.client)
    encoding.writeVarUint(encoder, clock)
    encoding.writeUint8Array(encoder, update.subarray(section.structs[from]!.start, section.structs[to]!.end))
  }
  let clients = 0
  for (let i = 0; i < deletes.length; i += 3) if (i === 0 || deletes[i] !== deletes[i - 3]) clients += 1
  encoding.writeVarUint(encoder, clients)
  for (let i = 0; i < deletes.length; ) {
    const client = deletes[i]!
    let end = i
    while (end < deletes.length && deletes[end] === client) end += 3
    encoding.writeVarUint(encoder, client)
    encoding.writeVarUint(encoder, (end - i) / 3)
    for (; i < end; i += 3) {
      encoding.writeVarUint(encoder, deletes[i + 1]!)
      encoding.writeVarUint(encoder, deletes[i + 2]!)
    }
  }
  return encoding.toUint8Array(encoder)
}

/**
 * The sections of `update` with each struct's bytes, clock length and references, and its delete set as
 * client, clock, length triples; null if unreadable or if a client's clocks have a gap (a skip: what follows it
 * waits in Yjs's pending structs, whole or in parts).
 */
function* readSections(update: Uint8Array): Generator<typeof PREPARING, { sections: Section[]; refs: number[]; deletes: number[] } | null, undefined> {
  try {
    const decoder = decoding.createDecoder(update)
    const sections: Section[] = []
    const refs: number[] = []
    let read = 0
    for (let count = decoding.readVarUint(decoder); count > 0; count--) {
      const structCount = decoding.readVarUint(decoder)
      const client = decoding.readVarUint(decoder)
      const clock = decoding.readVarUint(decoder)
      const structs: Struct[] = []
      for (let i = 0; i < structCount; i++) {
        const start = decoder.pos
        if (isSkip(update, start)) return null
        const refsFrom = refs.length
        const length = readStruct(decoder, true, refs)
        if (length === null) return null
        structs.push({ start, end: decoder.pos, length, refsFrom, refsTo: refs.length })
        if (++read % PREPARE_STEP === 0) yield PREPARING
      }
      if (structs.length > 0) sections.push({ client, clock, structs })
    }
    const deletes: number[] = []
    for (let count = decoding.readVarUint(decoder); count > 0; count--) {
      const client = decoding.readVarUint(decoder)
      for (let n = decoding.readVarUint(decoder); n > 0; n--) deletes.push(client, decoding.readVarUint(decoder), decoding.readVarUint(decoder))
    }
    // The delete set must read to the end (Yjs's own reader would throw on what follows it otherwise).
    return decoding.hasContent(decoder) ? null : { sections, refs, deletes }
  } catch {
    return null
  }
}
