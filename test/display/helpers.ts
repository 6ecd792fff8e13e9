import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { DisplayLayer, type DisplayLayerOptions } from '../../core/display/display-layer.ts'

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
