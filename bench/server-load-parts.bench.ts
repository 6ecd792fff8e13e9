/**
 * Loading a stored update of many clients in parts (server/update-parts.ts) against applying it whole: the
 * longest single step (what every other room waits for) and the CPU in all. The update is a document's
 * whole state after 20 writers took turns making scattered edits (inserts and deletions), as a snapshot or
 * an offline client's answer holds it; a quarter of it is about what one compacted part (256 KiB) holds.
 * Then one client's tenth update of 2,000 scattered edits of long strings (what JOIN_EDITS stores).
 * Rounds alternate whole and parts on fresh documents, the parts taken step by step as RoomStore.load takes
 * them (reading and ordering the update are steps too); per-round figures, then medians.
 * Run: npx tsx bench/server-load-parts.bench.ts (ROUNDS, WRITERS, TURNS)
 */
import * as Y from 'yjs'
import { loadSteps, PREPARING } from '../server/update-parts.ts'
import { prng } from './documents.ts'
import { median } from './measure.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 6)
const WRITERS = Number(process.env.WRITERS ?? 20)
const TURNS = Number(process.env.TURNS ?? 15)
/** As RoomStore.load cuts them. */
const PART_STRUCTS = Number(process.env.PART_STRUCTS ?? 64)

/** A whole number below `below` from the seeded `random` (documents.ts), so every run edits alike. */
function seeded(seed: number): (below: number) => number {
  const random = prng(seed)
  return (below) => Math.floor(random() * below)
}

function manyClientsState(): Uint8Array {
  const random = seeded(7)
  const base = new Y.Doc()
  base.getText('text').insert(0, 'x'.repeat(200_000))
  const writers = Array.from({ length: WRITERS }, (_, i) => {
    const doc = new Y.Doc()
    doc.clientID = 100 + i
    return doc
  })
  for (let turn = 0; turn < TURNS; turn++) {
    for (const writer of writers) {
      Y.applyUpdate(writer, Y.encodeStateAsUpdate(base, Y.encodeStateVector(writer)))
      const text = writer.getText('text')
      for (let n = 0; n < 50; n++) {
        const at = random(text.length)
        if (random(3) === 0) text.delete(at, Math.min(3, text.length - at))
        else text.insert(at, 'ab')
      }
      Y.applyUpdate(base, Y.encodeStateAsUpdate(writer, Y.encodeStateVector(base)))
    }
  }
  return Y.encodeStateAsUpdate(base)
}

/**
 * One client's tenth update of 2,000 scattered one-character edits over 2 MB written in 256 KiB inserts (each
 * edit splits a long string), and what came before it, as JOIN_EDITS=20000 stores a room.
 */
function oneClientEdits(): { base: Uint8Array; update: Uint8Array } {
  const random = seeded(11)
  const doc = new Y.Doc()
  doc.clientID = 42
  const text = doc.getText('text')
  for (let i = 0; i < 8; i++) text.insert(text.length, String.fromCharCode(97 + i).repeat(256 * 1024))
  const edits = (): void => doc.transact(() => {
    for (let n = 0; n < 2000; n++) text.insert(random(text.length), 'z')
  })
  for (let i = 0; i < 9; i++) edits()
  const base = Y.encodeStateAsUpdate(doc)
  const before = Y.encodeStateVector(doc)
  edits()
  return { base, update: Y.encodeStateAsUpdate(doc, before) }
}

/** Alternating rounds of applying `update` (on a document holding `base`) whole and step by step; returns the medians. */
function measure(name: string, base: Uint8Array | null, update: Uint8Array): void {
  const decoded = Y.decodeUpdate(update)
  const clients = new Set(decoded.structs.map((struct) => struct.id.client)).size
  console.log(`load-parts: ${name}: ${decoded.structs.length} structs of ${clients} client${clients === 1 ? '' : 's'}, ${(update.length / 1024).toFixed(0)} KiB; parts of ${PART_STRUCTS}`)
  const fresh = (): Y.Doc => {
    const doc = new Y.Doc()
    if (base !== null) Y.applyUpdate(doc, base)
    return doc
  }
  const wholeMs: number[] = []
  const partsMs: number[] = []
  const longestMs: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const whole = fresh()
    let start = performance.now()
    Y.applyUpdate(whole, update)
    const wholeTime = performance.now() - start

    // As RoomStore.load takes them: each step on its own, the room free to yield between any two.
    const cut = fresh()
    let longest = 0
    let total = 0
    let preparing = 0
    let parts = 0
    const steps = loadSteps(update, PART_STRUCTS, () => Y.decodeStateVector(Y.encodeStateVector(cut)))
    for (;;) {
      start = performance.now()
      const next = steps.next()
      if (next.done === true) break
      if (next.value === PREPARING) preparing += 1
      else {
        if (next.value === update) throw new Error('the update was not cut')
        Y.applyUpdate(cut, next.value)
        parts += 1
      }
      const step = performance.now() - start
      total += step
      longest = Math.max(longest, step)
    }
    if (cut.getText('text').toString() !== whole.getText('text').toString() || cut.store.pendingStructs !== null) throw new Error('the parts gave another document')
    wholeMs.push(wholeTime)
    partsMs.push(total)
    longestMs.push(longest)
    console.log(
      `load-parts:   round ${round + 1}: whole ${wholeTime.toFixed(1)} ms in one step; in ${parts} parts after ${preparing} steps reading ` +
        `and ordering, ${total.toFixed(1)} ms in all, longest step ${longest.toFixed(1)} ms`,
    )
  }
  const longest = median(longestMs)
  const whole = median(wholeMs)
  console.log(
    `load-parts: ${name}: longest step ${longest.toFixed(1)} ms against ${whole.toFixed(1)} ms whole (${(longest / whole).toFixed(2)}x); ` +
      `CPU in all ${(median(partsMs) / whole).toFixed(2)}x whole (medians of ${ROUNDS} rounds)`,
  )
}

measure('a whole state of many writers', null, manyClientsState())
const { base, update } = oneClientEdits()
measure("one client's scattered edits of long strings", base, update)
