import { describe, expect, it } from 'vitest'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { DisplayLayer, type ClipDirection } from '../../core/display/display-layer.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

const DIRECTIONS: ClipDirection[] = ['backward', 'closest', 'forward']

/** What a layer answers around buffer row `row`, column `column`: screen rows near it and translations both ways. */
function probe(layer: DisplayLayer, row: number, column: number): unknown {
  const screen = layer.screenPositionForBufferPosition([row, column])
  const rows: unknown[] = []
  for (let r = Math.max(0, screen.row - 2); r <= Math.min(layer.getScreenLineCount() - 1, screen.row + 2); r++) {
    const back: unknown[] = []
    for (let c = 0; c <= layer.lineLengthForScreenRow(r) + 1; c += 3) {
      for (const clipDirection of DIRECTIONS) back.push(layer.bufferPositionForScreenPosition([r, c], { clipDirection }).toArray())
    }
    rows.push([layer.lineTextForScreenRow(r), layer.softWrapIndentLengthForScreenRow(r), back])
  }
  const to = DIRECTIONS.map((clipDirection) => layer.screenPositionForBufferPosition([row, column], { clipDirection }).toArray())
  return { count: layer.getScreenLineCount(), screen: screen.toArray(), rows, to }
}

describe('a display layer typing in a long row', () => {
  for (const seed of fuzzSeeds(6)) {
    it(`answers as a layer built from scratch (seed ${seed})`, () => {
      console.log(`long-row layer fuzz seed ${seed}`)
      const random = new Random(seed)
      const words = ['a', 'word', ' ', ' ', 'function(', ')', '😀', 'e\u0301', '日本', '  ']
      const text = ['first', random.string(4000, words), random.string(3, words)].join('\n')
      const softWrapped = random.bool(0.7)
      const options = { softWrapped, editorWidthInChars: 20 + random.int(80), tabLength: 4 }
      const buffer = new TextBuffer({ text })
      const layer = new DisplayLayer(buffer, options)
      for (let step = 0; step < 40; step++) {
        const length = buffer.lineLengthForRow(1)
        const column = 1 + random.int(length)
        const end = Math.min(length, column + (random.bool(0.8) ? 0 : random.int(20)))
        buffer.setTextInRange([[1, column], [1, end]], random.bool(0.9) ? random.pick(['x', ' ', '😀', 'ab', '日']) : random.string(50, words))
        const fresh = new DisplayLayer(new TextBuffer({ text: buffer.getText() }), options)
        const at = Math.min(buffer.lineLengthForRow(1), column + random.int(3))
        expect(probe(layer, 1, at), `seed ${seed}, step ${step}`).toEqual(probe(fresh, 1, at))
      }
    })
  }
})
