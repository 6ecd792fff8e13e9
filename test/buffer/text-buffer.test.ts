import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import type { BufferChangeEvent } from '../../core/buffer/text-change.ts'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

function connect(a: Y.Doc, b: Y.Doc): void {
  a.on('update', (update: Uint8Array, origin: unknown) => origin !== b && Y.applyUpdate(b, update, a))
  b.on('update', (update: Uint8Array, origin: unknown) => origin !== a && Y.applyUpdate(a, update, b))
}

describe('TextBuffer', () => {
  it('reads rows, endings and ranges of mixed line endings', () => {
    const buffer = new TextBuffer({ text: 'one\r\ntwo\rthree\n' })
    expect(buffer.getLineCount()).toBe(4)
    expect(buffer.getLines()).toEqual(['one', 'two', 'three', ''])
    expect(buffer.lineEndingForRow(0)).toBe('\r\n')
    expect(buffer.lineEndingForRow(1)).toBe('\r')
    expect(buffer.lineEndingForRow(3)).toBe('')
    expect(buffer.rangeForRow(0, true)).toEqual(new Range([0, 0], [1, 0]))
    expect(buffer.rangeForRow(2, false)).toEqual(new Range([2, 0], [2, 5]))
    expect(buffer.rangeForRow(99, true)).toEqual(new Range([3, 0], [3, 0]))
    expect(buffer.getEndPosition()).toEqual(new Point(3, 0))
    expect(buffer.getTextInRange([[0, 1], [2, 2]])).toBe('ne\r\ntwo\rth')
  })

  it('clips positions out of range, inside \\r\\n and inside surrogate pairs', () => {
    const buffer = new TextBuffer({ text: 'ab\r\n😀x' })
    expect(buffer.clipPosition([0, 3])).toEqual(new Point(0, 2))
    expect(buffer.clipPosition([1, 1])).toEqual(new Point(1, 0))
    expect(buffer.clipPosition([-1, 5])).toEqual(new Point(0, 0))
    expect(buffer.clipPosition([9, 0])).toEqual(new Point(1, 3))
    expect(() => buffer.clipPosition([NaN, NaN])).toThrow('Invalid Point: (NaN, NaN)')
    expect(buffer.clipPosition([0, Infinity])).toEqual(new Point(0, 2))
    expect(buffer.positionForCharacterIndex(3)).toEqual(new Point(0, 2))
    expect(buffer.positionForCharacterIndex(5)).toEqual(new Point(1, 0))
    expect(buffer.characterIndexForPosition([1, 2])).toBe(6)
    expect(() => buffer.clipPosition('x' as never)).toThrow(TypeError)
  })

  it('edits in one transaction with its origin and reports sequential changes', () => {
    const buffer = new TextBuffer({ text: 'hello\nworld' })
    const events: BufferChangeEvent[] = []
    buffer.onDidChange((event) => events.push(event))
    buffer.setTextInRange([[0, 1], [1, 2]], 'EY\nWO')
    expect(buffer.getText()).toBe('hEY\nWOrld')
    expect(events).toHaveLength(1)
    expect(events[0]!.origin).toBe(buffer)
    expect(events[0]!.local).toBe(true)
    const [change] = events[0]!.changes
    expect(change!.oldRange).toEqual(new Range([0, 1], [1, 2]))
    expect(change!.newRange).toEqual(new Range([0, 1], [1, 2]))
    expect(change!.oldText).toBe('ello\nwo')
    expect(change!.newText).toBe('EY\nWO')
  })

  it('follows edits made directly to the Y.Text and by a remote doc', () => {
    const buffer = new TextBuffer({ text: 'abc' })
    buffer.ytext.insert(1, 'X\nY')
    expect(buffer.getLines()).toEqual(['aX', 'Ybc'])
    const remote = new Y.Doc()
    connect(buffer.doc, remote)
    Y.applyUpdate(remote, Y.encodeStateAsUpdate(buffer.doc))
    const seen: boolean[] = []
    buffer.onDidChange((event) => seen.push(event.local))
    remote.getText('text').insert(0, '>')
    expect(buffer.getLines()).toEqual(['>aX', 'Ybc'])
    expect(seen).toEqual([false])
  })

  it('runs hooks before public listeners and after-hooks after them', () => {
    const buffer = new TextBuffer()
    const order: string[] = []
    buffer.addAfterChangeHook('markers', () => order.push('after'))
    buffer.onDidChange(() => order.push('listener'))
    buffer.addChangeHook('markers', () => order.push('hook'))
    buffer.insert([0, 0], 'x')
    expect(order).toEqual(['hook', 'listener', 'after'])
  })

  it('normalises inserted line endings to the row ending unless asked not to', () => {
    const buffer = new TextBuffer({ text: 'a\r\nb' })
    buffer.insert([0, 1], 'x\ny\rz')
    expect(buffer.getText()).toBe('ax\r\ny\r\nz\r\nb')
    buffer.insert([0, 0], '1\n2', { normalizeLineEndings: false })
    expect(buffer.getText()).toBe('1\n2ax\r\ny\r\nz\r\nb')
    const plain = new TextBuffer({ text: 'no endings' })
    plain.append('\r\nend')
    expect(plain.getText()).toBe('no endings\r\nend')
  })

  it('deletes rows with their endings', () => {
    const buffer = new TextBuffer({ text: 'a\nb\nc' })
    buffer.deleteRows(2, 2)
    expect(buffer.getText()).toBe('a\nb')
    buffer.deleteRows(0, 0)
    expect(buffer.getText()).toBe('b')
  })

  for (const seed of fuzzSeeds(12)) {
    it(`keeps its index equal to the Y.Text under local, direct, remote and undo edits (seed ${seed})`, () => {
      const random = new Random(seed)
      const alphabet = ['a', 'b', 'c', ' ', '\n', '\r', '\r\n', '😀']
      const buffer = new TextBuffer({ text: random.string(40, alphabet) })
      const remoteDoc = new Y.Doc()
      connect(buffer.doc, remoteDoc)
      Y.applyUpdate(remoteDoc, Y.encodeStateAsUpdate(buffer.doc))
      const remoteText = remoteDoc.getText('text')
      const undo = new Y.UndoManager(buffer.ytext, { trackedOrigins: new Set([buffer]), captureTimeout: 0 })
      let shadow = buffer.getText()
      const remembered: Y.RelativePosition[] = []
      buffer.onDidChange((event) => {
        for (const change of event.changes) {
          expect(shadow.slice(change.startOffset, change.startOffset + change.oldLength)).toBe(change.oldText)
          shadow = shadow.slice(0, change.startOffset) + change.newText + shadow.slice(change.startOffset + change.oldLength)
        }
      })
      for (let step = 0; step < 120; step++) {
        const length = buffer.ytext.length
        const at = random.int(length + 1)
        const del = random.int(Math.min(6, length - at) + 1)
        const text = random.string(4, alphabet)
        const kind = random.int(6)
        if (kind === 0) buffer.setTextInRange([buffer.positionForCharacterIndex(at), buffer.positionForCharacterIndex(at + del)], text, { normalizeLineEndings: random.bool() })
        else if (kind === 1) buffer.doc.transact(() => {
          buffer.ytext.delete(at, del)
          buffer.ytext.insert(at, text)
          // A second, earlier edit in the same transaction exercises unsorted runs.
          if (at > 2) buffer.ytext.insert(random.int(at - 1), 'Q')
        })
        else if (kind === 2) remoteDoc.transact(() => {
          remoteText.delete(Math.min(at, remoteText.length), Math.min(del, Math.max(0, remoteText.length - at)))
          remoteText.insert(Math.min(at, remoteText.length), text)
        })
        else if (kind === 3) undo.undo()
        else if (kind === 4) undo.redo()
        else buffer.insert(buffer.positionForCharacterIndex(at), text)
        const probe = random.int(buffer.ytext.length + 1)
        const assoc = random.bool() ? -1 : 0
        const fast = buffer.relativePositionForOffset(probe, assoc)
        expect(Y.createAbsolutePositionFromRelativePosition(fast, buffer.doc)?.index).toBe(probe)
        const slow = Y.createRelativePositionFromTypeIndex(buffer.ytext, probe, assoc)
        expect(JSON.stringify(fast)).toBe(JSON.stringify(slow))
        // Resolving through remembered items agrees with Yjs, also for positions made steps ago.
        remembered.push(slow)
        for (const old of remembered.slice(-5)) {
          expect(buffer.offsetForRelativePosition(old)).toBe(Y.createAbsolutePositionFromRelativePosition(old, buffer.doc)?.index ?? null)
        }
        const expected = buffer.ytext.toString()
        if (buffer.getText() !== expected || shadow !== expected) {
          throw new Error(`seed ${seed}, step ${step}: index ${JSON.stringify(buffer.getText())} shadow ${JSON.stringify(shadow)} != ${JSON.stringify(expected)}`)
        }
      }
      expect(buffer.slowReads).toBe(0)
      expect(remoteText.toString()).toBe(buffer.ytext.toString())
    })
  }
})

