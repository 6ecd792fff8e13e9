// Run by pack.test.ts with plain Node (no loader) inside a project that installed the packed
// tarball: the engine driving the project's own Y.Doc. Prints what it saw as one JSON line.
import * as Y from 'yjs'
import { Awareness } from 'y-protocols/awareness'
import { Point, TextEditor } from 'cotext'

const ranges = (editor) => editor.getSelectedBufferRanges().map(({ start, end }) => [[start.row, start.column], [end.row, end.column]])

const doc = new Y.Doc()
doc.getText('text').insert(0, 'hello\nworld')
const awareness = new Awareness(doc)
const editor = new TextEditor({ doc, awareness, user: { name: 'Ada', color: '#d81b60' } })
editor.setCursorBufferPosition([0, 5])
editor.addCursorAtBufferPosition([1, 5])
editor.insertText('!')
const afterInsert = doc.getText('text').toString()
editor.moveToBeginningOfLine()
editor.selectToEndOfWord()
const selected = ranges(editor)

// A peer's edit, arriving as a Yjs update from another document, moves our cursors along.
const peer = new Y.Doc()
Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc))
peer.getText('text').insert(0, '> ')
Y.applyUpdate(doc, Y.encodeStateAsUpdate(peer, Y.encodeStateVector(doc)))
const afterPeer = { text: editor.getText(), selected: ranges(editor) }

editor.undo()
const afterUndo = doc.getText('text').toString()

console.log(JSON.stringify({
  afterInsert,
  selected,
  afterPeer,
  afterUndo,
  sharesYjs: editor.getBuffer().ytext === doc.getText('text') && editor.getBuffer().ytext instanceof Y.Text,
  point: new Point(1, 2).translate([1, 1]).toArray(),
  published: editor.getBuffer().ytext.doc === doc,
}))
editor.destroy()
awareness.destroy()
