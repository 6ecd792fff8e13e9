import { describe, expect, it } from 'vitest'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { CHANGE_PIPELINE, type PipelineStage } from '../../core/buffer/pipeline.ts'
import { DisplayLayer } from '../../core/display/display-layer.ts'
import { MarkerLayer } from '../../core/anchors/marker-layer.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { Point } from '../../core/point/point.ts'

describe('the change pipeline', () => {
  it('runs the stages in the declared order whatever order they registered in', () => {
    const buffer = new TextBuffer({ text: 'abc' })
    const order: string[] = []
    for (const stage of [...CHANGE_PIPELINE].reverse()) {
      buffer.addAfterChangeHook(stage, () => order.push(`after ${stage}`))
      buffer.addChangeHook(stage, () => order.push(stage))
    }
    buffer.onDidChange(() => order.push('listeners'))
    buffer.onDidChangeText(() => order.push('change text'))
    buffer.insert([0, 1], 'x')
    expect(order).toEqual([...CHANGE_PIPELINE, 'listeners', ...CHANGE_PIPELINE.map((stage) => `after ${stage}`), 'change text'])
    expect(CHANGE_PIPELINE).toEqual(['anchors', 'display', 'markers', 'language', 'history', 'collaboration'])
  })

  it('runs each change of a transaction through the stages, and the after steps once', () => {
    const buffer = new TextBuffer({ text: 'abc' })
    const order: string[] = []
    buffer.addAfterChangeHook('display', () => order.push('after'))
    buffer.addChangeHook('history', (event) => order.push(`history ${event.changes[0]!.newText}`))
    buffer.addChangeHook('display', (event) => order.push(`display ${event.changes[0]!.newText}`))
    buffer.transact(() => {
      buffer.insert([0, 3], '1')
      buffer.insert([0, 0], '2')
    })
    expect(order).toEqual(['display 1', 'history 1', 'display 2', 'history 2', 'after'])
  })

  it('lets a marker stage registered before the display layer read the new layout', () => {
    const buffer = new TextBuffer({ text: 'one\ntwo\nthree' })
    const seen: Point[] = []
    let display: DisplayLayer | null = null
    // Registered first, at a later stage: it must still see the display layer's layout updated.
    buffer.addChangeHook('markers', () => seen.push(display!.screenPositionForBufferPosition(new Point(3, 2))))
    display = new DisplayLayer(buffer, { softWrapped: true, editorWidthInChars: 4 })
    const markers = new MarkerLayer(buffer, display)
    const marker = markers.markBufferPosition([2, 2])
    buffer.insert([0, 0], 'a long zero\n')
    // A layer built afresh on the new text says where (3, 2) is on screen: the long first row wraps.
    const fresh = new DisplayLayer(new TextBuffer({ text: buffer.getText() }), { softWrapped: true, editorWidthInChars: 4 })
    const expected = fresh.screenPositionForBufferPosition(new Point(3, 2))
    expect(expected.row).toBeGreaterThan(3)
    expect(seen).toEqual([expected])
    expect(marker.getHeadScreenPosition()).toEqual(expected)
  })

  it('refuses an unknown stage, naming the stages', () => {
    const buffer = new TextBuffer()
    expect(() => buffer.addChangeHook('views' as PipelineStage, () => {})).toThrow('unknown pipeline stage: views (one of anchors, display, markers, language, history, collaboration)')
  })

  it('stops running a hook once it is disposed', () => {
    const buffer = new TextBuffer()
    let calls = 0
    const hook = buffer.addChangeHook('language', () => calls++)
    buffer.insert([0, 0], 'a')
    hook.dispose()
    buffer.insert([0, 0], 'b')
    expect(calls).toBe(1)
  })

  it('keeps an editor correct whatever order its parts were made in (folds, markers, undo)', () => {
    const editor = new TextEditor({ text: 'a\nb\nc\nd' })
    editor.foldBufferRange([[1, 0], [2, 1]])
    editor.setCursorBufferPosition([3, 1])
    editor.setCursorBufferPosition([0, 1])
    editor.insertText('\n')
    expect(editor.getCursorScreenPosition()).toEqual(new Point(1, 0))
    expect(editor.screenPositionForBufferPosition([4, 1])).toEqual(new Point(3, 1))
    editor.undo()
    expect([editor.getText(), editor.getCursorBufferPosition()]).toEqual(['a\nb\nc\nd', new Point(0, 1)])
  })
})