describe('TextBuffer line-ending pairs', () => {
  const cases: [string, number, number, string, string][] = [
    // text, offset, deleteLength, insert, expected rows after
    ['a\rb', 2, 0, '\n', '["a","b"]'],
    ['a\rXb', 2, 1, '\n', '["a","b"]'],
    ['a\rX\nb', 2, 1, '', '["a","b"]'],
    ['a\r\nb', 2, 0, 'X', '["a","X","b"]'],
    ['a\nb', 1, 0, '\r', '["a","b"]'],
    ['a\r\nb', 1, 1, '', '["a","b"]'],
  ]
  for (const [text, offset, del, insert, rows] of cases) {
    it(`reports row extents that match the rows for ${JSON.stringify(text)} edited at ${offset}`, () => {
      const buffer = new TextBuffer({ text })
      let rowDelta = 0
      buffer.onDidChange((event) => {
        for (const change of event.changes) rowDelta += change.newExtent.row - change.oldExtent.row
      })
      const before = buffer.getLineCount()
      buffer.doc.transact(() => {
        buffer.ytext.delete(offset, del)
        buffer.ytext.insert(offset, insert)
      })
      expect(JSON.stringify(buffer.getLines())).toBe(rows)
      expect(before + rowDelta).toBe(buffer.getLineCount())
    })
  }
})
