import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/*
 * The content index (core/buffer/content-index.ts) answers offset -> item ID and item ID -> offset
 * without walking the Y.Text's items. Yjs stays the source of truth: these tests check every answer
 * the buffer gives through the index against Yjs's own functions.
 */

// No astral characters: where Yjs turns a split surrogate pair into U+FFFD the buffer's mirror can differ
// (a known gap of the mirror, not of the index, which never looks at content).
const ALPHABET = ['a', 'b', 'c', ' ', 'xyz', '\n', 'hello ', 'é']

interface Peer {
  doc: Y.Doc
  buffer: TextBuffer
  undo: Y.UndoManager | null
}

function makePeer(client: number, withUndo: boolean, update?: Uint8Array, gc = true): Peer {
  const doc = new Y.Doc({ gc })
  doc.clientID = client
  if (update) Y.applyUpdate(doc, update)
  const buffer = new TextBuffer({ ytext: doc.getText('text') })
  const undo = withUndo ? new Y.UndoManager(buffer.ytext, { trackedOrigins: new Set([buffer.origin]), captureTimeout: 0 }) : null
  return { doc, buffer, undo }
}

function same(actual: unknown, expected: unknown, what: string): void {
  if (actual !== expected) throw new Error(`${what}: got ${String(actual)}, Yjs says ${String(expected)}`)
}

/** Every relative position the buffer makes and resolves agrees with Yjs's, and so do IDs of every item. */
function checkAgainstYjs(peer: Peer, random: Random): void {
  const { doc, buffer } = peer
  const ytext = buffer.ytext
  expect(buffer.getText()).toBe(ytext.toString())
  expect(buffer.slowReads).toBe(0)
  const length = ytext.length
  for (let offset = 0; offset <= length; offset++) {
    for (const assoc of [-1, 0]) {
      const ours = buffer.relativePositionForOffset(offset, assoc)
      const theirs = Y.createRelativePositionFromTypeIndex(ytext, offset, assoc)
      const what = `position at ${offset} (assoc ${assoc})`
      same(ours.item?.client, theirs.item?.client, `${what}: client`)
      same(ours.item?.clock, theirs.item?.clock, `${what}: clock`)
      same(ours.assoc, theirs.assoc, `${what}: assoc`)
      same(ours.tname, theirs.tname, `${what}: tname`)
      same(buffer.offsetForRelativePosition(ours), offset, `offset of the ${what}`)
    }
  }
  // Positions bound to every item's first and last character, deleted and garbage-collected ones too.
  for (let item = ytext._start; item !== null; item = item.right) {
    for (const clock of [item.id.clock, item.id.clock + item.length - 1]) {
      const assoc = random.bool() ? -1 : 0
      const position = new Y.RelativePosition(null, 'text', Y.createID(item.id.client, clock), assoc)
      for (const followRedone of [true, false]) {
        const expected = Y.createAbsolutePositionFromRelativePosition(position, doc, followRedone)
        const actual = buffer.offsetForRelativePosition(position, { followRedone })
        same(actual, expected === null || expected.type !== ytext ? null : expected.index, `offset of ${item.id.client}:${clock} (assoc ${assoc}, followRedone ${followRedone})`)
      }
    }
  }
}

function randomEdit(peer: Peer, random: Random): void {
  const { buffer } = peer
  const length = buffer.getLength()
  const start = random.int(length + 1)
  const end = Math.min(length, start + (random.bool(0.4) ? random.int(6) : 0))
  const text = random.bool(0.7) ? random.string(3, ALPHABET) : ''
  const range = [buffer.positionForCharacterIndex(start), buffer.positionForCharacterIndex(end)] as const
  buffer.setTextInRange([range[0], range[1]], text, { normalizeLineEndings: false })
}

/** A transaction on the Y.Text that does not come from the buffer: several edits, some undone at once. */
function foreignTransaction(peer: Peer, random: Random): void {
  const ytext = peer.buffer.ytext
  peer.doc.transact(() => {
    for (let n = 1 + random.int(3); n > 0; n--) {
      const offset = random.int(ytext.length + 1)
      if (random.bool(0.6)) {
        const text = random.string(4, ALPHABET) || 'q'
        ytext.insert(offset, text)
        // Inserted and deleted in the same transaction: items that were never visible.
        if (random.bool(0.2)) ytext.delete(offset, text.length)
      } else {
        ytext.delete(offset, Math.min(ytext.length - offset, 1 + random.int(4)))
      }
    }
  }, 'foreign')
}

