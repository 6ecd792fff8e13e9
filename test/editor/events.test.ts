import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'
import type { CursorPositionEvent } from '../../core/selection/cursor.ts'
import type { SelectionRangeEvent } from '../../core/selection/selection.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'

describe('events', () => {
  it('reports a moved cursor with textChanged false and a shifted one with textChanged true', () => {
    const editor = editorWith('ab|c')
    const cursor = editor.getLastCursor()!
    const events: CursorPositionEvent[] = []
    cursor.onDidChangePosition((event) => events.push(event))
    cursor.moveLeft()
    editor.buffer.ytext.insert(0, 'XY')
    expect(events.map(({ oldBufferPosition, newBufferPosition, textChanged }) => ({ oldBufferPosition, newBufferPosition, textChanged }))).toEqual([
      { oldBufferPosition: new Point(0, 2), newBufferPosition: new Point(0, 1), textChanged: false },
      { oldBufferPosition: new Point(0, 1), newBufferPosition: new Point(0, 3), textChanged: true },
    ])
    expect(events[0]!.cursor).toBe(cursor)
    expect(events[0]!.oldScreenPosition).toEqual(new Point(0, 2))
  })

  it('fires no position event for an edit after the cursor or on another row', () => {
    const editor = editorWith('a|b\ncd')
    const events: CursorPositionEvent[] = []
    editor.onDidChangeCursorPosition((event) => events.push(event))
    editor.buffer.ytext.insert(3, 'Z')
    editor.buffer.ytext.insert(5, 'W')
    expect(events).toEqual([])
  })

  it('reports selection range changes with old and new ranges', () => {
    const editor = editorWith('ab|cd')
    const events: SelectionRangeEvent[] = []
    editor.getLastSelection()!.onDidChangeRange((event) => events.push(event))
    editor.selectRight()
    expect(events).toHaveLength(1)
    expect(events[0]!.oldBufferRange).toEqual(new Range([0, 2], [0, 2]))
    expect(events[0]!.newBufferRange).toEqual(new Range([0, 2], [0, 3]))
    expect(events[0]!.newScreenRange).toEqual(new Range([0, 2], [0, 3]))
  })

  it('announces added and removed cursors and selections, destroying each once', () => {
    const editor = editorWith('ab|c')
    const log: string[] = []
    editor.onDidAddCursor(() => log.push('add-cursor'))
    editor.onDidAddSelection(() => log.push('add-selection'))
    editor.onDidRemoveCursor(() => log.push('remove-cursor'))
    editor.onDidRemoveSelection(() => log.push('remove-selection'))
    const cursor = editor.addCursorAtBufferPosition([0, 0])
    cursor.onDidDestroy(() => log.push('cursor-destroyed'))
    cursor.getSelection().onDidDestroy(() => log.push('selection-destroyed'))
    editor.moveToEndOfLine()
    expect(log).toEqual(['add-cursor', 'add-selection', 'remove-cursor', 'remove-selection', 'cursor-destroyed', 'selection-destroyed'])
  })

  it('emits onDidChange for local and remote edits with the change list', () => {
    const doc = new Y.Doc()
    const editor = editorWith('abc', { doc })
    const seen: { local: boolean; text: string }[] = []
    editor.onDidChange((event) => seen.push({ local: event.local, text: event.changes.map((c) => c.newText).join() }))
    editor.insertText('1')
    const remote = new Y.Doc()
    Y.applyUpdate(remote, Y.encodeStateAsUpdate(doc))
    remote.getText('text').insert(0, 'R')
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(remote, Y.encodeStateVector(doc)))
    expect(seen).toEqual([
      { local: true, text: '1' },
      { local: false, text: 'R' },
    ])
    expect(marked(editor)).toBe('R1|abc')
  })

  it('keeps a cursor before text a peer types at its position', () => {
    const doc = new Y.Doc()
    const editor = editorWith('ab|cd', { doc })
    const remote = new Y.Doc()
    Y.applyUpdate(remote, Y.encodeStateAsUpdate(doc))
    remote.getText('text').insert(2, 'PEER')
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(remote, Y.encodeStateVector(doc)))
    expect(marked(editor)).toBe('ab|PEERcd')
    editor.getBuffer().insert([0, 2], 'ME')
    expect(marked(editor)).toBe('abME|PEERcd')
  })

  it('releases its subscriptions on destroy', () => {
    const editor = editorWith('ab|c')
    let destroyed = 0
    editor.onDidDestroy(() => destroyed++)
    const ytext = editor.buffer.ytext
    editor.destroy()
    editor.destroy()
    expect(destroyed).toBe(1)
    expect(editor.isDestroyed()).toBe(true)
    ytext.insert(0, 'x')
    expect(ytext.toString()).toBe('xabc')
  })

  it('throws TypeErrors that name the argument', () => {
    const editor = editorWith('abc')
    expect(() => editor.setSelectedBufferRange({ start: 1 } as never)).toThrow(/range/)
    expect(() => editor.insertText(5 as never)).toThrow(TypeError)
    expect(() => editor.setTabLength(0)).toThrow(/tabLength/)
    expect(editor.getText()).toBe('abc')
  })
})
