import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import type { ChangeSet } from '../../core/buffer/change-set.ts'
import {
  IdReverter,
  clientRunsFrom,
  clockBefore,
  deletedContentKept,
  diffSince,
  keepDeleted,
  keepTransactionDeletions,
  releaseDeleted,
  visibleClientRuns,
  forEachDeletedRange,
  forEachItemOfClient,
  forEachNewClockRange,
  hasPendingTransactions,
  isIdDeleted,
  isTransacting,
  itemOfType,
  joinNextChange,
  lastChangeTime,
  mergeStackItems,
  wasRedone,
} from '../../core/buffer/yjs-internals.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { transactionIds } from '../../core/buffer/ytext-changes.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/**
 * What Cotext reads of Yjs beyond its documented API (core/buffer/yjs-internals.ts and the two item
 * readers), checked against Yjs's own answers. The unit project runs it against the newest Yjs
 * installed; the `yjs-oldest` project runs the same file with `yjs` resolved to 13.6.0, the oldest
 * release the peer range `^13.6.0` allows.
 */
describe(`Yjs internals Cotext relies on (${process.env.COTEXT_YJS ?? 'newest installed Yjs'})`, () => {
  it('runs against the Yjs it says it runs against', async () => {
    const oldestName = 'yjs-oldest'
    const oldest = (await import(/* @vite-ignore */ oldestName)) as typeof Y
    expect(oldest.Doc === Y.Doc).toBe(process.env.COTEXT_YJS === 'yjs 13.6.0')
  })

  it('walks a client’s items by clock, and a transaction’s new clocks and deletions', () => {
    const doc = new Y.Doc()
    const text = doc.getText('text')
    text.insert(0, 'hello world')
    const seen: [number, number, number][] = []
    let deleted: [number, number, number][] = []
    let fresh: [number, number, number][] = []
    let before = -1
    let transacting = false
    let pending = false
    doc.on('afterTransaction', (transaction: Y.Transaction) => {
      fresh = []
      deleted = []
      forEachNewClockRange(transaction, (client, from, to) => fresh.push([client, from, to]))
      forEachDeletedRange(transaction, (client, clock, length) => deleted.push([client, clock, length]))
      before = clockBefore(transaction, doc.clientID)
      pending = hasPendingTransactions(doc)
    })
    doc.transact(() => {
      transacting = isTransacting(doc)
      text.delete(2, 3)
      text.insert(0, '>')
    })
    expect([transacting, isTransacting(doc), pending, hasPendingTransactions(doc)]).toEqual([true, false, true, false])
    expect(fresh).toEqual([[doc.clientID, 11, 12]])
    expect(deleted).toEqual([[doc.clientID, 2, 3]])
    expect(before).toBe(11)
    forEachItemOfClient(doc, doc.clientID, 0, 12, (item) => seen.push([item.id.clock, item.length, item.deleted ? 1 : 0]))
    expect(seen).toEqual([[0, 2, 0], [2, 3, 1], [5, 6, 0], [11, 1, 0]])
    expect([isIdDeleted(doc, Y.createID(doc.clientID, 3)), isIdDeleted(doc, Y.createID(doc.clientID, 6)), isIdDeleted(doc, Y.createID(doc.clientID, 99))]).toEqual([true, false, true])
  })

  it('names the item a nested text lives in, and none for a root text', () => {
    const doc = new Y.Doc()
    const map = doc.getMap('m')
    const nested = new Y.Text('x')
    map.set('t', nested)
    expect(itemOfType(doc.getText('root'))).toBe(null)
    expect(itemOfType(nested)!.parentSub).toBe('t')
  })

  it('follows Y.UndoManager’s capture clock, redone links and stack items', () => {
    const doc = new Y.Doc()
    const text = doc.getText('text')
    const um = new Y.UndoManager(text, { captureTimeout: 0 })
    text.insert(0, 'a')
    expect(lastChangeTime(um)).toBeGreaterThan(0)
    um.stopCapturing()
    expect(lastChangeTime(um)).toBe(0)
    joinNextChange(um)
    text.insert(1, 'b')
    expect(um.undoStack.length).toBe(1)
    um.captureTimeout = 0
    um.stopCapturing()
    text.insert(2, 'c')
    um.stopCapturing()
    text.insert(3, 'd')
    expect(um.undoStack.length).toBe(3)
    mergeStackItems(um.undoStack[1]!, [um.undoStack[2]!])
    um.undoStack.length = 2
    um.undo()
    expect(text.toString()).toBe('ab')
    const original = Y.createRelativePositionFromTypeIndex(text, 1)
    um.undo()
    um.redo()
    expect(text.toString()).toBe('ab')
    const item = Y.getItem(doc.store, original.item!) as Y.Item
    expect(wasRedone(item)).toBe(true)
  })

  it('lets the buffer read every transaction without Yjs’s delta and agree with Yjs (seeded fuzz)', () => {
    for (const seed of fuzzSeeds(3)) {
      console.log(`yjs conformance fuzz seed ${seed}`)
      const random = new Random(seed)
      const docs = [new Y.Doc(), new Y.Doc(), new Y.Doc()]
      const buffers = docs.map((doc) => new TextBuffer({ ytext: doc.getText('text') }))
      const sets: ChangeSet[] = []
      buffers[0]!.onDidChangeText((set) => sets.push(set))
      for (let round = 0; round < 80; round++) {
        const i = random.int(3)
        const buffer = buffers[i]!
        const length = buffer.getLength()
        const offset = random.int(length + 1)
        const deleteLength = random.int(Math.min(3, length - offset) + 1)
        buffer.setTextInRange([buffer.positionForCharacterIndex(offset), buffer.positionForCharacterIndex(offset + deleteLength)], random.pick(['a', 'bc', '\n', '😀']))
        if (random.bool(0.4)) {
          const from = docs[random.int(3)]!
          const to = docs[random.int(3)]!
          if (from !== to) Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)))
        }
      }
      for (const a of docs) for (const b of docs) if (a !== b) Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)))
      for (const [k, buffer] of buffers.entries()) {
        expect(buffer.getText(), `seed ${seed}`).toBe(docs[k]!.getText('text').toString())
        expect(buffer.slowReads, `seed ${seed}`).toBe(0)
        // Relative positions made from the index resolve where Yjs resolves them.
        for (let n = 0; n < 10; n++) {
          const offset = random.int(buffer.getLength() + 1)
          const position = buffer.relativePositionForOffset(offset, random.bool() ? -1 : 0)
          const absolute = Y.createAbsolutePositionFromRelativePosition(position, docs[k]!)
          expect(buffer.offsetForRelativePosition(position), `seed ${seed}`).toBe(absolute!.index)
        }
      }
      expect(sets.length).toBeGreaterThan(0)
    }
  })

  it('keeps deleted text for a revert, reverts chosen IDs, lets the text go, and diffs against an earlier state', () => {
    const doc = new Y.Doc()
    const text = doc.getText('text')
    text.insert(0, 'hello world')
    const client = doc.clientID
    const earlier = new Y.Doc()
    Y.applyUpdate(earlier, Y.encodeStateAsUpdate(doc))
    const world = [{ client, clock: 5, length: 6 }]
    // The change log keeps a deletion's text while Yjs has not collected it yet: on afterTransaction.
    let kept: ReturnType<typeof keepDeleted> | null = null
    const keep = () => (kept = keepDeleted(text, world))
    doc.on('afterTransaction', keep)
    text.delete(5, 6)
    doc.off('afterTransaction', keep)
    expect(kept).toEqual({ kept: world, chars: 6 })
    expect(deletedContentKept(text, world)).toBe(true)
    const peer = new Y.Doc()
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc))
    peer.getText('text').insert(0, 'P')
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(peer, Y.encodeStateVector(doc)))
    text.insert(0, 'X')
    expect(text.toString()).toBe('XPhello')
    expect(visibleClientRuns(text)).toEqual([{ client, length: 1 }, { client: peer.clientID, length: 1 }, { client, length: 5 }])
    expect(clientRunsFrom(text, { client, clock: 1 } as Y.ID, 3)).toEqual([{ client, length: 3 }])
    expect(diffSince(text, earlier)).toEqual({
      inserted: [{ from: 0, to: 1, client }, { from: 1, to: 2, client: peer.clientID }],
      deleted: [{ at: 7, text: ' world', client }],
    })
    // Revert the X and the deletion of ' world': the peer's P stays.
    const reverter = new IdReverter(text)
    expect(reverter.revert([{ client, clock: 11, length: 1 }], world)).toBe(true)
    expect(text.toString()).toBe('Phello world')
    releaseDeleted(text, world)
    expect(deletedContentKept(text, world)).toBe(false)
    reverter.destroy()
  })

  it('keeps a transaction’s deleted text in one pass as keepDeleted keeps its deleted IDs', () => {
    // Two copies of one text; one transaction on each deletes old text on both sides of a kept item,
    // text it inserted itself (never visible: nothing to keep), and a map entry (not the text's).
    const results: { kept: ReturnType<typeof keepDeleted>; ids: string }[] = []
    for (const onePass of [true, false]) {
      const doc = new Y.Doc()
      doc.clientID = 7
      const text = doc.getText('text')
      text.insert(0, 'abcdefgh')
      text.insert(8, 'ijkl')
      doc.getMap('m').set('k', 1)
      let kept: ReturnType<typeof keepDeleted> | null = null
      let ids = ''
      const keep = (transaction: Y.Transaction) => {
        ids = JSON.stringify(transactionIds(text, transaction))
        kept = onePass ? keepTransactionDeletions(text, transaction) : keepDeleted(text, transactionIds(text, transaction).deleted)
      }
      doc.on('afterTransaction', keep)
      doc.transact(() => {
        text.insert(2, 'XYZ')
        text.delete(1, 3)
        text.delete(7, 4)
        doc.getMap('m').delete('k')
      })
      doc.off('afterTransaction', keep)
      expect(text.toString()).toBe('aZcdefgl')
      results.push({ kept: kept!, ids })
    }
    expect(results[0]).toEqual(results[1])
    expect(results[0]!.kept).toEqual({ kept: [{ client: 7, clock: 1, length: 1 }, { client: 7, clock: 7, length: 4 }], chars: 5 })
  })

  it('keeps an editor’s undo, redo and checkpoints working', () => {
    const editor = new TextEditor({ text: 'one' })
    editor.setCursorBufferPosition([0, 3])
    editor.insertText(' two')
    const checkpoint = editor.createCheckpoint()
    editor.insertText(' three')
    editor.undo()
    editor.redo()
    expect(editor.revertToCheckpoint(checkpoint)).toBe(true)
    expect(editor.getText()).toBe('one two')
    editor.undo()
    expect([editor.getText(), editor.getCursorBufferPosition().toArray()]).toEqual(['one', [0, 3]])
  })
})
