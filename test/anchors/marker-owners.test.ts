import { describe, expect, it } from 'vitest'
import { TextEditor } from '../../core/editor/text-editor.ts'
import type { DisplayMarker } from '../../core/anchors/display-marker.ts'
import { collect } from '../helpers/gc.ts'

/** As the editor marks a peer's selection. */
const REMOTE = { remote: true, invalidate: 'never' } as const

/** `count` peers' markers (held weakly by the layer) that nobody holds, at offsets from `from` on. */
function dropRemoteMarkers(editor: TextEditor, from: number, count: number): WeakRef<DisplayMarker>[] {
  return Array.from({ length: count }, (_, i) => new WeakRef(editor.markerLayer.markOffsets(from + i, from + i, REMOTE)))
}

describe("the marker layer's owners of index entries", () => {
  it('a destroyed marker frees its entries; the next marker reuses its slot and maps by its own rules', () => {
    const editor = new TextEditor({ text: 'abcdefghij' })
    const layer = editor.markerLayer
    const before = layer.anchors.count
    const first = layer.markOffsets(4, 2, REMOTE)
    const peer = layer.track(3)
    first.destroy()
    expect(layer.anchors.count).toBe(before + 1)
    // A local marker in the freed slot: non-exclusive, its end grows with text inserted at it.
    const second = editor.markBufferRange([[0, 2], [0, 4]])
    editor.getBuffer().insert([0, 4], 'XY')
    expect(second.getBufferRange().toString()).toBe('[(0, 2) - (0, 6)]')
    expect(first.getBufferRange().toString()).toBe('[(0, 2) - (0, 4)]')
    // A replacement covering the tracked peer's position sends it to the end of the new text.
    editor.getBuffer().setTextInRange([[0, 1], [0, 5]], 'Q')
    expect([layer.offset(peer), layer.anchors.count]).toEqual([2, before + 3])
  })

  it('entries of collected peers’ markers leave when a replacement reaches them; both ends at once', async () => {
    const editor = new TextEditor({ text: 'x'.repeat(100) })
    const layer = editor.markerLayer
    const before = layer.anchors.count
    const refs = dropRemoteMarkers(editor, 10, 5)
    const tracked = layer.track(12)
    const local = editor.markBufferRange([[0, 11], [0, 13]])
    await collect()
    expect(refs.every((ref) => ref.deref() === undefined)).toBe(true)
    expect(layer.anchors.count).toBe(before + 10 + 1 + 2)
    // Reaches the markers at 11..13 (both ends of each): their six entries leave.
    editor.getBuffer().setTextInRange([[0, 11], [0, 13]], 'abc')
    expect(layer.anchors.count).toBe(before + 4 + 1 + 2)
    expect([layer.offset(tracked), local.getBufferRange().toString()]).toEqual([14, '[(0, 11) - (0, 14)]'])
    // New markers reuse the freed slots and map by their own rules.
    const again = Array.from({ length: 4 }, (_, i) => layer.markOffsets(20 + i, 30, REMOTE))
    editor.getBuffer().insert([0, 0], '--')
    expect(again.map((marker) => [marker.headOffset, marker.tailOffset])).toEqual([[22, 32], [23, 32], [24, 32], [25, 32]])
  })

  it('entries of collected peers’ markers that no edit reaches leave at a sweep as markers are added', async () => {
    const editor = new TextEditor({ text: 'x'.repeat(300) })
    const layer = editor.markerLayer
    const before = layer.anchors.count
    dropRemoteMarkers(editor, 0, 50)
    await collect()
    expect(layer.anchors.count).toBe(before + 100)
    // The 15th addition finds 64 peers' markers (at most 50 + 14 alive): it sweeps the collected ones first.
    const kept = Array.from({ length: 15 }, (_, i) => layer.markOffsets(200 + i, 190, REMOTE))
    expect(layer.anchors.count).toBe(before + 30)
    editor.getBuffer().insert([0, 0], 'ab')
    expect(kept.map((marker) => marker.headOffset - marker.tailOffset)).toEqual(Array.from({ length: 15 }, (_, i) => 10 + i))
    expect([kept[14]!.headOffset, kept[14]!.tailOffset, layer.getMarkerCount()]).toEqual([216, 192, 16])
  })
})
