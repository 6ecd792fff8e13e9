/**
 * Row/column <-> offset on a 200,000-line document: Cotext's line index against a naive scan and
 * against @codemirror/state's Text (the peer), through TextBuffer's clipping methods and through the tree
 * alone. Target (issue 20): through TextBuffer's public methods <= 1.0x CodeMirror's Text (which does no
 * clipping), per round of interleaved runs.
 */
import { Text } from '@codemirror/state'
import { LineIndex } from '../core/buffer/line-index.ts'
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { Point } from '../core/point/point.ts'
import { allocation, bytes, compare, fmt, median, ratio } from './measure.ts'

const LINES = 200_000
const QUERIES = 100_000
const lines = Array.from({ length: LINES }, (_, i) => `line ${i}: ${'x'.repeat(i % 60)}`)
const text = lines.join('\n')
const buffer = new TextBuffer({ text })
const cm = Text.of(lines)

let seed = 42
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
const rows = Array.from({ length: QUERIES }, () => Math.floor(random() * LINES))
const offsets = Array.from({ length: QUERIES }, () => Math.floor(random() * text.length))

let sink = 0
const ours = () => {
  for (let i = 0; i < QUERIES; i++) {
    sink += buffer.characterIndexForPosition(new Point(rows[i]!, 3))
    sink += buffer.positionForCharacterIndex(offsets[i]!).row
  }
}
const codemirror = () => {
  for (let i = 0; i < QUERIES; i++) {
    sink += cm.line(rows[i]! + 1).from + 3
    const line = cm.lineAt(offsets[i]!)
    sink += line.number - 1 + (offsets[i]! - line.from) * 0
  }
}
// The naive approach: a sorted array of line starts rebuilt from the text, then searched linearly.
const naiveStarts: number[] = [0]
for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) naiveStarts.push(i + 1)
const NAIVE_QUERIES = 200
const naive = () => {
  for (let i = 0; i < NAIVE_QUERIES; i++) {
    sink += naiveStarts[rows[i]!]! + 3
    let row = 0
    while (row + 1 < naiveStarts.length && naiveStarts[row + 1]! <= offsets[i]!) row++
    sink += row
  }
}

// The tree alone, without TextBuffer's clipping (rows, columns into the line's content, surrogate pairs,
// NaN), which CodeMirror's line()/lineAt() do not do.
const index = (buffer as unknown as { index: LineIndex }).index
const tree = () => {
  for (let i = 0; i < QUERIES; i++) {
    sink += index.lineAndOffsetForRow(rows[i]!).offset + 3
    sink += index.lineForOffset(offsets[i]!).row
  }
}

// Rounds of interleaved runs (the order alternates), each ratio printed; the median is the figure.
const ROUNDS = Number(process.env.ROUNDS ?? 9)
const roundRatios: number[] = []
const oursTimes: number[] = []
const cmTimes: number[] = []
ours()
codemirror()
for (let round = 0; round < ROUNDS; round++) {
  const pair = round % 2 === 0 ? [ours, codemirror] : [codemirror, ours]
  const times = pair.map((run) => {
    const start = performance.now()
    run()
    return performance.now() - start
  })
  const [o, c] = round % 2 === 0 ? times : [times[1]!, times[0]!]
  oursTimes.push(o!)
  cmTimes.push(c!)
  roundRatios.push(o! / c!)
}
const vsCodeMirror = { ratio: median(roundRatios), ours: median(oursTimes), baseline: median(cmTimes) }
console.log(`core: row/column <-> offset through TextBuffer vs CodeMirror Text, per round: ${roundRatios.map(ratio).join(' ')}`)
const treeVsCodeMirror = compare(tree, codemirror)
const perQueryOurs = vsCodeMirror.ours / QUERIES
const naiveTime = compare(() => {
  for (let i = 0; i < NAIVE_QUERIES; i++) {
    sink += buffer.characterIndexForPosition(new Point(rows[i]!, 3))
    sink += buffer.positionForCharacterIndex(offsets[i]!).row
  }
}, naive)
console.log(
  `core: row/column <-> offset on ${LINES.toLocaleString('en')} lines: ${ratio(vsCodeMirror.ratio)} CodeMirror Text (${fmt(perQueryOurs)} vs ${fmt(vsCodeMirror.baseline / QUERIES)} per conversion pair; target <= 1.0x)`,
)
console.log(
  `core: the line index's tree alone (no clipping): ${ratio(treeVsCodeMirror.ratio)} CodeMirror Text (${fmt(treeVsCodeMirror.ours / QUERIES)} vs ${fmt(treeVsCodeMirror.baseline / QUERIES)} per conversion pair; target <= 1x)`,
)
console.log(
  `core: row/column <-> offset vs a naive linear scan: ${ratio(1 / naiveTime.ratio)} faster (${fmt(naiveTime.ours / NAIVE_QUERIES)} vs ${fmt(naiveTime.baseline / NAIVE_QUERIES)} per conversion pair)`,
)

// Typing in the index alone: a character typed and deleted in the middle of a 1 MB single line (kept in
// pieces) against the same in the middle of an 80-column line of a 1 MB document.
const SIZE = 1024 * 1024
const oneLine = new LineIndex('x'.repeat(SIZE))
const manyLines = new LineIndex(('y'.repeat(80) + '\n').repeat(SIZE / 81))
const typeIn = (target: LineIndex, offset: number) => () => {
  for (let i = 0; i < 5000; i++) {
    target.edit(offset, 0, 'a')
    target.edit(offset, 1, '')
  }
}
const longTyping = typeIn(oneLine, SIZE / 2)
const shortTyping = typeIn(manyLines, manyLines.offsetForRow(manyLines.lineCount >> 1) + 40)
const typingRatios: number[] = []
const typingBytes: number[] = []
for (let round = 0; round < 9; round++) {
  const long = allocation(longTyping)
  const short = allocation(shortTyping)
  typingRatios.push(long.ms / short.ms)
  typingBytes.push(long.bytes / 10000)
}
console.log(`core: line index edit in a 1 MB single line vs an 80-column line, per round: ${typingRatios.map(ratio).join(' ')}`)
console.log(`core: line index edit in a 1 MB single line: ${ratio(median(typingRatios))} an 80-column line (${bytes(median(typingBytes))} allocated per edit)`)
if (oneLine.length !== SIZE || sink === 0.5) console.log('')
