import { describe, expect, it } from 'vitest'
import { RemotePositions } from '../../core/collab/remote-positions.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'

/** An editor over `text` and peers' positions kept in its marker layer's anchor index. */
function setup(text: string) {
  const editor = new TextEditor({ text })
  const buffer = editor.getBuffer()
  const replace = (offset: number, deleteLength: number, insert: string) =>
    buffer.setTextInRange([buffer.positionForCharacterIndex(offset), buffer.positionForCharacterIndex(offset + deleteLength)], insert)
  return { editor, positions: new RemotePositions(editor.markerLayer), replace }
}

describe('RemotePositions', () => {
  it('maps every pair as positions bound to the character before them', () => {
    const { positions, replace } = setup('0123456789abcdefghij')
    const a = positions.add(0, 0)
    const b = positions.add(5, 2)
    const c = positions.add(10, 10)
    // Typing at an offset never pushes a position there; positions after it shift.
    replace(5, 0, 'XYZ')
    expect([positions.head(a), positions.tail(a), positions.head(b), positions.tail(b), positions.head(c), positions.tail(c)]).toEqual([0, 0, 5, 2, 13, 13])
    // A deletion pulls positions inside it to its start, and after it back by its length.
    replace(1, 5, '')
    expect([positions.head(b), positions.tail(b), positions.head(c)]).toEqual([1, 1, 8])
    // A replacement sends positions inside it to the end of the new text.
    replace(0, 4, 'PQ')
    expect([positions.head(a), positions.head(b), positions.head(c)]).toEqual([0, 2, 6])
  })

  it('reuses removed pairs; clear releases every entry of the index', () => {
    const { editor, positions, replace } = setup('x'.repeat(200))
    const before = editor.markerLayer.anchors.count
    const pairs = Array.from({ length: 100 }, (_, i) => positions.add(i, i + 1))
    expect(pairs[99]).toBe(99)
    positions.remove(pairs[40]!)
    expect(positions.add(7, 8)).toBe(40)
    replace(50, 0, '0123456789')
    expect([positions.head(40), positions.tail(40), positions.head(99), positions.tail(99)]).toEqual([7, 8, 109, 110])
    expect(editor.markerLayer.anchors.count).toBe(before + 200)
    positions.clear()
    expect(editor.markerLayer.anchors.count).toBe(before)
  })
})
