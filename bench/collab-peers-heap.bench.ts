/**
 * What remote selections cost an editor: heap per remote selection beyond its awareness state
 * (target <= 128 bytes), and a keystroke with 50 peers x 10 selections against the same keystroke
 * with no peers, both measured in this run.
 *
 * Heap: one awareness without an editor receives the peers' states (what the states alone cost),
 * then an editor's awareness receives the same states; the difference, over the selections, is what
 * the editor keeps per remote selection. Nobody asks for the peers' Selection objects here, as in an
 * editor whose view draws cursors from offsets. Bytes are the V8 heap's live objects outside its code
 * spaces plus array buffers (the anchor index's typed arrays live there), after two collections, in a
 * child process run without the JIT: with it, optimised code and its deoptimisation data come and go
 * between rounds (+-100 bytes per selection); without it most rounds agree within a few bytes (an
 * odd round still strays: the median of 7 is the figure).
 * Run: npm run bench -- collab-peers-heap
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import * as v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import * as Y from 'yjs'
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness'
import { TextEditor } from '../core/editor/text-editor.ts'
import { relativePositionJSON } from '../core/collab/awareness-state.ts'
import { fmt, median, ratio } from './measure.ts'
import { prng } from './documents.ts'

/** Heap is measured over many peers, so that one collection's noise is small beside them. */
const HEAP_PEERS = Number(process.env.PEERS ?? 250)
/** The keystroke shows 50 peers x 10 selections, as collab-keystroke does. */
const KEYSTROKE_PEERS = 50
const SELECTIONS_PER_PEER = Number(process.env.PER_PEER ?? 10)
const ROUNDS = 5
const HEAP_ROUNDS = Number(process.env.HEAP_ROUNDS ?? 7)
const KEYSTROKES = 300
const TARGET_BYTES = 128
/** Set in the child process that measures the heap. */
const HEAP_CHILD = process.env.PEERS_HEAP_CHILD === '1'

// Without --expose-gc (as `npm run bench` starts it), the flag is turned on from here.
v8.setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/**
 * Live bytes outside the code spaces, plus array buffers. Between collections, a turn of the event
 * loop: objects that a WeakRef was made or read for in a job stay alive until it ends, and the
 * buffers of collected arrays are freed after the collection.
 */
async function heap(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve))
  gc()
  gc()
  let bytes = process.memoryUsage().arrayBuffers
  for (const space of v8.getHeapSpaceStatistics()) if (!space.space_name.startsWith('code')) bytes += space.space_used_size
  return bytes
}

/** A 100 KB text typed by many small inserts, so positions name many items. */
function documentUpdate(random: () => number): Uint8Array {
  const doc = new Y.Doc()
  doc.clientID = 1
  const text = doc.getText('text')
  const line = 'the quick brown fox jumps over the lazy dog, 0123456789\n'
  text.insert(0, line.repeat(1800))
  for (let i = 0; i < 2000; i++) text.insert(Math.floor(random() * text.length), 'x')
  return Y.encodeStateAsUpdate(doc)
}

function peerUpdates(update: Uint8Array, random: () => number): Uint8Array[] {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, update)
  const text = doc.getText('text')
  const updates: Uint8Array[] = []
  for (let p = 0; p < HEAP_PEERS; p++) {
    const peerDoc = new Y.Doc()
    peerDoc.clientID = 1000 + p
    const selections = Array.from({ length: SELECTIONS_PER_PEER }, () => {
      const head = Math.floor(random() * text.length)
      const anchor = random() < 0.5 ? head : Math.max(0, head - Math.floor(random() * 40))
      return {
        anchor: relativePositionJSON(Y.createRelativePositionFromTypeIndex(text, anchor, -1)),
        head: relativePositionJSON(Y.createRelativePositionFromTypeIndex(text, head, -1)),
      }
    })
    const awareness = new Awareness(peerDoc)
    awareness.setLocalState({ user: { name: `peer ${p}`, color: '#30bced' }, cursor: selections[selections.length - 1], selections })
    updates.push(encodeAwarenessUpdate(awareness, [peerDoc.clientID]))
    awareness.destroy()
  }
  return updates
}

