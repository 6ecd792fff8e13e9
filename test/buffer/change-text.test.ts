import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import type { ChangeSet } from '../../core/buffer/change-set.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/** Applies a change set's replacements (new coordinates) to the old text. */
function applySet(text: string, set: ChangeSet): string {
  let out = ''
  let pos = 0
  set.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    out += text.slice(pos, fromA) + inserted
    pos = toA
  })
  return out + text.slice(pos)
}

function totalLength(ids: readonly { length: number }[]): number {
  return ids.reduce((sum, id) => sum + id.length, 0)
}

function record(buffer: TextBuffer): { sets: ChangeSet[]; textsSeen: string[] } {
  const sets: ChangeSet[] = []
  const textsSeen: string[] = []
  buffer.onDidChangeText((set) => {
    sets.push(set)
    textsSeen.push(buffer.getText())
  })
  return { sets, textsSeen }
}

describe('TextBuffer.onDidChangeText', () => {
  it('reports a local edit once, with its author, time and inserted IDs, after the buffer is current', () => {
    let now = 1000
    const buffer = new TextBuffer({ text: 'hello', clock: () => now })
    const { sets, textsSeen } = record(buffer)
    now = 2500
    buffer.insert([0, 5], ' world')
    expect(sets).toHaveLength(1)
    const set = sets[0]!
    expect([set.origin, set.author, set.time, set.transactionOrigin]).toEqual(['local', buffer.doc.clientID, 2500, buffer])
    expect([set.size, set.fromA(0), set.toA(0), set.fromB(0), set.toB(0), set.inserted(0)]).toEqual([1, 5, 5, 5, 11, ' world'])
    // 'hello' took clocks 0..4 of this client; ' world' is 5..10.
    expect(set.insertedIds).toEqual([{ client: buffer.doc.clientID, clock: 5, length: 6 }])
    expect(set.deletedIds).toEqual([])
    expect(textsSeen).toEqual(['hello world'])
  })

  it('reports a transaction of several edits, made in any order, as one change set', () => {
    const buffer = new TextBuffer({ text: 'abcdefghij' })
    const client = buffer.doc.clientID
    const { sets } = record(buffer)
    const before = buffer.getText()
    buffer.transact(() => {
      buffer.insert([0, 8], 'X')
      buffer.delete([[0, 2], [0, 4]])
      buffer.insert([0, 0], 'YY')
    })
    expect(sets).toHaveLength(1)
    const set = sets[0]!
    expect(applySet(before, set)).toBe(buffer.getText())
    expect(buffer.getText()).toBe('YYabefghXij')
    expect([set.size, set.oldLength, set.newLength]).toEqual([3, 10, 11])
    // 'X' took clock 10 and 'YY' 11..12: one range of IDs, though the replacements are apart.
    expect(set.insertedIds).toEqual([{ client, clock: 10, length: 3 }])
    expect(set.deletedIds).toEqual([{ client, clock: 2, length: 2 }])
    expect(set.mapPos(9)).toBe(10)
    expect(set.mapPos(3, 1)).toBe(4)
  })

  it('reports a remote update with the inserting client as author and the deleted IDs', () => {
    const a = new Y.Doc()
    const b = new Y.Doc()
    const bufferA = new TextBuffer({ ytext: a.getText('text'), text: 'one two three', clock: () => 7 })
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a))
    const bufferB = new TextBuffer({ ytext: b.getText('text') })
    const { sets } = record(bufferA)
    const provider = { name: 'provider' }
    const vector = Y.encodeStateVector(a)
    bufferB.transact(() => {
      bufferB.delete([[0, 4], [0, 8]])
      bufferB.insert([0, 0], '>> ')
    })
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b, vector), provider)
    expect(bufferA.getText()).toBe('>> one three')
    expect(sets).toHaveLength(1)
    const set = sets[0]!
    expect([set.origin, set.author, set.time, set.transactionOrigin]).toEqual(['remote', b.clientID, 7, provider])
    expect(applySet('one two three', set)).toBe('>> one three')
    expect(set.insertedIds).toEqual([{ client: b.clientID, clock: 0, length: 3 }])
    expect(set.deletedIds).toEqual([{ client: a.clientID, clock: 4, length: 4 }])
  })

  it('reports a remote deletion alone with author 0 (a delete set does not say who deleted)', () => {
    const a = new Y.Doc()
    const b = new Y.Doc()
    const bufferA = new TextBuffer({ ytext: a.getText('text'), text: 'abc' })
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a))
    const { sets } = record(bufferA)
    const vector = Y.encodeStateVector(a)
    b.getText('text').delete(1, 1)
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b, vector))
    expect(sets.map((s) => [s.origin, s.author, s.deletedIds])).toEqual([['remote', 0, [{ client: a.clientID, clock: 1, length: 1 }]]])
  })

  it('gives a 10-cursor keystroke of an editor as one change set', () => {
    const editor = new TextEditor({ text: Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n') })
    editor.setCursorBufferPosition([0, 4])
    for (let row = 1; row < 10; row++) editor.addCursorAtBufferPosition([row, 4])
    const sets: ChangeSet[] = []
    editor.onDidChangeText((set) => sets.push(set))
    editor.insertText('!')
    expect(sets).toHaveLength(1)
    expect(sets[0]!.size).toBe(10)
    expect(sets[0]!.transactionOrigin).toBe(editor)
    expect(editor.lineTextForBufferRow(9)).toBe('line! 9')
  })

  it('says nothing for a transaction that leaves the text as it was, or changes another type', () => {
    const buffer = new TextBuffer({ text: 'abc' })
    const { sets } = record(buffer)
    buffer.transact(() => {
      buffer.insert([0, 1], 'x')
      buffer.delete([[0, 1], [0, 2]])
    })
    buffer.doc.getMap('other').set('k', 1)
    expect(buffer.getText()).toBe('abc')
    expect(sets).toEqual([])
  })

  it("rethrows a listener's error after Yjs has sent the update, and keeps notifying the others", () => {
    const buffer = new TextBuffer({ text: 'abc' })
    const updates: Uint8Array[] = []
    buffer.doc.on('update', (update: Uint8Array) => updates.push(update))
    const failing = buffer.onDidChangeText(() => {
      throw new Error('listener failed')
    })
    const { sets } = record(buffer)
    expect(() => buffer.insert([0, 0], 'x')).toThrow('listener failed')
    expect(updates).toHaveLength(1)
    expect(sets).toHaveLength(1)
    failing.dispose()
    buffer.insert([0, 0], 'y')
    expect([updates.length, sets.length, buffer.getText()]).toEqual([2, 2, 'yxabc'])
  })

  it("rethrows each listener's error once, however many transactions pass between them", () => {
    const buffer = new TextBuffer({ text: 'abc' })
    let fail = true
    buffer.onDidChangeText(() => {
      if (fail) throw new Error('listener failed')
    })
    const { sets } = record(buffer)
    expect(() => buffer.insert([0, 0], 'x')).toThrow('listener failed')
    fail = false
    buffer.insert([0, 0], 'y')
    buffer.transact(() => buffer.insert([0, 0], 'z'))
    fail = true
    expect(() => buffer.insert([0, 0], 'w')).toThrow('listener failed')
    fail = false
    buffer.insert([0, 0], 'v')
    expect([sets.length, buffer.getText()]).toEqual([5, 'vwzyxabc'])
  })

  it('composes, over random local and remote transactions, to the text each one left (seeded fuzz)', () => {
    for (const seed of fuzzSeeds(4)) {
      console.log(`onDidChangeText fuzz seed ${seed}`)
      const random = new Random(seed)
      const a = new Y.Doc()
      const b = new Y.Doc()
      const bufferA = new TextBuffer({ ytext: a.getText('text'), text: 'The quick brown fox\njumps over\n' })
      Y.applyUpdate(b, Y.encodeStateAsUpdate(a))
      const bufferB = new TextBuffer({ ytext: b.getText('text') })
      let last = bufferA.getText()
      let checked = 0
      bufferA.onDidChangeText((set) => {
        expect(set.oldLength).toBe(last.length)
        const now = bufferA.getText()
        expect(applySet(last, set), `seed ${seed}`).toBe(now)
        // Every inserted character has an ID; deleted IDs cover exactly the deleted characters.
        let inserted = 0
        let deleted = 0
        set.iterChanges((fromA, toA, _fromB, _toB, text) => {
          inserted += text.length
          deleted += toA - fromA
        })
        expect(totalLength(set.insertedIds), `seed ${seed}`).toBe(inserted)
        expect(totalLength(set.deletedIds), `seed ${seed}`).toBe(deleted)
        last = now
        checked++
      })
      const edit = (buffer: TextBuffer) => {
        const length = buffer.getLength()
        const offset = random.int(length + 1)
        const deleteLength = random.int(Math.min(4, length - offset) + 1)
        const text = random.pick(['', 'x', 'yz', '\n', 'ab\ncd'])
        const start = buffer.positionForCharacterIndex(offset)
        const end = buffer.positionForCharacterIndex(offset + deleteLength)
        buffer.setTextInRange([start, end], text, { normalizeLineEndings: false })
      }
      for (let round = 0; round < 60; round++) {
        const which = random.int(3)
        if (which === 0) bufferA.transact(() => { for (let i = random.int(4); i >= 0; i--) edit(bufferA) })
        else {
          const vector = Y.encodeStateVector(a)
          bufferB.transact(() => { for (let i = random.int(4); i >= 0; i--) edit(bufferB) })
          if (which === 2) Y.applyUpdate(a, Y.encodeStateAsUpdate(b, vector))
        }
        if (random.bool(0.3)) {
          Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)))
          Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)))
        }
      }
      expect(checked).toBeGreaterThan(20)
    }
  })
})
