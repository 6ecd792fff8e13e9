/**
 * One keystroke in an editor that shows 50 peers x 10 cursors, on a 1 MB document fragmented by
 * 100,000 random single-character inserts, against:
 * - the same insert on a bare Y.Text (target <= 2x), and
 * - that insert followed by re-resolving every remote relative position, anchor and head, which is
 *   what y-codemirror.next does on each view update (expected >= 50x slower than ours).
 * A second line splits our keystroke: the same editor without an awareness shows what the
 * collaboration layer (publishing, mapping 500 remote markers) adds to the editor's own cost; and
 * times a peer's keystroke arriving (its doc update, then its new cursor, resolved once).
 * Run: npx tsx bench/collab-keystroke.bench.ts
 */
import * as Y from 'yjs'
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness'
import { TextEditor } from '../core/editor/text-editor.ts'
import { relativePositionJSON } from '../core/collab/awareness-state.ts'
import { fmt, median, ratio } from './measure.ts'

const BASE = 900_000
const INSERTS = 100_000
const PEERS = 50
const CURSORS_PER_PEER = 10
const KEYSTROKES = 500
const RERESOLVE_KEYSTROKES = 3
const RUNS = 7
const REMOTE_KEYSTROKES = 200

/** mulberry32: a seeded PRNG, so every run builds the same document and cursors. */
function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * 900 KB of lines written by one client, then 100,000 single characters at random places inserted
 * by another, which splits the text into about 200,000 items. The places are drawn at random and
 * applied in text order (each shifted by the characters inserted before it): the same fragments as
 * a random order, without Yjs walking far through the text for every insert.
 */
function fragmentedUpdate(random: () => number): { update: Uint8Array; items: number } {
  const author = new Y.Doc()
  author.clientID = 1
  const line = 'the quick brown fox jumps over the lazy dog, 0123456789, lorem ipsum dolor sit amet\n'
  author.getText('text').insert(0, line.repeat(Math.ceil(BASE / line.length)).slice(0, BASE))
  const doc = new Y.Doc()
  doc.clientID = 2
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(author))
  const ytext = doc.getText('text')
  const places = Array.from({ length: INSERTS }, () => Math.floor(random() * (BASE + 1))).sort((a, b) => a - b)
  places.forEach((place, i) => ytext.insert(place + i, String.fromCharCode(97 + (i % 26))))
  let items = 0
  for (let item = ytext._start; item !== null; item = item.right) items++
  return { update: Y.encodeStateAsUpdate(doc), items }
}

function docFrom(update: Uint8Array): Y.Doc {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, update)
  return doc
}

/** Awareness updates from 50 clients, each publishing 10 selections as the editor does. */
function peerUpdates(update: Uint8Array, random: () => number): { updates: Uint8Array[]; positions: Y.RelativePosition[] } {
  const doc = docFrom(update)
  const ytext = doc.getText('text')
  const updates: Uint8Array[] = []
  const positions: Y.RelativePosition[] = []
  for (let p = 0; p < PEERS; p++) {
    const selections = Array.from({ length: CURSORS_PER_PEER }, () => {
      const head = Math.floor(random() * ytext.length)
      const anchor = random() < 0.5 ? head : Math.max(0, head - Math.floor(random() * 40))
      const a = Y.createRelativePositionFromTypeIndex(ytext, anchor, -1)
      const h = Y.createRelativePositionFromTypeIndex(ytext, head, -1)
      positions.push(a, h)
      return { anchor: relativePositionJSON(a), head: relativePositionJSON(h) }
    })
    const peerDoc = new Y.Doc()
    peerDoc.clientID = 100 + p
    const awareness = new Awareness(peerDoc)
    awareness.setLocalState({ user: { name: `peer ${p}`, color: '#30bced' }, cursor: selections[selections.length - 1], selections })
    updates.push(encodeAwarenessUpdate(awareness, [peerDoc.clientID]))
    awareness.destroy()
  }
  return { updates, positions }
}

const random = prng(20240611)
let start = performance.now()
const { update, items } = fragmentedUpdate(random)
const { updates, positions } = peerUpdates(update, random)
const buildMs = performance.now() - start

// Ours: an editor with an awareness showing every peer, typing in the middle of the document.
const doc = docFrom(update)
const awareness = new Awareness(doc)
const editor = new TextEditor({ doc, awareness, user: { name: 'me', color: '#d81b60' } })
start = performance.now()
for (const peerUpdate of updates) applyAwarenessUpdate(awareness, peerUpdate, 'remote')
const joinMs = performance.now() - start
const remoteCursors = editor.getPeers().reduce((n, peer) => n + peer.getCursors().length, 0)
if (remoteCursors !== PEERS * CURSORS_PER_PEER) throw new Error(`expected ${PEERS * CURSORS_PER_PEER} remote cursors, got ${remoteCursors}`)

// The same editor without an awareness, and the same keystrokes on a bare Y.Text.
const solo = new TextEditor({ doc: docFrom(update) })
const bareText = docFrom(update).getText('text')

