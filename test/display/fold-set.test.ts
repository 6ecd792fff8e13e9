import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { MarkerLayer } from '../../core/anchors/marker-layer.ts'
import { DisplayLayer } from '../../core/display/display-layer.ts'
import { FoldSet } from '../../core/display/fold-set.ts'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'

const TEXT = Array.from({ length: 8 }, () => '0123456789').join('\n')

/**
 * A fold set over a buffer, its entries kept by an editor's anchor index (a MarkerLayer's, mapped at the
 * pipeline's 'anchors' stage) or by a display layer's own list, and following each change as the layout does.
 */
function foldSet(kind: 'index' | 'own', ...ranges: [[number, number], [number, number]][]): { buffer: TextBuffer; folds: FoldSet; markers: MarkerLayer | null } {
  const buffer = new TextBuffer({ ytext: new Y.Doc().getText('text') })
  buffer.setText(TEXT)
  const markers = kind === 'index' ? new MarkerLayer(buffer, new DisplayLayer(buffer)) : null
  const folds = markers ? new FoldSet(buffer, markers) : new FoldSet(buffer)
  buffer.addChangeHook('display', ({ changes }) => {
    folds.followOwnAnchors(changes)
    folds.applyChanges(changes)
  })
  for (const range of ranges) folds.add(Range.fromObject(range))
  return { buffer, folds, markers }
}

/** Replaces [start, oldEnd] by text that ends at `newEnd` (x's, and line breaks for the rows it adds). */
function change(buffer: TextBuffer, start: [number, number], oldEnd: [number, number], newEnd: [number, number]): void {
  const text = newEnd[0] === start[0] ? 'x'.repeat(newEnd[1] - start[1]) : '\n'.repeat(newEnd[0] - start[0]) + 'x'.repeat(newEnd[1])
  buffer.setTextInRange([start, oldEnd], text)
}

const ranges = (folds: FoldSet) => folds.all().map((fold) => fold.range.serialize())

for (const kind of ['index', 'own'] as const) {
  describe(`FoldSet through changes (exclusive markers invalidated on overlap), entries in the ${kind === 'index' ? "editor's anchor index" : "layer's own list"}`, () => {
    it('keeps insertions at the edges outside and grows with insertions inside', () => {
      const { buffer, folds } = foldSet(kind, [[1, 2], [3, 4]])
      change(buffer, [1, 2], [1, 2], [1, 5])
      expect(ranges(folds)).toEqual([[[1, 5], [3, 4]]])
      change(buffer, [3, 4], [3, 4], [4, 1])
      expect(ranges(folds)).toEqual([[[1, 5], [3, 4]]])
      change(buffer, [2, 0], [2, 0], [4, 0])
      expect(ranges(folds)).toEqual([[[1, 5], [5, 4]]])
    })

    it('is destroyed by a replacement that overlaps its start or end, and kept by one that only touches it', () => {
      const cases: [[number, number], [number, number], boolean][] = [
        [[1, 0], [1, 2], true],
        [[3, 4], [3, 6], true],
        [[1, 0], [1, 3], false],
        [[3, 3], [3, 5], false],
        [[2, 0], [2, 1], true],
        [[1, 2], [3, 4], false],
      ]
      for (const [start, end, kept] of cases) {
        const { buffer, folds, markers } = foldSet(kind, [[1, 2], [3, 4]])
        change(buffer, start, end, start)
        expect(folds.size, `${start} - ${end}`).toBe(kept ? 1 : 0)
        if (markers) expect(markers.anchors.count, 'a destroyed fold leaves the index').toBe(kept ? 2 : 0)
      }
    })

    it('keeps an empty fold at the start or end of a deletion and drops it when a deletion spans it', () => {
      const { buffer, folds } = foldSet(kind, [[1, 4], [1, 4]], [[2, 4], [2, 4]], [[3, 4], [3, 4]])
      change(buffer, [1, 4], [1, 6], [1, 4])
      change(buffer, [2, 2], [2, 4], [2, 2])
      change(buffer, [3, 3], [3, 5], [3, 3])
      expect(ranges(folds)).toEqual([
        [[1, 4], [1, 4]],
        [[2, 2], [2, 2]],
      ])
      // Text inserted at an empty fold goes before it.
      change(buffer, [1, 4], [1, 4], [1, 6])
      expect(ranges(folds)[0]).toEqual([[1, 6], [1, 6]])
    })

    it('shifts folds after a change by its extent', () => {
      const { buffer, folds } = foldSet(kind, [[2, 3], [2, 5]], [[4, 1], [5, 0]])
      change(buffer, [1, 0], [2, 1], [1, 7])
      expect(ranges(folds)).toEqual([
        [[1, 9], [1, 11]],
        [[3, 1], [4, 0]],
      ])
    })

    it("follows a peer's transaction of several changes", () => {
      const { buffer, folds } = foldSet(kind, [[1, 2], [1, 8]], [[3, 2], [5, 1]], [[6, 0], [6, 3]], [[7, 1], [7, 5]])
      const peer = new Y.Doc()
      Y.applyUpdate(peer, Y.encodeStateAsUpdate(buffer.doc))
      const text = peer.getText('text')
      // Offsets in the text before (row r starts at 11r), edited from the end back.
      peer.transact(() => {
        text.delete(67, 1) // [6, 1]: strictly inside the third fold
        text.insert(49, '\n\n') // [4, 5]: inside the second
        text.delete(18, 2) // [1, 7]..[1, 9]: across the first one's end
        text.insert(0, 'ab\n')
      })
      const seen: number[] = []
      buffer.onDidChange((event) => seen.push(event.changes.length))
      Y.applyUpdate(buffer.doc, Y.encodeStateAsUpdate(peer))
      expect(seen).toEqual([4])
      expect(ranges(folds)).toEqual([
        [[4, 2], [8, 1]],
        [[9, 0], [9, 2]],
        [[10, 1], [10, 5]],
      ])
    })
  })
}

