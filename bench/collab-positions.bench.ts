/**
 * Relative positions on a 1 MB document fragmented by 100,000 random single-character inserts
 * (about 200,000 Y.Text items):
 * - 1,000 created and resolved at random offsets through the TextBuffer (what the undo snapshot and
 *   publishing our cursors do), against Yjs's own functions (target: <= 5 ms in all);
 * - peers publishing 10 new selections each to an editor that already shows 500 remote selections
 *   (target: <= 50 µs per selection).
 * Run: npx tsx bench/collab-positions.bench.ts
 */
import * as Y from 'yjs'
import { Awareness, applyAwarenessUpdate } from 'y-protocols/awareness'
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { TextEditor } from '../core/editor/text-editor.ts'
import { docFrom, fragmentedUpdate, peerUpdates, prng } from './documents.ts'
import { allocation, bytes, fmt, median } from './measure.ts'

const POSITIONS = 1000
const PUBLISHERS = 20
const PER_PEER = 10

const random = prng(7)
const { update, items } = fragmentedUpdate(random)
const doc = docFrom(update)
const buffer = new TextBuffer({ ytext: doc.getText('text') })
const length = buffer.getLength()
const ROUNDS = 15
const rounds: { ms: number; bytes: number }[] = []
// Three rounds warm up (the JIT, and the collector still marking the heap built for the document).
for (let round = -3; round < ROUNDS; round++) {
  const offsets = Array.from({ length: POSITIONS }, () => Math.floor(random() * (length + 1)))
  const result = allocation(() => {
    for (const offset of offsets) {
      const assoc = offset % 2 === 0 ? -1 : 0
      const resolved = buffer.offsetForRelativePosition(buffer.relativePositionForOffset(offset, assoc))
      if (resolved !== offset) throw new Error(`offset ${offset} came back as ${resolved}`)
    }
  })
  if (round >= 0) rounds.push(result)
}
const ours = { ms: median(rounds.map((r) => r.ms)), bytes: median(rounds.map((r) => r.bytes)) }
const offsets = Array.from({ length: POSITIONS }, () => Math.floor(random() * (length + 1)))
// Yjs's own functions walk the item list; a tenth of the positions is enough to know their cost.
const yjsCount = POSITIONS / 10
const yjs = allocation(() => {
  for (const offset of offsets.slice(0, yjsCount)) {
    const assoc = offset % 2 === 0 ? -1 : 0
    const relative = Y.createRelativePositionFromTypeIndex(buffer.ytext, offset, assoc)
    Y.createAbsolutePositionFromRelativePosition(relative, doc)
  }
})
console.log(
  `collab: ${POSITIONS.toLocaleString('en')} relative positions created and resolved at random offsets (${items.toLocaleString('en')} items): ${fmt(ours.ms)} in all, median of ${ROUNDS} rounds (${rounds.map((r) => fmt(r.ms)).join(', ')}; target <= 5 ms), ` +
    `${bytes(ours.bytes / POSITIONS)} allocated each; Yjs's own functions: ${fmt((yjs.ms / yjsCount) * POSITIONS)} for ${POSITIONS.toLocaleString('en')} (measured on ${yjsCount})`,
)

// Peers publishing new selections to an editor that shows 50 peers x 10 selections already.
const editorDoc = docFrom(update)
const awareness = new Awareness(editorDoc)
const editor = new TextEditor({ doc: editorDoc, awareness, user: { name: 'me', color: '#d81b60' } })
for (const peerUpdate of peerUpdates(update, random, 50, 10).updates) applyAwarenessUpdate(awareness, peerUpdate, 'remote')
const publishing = peerUpdates(update, random, PUBLISHERS, PER_PEER, 1000).updates
const received = allocation(() => {
  for (const peerUpdate of publishing) applyAwarenessUpdate(awareness, peerUpdate, 'remote')
})
const remote = editor.getPeers().reduce((n, peer) => n + peer.getCursors().length, 0)
if (remote !== 500 + PUBLISHERS * PER_PEER) throw new Error(`expected ${500 + PUBLISHERS * PER_PEER} remote selections, got ${remote}`)
const selections = PUBLISHERS * PER_PEER
console.log(
  `collab: a peer publishing ${PER_PEER} new selections (to an editor showing 500): ${fmt(received.ms / selections)} per selection (target <= 50 µs), ${bytes(received.bytes / selections)} allocated each`,
)
editor.destroy()
awareness.destroy()
buffer.destroy()