// Each run types a burst of prose (line breaks included, so lines stay short) at a new random place.
const PROSE = 'Pack my box with five dozen liquor jugs; the quick brown fox jumps over the lazy dog.\n'
const keys = Array.from({ length: KEYSTROKES }, (_, i) => PROSE[i % PROSE.length]!)
const typeIn = (target: TextEditor) => () => {
  for (const key of keys) target.insertText(key)
}
let bareOffset = 0
const workloads = [
  { place: (offset: number) => editor.setCursorBufferPosition(editor.getBuffer().positionForCharacterIndex(offset)), run: typeIn(editor) },
  { place: (offset: number) => solo.setCursorBufferPosition(solo.getBuffer().positionForCharacterIndex(offset)), run: typeIn(solo) },
  {
    place: (offset: number) => (bareOffset = offset),
    run: () => {
      for (const key of keys) bareText.insert(bareOffset++, key)
    },
  },
]
// Run by run, interleaved, so that drifting load on a shared machine hits all three alike.
const samples: number[][] = workloads.map(() => [])
for (let run = -1; run < RUNS; run++) {
  const offset = Math.floor(random() * BASE)
  workloads.forEach(({ place, run: type }, i) => {
    place(offset)
    const t = performance.now()
    type()
    if (run >= 0) samples[i]!.push((performance.now() - t) / KEYSTROKES)
  })
}
const [ours, alone, bare] = samples.map(median) as [number, number, number]

// What a view that re-resolves every remote position per update pays, on top of the insert.
const resolveDoc = docFrom(update)
const resolveText = resolveDoc.getText('text')
let resolveOffset = 500_000
const reresolve: number[] = []
for (let i = 0; i < RERESOLVE_KEYSTROKES; i++) {
  const t = performance.now()
  resolveText.insert(resolveOffset++, 'x')
  for (const position of positions) Y.createAbsolutePositionFromRelativePosition(position, resolveDoc)
  reresolve.push(performance.now() - t)
}
const naive = median(reresolve)

console.log(
  `collab: keystroke on fragmented 1 MB doc with ${remoteCursors} remote cursors: ${ratio(ours / bare)} bare Y.Text insert (${fmt(ours)} vs ${fmt(bare)}; target <= 2x); ` +
    `${(naive / ours).toFixed(0)}x faster than re-resolving every remote position (${fmt(naive)}; expected >= 50x)`,
)
console.log(
  `collab: of that keystroke, collaboration (publishing the cursor, mapping ${remoteCursors} remote markers) adds ${fmt(Math.max(0, ours - alone))}; ` +
    `the same editor without an awareness takes ${fmt(alone)} (${ratio(alone / bare)} bare)`,
)
// A peer types: its update arrives, then its awareness state with the cursor after its new character.
const typist = new Y.Doc()
typist.clientID = 99
Y.applyUpdate(typist, Y.encodeStateAsUpdate(doc))
const typistText = typist.getText('text')
const typistAwareness = new Awareness(typist)
const incoming: [Uint8Array, Uint8Array][] = []
let typistOffset = Math.floor(typistText.length / 3)
for (let i = 0; i < REMOTE_KEYSTROKES; i++) {
  const before = Y.encodeStateVector(typist)
  typistText.insert(typistOffset++, PROSE[i % PROSE.length]!)
  // The character just typed is the typist's last item: its position needs no search.
  const head = { type: null, tname: 'text', item: { client: typist.clientID, clock: Y.getState(typist.store, typist.clientID) - 1 }, assoc: -1 }
  typistAwareness.setLocalState({ user: { name: 'typist', color: '#000' }, cursor: { anchor: head, head }, selections: [{ anchor: head, head }] })
  incoming.push([Y.encodeStateAsUpdate(typist, before), encodeAwarenessUpdate(typistAwareness, [typist.clientID])])
}
typistAwareness.destroy()
start = performance.now()
for (const [docUpdate, awarenessUpdate] of incoming) {
  Y.applyUpdate(doc, docUpdate, 'remote')
  applyAwarenessUpdate(awareness, awarenessUpdate, 'remote')
}
const remoteKeystroke = (performance.now() - start) / REMOTE_KEYSTROKES
const typistSeen = editor.getPeers().find((peer) => peer.clientId === typist.clientID)!.getLastCursor()!
if (editor.getBuffer().characterIndexForPosition(typistSeen.getBufferPosition()) !== typistOffset) throw new Error('the typist’s cursor is not where the typist is')
console.log(
  `collab: a peer's keystroke arriving (doc update, then its new cursor resolved once among ${items.toLocaleString('en')} items): ${fmt(remoteKeystroke)}`,
)
console.log(
  `collab: setup: ${items.toLocaleString('en')} Y.Text items, ${(resolveText.length / 1e6).toFixed(2)} M characters; built in ${fmt(buildMs)}; ${PEERS} peers joined (${positions.length} positions resolved once) in ${fmt(joinMs)}`,
)
editor.destroy()
solo.destroy()
awareness.destroy()
