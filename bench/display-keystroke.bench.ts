/**
 * One keystroke in the middle of a 200,000-line document with soft wrap and 100 folds, against the
 * same keystroke without them (target: at most 1.5x), measured in the same run.
 * Run: npx tsx bench/display-keystroke.bench.ts
 */
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { DisplayLayer } from '../core/display/display-layer.ts'
import { codeLikeDocument } from './documents.ts'
import { median } from './measure.ts'

const LINES = 200_000
const KEYSTROKES = 600
const ROUNDS = 31



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

const text = codeLikeDocument(LINES)
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
