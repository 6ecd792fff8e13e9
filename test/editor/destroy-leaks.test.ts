import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Awareness } from 'y-protocols/awareness'
import { TextEditor } from '../../core/editor/text-editor.ts'

/** How many listeners an observable (lib0's Observable or ObservableV2) has, per event name. */
function observers(observable: object): Record<string, number> {
  const map = (observable as { _observers: Map<string, Set<unknown>> })._observers
  return Object.fromEntries([...map].map(([name, set]) => [name, set.size]).filter(([, size]) => size !== 0))
}

/** The listeners of a Y.Text: its own (observe) and its deep ones (observeDeep). */
function textObservers(ytext: Y.Text): number[] {
  const handlers = ytext as unknown as { _eH: { l: unknown[] }; _dEH: { l: unknown[] } }
  return [handlers._eH.l.length, handlers._dEH.l.length]
}

describe('TextEditor#destroy', () => {
  it('leaves no observer on the Y.Doc, the Y.Text or the awareness', () => {
    const doc = new Y.Doc()
    const awareness = new Awareness(doc)
    const ytext = doc.getText('text')
    // A peer with a cursor, so the editor has peers' selections to tear down too.
    const peerDoc = new Y.Doc()
    const before = { doc: observers(doc), text: textObservers(ytext), awareness: observers(awareness) }

    const editor = new TextEditor({ doc, awareness, text: 'hello\nworld', language: 'javascript', softWrapped: true })
    const other = new Awareness(peerDoc)
    Y.applyUpdate(peerDoc, Y.encodeStateAsUpdate(doc))
    const peerEditor = new TextEditor({ doc: peerDoc, awareness: other })
    peerEditor.setCursorBufferPosition([1, 2])
    awareness.setLocalStateField('selections', awareness.getLocalState()!.selections)
    awareness.states.set(other.clientID, other.getLocalState()!)
    awareness.emit('change', [{ added: [other.clientID], updated: [], removed: [] }, 'test'])
    expect(editor.getPeers()).toHaveLength(1)
    editor.getPeers()[0]!.getLastCursor()!.onDidChangePosition(() => {})
    editor.insertText('!')
    editor.addCursorAtBufferPosition([1, 1])
    editor.foldBufferRow(0)
    editor.undo()
    expect(observers(doc)).not.toEqual(before.doc)

    editor.destroy()
    expect({ doc: observers(doc), text: textObservers(ytext), awareness: observers(awareness) }).toEqual(before)
    peerEditor.destroy()
  })
})
