import { describe, expect, it } from 'vitest'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { BufferChange, lastLineLength, lineBreakCount, type TextChange } from '../../core/buffer/text-change.ts'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'

function changesOf(buffer: TextBuffer, edit: () => void): TextChange[] {
  const changes: TextChange[] = []
  const subscription = buffer.onDidChange((event) => changes.push(...event.changes))
  edit()
  subscription.dispose()
  return changes
}

describe('TextChange', () => {
  it('gives rows and columns as numbers and the same Points and Ranges on every read', () => {
    const buffer = new TextBuffer({ text: 'one\ntwo\nthree' })
    const [change] = changesOf(buffer, () => buffer.setTextInRange([[0, 1], [2, 2]], 'X\nYZ'))
    expect(change).toBeInstanceOf(BufferChange)
    const { startOffset, oldLength, newLength, startRow, startColumn, oldEndRow, oldEndColumn, newEndRow, newEndColumn, oldText, newText } = change!
    expect({ startOffset, oldLength, newLength, startRow, startColumn, oldEndRow, oldEndColumn, newEndRow, newEndColumn, oldText, newText }).toEqual({
      startOffset: 1,
      oldLength: 9,
      newLength: 4,
      startRow: 0,
      startColumn: 1,
      oldEndRow: 2,
      oldEndColumn: 2,
      newEndRow: 1,
      newEndColumn: 2,
      oldText: 'ne\ntwo\nth',
      newText: 'X\nYZ',
    })
    expect(change!.start).toEqual(new Point(0, 1))
    expect(change!.oldRange).toEqual(new Range([0, 1], [2, 2]))
    expect(change!.newRange).toEqual(new Range([0, 1], [1, 2]))
    expect(change!.oldExtent).toEqual(new Point(2, 2))
    expect(change!.newExtent).toEqual(new Point(1, 2))
    expect(change!.start).toBe(change!.start)
    expect(change!.oldRange).toBe(change!.oldRange)
    expect(change!.newRange).toBe(change!.newRange)
    expect(change!.oldRange.start).toBe(change!.start)
  })

  it('measures a change within one row from its start column', () => {
    const buffer = new TextBuffer({ text: 'abc\ndef' })
    const [change] = changesOf(buffer, () => buffer.setTextInRange([[1, 1], [1, 2]], 'xyz'))
    expect([change!.startRow, change!.startColumn, change!.oldEndRow, change!.oldEndColumn, change!.newEndRow, change!.newEndColumn]).toEqual([1, 1, 1, 2, 1, 4])
    expect(change!.oldExtent).toEqual(new Point(0, 1))
    expect(change!.newExtent).toEqual(new Point(0, 3))
    expect([change!.oldText, change!.newText]).toEqual(['e', 'xyz'])
  })

  it('counts line breaks and the last line as Range.fromText does', () => {
    for (const text of ['', 'abc', '\n', 'a\r\nb', 'a\rb\nc', '\r\r\n\n', 'xy\r', 'one\ntwo\r\nthree']) {
      const range = Range.fromText([0, 0], text)
      expect([lineBreakCount(text), lastLineLength(text)]).toEqual([range.end.row, range.end.column])
    }
    expect([lineBreakCount('a\r\nb\rc\nd'), lastLineLength('a\r\nb\rc\ndef')]).toEqual([3, 3])
  })
})
