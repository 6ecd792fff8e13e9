import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { splitLines } from '../../core/buffer/line-index.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

/** Two neighbouring selections (in buffer order) that overlap, or touch where one is empty; null when none. */
function overlappingSelections(editor: TextEditor): string | null {
  const ranges = editor.getSelectionsOrderedByBufferPosition().map((s) => s.getBufferRange())
  for (let i = 1; i < ranges.length; i++) {
    const [a, b] = [ranges[i - 1]!, ranges[i]!]
    const touching = a.end.isEqual(b.start) && (a.isEmpty() || b.isEmpty())
    if (a.end.isGreaterThan(b.start) || touching) return `${a} and ${b}`
  }
  return null
}

/**
 * Random editor commands mixed with direct Y.Text edits and a peer's edits: the editor's lines must
 * always equal the Y.Text split naively, and every cursor must stay inside the buffer.
 */
describe('editor under random commands', () => {
  for (const seed of fuzzSeeds(10, 3)) {
    it(`keeps lines, cursors and the Y.Text in agreement (seed ${seed})`, () => {
      const random = new Random(seed)
      const alphabet = ['a', 'b', ' ', '\n', '\r\n', '\r', '\t', 'é']
      const editor = new TextEditor({ text: random.string(30, alphabet) })
      const peer = new Y.Doc()
      Y.applyUpdate(peer, Y.encodeStateAsUpdate(editor.doc))
      const ytext = editor.getBuffer().ytext
      const peerText = peer.getText('text')
      const sync = () => {
        Y.applyUpdate(peer, Y.encodeStateAsUpdate(editor.doc, Y.encodeStateVector(peer)))
        Y.applyUpdate(editor.doc, Y.encodeStateAsUpdate(peer, Y.encodeStateVector(editor.doc)))
      }
      const commands: (() => void)[] = [
        () => editor.insertText(random.string(3, alphabet)),
        () => editor.backspace(),
        () => editor.delete(),
        () => editor.deleteToBeginningOfWord(),
        () => editor.insertNewline(),
        () => editor.addCursorAtBufferPosition([random.int(8), random.int(8)]),
        () => editor.setCursorBufferPosition([random.int(8), random.int(8)]),
        () => editor.selectRight(random.int(4)),
        () => editor.moveDown(),
        () => editor.joinLines(),
        () => editor.deleteLine(),
        () => editor.indentSelectedRows(),
        () => editor.undo(),
        () => editor.redo(),
        () => editor.setTextInBufferRange([[random.int(5), random.int(5)], [random.int(5), random.int(5)]], random.string(4, alphabet)),
        () => ytext.insert(random.int(ytext.length + 1), random.string(3, alphabet)),
        () => {
          const at = random.int(ytext.length + 1)
          ytext.delete(at, Math.min(3, ytext.length - at))
        },
        () => {
          peerText.insert(random.int(peerText.length + 1), random.string(3, alphabet))
          sync()
        },
      ]
      for (let step = 0; step < 200; step++) {
        random.pick(commands)()
        if (random.bool(0.3)) sync()
        const expected = splitLines(ytext.toString()).map((line) => line.replace(/\r\n|\r|\n/, ''))
        const lines = editor.getBuffer().getLines()
        const end = editor.getEofBufferPosition()
        const outside = editor.getCursorBufferPositions().filter((p) => p.isGreaterThan(end) || p.column > (lines[p.row]?.length ?? -1))
        if (JSON.stringify(lines) !== JSON.stringify(expected) || outside.length > 0) {
          throw new Error(`seed ${seed}, step ${step}: lines ${JSON.stringify(lines)} vs ${JSON.stringify(expected)}; cursors outside: ${outside.join(' ')}`)
        }
        const overlap = overlappingSelections(editor)
        if (overlap !== null) throw new Error(`seed ${seed}, step ${step}: selections overlap: ${overlap}`)
      }
      sync()
      expect(peerText.toString()).toBe(ytext.toString())
      expect(editor.getBuffer().slowReads).toBe(0)
    })
  }
})

/** Local commands only: undoing every step must bring back the text and the selections from before the first change. */
describe('editor undo round trip', () => {
  for (const seed of fuzzSeeds(10, 3)) {
    it(`undoing everything returns the starting text and selections (seed ${seed})`, () => {
      const random = new Random(seed)
      const alphabet = ['a', 'b', ' ', '\n', '\t', 'é', '(']
      const editor = new TextEditor({ text: random.string(30, alphabet) })
      const start = editor.getText()
      let startSelections: string | null = null
      const selections = () => editor.getSelectedBufferRanges().join(' ')
      const commands: (() => void)[] = [
        () => editor.insertText(random.string(3, alphabet)),
        () => editor.backspace(),
        () => editor.deleteToEndOfWord(),
        () => editor.addCursorAtBufferPosition([random.int(5), random.int(8)]),
        () => editor.setCursorBufferPosition([random.int(5), random.int(8)]),
        () => editor.selectRight(random.int(4)),
        () => editor.selectToBeginningOfWord(),
        () => editor.moveDown(),
        () => editor.joinLines(),
        () => editor.deleteLine(),
        () => editor.indentSelectedRows(),
        () => editor.toggleLineComments(),
        () => editor.setTextInBufferRange([[random.int(4), random.int(5)], [random.int(4), random.int(5)]], random.string(3, alphabet)),
      ]
      for (let step = 0; step < 60; step++) {
        const before = selections()
        const text = editor.getText()
        random.pick(commands)()
        if (startSelections === null && editor.getText() !== text) startSelections = before
        const overlap = overlappingSelections(editor)
        if (overlap !== null) throw new Error(`seed ${seed}, step ${step}: selections overlap: ${overlap}`)
      }
      while (editor.undo()) {
        // every step, back to the first
      }
      expect({ seed, text: editor.getText() }).toEqual({ seed, text: start })
      if (startSelections !== null) expect({ seed, selections: selections() }).toEqual({ seed, selections: startSelections })
    })
  }
})