describe('FoldSet shapes', () => {
  it('merges overlapping folds for display and joins their rows into display lines', () => {
    const { folds } = foldSet('own', [[0, 1], [2, 0]], [[1, 5], [3, 2]], [[3, 4], [5, 0]], [[7, 1], [7, 2]], [[4, 0], [4, 1]])
    expect(folds.merged()).toEqual([
      { startRow: 0, startColumn: 1, endRow: 3, endColumn: 2 },
      { startRow: 3, startColumn: 4, endRow: 5, endColumn: 0 },
      { startRow: 7, startColumn: 1, endRow: 7, endColumn: 2 },
    ])
    expect([0, 2, 5, 6, 7].map((row) => folds.displayLineRows(row))).toEqual([[0, 5], [0, 5], [0, 5], [6, 6], [7, 7]])
    expect(folds.mergedStrictlyContaining(1, 0)).toEqual(folds.merged()[0])
    expect(folds.mergedStrictlyContaining(3, 2)).toBeNull()
    expect([folds.hasMergedFoldOnRow(7), folds.hasMergedFoldOnRow(6)]).toEqual([true, false])
  })

  it('answers intersecting and containing queries with touching endpoints', () => {
    const { folds } = foldSet('own', [[1, 2], [3, 4]])
    expect(folds.intersecting(new Point(3, 4), new Point(3, 9)).length).toBe(1)
    expect(folds.intersecting(new Point(3, 5), new Point(3, 9)).length).toBe(0)
    expect(folds.containing(new Point(1, 2), false).length).toBe(1)
    expect(folds.containing(new Point(1, 2), true).length).toBe(0)
    expect(folds.anyContains(new Point(2, 0), new Point(3, 4))).toBe(true)
  })

  it('moves its entries into an anchor index, which maps them from then on', () => {
    const { buffer, folds } = foldSet('own', [[1, 2], [3, 4]])
    const markers = new MarkerLayer(buffer, new DisplayLayer(buffer))
    folds.moveTo(markers)
    expect(markers.anchors.count).toBe(2)
    change(buffer, [0, 0], [0, 0], [1, 0])
    expect(ranges(folds)).toEqual([[[2, 2], [4, 4]]])
  })
})
