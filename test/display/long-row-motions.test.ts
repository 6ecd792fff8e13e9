import { describe, expect, it } from 'vitest'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { DisplayLayer } from '../../core/display/display-layer.ts'
import { characterLeft, characterRight } from '../../core/motions/character.ts'
import type { LineSource } from '../../core/motions/line-source.ts'
import { Point } from '../../core/point/point.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

describe('character motions over a display layer with long rows', () => {
  it('reads a long row around the position only', () => {
    const buffer = new TextBuffer({ text: 'ab\n' + 'x'.repeat(5000) + 'e\u0301y' + 'z'.repeat(5000) + '\ncd' })
    const layer = new DisplayLayer(buffer)
    const reads: number[] = []
    const counted: LineSource = {
      getLineCount: () => layer.getLineCount(),
      lineForRow: (row) => layer.lineForRow(row),
      textInRow: (row, from, to) => {
        const part = layer.textInRow(row, from, to)
        reads.push(part.text.length)
        return part
      },
    }
    expect(characterLeft(counted, new Point(1, 5003), 2).toArray()).toEqual([1, 5000])
    expect(characterRight(counted, new Point(1, 5000), 2).toArray()).toEqual([1, 5003])
    expect(characterLeft(counted, new Point(1, 1), 2).toArray()).toEqual([0, 2])
    expect(characterRight(counted, new Point(2, 1), 5).toArray()).toEqual([2, 2])
    expect(reads).toEqual([512, 512, 257, 2])
  })

  for (const seed of fuzzSeeds(8)) {
    it(`moves as over the whole rows (seed ${seed})`, () => {
      console.log(`long-row motions fuzz seed ${seed}`)
      const random = new Random(seed)
      const words = ['a', 'word', ' ', '\t', '😀', 'e\u0301', '🇫🇷', '日本']
      const text = [random.string(3000, words), random.string(5, words), random.string(4000, words)].join('\n')
      const buffer = new TextBuffer({ text })
      const layer = new DisplayLayer(buffer, random.bool() ? { softWrapped: true, editorWidthInChars: 20 + random.int(80) } : {})
      const whole: LineSource = { getLineCount: () => layer.getLineCount(), lineForRow: (row) => layer.lineForRow(row) }
      for (let step = 0; step < 300; step++) {
        const row = random.int(layer.getLineCount())
        const column = random.int(layer.lineLengthForScreenRow(row) + 1)
        const count = random.bool(0.8) ? 1 + random.int(3) : random.int(100)
        const position = new Point(row, column)
        const what = `seed ${seed}, step ${step}: ${row}, ${column} by ${count}`
        expect(characterLeft(layer, position, count).toArray(), what).toEqual(characterLeft(whole, position, count).toArray())
        expect(characterRight(layer, position, count).toArray(), what).toEqual(characterRight(whole, position, count).toArray())
      }
    })
  }
})
