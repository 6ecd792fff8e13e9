/**
 * Who wrote what, measured against baselines run alongside:
 *  - a full authorship query on a 1 MB document written by 100 authors (target <= 10 ms), against one walk
 *    of the Y.Text's items that reads each item's client (what any authorship query must at least beat);
 *  - the change log's heap per change beyond its ID ranges (target <= 64 B): ChangeSets made first and
 *    held, then logged; the heap growth over the changes is what the log adds;
 *  - typing with the log and the index following every keystroke, against the same editor without them.
 * Run: npm run bench -- authorship
 */
import * as v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import * as Y from 'yjs'
import { TextEditor } from '../core/editor/text-editor.ts'
import { ChangeSet } from '../core/buffer/change-set.ts'
import { ChangeLog } from '../core/collab/change-log.ts'
import { Authors } from '../core/collab/authors.ts'
import { visibleClientRuns } from '../core/buffer/yjs-internals.ts'
import { compare, fmt, median, ratio } from './measure.ts'
import { prng } from './documents.ts'

const AUTHORS = 100
const SIZE = 1_000_000
const ROUNDS = 9
const LOG_CHANGES = 50_000
const KEYSTROKES = 2000
const QUERY_TARGET_MS = 10
const LOG_TARGET_BYTES = 64

v8.setFlagsFromString('--expose-gc')
const gc = ((globalThis as { gc?: () => void }).gc ?? runInNewContext('gc')) as () => void
/** JS heap plus array buffers (typed arrays keep their contents outside the heap). */
function heap(): number {
  for (let i = 0; i < 4; i++) gc()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}

/** 1 MB inserted in pieces of 10–90 characters at random places, each piece by one of 100 clients. */
function document(): Y.Doc {
  const random = prng(21)
  const doc = new Y.Doc()
  const text = doc.getText('text')
  const words = 'the quick brown fox jumps over the lazy dog 0123456789\n'
  while (text.length < SIZE) {
    doc.clientID = 1 + Math.floor(random() * AUTHORS)
    const n = 10 + Math.floor(random() * 80)
    const start = Math.floor(random() * (words.length - 1))
    const piece = (words.slice(start) + words).slice(0, n)
    text.insert(Math.floor(random() * (text.length + 1)), piece)
  }
  doc.clientID = 1000
  return doc
}

const doc = document()
const editor = new TextEditor({ doc })
const runs = editor.getAuthorship()
console.log(`document: ${doc.getText('text').length} characters, ${AUTHORS} authors, ${runs.length} authorship runs`)

// 1. A full query against one walk of the items.
const perRound: string[] = []
const ours: number[] = []
const base: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  const r = compare(() => void editor.getAuthorship(), () => void visibleClientRuns(doc.getText('text')), 3)
  ours.push(r.ours)
  base.push(r.baseline)
  perRound.push(`${fmt(r.ours)} (${ratio(r.ratio)})`)
}
const queryMs = median(ours)
console.log(`full authorship query, per round: ${perRound.join(', ')}`)
console.log(
  `full authorship query: ${fmt(queryMs)} median vs item walk ${fmt(median(base))} = ${ratio(queryMs / median(base))}; target <= ${QUERY_TARGET_MS} ms: ${queryMs <= QUERY_TARGET_MS ? 'met' : 'NOT met'}`,
)
// CPU time as well: on a loaded machine wall time counts the time the process waited for a core.
function cpuMs(fn: () => void, runs: number): number {
  fn()
  const start = process.cpuUsage()
  for (let i = 0; i < runs; i++) fn()
  const { user, system } = process.cpuUsage(start)
  return (user + system) / 1000 / runs
}
const queryCpu = cpuMs(() => void editor.getAuthorship(), 20)
const walkCpu = cpuMs(() => void visibleClientRuns(doc.getText('text')), 20)
console.log(`full authorship query, CPU time: ${fmt(queryCpu)} vs item walk ${fmt(walkCpu)} = ${ratio(queryCpu / walkCpu)}; target <= ${QUERY_TARGET_MS} ms: ${queryCpu <= QUERY_TARGET_MS ? 'met' : 'NOT met'}`)
const partial = compare(() => void editor.getAuthorship([[1000, 0], [1040, 0]]), () => void visibleClientRuns(doc.getText('text')), 9)
console.log(`authorship of 40 rows: ${fmt(partial.ours)} vs item walk ${fmt(partial.baseline)} = ${ratio(partial.ratio)}`)

// 2. Log memory per change beyond its ID ranges.
const logBytes: number[] = []
// Round 0 warms up (its figure includes collections of what the document build left behind).
for (let round = 0; round < 6; round++) {
  const logDoc = new Y.Doc()
  const sets: ChangeSet[] = []
  for (let i = 0; i < LOG_CHANGES; i++) {
    sets.push(ChangeSet.fromSequential(i, [{ offset: i, deleteLength: 0, insertText: 'x' }], { origin: 'remote', author: 1 + (i % AUTHORS), time: 1_700_000_000_000 + i, insertedIds: [{ client: 1 + (i % AUTHORS), clock: i, length: 1 }] }))
  }
  const authors = new Authors(logDoc, null)
  const log = new ChangeLog(logDoc.getText('text'), authors)
  const before = heap()
  for (const set of sets) log.add(set)
  const after = heap()
  if (round > 0) logBytes.push((after - before) / LOG_CHANGES)
  if (log.size !== LOG_CHANGES) throw new Error('log lost changes')
}
const perChange = median(logBytes)
console.log(`change log heap per change beyond its ID ranges, per round: ${logBytes.map((b) => `${b.toFixed(1)} B`).join(', ')}`)
console.log(`change log: ${perChange.toFixed(1)} B per change (${LOG_CHANGES} changes); target <= ${LOG_TARGET_BYTES} B: ${perChange <= LOG_TARGET_BYTES ? 'met' : 'NOT met'}`)

// 3. Typing with the log and authorship following, against an editor without them.
function typing(withAuthorship: boolean): () => void {
  return () => {
    const d = new Y.Doc()
    const e = new TextEditor({ doc: d, text: 'hello\n'.repeat(2000) })
    if (!withAuthorship) (e as unknown as { authorship: { destroy(): void } }).authorship.destroy()
    e.setCursorBufferPosition([1000, 2])
    for (let i = 0; i < KEYSTROKES; i++) e.insertText(i % 40 === 39 ? '\n' : 'x')
    e.destroy()
  }
}
const typingRounds: string[] = []
const typingRatios: number[] = []
for (let round = 0; round < 5; round++) {
  const r = compare(typing(true), typing(false), 1)
  typingRatios.push(r.ratio)
  typingRounds.push(`${fmt(r.ours / KEYSTROKES)} vs ${fmt(r.baseline / KEYSTROKES)} (${ratio(r.ratio)})`)
}
console.log(`keystroke with log + authorship vs without, per round: ${typingRounds.join(', ')}`)
console.log(`keystroke overhead of log + authorship: ${ratio(median(typingRatios))} (median of ${typingRatios.length} rounds of ${KEYSTROKES} keystrokes)`)
editor.destroy()
