/**
 * Turning soft wrap on for a 200,000-line document, against building the document's line index
 * (the cost of reading the text once), measured in the same run. Run: npx tsx bench/display-soft-wrap.bench.ts
 */
import { LineIndex } from '../core/buffer/line-index.ts'
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { DisplayLayer } from '../core/display/display-layer.ts'

const LINES = 200_000

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

function time(fn: () => void): number {
  const start = performance.now()
  fn()
  return performance.now() - start
}

const text = makeDocument()
const buffer = new TextBuffer({ text })
const layer = new DisplayLayer(buffer, { editorWidthInChars: 80 })

const indexTimes: number[] = []
const wrapTimes: number[] = []
const buildTimes: number[] = []
for (let round = 0; round < 7; round++) {
  indexTimes.push(time(() => new LineIndex(text)))
  wrapTimes.push(time(() => layer.setSoftWrapped(true)))
  layer.setSoftWrapped(false)
  buildTimes.push(time(() => new DisplayLayer(buffer, { softWrapped: true, editorWidthInChars: 80 }).destroy()))
}
layer.setSoftWrapped(true)
const wrappedLines = layer.getScreenLineCount() - buffer.getLineCount()

const index = median(indexTimes)
const wrap = median(wrapTimes)
const build = median(buildTimes)
console.log(`display: soft wrap on 200k lines (${wrappedLines} extra screen rows): ${(wrap / index).toFixed(2)}x line-index build (${wrap.toFixed(1)} ms vs ${index.toFixed(1)} ms)`)
console.log(`display: building a soft-wrapped layer for 200k lines: ${(build / index).toFixed(2)}x line-index build (${build.toFixed(1)} ms vs ${index.toFixed(1)} ms)`)
