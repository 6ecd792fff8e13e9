/**
 * Turning soft wrap on for a 200,000-line document, against building the document's line index
 * (the cost of reading the text once), measured in the same run. Run: npx tsx bench/display-soft-wrap.bench.ts
 */
import { LineIndex } from '../core/buffer/line-index.ts'
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { DisplayLayer } from '../core/display/display-layer.ts'
import { codeLikeDocument } from './documents.ts'
import { median } from './measure.ts'

const LINES = 200_000



function time(fn: () => void): number {
  const start = performance.now()
  fn()
  return performance.now() - start
}

const text = codeLikeDocument(LINES)
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
