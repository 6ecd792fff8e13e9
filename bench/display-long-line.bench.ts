/**
 * A keystroke in the middle of a 1 MB single-line document (minified code) against a keystroke in the
 * middle of an 80-column line of a 1 MB document, with soft wrap off and on (80 columns), through a
 * TextEditor (cursor, layout, markers, history). Target: <= 1.5x. Also prints bytes allocated per
 * keystroke.
 * Run: npx tsx bench/display-long-line.bench.ts
 */
import { TextEditor } from '../core/editor/text-editor.ts'
import { allocation, bytes, fmt, median, ratio } from './measure.ts'

const SIZE = 1024 * 1024
const KEYSTROKES = 200
const ROUNDS = 15

// Minified-looking code: no line breaks, no tabs, short tokens separated by punctuation and a few spaces.
const TOKENS = ['function', 'a', '(', 'b', ',', 'c', ')', '{', 'return', ' ', 'b', '+', 'c', '*', '2', ';', '}', 'var', ' ', 'x', '=', '"str"', ';']
let minified = ''
for (let i = 0; minified.length < SIZE; i++) minified += TOKENS[(i * 7 + (i >> 3)) % TOKENS.length]
minified = minified.slice(0, SIZE)
const LINE = 'const value = compute(alpha, beta, gamma) + 42; // a comment of some length here\n'.slice(-81)
const lines = LINE.repeat(Math.ceil(SIZE / LINE.length)).slice(0, SIZE)

function typist(text: string, softWrapped: boolean): () => { ms: number; bytes: number } {
  const editor = new TextEditor({ text })
  editor.setSoftWrapped(softWrapped)
  const buffer = editor.getBuffer()
  const middle = buffer.positionForCharacterIndex(Math.floor(text.length / 2))
  editor.setCursorBufferPosition([middle.row, Math.min(40, buffer.lineLengthForRow(middle.row)) || middle.column])
  if (buffer.getLineCount() === 1) editor.setCursorBufferPosition(middle)
  return () => {
    const result = allocation(() => {
      for (let i = 0; i < KEYSTROKES / 2; i++) {
        editor.insertText('x')
        editor.backspace()
      }
    })
    return { ms: result.ms / KEYSTROKES, bytes: result.bytes / KEYSTROKES }
  }
}

for (const softWrapped of [false, true]) {
  const long = typist(minified, softWrapped)
  const short = typist(lines, softWrapped)
  const longTimes: number[] = []
  const shortTimes: number[] = []
  const longBytes: number[] = []
  const shortBytes: number[] = []
  long()
  short()
  for (let round = 0; round < ROUNDS; round++) {
    const pair = round % 2 === 0 ? [long, short] : [short, long]
    for (const run of pair) {
      const { ms, bytes: allocated } = run()
      ;(run === long ? longTimes : shortTimes).push(ms)
      ;(run === long ? longBytes : shortBytes).push(allocated)
    }
  }
  const l = median(longTimes)
  const s = median(shortTimes)
  console.log(
    `display: keystroke (type and backspace) in a 1 MB single line, soft wrap ${softWrapped ? 'on' : 'off'}: ${ratio(l / s)} an 80-column line (${fmt(l)} vs ${fmt(s)}; ` +
      `${bytes(median(longBytes))} vs ${bytes(median(shortBytes))} allocated per keystroke; target <= 1.5x)`,
  )
}
