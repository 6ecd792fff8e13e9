/**
 * One keystroke in the middle of a 200,000-line document with soft wrap and 100 folds, against the
 * same keystroke without them (target: at most 1.5x), measured in the same run.
 * Run: npx tsx bench/display-keystroke.bench.ts
 */
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { DisplayLayer } from '../core/display/display-layer.ts'

const LINES = 200_000
const KEYSTROKES = 600
const ROUNDS = 31

/** Code-like text: indented short lines, some hard tabs, and about one line in seven long enough to wrap at 80. */
function makeDocument(): string {
  let seed = 42
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return Math.floor((seed / 2147483648) * n)
  }
  const words = ['const', 'value', 'return', 'function', 'item', 'index', 'result', 'if', 'else', 'for', '=', '{', '}', '(x)', 'await']
  const lines: string[] = []
  for (let i = 0; i < LINES; i++) {
    const indent = next(5) === 0 ? '\t' : '  '.repeat(next(4))
    const wordCount = next(7) === 0 ? 14 + next(20) : 2 + next(8)
    const parts: string[] = []
    for (let w = 0; w < wordCount; w++) parts.push(words[next(words.length)]!)
    lines.push(indent + parts.join(' '))
  }
  return lines.join('\n')
}

function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Types a character in the middle row and deletes it again, KEYSTROKES times in all; ms per keystroke. */
function type(buffer: TextBuffer): number {
  const row = LINES / 2
  const start = performance.now()
  for (let i = 0; i < KEYSTROKES / 2; i++) {
    buffer.insert([row, 4], 'x')
    buffer.delete([[row, 4], [row, 5]])
  }
  return (performance.now() - start) / KEYSTROKES
}

const text = makeDocument()
const plain = new TextBuffer({ text })
const withLayer = new TextBuffer({ text })
new DisplayLayer(withLayer)
const wrapped = new TextBuffer({ text })
const layer = new DisplayLayer(wrapped, { softWrapped: true, editorWidthInChars: 80 })
for (let k = 0; k < 100; k++) {
  const row = 1000 + k * 2000
  layer.foldBufferRange([[row, Infinity], [row + 5, Infinity]])
}
if (layer.getFolds().length !== 100) throw new Error('expected 100 folds')

const plainTimes: number[] = []
const layerTimes: number[] = []
const wrappedTimes: number[] = []
// Short rounds, interleaved in a rotating order, so that load from other processes hits all three alike.
const runs: [TextBuffer, number[]][] = [
  [plain, plainTimes],
  [withLayer, layerTimes],
  [wrapped, wrappedTimes],
]
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < runs.length; i++) {
    const [buffer, times] = runs[(round + i) % runs.length]!
    times.push(type(buffer))
  }
}
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`
const base = median(plainTimes)
const bare = median(layerTimes)
const full = median(wrappedTimes)
console.log(`display: keystroke in the middle of 200k lines with soft wrap and 100 folds: ${(full / base).toFixed(2)}x the buffer without a display layer (${us(full)} vs ${us(base)})`)
console.log(`display: keystroke in the middle of 200k lines with soft wrap and 100 folds: ${(full / bare).toFixed(2)}x a display layer without wrap or folds (${us(full)} vs ${us(bare)})`)
