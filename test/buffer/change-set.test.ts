import { describe, expect, it } from 'vitest'
import { ChangeSet, type SequentialEdit } from '../../core/buffer/change-set.ts'
import { Random } from '../helpers/random.ts'

function apply(text: string, edits: readonly SequentialEdit[]): string {
  for (const e of edits) text = text.slice(0, e.offset) + e.insertText + text.slice(e.offset + e.deleteLength)
  return text
}

describe('ChangeSet', () => {
  it('stores each replacement in old and new coordinates', () => {
    const set = ChangeSet.fromSequential(10, [{ offset: 2, deleteLength: 3, insertText: 'xy' }, { offset: 6, deleteLength: 0, insertText: 'abc' }])
    expect([set.size, set.oldLength, set.newLength]).toEqual([2, 10, 12])
    expect([set.fromA(0), set.toA(0), set.fromB(0), set.toB(0), set.inserted(0)]).toEqual([2, 5, 2, 4, 'xy'])
    expect([set.fromA(1), set.toA(1), set.fromB(1), set.toB(1), set.inserted(1)]).toEqual([7, 7, 6, 9, 'abc'])
  })

  it('maps positions with assoc and deletion modes as CodeMirror does', () => {
    // "0123456789": insert "ab" at 3, delete 5..8.
    const set = ChangeSet.fromSequential(10, [{ offset: 3, deleteLength: 0, insertText: 'ab' }, { offset: 7, deleteLength: 3, insertText: '' }])
    expect([set.mapPos(3, -1), set.mapPos(3, 1)]).toEqual([3, 5])
    expect([set.mapPos(5, -1), set.mapPos(5, 1)]).toEqual([7, 7])
    expect([set.mapPos(6, -1), set.mapPos(6, 1)]).toEqual([7, 7])
    expect([set.mapPos(8, -1), set.mapPos(8, 1), set.mapPos(9)]).toEqual([7, 7, 8])
    expect([set.mapPos(6, -1, 'track-del'), set.mapPos(5, -1, 'track-del'), set.mapPos(8, 1, 'track-del')]).toEqual([null, 7, 7])
    expect([set.mapPos(5, 1, 'track-before'), set.mapPos(8, 1, 'track-before')]).toEqual([7, null])
    expect([set.mapPos(5, 1, 'track-after'), set.mapPos(8, 1, 'track-after')]).toEqual([null, 7])
  })

  it('refuses edits outside the text or out of order, naming them', () => {
    expect(() => ChangeSet.fromSequential(3, [{ offset: 2, deleteLength: 2, insertText: '' }])).toThrow('outside a text of length 3')
    expect(() => ChangeSet.fromSequential(9, [{ offset: 5, deleteLength: 0, insertText: 'a' }, { offset: 2, deleteLength: 0, insertText: 'b' }])).toThrow('must be sorted')
  })

  it('composes to the same text and positions as applying both (seeded fuzz)', () => {
    const seed = Number(process.env.SEED ?? Date.now() % 100000)
    console.log(`change-set compose fuzz seed ${seed}`)
    const random = new Random(seed)
    for (let round = 0; round < 300; round++) {
      let text = 'abcdefghijklmnopqrstuvwxyz'.slice(0, 1 + random.int(20))
      const sets: ChangeSet[] = []
      const texts = [text]
      for (let k = 0; k < 2; k++) {
        const edits: SequentialEdit[] = []
        let at = 0
        let length = text.length
        for (let e = random.int(4); e >= 0 && at <= length; e--) {
          const offset = at + random.int(length - at + 1)
          const deleteLength = random.int(Math.min(3, length - offset) + 1)
          const insertText = 'XYZ'.slice(0, random.int(3))
          edits.push({ offset, deleteLength, insertText })
          length += insertText.length - deleteLength
          at = offset + insertText.length + 1
        }
        sets.push(ChangeSet.fromSequential(text.length, edits))
        text = apply(text, edits)
        texts.push(text)
      }
      const composed = sets[0]!.compose(sets[1]!)
      const replayed: SequentialEdit[] = []
      composed.iterChanges((_fromA, toA, fromB, _toB, inserted) => replayed.push({ offset: fromB, deleteLength: toA - _fromA, insertText: inserted }))
      expect(apply(texts[0]!, replayed), `seed ${seed} round ${round}`).toBe(texts[2])
      expect(composed.newLength).toBe(texts[2]!.length)
    }
  })
})
