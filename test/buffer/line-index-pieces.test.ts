import { describe, expect, it } from 'vitest'
import { LineIndex, LongLine, splitLines } from '../../core/buffer/line-index.ts'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { clipColumn } from '../../core/point/unicode.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

const SMALL = { longLine: 16, piece: 4 }

describe('LongLine', () => {
  it('cuts a line into even pieces and reads across them without joining', () => {
    const line = new LongLine('abcdefghijklmnopqrstuvwxyz\n', SMALL)
    expect(line.pieceLengths()).toEqual([3, 4, 4, 4, 4, 4, 4])
    line.edit(5, 0, 'XY')
    expect(line.pieceLengths()).toEqual([3, 6, 4, 4, 4, 4, 4])
    expect(line.length).toBe(29)
    expect(line.slice(3, 12)).toBe('deXYfghij')
    expect(line.slice(0, 4)).toBe('abcd')
    expect(line.slice(26, 99)).toBe('yz\n')
    expect([line.slice(-3), line.slice(-1, 1), line.slice(2, -25)]).toEqual(['yz\n', '', 'cd'])
    expect(line.charCodeAt(6)).toBe('Y'.charCodeAt(0))
    expect(line.charCodeAt(29)).toBeNaN()
    expect(line.toString()).toBe('abcdeXYfghijklmnopqrstuvwxyz\n')
  })

  it('cuts a piece grown past twice the piece size, and merges one shrunk under a quarter of it', () => {
    const line = new LongLine('abcdefghijklmnopqrstuvwxyz', SMALL)
    line.edit(4, 0, '12345')
    // The grown piece (9 > 2 x 4) and its neighbours are cut again.
    expect(line.pieceLengths()).toEqual([4, 4, 4, 4, 3, 4, 4, 4])
    expect(line.toString()).toBe('abcd12345efghijklmnopqrstuvwxyz')
    line.edit(0, 4, '')
    expect(line.toString()).toBe('12345efghijklmnopqrstuvwxyz')
    // The emptied piece is merged with its neighbour.
    expect(line.pieceLengths()).toEqual([4, 4, 4, 3, 4, 4, 4])
    // A deletion across pieces rebuilds the pieces it spans.
    line.edit(2, 20, '-')
    expect(line.toString()).toBe('12-vwxyz')
    expect(line.pieceLengths()).toEqual([4, 4])
  })

  it('tells whether it holds non-whitespace', () => {
    const blank = new LongLine(' '.repeat(20) + '\r\n', SMALL)
    expect(blank.hasNonWhitespace()).toBe(false)
    blank.edit(17, 0, 'x')
    expect(blank.hasNonWhitespace()).toBe(true)
  })
})

describe('LineIndex with lines in pieces', () => {
  it('keeps a long line in pieces, edits it in place, and makes it one string again when it shrinks', () => {
    const index = new LineIndex('short\n' + 'x'.repeat(20) + '\nend', SMALL)
    expect([index.pieceCountForRow(0), index.pieceCountForRow(1), index.pieceCountForRow(2)]).toEqual([0, 5, 0])
    index.edit(10, 0, 'abc')
    expect(index.pieceCountForRow(1)).toBe(5)
    expect(index.lineWithEnding(1)).toBe('xxxxabcxxxxxxxxxxxxxxxx\n')
    expect(index.textBetween(9, 14)).toBe('xabcx')
    expect(index.charAt(11)).toBe('b')
    // Typing on the short line past the long-line length puts it in pieces.
    index.edit(3, 0, 'A'.repeat(12))
    expect(index.pieceCountForRow(0)).toBe(5)
    // Shrunk under half the long-line length: one string again.
    index.edit(index.offsetForRow(1), 20, '')
    expect(index.lineWithEnding(1)).toBe('xxx\n')
    expect(index.pieceCountForRow(1)).toBe(0)
    expect(index.getText()).toBe('shoAAAAAAAAAAAArt\nxxx\nend')
  })

  it('splits a line in pieces at an inserted line break', () => {
    const index = new LineIndex('a'.repeat(30), SMALL)
    index.edit(10, 0, '\r\n')
    expect(index.lineCount).toBe(2)
    expect([index.pieceCountForRow(0), index.pieceCountForRow(1)]).toEqual([0, 5])
    expect(index.lineWithEnding(0)).toBe('a'.repeat(10) + '\r\n')
  })

  for (const seed of fuzzSeeds(12)) {
    it(`matches plain strings under random edits (seed ${seed})`, () => {
      console.log(`line-index pieces fuzz seed ${seed}`)
      const random = new Random(seed)
      const alphabet = ['a', 'b', ' ', 'é', '😀', '\n', '\r']
      const words = ['a', 'bb', ' ', 'é', '😀', 'xyz']
      let text = random.string(80, words)
      const index = new LineIndex(text, SMALL)
      for (let step = 0; step < 200; step++) {
        const at = random.int(text.length + 1)
        const del = random.int(Math.min(random.bool(0.2) ? 40 : 5, text.length - at) + 1)
        const ins = random.bool(0.15) ? random.string(6, alphabet) : random.string(random.bool(0.2) ? 30 : 4, words)
        text = text.slice(0, at) + ins + text.slice(at + del)
        index.edit(at, del, ins)
        const lines = splitLines(text)
        const rows: string[] = []
        for (let row = 0; row < index.lineCount; row++) rows.push(index.lineWithEnding(row))
        const a = random.int(text.length + 1)
        const b = a + random.int(Math.min(50, text.length - a) + 1)
        const probe = random.int(text.length + 1)
        const context = `seed ${seed}, step ${step}`
        expect({ rows, length: index.length, between: index.textBetween(a, b), char: index.charAt(probe), text: index.getText() }, context).toEqual({
          rows: lines,
          length: text.length,
          between: text.slice(a, b),
          char: text.charAt(probe),
          text,
        })
      }
    })
  }
})

