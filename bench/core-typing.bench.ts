/**
 * Typing: 1,000 `editor.insertText('x')` calls with 10 cursors on a 10 MB document, against the same
 * 10,000 single-character inserts made directly on a bare Y.Text. Target: <= 2x raw Yjs.
 */
import * as Y from 'yjs'
import { TextEditor } from '../core/editor/text-editor.ts'
import { compare, fmt, ratio } from './measure.ts'

const LINE = 'const value = compute(alpha, beta, gamma) + 42; // some comment text\n'
const SIZE = 10 * 1024 * 1024
const text = LINE.repeat(Math.ceil(SIZE / LINE.length)).slice(0, SIZE)
const KEYSTROKES = 1000
const CURSORS = 10
const lineCount = Math.floor(SIZE / LINE.length)
const rows = Array.from({ length: CURSORS }, (_, i) => Math.floor(((i + 0.5) * lineCount) / CURSORS))

function makeEditor(): TextEditor {
  const editor = new TextEditor({ text })
  editor.setSelectedBufferRanges(rows.map((row) => [[row, 10], [row, 10]]))
  return editor
}

function makeBare(): { ytext: Y.Text; offsets: number[] } {
  const doc = new Y.Doc()
  const ytext = doc.getText('text')
  ytext.insert(0, text)
  return { ytext, offsets: rows.map((row) => row * LINE.length + 10) }
}

let editor = makeEditor()
let bare = makeBare()
const result = compare(
  () => {
    for (let i = 0; i < KEYSTROKES; i++) editor.insertText('x')
  },
  () => {
    const { ytext, offsets } = bare
    for (let i = 0; i < KEYSTROKES; i++) {
      // Bottom-up, each at its cursor: before keystroke i, cursor c has moved past its own i
      // characters and the i typed at each of the c cursors above it.
      for (let c = CURSORS - 1; c >= 0; c--) ytext.insert(offsets[c]! + i * (c + 1), 'x')
    }
    for (let c = 0; c < CURSORS; c++) offsets[c] = offsets[c]! + KEYSTROKES * (c + 1)
  },
  3,
)
// Fresh documents so both sides measured the same growth (the last run's are thrown away).
editor.destroy()
editor = makeEditor()
bare = makeBare()
console.log(
  `core: typing 1,000 keystrokes x 10 cursors on a 10 MB document: ${ratio(result.ratio)} bare Y.Text inserts (${fmt(result.ours / KEYSTROKES)} vs ${fmt(result.baseline / KEYSTROKES)} per keystroke; target <= 2x)`,
)
