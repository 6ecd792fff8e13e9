import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { DisplayLayer } from '../../core/display/display-layer.ts'
import type { ScreenChange } from '../../core/display/screen-patch.ts'
import { layerFor, screenLines } from './helpers.ts'

function record(layer: DisplayLayer): ScreenChange[][] {
  const events: ScreenChange[][] = []
  layer.onDidChange((changes) => events.push(changes))
  return events
}

describe('layout updates', () => {
  it('reports the screen rows an edit replaced', () => {
    const { buffer, layer } = layerFor('a\nb\nc')
    const events = record(layer)
    buffer.insert([1, 0], 'x\ny')
    expect(screenLines(layer)).toEqual(['a', 'x', 'yb', 'c'])
    expect(events).toEqual([[{ start: 1, oldCount: 1, newCount: 2 }]])
  })

  it('reports every change of a transaction in one event, in order', () => {
    const { buffer, layer } = layerFor('a\nb\nc\nd\ne')
    const events = record(layer)
    buffer.transact(() => {
      buffer.insert([4, 0], 'E\n')
      buffer.insert([0, 1], 'A')
    })
    expect(screenLines(layer)).toEqual(['aA', 'b', 'c', 'd', 'E', 'e'])
    expect(events).toEqual([
      [
        { start: 0, oldCount: 1, newCount: 1 },
        { start: 4, oldCount: 1, newCount: 2 },
      ],
    ])
  })

  it('follows edits from another peer', () => {
    const local = new Y.Doc()
    const remote = new Y.Doc()
    const buffer = new TextBuffer({ ytext: local.getText('text'), text: 'one two three\nfour' })
    const layer = new DisplayLayer(buffer, { softWrapped: true, editorWidthInChars: 8 })
    Y.applyUpdate(remote, Y.encodeStateAsUpdate(local))
    const events = record(layer)
    remote.getText('text').insert(0, 'zero ')
    Y.applyUpdate(local, Y.encodeStateAsUpdate(remote, Y.encodeStateVector(local)))
    expect(screenLines(layer)).toEqual(['zero ', 'one two ', 'three', 'four'])
    expect(events).toEqual([[{ start: 0, oldCount: 2, newCount: 3 }]])
  })

  it('is current when public buffer listeners run, even ones registered before it', () => {
    const buffer = new TextBuffer({ text: 'abc' })
    const seen: string[] = []
    buffer.onDidChange(() => seen.push(layer.lineTextForScreenRow(0)))
    const layer = new DisplayLayer(buffer, { tabLength: 4 })
    buffer.insert([0, 0], '\t')
    expect(seen).toEqual(['    abc'])
  })

  it('re-lays out only the lines a setting affects', () => {
    const long = 'word word word'
    const { layer } = layerFor(`short\n${long}\nshort\n${long}\n\tx`, { editorWidthInChars: 10 })
    const events = record(layer)
    layer.setSoftWrapped(true)
    expect(events).toEqual([
      [
        { start: 1, oldCount: 1, newCount: 2 },
        { start: 4, oldCount: 1, newCount: 2 },
      ],
    ])
    layer.setTabLength(4)
    expect(events[1]).toEqual([{ start: 6, oldCount: 1, newCount: 1 }])
    layer.setTabLength(4)
    layer.setEditorWidthInChars(10)
    layer.setSoftWrapHangingIndentLength(0)
    expect(events.length).toBe(2)
  })

  it('reports folding and unfolding as screen rows replaced', () => {
    const { layer } = layerFor('a\nb\nc\nd')
    const events = record(layer)
    const id = layer.foldBufferRange([[0, 1], [2, 1]])
    layer.destroyFold(id)
    expect(events).toEqual([[{ start: 0, oldCount: 3, newCount: 1 }], [{ start: 0, oldCount: 1, newCount: 3 }]])
  })

  it('stops following the buffer when destroyed', () => {
    const { buffer, layer } = layerFor('abc')
    const events = record(layer)
    layer.destroy()
    buffer.insert([0, 0], 'x\ny')
    expect(events).toEqual([])
    expect(layer.isDestroyed()).toBe(true)
    expect(() => layer.onDidChange(() => {})).toThrow()
  })

  it('lays everything out again when a line ending joins across an edit', () => {
    // '\r' then '\n' become one line ending: the buffer's change claims a new row that is not there.
    const { buffer, layer } = layerFor('a\rb')
    const events = record(layer)
    buffer.insert([1, 0], '\n', { normalizeLineEndings: false })
    expect(buffer.getLineCount()).toBe(2)
    expect(screenLines(layer)).toEqual(['a', 'b'])
    expect(events).toEqual([[{ start: 0, oldCount: 2, newCount: 2 }]])
  })
})

describe('large documents', () => {
  it('converts rows at the far end of a 200,000-line document with wraps and folds', () => {
    const lines: string[] = []
    for (let i = 0; i < 200_000; i++) lines.push(i % 10 === 0 ? `line ${i} ${'long words '.repeat(4)}` : `line ${i}`)
    const { buffer, layer } = layerFor(lines.join('\n'), { softWrapped: true, editorWidthInChars: 30 })
    layer.foldBufferRange([[100, 2], [199, 2]])
    // Every tenth line wraps to 2 screen rows. The fold shows rows 100-199 as one row 'li⋯ne 199':
    // 100 rows (10 of them wrapped) become 1.
    const expectedScreenRows = 200_000 + 20_000 - 110 + 1
    expect(layer.getScreenLineCount()).toBe(expectedScreenRows)
    expect(layer.screenRowForBufferRow(199_999)).toBe(expectedScreenRows - 1)
    expect(layer.bufferRowForScreenRow(expectedScreenRows - 1)).toBe(199_999)
    expect(layer.lineTextForScreenRow(expectedScreenRows - 1)).toBe('line 199999')
    expect(layer.lineTextForScreenRow(layer.screenRowForBufferRow(100))).toBe('li⋯ne 199')
    buffer.insert([150_001, 0], 'x')
    expect(layer.lineTextForScreenRow(layer.screenRowForBufferRow(150_001))).toBe('xline 150001')
    expect(layer.lineTextForScreenRow(layer.screenRowForBufferRow(150_000) + 1)).toBe('words long words long words ')
  })
})

describe('edge cases', () => {
  it('lays out an empty buffer as one empty screen line', () => {
    const { buffer, layer } = layerFor('', { softWrapped: true, editorWidthInChars: 4 })
    expect(screenLines(layer)).toEqual([''])
    expect(layer.screenPositionForBufferPosition([3, 3]).toArray()).toEqual([0, 0])
    expect(layer.bufferPositionForScreenPosition([2, 2]).toArray()).toEqual([0, 0])
    buffer.insert([0, 0], 'abc def')
    expect(screenLines(layer)).toEqual(['abc ', 'def'])
  })

  it('folds the whole buffer into one placeholder and survives replacing all the text', () => {
    const { buffer, layer } = layerFor('one\ntwo\nthree')
    layer.foldBufferRange([[0, 0], [2, 5]])
    expect(screenLines(layer)).toEqual(['⋯'])
    expect(layer.bufferPositionForScreenPosition([0, 1]).toArray()).toEqual([2, 5])
    buffer.setText('fresh\ntext')
    expect(layer.getFolds()).toEqual([])
    expect(screenLines(layer)).toEqual(['fresh', 'text'])
  })

  it('restores folds given at construction', () => {
    const { buffer } = layerFor('a\nb\nc')
    const layer = new DisplayLayer(buffer, { folds: [[[0, 1], [2, 0]]] })
    expect(screenLines(layer)).toEqual(['a⋯c'])
  })
})