function run(seed: number): void {
  const random = new Random(seed)
  const peers = [makePeer(1, true), makePeer(2, true, undefined, false), makePeer(3, false)]
  // Updates each peer has produced and not yet delivered to each other peer: delivered out of order.
  const outbox = new Map<Peer, Map<Peer, Uint8Array[]>>()
  const listen = (peer: Peer) => {
    const queues = new Map<Peer, Uint8Array[]>()
    outbox.set(peer, queues)
    peer.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === 'sync') return
      for (const other of peers) if (other !== peer) (queues.get(other) ?? queues.set(other, []).get(other)!).push(update)
    })
  }
  peers.forEach(listen)
  peers[0]!.buffer.setText('the quick brown fox\njumps over\nthe lazy dog')
  for (let step = 0; step < 100; step++) {
    const peer = random.pick(peers)
    const action = random.int(100)
    if (action < 35) randomEdit(peer, random)
    else if (action < 45) peer.buffer.transact(() => randomEdit(peer, random) ?? randomEdit(peer, random))
    else if (action < 55) foreignTransaction(peer, random)
    else if (action < 75) {
      // Deliver some pending updates to a peer, in a random order (Yjs holds the ones that come early).
      const from = random.pick(peers.filter((other) => other !== peer))
      const queue = outbox.get(from)?.get(peer) ?? []
      const count = random.int(queue.length + 1)
      for (let i = 0; i < count; i++) {
        const [update] = queue.splice(random.int(queue.length), 1)
        Y.applyUpdate(peer.doc, update!, 'remote')
      }
    } else if (action < 85 && peer.undo) {
      if (random.bool()) peer.undo.undo()
      else peer.undo.redo()
    } else if (action < 90) {
      // Full sync of two peers.
      const other = random.pick(peers.filter((p) => p !== peer))
      Y.applyUpdate(other.doc, Y.encodeStateAsUpdate(peer.doc, Y.encodeStateVector(other.doc)), 'sync')
      Y.applyUpdate(peer.doc, Y.encodeStateAsUpdate(other.doc, Y.encodeStateVector(peer.doc)), 'sync')
    } else if (action < 95) {
      // A document loaded from an update: the index built from the item list, or filled by one transaction.
      const index = peers.indexOf(peer)
      const update = Y.encodeStateAsUpdate(peer.doc)
      peer.buffer.destroy()
      peer.undo?.destroy()
      let fresh: Peer
      if (random.bool()) fresh = makePeer(10 + step, false, update)
      else {
        fresh = makePeer(10 + step, false)
        Y.applyUpdate(fresh.doc, update, 'remote')
      }
      peers[index] = fresh
      outbox.delete(peer)
      for (const queues of outbox.values()) queues.set(fresh, [...(queues.get(peer) ?? [])])
      listen(fresh)
    } else {
      randomEdit(peer, random)
    }
    for (const checked of peers) checkAgainstYjs(checked, random)
  }
}

describe('content index fuzz', () => {
  for (const seed of fuzzSeeds(10)) {
    it(`agrees with Yjs on every relative position (seed ${seed})`, () => {
      try {
        run(seed)
      } catch (error) {
        throw new Error(`content index fuzz failed for seed ${seed} (rerun with FUZZ_SEED=${seed}): ${(error as Error).message}`, { cause: error })
      }
    })
  }
})

describe('content index', () => {
  it('resolves positions on a fragmented document loaded from an update', () => {
    const author = new Y.Doc()
    const text = author.getText('text')
    text.insert(0, 'abcdefghij'.repeat(50))
    const random = new Random(5)
    for (let i = 0; i < 200; i++) {
      const editor = new Y.Doc()
      editor.clientID = 100 + i
      Y.applyUpdate(editor, Y.encodeStateAsUpdate(author))
      editor.getText('text').insert(random.int(text.length + 1), 'XY')
      if (i % 4 === 0) editor.getText('text').delete(random.int(text.length), 3)
      Y.applyUpdate(author, Y.encodeStateAsUpdate(editor, Y.encodeStateVector(author)))
    }
    const peer = makePeer(7, false, Y.encodeStateAsUpdate(author))
    checkAgainstYjs(peer, random)
    // Typing at a position continues one run: the same answers after 50 keystrokes.
    for (let i = 0; i < 50; i++) peer.buffer.insert(peer.buffer.positionForCharacterIndex(123 + i), 'k')
    checkAgainstYjs(peer, random)
    expect(peer.buffer.getTextBetweenOffsets(123, 173)).toBe('k'.repeat(50))
  })
})
