import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer, type OffsetReplacement } from '../../core/buffer/text-buffer.ts'
import type { ChangeSet } from '../../core/buffer/change-set.ts'
import type { BufferChangeEvent } from '../../core/buffer/text-change.ts'
import { MarkerLayer } from '../../core/anchors/marker-layer.ts'
import { DisplayLayer } from '../../core/display/display-layer.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/** The fields of a change that say what it replaced, for exact comparisons. */
function summary(event: BufferChangeEvent): string[] {
  return event.changes.map((c) => `${c.startOffset}+${c.oldLength}->${c.newLength} [${c.startRow},${c.startColumn}]-[${c.oldEndRow},${c.oldEndColumn}]=>[${c.newEndRow},${c.newEndColumn}] ${JSON.stringify(c.oldText)}->${JSON.stringify(c.newText)}`)
}

describe('TextBuffer#setTextInOffsetRanges', () => {
  it('replaces every range, in one transaction and one pass through the pipeline, with one event per change', () => {
    const buffer = new TextBuffer({ text: 'abc\ndef\nghi' })
    const stages: string[][] = []
    buffer.addChangeHook('markers', (event) => stages.push(summary(event)))
    const events: string[][] = []
    const texts: string[] = []
    buffer.onDidChange((event) => {
      events.push(summary(event))
      texts.push(buffer.getText())
    })
    const sets: ChangeSet[] = []
    buffer.onDidChangeText((set) => sets.push(set))
    let transactions = 0
    buffer.doc.on('afterTransaction', () => transactions++)
    buffer.setTextInOffsetRanges([
      { from: 0, to: 1, text: 'X' },
      { from: 4, to: 4, text: 'Y\nY' },
      { from: 9, to: 11, text: '' },
    ])
    expect(buffer.getText()).toBe('Xbc\nY\nYdef\ng')
    expect(buffer.getLines()).toEqual(['Xbc', 'Y', 'Ydef', 'g'])
    expect(transactions).toBe(1)
    const all = ['0+1->1 [0,0]-[0,1]=>[0,1] "a"->"X"', '4+0->3 [1,0]-[1,0]=>[2,1] ""->"Y\\nY"', '12+2->0 [3,1]-[3,3]=>[3,1] "hi"->""']
    expect(stages).toEqual([all])
    expect(events).toEqual(all.map((change) => [change]))
    expect(texts).toEqual(['Xbc\nY\nYdef\ng', 'Xbc\nY\nYdef\ng', 'Xbc\nY\nYdef\ng'])
    expect(sets).toHaveLength(1)
    const set = sets[0]!
    expect([set.size, set.oldLength, set.newLength]).toEqual([3, 11, 12])
    const replacements: [number, number, number, number, string][] = []
    set.iterChanges((fromA, toA, fromB, toB, inserted) => replacements.push([fromA, toA, fromB, toB, inserted]))
    expect(replacements).toEqual([
      [0, 1, 0, 1, 'X'],
      [4, 4, 4, 7, 'Y\nY'],
      [9, 11, 12, 12, ''],
    ])
  })

  it('joins an open transaction and is one undo step, which a peer sees as one update', () => {
    const doc = new Y.Doc()
    const buffer = new TextBuffer({ ytext: doc.getText('text'), text: 'one two three' })
    const undo = new Y.UndoManager(buffer.ytext, { trackedOrigins: new Set([buffer]) })
    const peer = new Y.Doc()
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc))
    const updates: Uint8Array[] = []
    doc.on('update', (update: Uint8Array) => updates.push(update))
    buffer.transact(() => {
      buffer.setTextInOffsetRanges([{ from: 3, to: 3, text: '!' }, { from: 7, to: 7, text: '!' }])
      buffer.setTextInOffsetRanges([{ from: 0, to: 0, text: '>' }])
    })
    expect(buffer.getText()).toBe('>one! two! three')
    expect(updates).toHaveLength(1)
    Y.applyUpdate(peer, updates[0]!)
    expect(peer.getText('text').toString()).toBe('>one! two! three')
    expect(undo.undoStack).toHaveLength(1)
    undo.undo()
    expect(buffer.getText()).toBe('one two three')
  })

  it('refuses edits out of order, overlapping, outside the text or without text, changing nothing', () => {
    const buffer = new TextBuffer({ text: 'abcdef' })
    let changes = 0
    buffer.onDidChange(() => changes++)
    const bad: unknown[] = [
      [{ from: 3, to: 3, text: 'x' }, { from: 1, to: 1, text: 'y' }],
      [{ from: 1, to: 4, text: 'x' }, { from: 3, to: 5, text: 'y' }],
      [{ from: 5, to: 7, text: 'x' }],
      [{ from: -1, to: 0, text: 'x' }],
      [{ from: 2, to: 1, text: 'x' }],
      [{ from: 1.5, to: 2, text: 'x' }],
      [{ from: 1, to: 1, text: 'x' }, { from: 2, to: 2, text: 3 }],
      [null],
    ]
    for (const edits of bad) expect(() => buffer.setTextInOffsetRanges(edits as OffsetReplacement[])).toThrow(/edits must be sorted|edit\.text must be a string|each edit must be/)
    expect(buffer.getText()).toBe('abcdef')
    expect(changes).toBe(0)
  })

  it('takes touching ranges and insertions at one offset in the order given; empty edits change nothing', () => {
    const buffer = new TextBuffer({ text: 'abcdef' })
    let events = 0
    buffer.onDidChange(() => events++)
    buffer.setTextInOffsetRanges([
      { from: 1, to: 3, text: 'X' },
      { from: 3, to: 4, text: 'Y' },
      { from: 5, to: 5, text: '1' },
      { from: 5, to: 5, text: '2' },
      { from: 6, to: 6, text: '' },
    ])
    expect(buffer.getText()).toBe('aXYe12f')
    expect(events).toBe(4)
    buffer.setTextInOffsetRanges([])
    buffer.setTextInOffsetRanges([{ from: 2, to: 2, text: '' }])
    expect(events).toBe(4)
  })

  it('clips an offset inside a line ending pair or a surrogate pair back before it', () => {
    const buffer = new TextBuffer({ text: 'a\r\nb😀c' })
    const ends = buffer.setTextInOffsetRanges([
      { from: 2, to: 2, text: 'X' },
      { from: 5, to: 6, text: 'Y' },
    ])
    expect(buffer.getText()).toBe('aX\r\nbYc')
    expect(buffer.getLines()).toEqual(['aX', 'bYc'])
    expect(ends).toEqual([2, 6])
    expect(buffer.ytext.toString()).toBe(buffer.getText())
  })

  for (const seed of fuzzSeeds(10)) {
    it(`leaves the text, the rows, the layout and the markers as the same edits written one by one (seed ${seed})`, () => {
      const random = new Random(seed)
      const alphabet = ['a', 'b', ' ', '\n', '\r\n', '\r', '\t', '😀']
      const text = random.string(40, alphabet)
      const batched = new TextBuffer({ text })
      const single = new TextBuffer({ text })
      const batchedLayer = new DisplayLayer(batched, { softWrapped: true, editorWidthInChars: 6 })
      const singleLayer = new DisplayLayer(single, { softWrapped: true, editorWidthInChars: 6 })
      const batchedMarkers = new MarkerLayer(batched, batchedLayer)
      const singleMarkers = new MarkerLayer(single, singleLayer)
      for (let i = 0; i < 6; i++) {
        const a = random.int(text.length + 1)
        const b = random.int(text.length + 1)
        batchedMarkers.markOffsets(a, b, { invalidate: 'never' })
        singleMarkers.markOffsets(a, b, { invalidate: 'never' })
      }
      for (let step = 0; step < 30; step++) {
        // Ends at positions (not inside a '\r\n' or a surrogate pair), the edits apart: then each end is a
        // position in the text the earlier edits leave too, and the reference below can address it.
        const length = batched.getLength()
        const valid = (offset: number) => batched.characterIndexForPosition(batched.positionForCharacterIndex(offset)) === offset
        const cuts = [...new Set(Array.from({ length: 2 * (1 + random.int(4)) }, () => random.int(length + 1)).filter(valid))].sort((x, y) => x - y)
        const edits: OffsetReplacement[] = []
        for (let i = 0; i + 1 < cuts.length; i += 3) edits.push({ from: cuts[i]!, to: random.bool() ? cuts[i]! : cuts[i + 1]!, text: random.string(3, alphabet) })
        const ends = batched.setTextInOffsetRanges(edits)
        // The reference: the same edits one by one, left to right in one transaction, each a write of its own
        // that runs the pipeline (what a multi-cursor command did before).
        const expectedEnds: number[] = []
        single.transact(() => {
          let shift = 0
          for (const { from, to, text: inserted } of edits) {
            const range = [single.positionForCharacterIndex(from + shift), single.positionForCharacterIndex(to + shift)] as const
            single.setTextInRange(range, inserted, { normalizeLineEndings: false })
            expectedEnds.push(from + shift + inserted.length)
            shift += inserted.length - (to - from)
          }
        })
        expect(ends).toEqual(expectedEnds)
        const what = `seed ${seed}, step ${step}: ${JSON.stringify(edits)}`
        expect(batched.getText(), what).toBe(single.getText())
        expect(batched.getLines(), what).toEqual(single.getLines())
        const lines = (layer: DisplayLayer) => Array.from({ length: layer.getScreenLineCount() }, (_, row) => layer.lineTextForScreenRow(row))
        expect(lines(batchedLayer), what).toEqual(lines(singleLayer))
        expect(new TextBuffer({ text: batched.getText() }).getLines(), what).toEqual(batched.getLines())
        expect(batched.ytext.toString(), what).toBe(batched.getText())
        const markerEnds = (layer: MarkerLayer) => layer.getMarkers().map((m) => [m.headOffset, m.tailOffset])
        expect(markerEnds(batchedMarkers), what).toEqual(markerEnds(singleMarkers))
      }
    })
  }
})