function docFrom(update: Uint8Array): Y.Doc {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, update)
  return doc
}

const random = prng(12)
const update = documentUpdate(random)
const updates = peerUpdates(update, random)
const selections = HEAP_PEERS * SELECTIONS_PER_PEER
const keystrokeUpdates = updates.slice(0, KEYSTROKE_PEERS)

/** Bytes per remote selection that an editor keeps beyond the awareness states themselves. */
async function heapPerSelection(): Promise<number> {
  const bare = new Awareness(docFrom(update))
  const doc = docFrom(update)
  const awareness = new Awareness(doc)
  const editor = new TextEditor({ doc, awareness, user: { name: 'me', color: '#d81b60' } })
  const before = await heap()
  for (const peerUpdate of updates) applyAwarenessUpdate(bare, peerUpdate, 'remote')
  const statesOnly = await heap()
  for (const peerUpdate of updates) applyAwarenessUpdate(awareness, peerUpdate, 'remote')
  const withEditor = await heap()
  if (editor.getPeers().length !== HEAP_PEERS) throw new Error('the peers did not arrive')
  const perSelection = (withEditor - statesOnly - (statesOnly - before)) / selections
  editor.destroy()
  awareness.destroy()
  bare.destroy()
  return perSelection
}

/** Median time of one keystroke in the middle of the text, with or without the peers' states. */
function keystroke(withPeers: boolean): () => number {
  const doc = docFrom(update)
  const awareness = new Awareness(doc)
  const editor = new TextEditor({ doc, awareness, user: { name: 'me', color: '#d81b60' } })
  if (withPeers) for (const peerUpdate of keystrokeUpdates) applyAwarenessUpdate(awareness, peerUpdate, 'remote')
  editor.setCursorBufferPosition([900, 10])
  return () => {
    const start = performance.now()
    for (let i = 0; i < KEYSTROKES; i++) editor.insertText('a')
    return (performance.now() - start) / KEYSTROKES
  }
}

if (HEAP_CHILD) {
  console.log(`heap per remote selection beyond its awareness state (${HEAP_PEERS} peers x ${SELECTIONS_PER_PEER} selections; target <= ${TARGET_BYTES} bytes):`)
  const heaps: number[] = []
  // The first rounds make what the code they run keeps (feedback, shapes): not the selections'.
  for (let round = 0; round < 2; round++) await heapPerSelection()
  for (let round = 1; round <= HEAP_ROUNDS; round++) {
    const bytes = await heapPerSelection()
    heaps.push(bytes)
    console.log(`  round ${round}: ${bytes.toFixed(1)} bytes`)
  }
  const bytes = median(heaps)
  console.log(`  median ${bytes.toFixed(1)} bytes, ${ratio(bytes / TARGET_BYTES)} the target: ${bytes <= TARGET_BYTES ? 'met' : 'NOT met'}`)
  process.exit(0)
}
const child = spawnSync(process.execPath, ['--jitless', '--no-expose-wasm', '--import', 'tsx', fileURLToPath(import.meta.url)], {
  stdio: 'inherit',
  env: { ...process.env, PEERS_HEAP_CHILD: '1' },
})
if (child.status !== 0) throw new Error(`the heap measurement failed (exit code ${child.status})`)

console.log(`keystroke with ${KEYSTROKE_PEERS * SELECTIONS_PER_PEER} remote selections vs none (${KEYSTROKES} keystrokes a round):`)
const ours = keystroke(true)
const baseline = keystroke(false)
for (let i = 0; i < 3; i++) {
  ours()
  baseline()
}
const a: number[] = []
const b: number[] = []
for (let round = 1; round <= ROUNDS; round++) {
  const o = ours()
  const base = baseline()
  a.push(o)
  b.push(base)
  console.log(`  round ${round}: ${fmt(o)} vs ${fmt(base)} (${ratio(o / base)})`)
}
console.log(`  median ${fmt(median(a))} vs ${fmt(median(b))}: ${ratio(median(a) / median(b))}`)
// The awarenesses' timers would keep the process alive.
process.exit(0)