describe('TextBuffer reading lines in pieces', () => {
  for (const seed of fuzzSeeds(6)) {
    it(`answers as it does for plain strings (seed ${seed})`, () => {
      console.log(`text-buffer pieces fuzz seed ${seed}`)
      const random = new Random(seed)
      const words = ['ab', ' ', '\t', 'é', '😀', 'x', 'y']
      let lines = [random.string(8000, words), 'short', random.string(12000, words) + ' ']
      const buffer = new TextBuffer({ text: lines.join('\r\n') })
      for (let step = 0; step < 60; step++) {
        const row = random.int(3)
        const column = random.int(lines[row]!.length + 1)
        const del = random.int(Math.min(30, lines[row]!.length - column) + 1)
        const ins = random.string(random.bool(0.2) ? 3000 : 3, words)
        buffer.setTextInRange([[row, column], [row, column + del]], ins)
        lines[row] = lines[row]!.slice(0, column) + ins + lines[row]!.slice(column + del)
        // The buffer may heal a split surrogate pair differently from a plain slice: take its text.
        lines = buffer.getText().split('\r\n')
        const text = lines.join('\r\n')
        const probeRow = random.int(3)
        const probeColumn = random.int(lines[probeRow]!.length + 3)
        const offset = random.int(text.length + 1)
        const rowStart = text.lastIndexOf('\n', offset - 1) + 1
        const offsetRow = text.slice(0, rowStart).split('\r\n').length - 1
        const clipped = clipColumn(lines[probeRow]!, probeColumn)
        const endColumn = Math.min(lines[probeRow]!.length, probeColumn + random.int(40))
        expect(
          {
            line: buffer.lineForRow(probeRow),
            length: buffer.lineLengthForRow(probeRow),
            ending: buffer.lineEndingForRow(probeRow),
            blank: buffer.isRowBlank(probeRow),
            clip: buffer.clipPosition([probeRow, probeColumn]).toArray(),
            index: buffer.characterIndexForPosition([probeRow, probeColumn]),
            position: buffer.positionForCharacterIndex(offset).toArray(),
            range: buffer.getTextInRange([[probeRow, probeColumn], [probeRow, endColumn]]),
          },
          `seed ${seed}, step ${step}`,
        ).toEqual({
          line: lines[probeRow],
          length: lines[probeRow]!.length,
          ending: probeRow < 2 ? '\r\n' : '',
          blank: !/\S/.test(lines[probeRow]!),
          clip: [probeRow, clipped],
          index: text.split('\r\n').slice(0, probeRow).join('\r\n').length + (probeRow > 0 ? 2 : 0) + clipped,
          position: [offsetRow, clipColumn(lines[offsetRow]!, Math.min(offset - rowStart, lines[offsetRow]!.length))],
          range: lines[probeRow]!.slice(clipped, Math.max(clipped, clipColumn(lines[probeRow]!, endColumn))),
        })
      }
    })
  }
})
