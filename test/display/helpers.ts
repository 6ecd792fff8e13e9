import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { DisplayLayer, type ClipDirection, type DisplayLayerOptions } from '../../core/display/display-layer.ts'
import type { Random } from '../helpers/random.ts'

/** A buffer holding `text` and a display layer over it. */
export function layerFor(text: string, options: DisplayLayerOptions = {}): { buffer: TextBuffer; layer: DisplayLayer } {
  const buffer = new TextBuffer({ text })
  return { buffer, layer: new DisplayLayer(buffer, options) }
}

/** Every screen line, in order. */
export function screenLines(layer: DisplayLayer): string[] {
  const lines: string[] = []
  for (let row = 0; row < layer.getScreenLineCount(); row++) lines.push(layer.lineTextForScreenRow(row))
  return lines
}

/** [row, column] of a point, for compact exact assertions. */
export function rc(point: { row: number; column: number }): [number, number] {
  return [point.row, point.column]
}

const DIRECTIONS: ClipDirection[] = ['backward', 'closest', 'forward']

/**
 * A snapshot cheap enough for long documents: every screen line with its buffer row, every buffer row's screen
 * row, and `samples` translations (and screen clips, with `clip`) at positions `random` picks.
 */
export function sampledSnapshot(layer: DisplayLayer, buffer: TextBuffer, random: Random, samples: number, clip = false): unknown {
  const lines: unknown[] = []
  for (let row = 0; row < layer.getScreenLineCount(); row++) lines.push([layer.lineTextForScreenRow(row), layer.bufferRowForScreenRow(row)])
  const rows: number[] = []
  for (let row = 0; row < buffer.getLineCount(); row++) rows.push(layer.screenRowForBufferRow(row))
  const sampled: unknown[] = []
  for (let i = 0; i < samples; i++) {
    const row = random.int(buffer.getLineCount())
    const column = random.int(buffer.lineLengthForRow(row) + 2)
    const clipDirection = random.pick(DIRECTIONS)
    const screenRow = random.int(layer.getScreenLineCount())
    const sample = [
      layer.screenPositionForBufferPosition([row, column], { clipDirection }).toArray(),
      layer.bufferPositionForScreenPosition([screenRow, column], { clipDirection }).toArray(),
    ]
    if (clip) sample.push(layer.clipScreenPosition([screenRow, column], { clipDirection }).toArray())
    sampled.push(sample)
  }
  return { count: layer.getScreenLineCount(), lines, rows, samples: sampled }
}
