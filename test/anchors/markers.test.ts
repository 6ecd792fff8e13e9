import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Range } from '../../core/point/range.ts'
import { Point } from '../../core/point/point.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'
import type { MarkerChangeEvent } from '../../core/anchors/display-marker.ts'

function remoteInsert(editor: TextEditor, index: number, text: string): void {
  const remote = new Y.Doc()
  Y.applyUpdate(remote, Y.encodeStateAsUpdate(editor.doc))
  remote.getText('text').insert(index, text)
  Y.applyUpdate(editor.doc, Y.encodeStateAsUpdate(remote, Y.encodeStateVector(editor.doc)))
}

describe('markers', () => {
  it('grow at the end and not at the start for local inserts at their edges (non-exclusive)', () => {
    const editor = new TextEditor({ text: 'abcdef' })
    const marker = editor.markBufferRange([[0, 2], [0, 4]])
    editor.getBuffer().insert([0, 4], 'X')
    editor.getBuffer().insert([0, 2], 'Y')
    expect(marker.getBufferRange()).toEqual(new Range([0, 2], [0, 6]))
  })

  it('exclusive markers keep insertions at their edges outside', () => {
    const editor = new TextEditor({ text: 'abcdef' })
    const marker = editor.markBufferRange([[0, 2], [0, 4]], { exclusive: true })
    editor.getBuffer().insert([0, 4], 'X')
    editor.getBuffer().insert([0, 2], 'Y')
    expect(marker.getBufferRange()).toEqual(new Range([0, 3], [0, 5]))
  })

  it('position markers move past text inserted at them, but not past a peer insertion', () => {
    const editor = new TextEditor({ text: 'abc' })
    const marker = editor.markBufferPosition([0, 1])
    editor.getBuffer().insert([0, 1], 'X')
    expect(marker.getHeadBufferPosition()).toEqual(new Point(0, 2))
    remoteInsert(editor, 2, 'PEER')
    expect(marker.getHeadBufferPosition()).toEqual(new Point(0, 2))
  })

  it('collapse to the end of replaced text around them and follow line joins', () => {
    const editor = new TextEditor({ text: 'one\ntwo\nthree' })
    const inside = editor.markBufferPosition([1, 1])
    const after = editor.markBufferPosition([2, 2])
    editor.getBuffer().setTextInRange([[0, 2], [1, 3]], 'Z')
    expect(inside.getHeadBufferPosition()).toEqual(new Point(0, 3))
    expect(after.getHeadBufferPosition()).toEqual(new Point(1, 2))
  })

  it('report changes with old and new positions and textChanged', () => {
    const editor = new TextEditor({ text: 'abc\ndef' })
    const marker = editor.markBufferRange([[1, 1], [1, 2]])
    const events: MarkerChangeEvent[] = []
    marker.onDidChange((event) => events.push(event))
    editor.getBuffer().insert([0, 0], 'X\n')
    marker.setHeadBufferPosition([2, 3])
    expect(events.map((e) => [e.oldHeadBufferPosition.serialize(), e.newHeadBufferPosition.serialize(), e.textChanged])).toEqual([
      [[1, 2], [2, 2], true],
      [[2, 2], [2, 3], false],
    ])
  })

  it('invalidate by their strategy and are destroyed once', () => {
    const editor = new TextEditor({ text: 'abcdef' })
    const overlap = editor.markBufferRange([[0, 1], [0, 3]], { invalidate: 'overlap' })
    const never = editor.markBufferRange([[0, 1], [0, 3]], { invalidate: 'never' })
    const surround = editor.markBufferRange([[0, 1], [0, 3]], { invalidate: 'surround' })
    editor.getBuffer().delete([[0, 2], [0, 5]])
    expect(overlap.isValid()).toBe(false)
    expect(never.isValid()).toBe(true)
    expect(surround.isValid()).toBe(true)
    let destroyed = 0
    never.onDidDestroy(() => destroyed++)
    never.destroy()
    never.destroy()
    expect(destroyed).toBe(1)
    expect(never.isDestroyed()).toBe(true)
  })
})
