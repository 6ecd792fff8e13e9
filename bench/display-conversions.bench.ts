/**
 * 100,000 screen <-> buffer conversions on a 200,000-line document with soft wrap, hard tabs and
 * 100 folds, against 100,000 buffer-only row/column <-> offset conversions, measured in the same run.
 * Run: npx tsx bench/display-conversions.bench.ts
 */
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { DisplayLayer } from '../core/display/display-layer.ts'
import type { Point } from '../core/point/point.ts'
import { codeLikeDocument } from './documents.ts'
import { median } from './measure.ts'

const LINES = 200_000
const CONVERSIONS = 100_000
const ROUNDS = 7

let seed = 42
function next(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return Math.floor((seed / 2147483648) * n)
}



function time(fn: () => void): number {
  const start = performance.now()
  fn()
  return performance.now() - start
}

const buffer = new TextBuffer({ text: codeLikeDocument(LINES) })
const layer = new DisplayLayer(buffer, { softWrapped: true, editorWidthInChars: 80, tabLength: 4 })
for (let k = 0; k < 100; k++) {
  const row = 1000 + k * 2000
  layer.foldBufferRange([[row, Infinity], [row + 5, Infinity]])
}

/** Half the conversions at random places in the document, half near one cursor (the rows around it). */
function samplePositions(nearby: boolean): Point[] {
  const points: Point[] = []
  const around = next(LINES - 100)
  for (let i = 0; i < CONVERSIONS / 2; i++) {
    const row = nearby ? around + next(60) : next(LINES)
    points.push(buffer.clipPosition([row, next(buffer.lineLengthForRow(row) + 1)]))
  }
  return points
}

for (const nearby of [false, true]) {
  const bufferPositions = samplePositions(nearby)
  const offsets = bufferPositions.map((p) => buffer.characterIndexForPosition(p))
  const screenPositions = bufferPositions.map((p) => layer.screenPositionForBufferPosition(p))
  const baseline: number[] = []
  const measured: number[] = []
  let check = 0
  for (let round = 0; round < ROUNDS; round++) {
    baseline.push(
      time(() => {
        for (const p of bufferPositions) check += buffer.characterIndexForPosition(p)
        for (const offset of offsets) check += buffer.positionForCharacterIndex(offset).row
      }),
    )
    measured.push(
      time(() => {
        for (const p of bufferPositions) check += layer.screenPositionForBufferPosition(p).row
        for (const p of screenPositions) check += layer.bufferPositionForScreenPosition(p).row
      }),
    )
  }
  const base = median(baseline)
  const layout = median(measured)
  const where = nearby ? 'within 60 rows of a cursor' : 'at random rows'
  console.log(
    `display: 100k screen <-> buffer conversions ${where} (soft wrap, tabs, 100 folds): ${(layout / base).toFixed(2)}x buffer row/column <-> offset conversions (${layout.toFixed(1)} ms vs ${base.toFixed(1)} ms)${check === 0.5 ? '' : ''}`,
  )
}
