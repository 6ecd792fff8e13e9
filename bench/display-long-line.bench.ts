/**
 * A keystroke in the middle of a 1 MB single-line document (minified code) against a keystroke in the
 * middle of an 80-column line of a 1 MB document, with soft wrap off and on (80 columns), through a
 * TextEditor (cursor, layout, markers, history). Target: <= 1.5x. Also prints bytes allocated per
 * keystroke; the last round types JavaScript, the language mode asked about the row at every keystroke. Then a keystroke at the end of the 1 MB single line against CodeMirror 6's EditorState doing
 * the same (type a character, delete it), interleaved. Target: <= 2x CodeMirror.
 * Run: npx tsx bench/display-long-line.bench.ts
 */
import { EditorSelection, EditorState } from '@codemirror/state'
import { TextEditor } from '../core/editor/text-editor.ts'
import { allocation, bytes, fmt, median, ratio } from './measure.ts'

const SIZE = 1024 * 1024
const KEYSTROKES = 200
const ROUNDS = Number(process.env.ROUNDS) || 15

// Minified-looking code: no line breaks, no tabs, short tokens separated by punctuation and a few spaces.
const TOKENS = ['function', 'a', '(', 'b', ',', 'c', ')', '{', 'return', ' ', 'b', '+', 'c', '*', '2', ';', '}', 'var', ' ', 'x', '=', '"str"', ';']
let minified = ''
for (let i = 0; minified.length < SIZE; i++) minified += TOKENS[(i * 7 + (i >> 3)) % TOKENS.length]
minified = minified.slice(0, SIZE)
const LINE = 'const value = compute(alpha, beta, gamma) + 42; // a comment of some length here\n'.slice(-81)
const lines = LINE.repeat(Math.ceil(SIZE / LINE.length)).slice(0, SIZE)

function typist(text: string, softWrapped: boolean, language: 'text' | 'javascript'): () => { ms: number; bytes: number } {
  const editor = new TextEditor({ text, language })
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

// The JavaScript round indents both texts, so that every keystroke asks the indentation rules about its row.
const cases = [[false, 'text'], [true, 'text'], [false, 'javascript']] as const
for (const [softWrapped, language] of cases) {
  const indent = language === 'javascript' ? '  ' : ''
  const long = typist(indent + minified, softWrapped, language)
  const short = typist(lines.replace(/^/gm, indent), softWrapped, language)
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
  const wrap = `${softWrapped ? 'on' : 'off'}${language === 'text' ? '' : `, ${language}`}`
  console.log(`display: keystroke in a 1 MB single line vs an 80-column line, soft wrap ${wrap}, per round: ${longTimes.map((t, i) => ratio(t / shortTimes[i]!)).join(' ')}`)
  console.log(
    `display: keystroke (type and backspace) in a 1 MB single line, soft wrap ${wrap}: ${ratio(l / s)} an 80-column line (${fmt(l)} vs ${fmt(s)}; ` +
      `${bytes(median(longBytes))} vs ${bytes(median(shortBytes))} allocated per keystroke; target <= 1.5x ${l / s <= 1.5 ? 'met' : 'NOT met'})`,
  )
}

// At the end of the 1 MB single line: ours against CodeMirror's EditorState, the model work only.
{
  const editor = new TextEditor({ text: minified })
  editor.setCursorBufferPosition(editor.getEofBufferPosition())
  let state = EditorState.create({ doc: minified, selection: EditorSelection.cursor(minified.length) })
  const ours = () => {
    for (let i = 0; i < KEYSTROKES / 2; i++) {
      editor.insertText('x')
      editor.backspace()
    }
  }
  const codemirror = () => {
    for (let i = 0; i < KEYSTROKES / 2; i++) {
      state = state.update(state.replaceSelection('x')).state
      const head = state.selection.main.head
      state = state.update({ changes: { from: head - 1, to: head } }).state
    }
  }
  ours()
  codemirror()
  const ratios: number[] = []
  const oursTimes: number[] = []
  const cmTimes: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const pair = round % 2 === 0 ? [ours, codemirror] : [codemirror, ours]
    const ms: number[] = []
    for (const run of pair) ms.push(allocation(run).ms / KEYSTROKES)
    const [o, c] = round % 2 === 0 ? [ms[0]!, ms[1]!] : [ms[1]!, ms[0]!]
    oursTimes.push(o)
    cmTimes.push(c)
    ratios.push(o / c)
  }
  if (editor.getText() !== state.doc.toString()) throw new Error('the editor and CodeMirror typed different text')
  console.log(`display: keystroke at the end of a 1 MB single line, per round: ${ratios.map(ratio).join(' ')}`)
  const worst = Math.max(...ratios)
  console.log(
    `display: keystroke at the end of a 1 MB single line: ${ratio(median(ratios))} CodeMirror's EditorState (median of ${ROUNDS} rounds, worst ${ratio(worst)}; ` +
      `${fmt(median(oursTimes))} vs ${fmt(median(cmTimes))}; target <= 2x ${worst <= 2 ? 'met' : 'NOT met'})`,
  )
  editor.destroy()
}
