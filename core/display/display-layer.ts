import type { TextBuffer } from '../buffer/text-buffer.ts'
import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import { Point, type PointLike } from '../point/point.ts'
import { Range, type RangeLike } from '../point/range.ts'

export type ClipDirection = 'backward' | 'forward' | 'closest'
export interface ClipOptions {
  clipDirection?: ClipDirection
  skipSoftWrapIndentation?: boolean
}
export interface DisplayLayerOptions {
  tabLength?: number
  softWrapped?: boolean
  editorWidthInChars?: number
  softWrapHangingIndentLength?: number
}
export interface Fold {
  id: number
  range: Range
}
export interface ScreenChange {
  start: number
  oldCount: number
  newCount: number
}

/**
 * Buffer <-> screen translation. This version lays out hard tabs and atomic soft tabs only (one screen
 * row per buffer row); soft wrap and folds come with the display-layer work behind the same methods.
 */
export class DisplayLayer {
  private tabLength: number
  private softWrapped: boolean
  private editorWidthInChars: number
  private hangingIndent: number
  private readonly emitter = new Emitter<{ 'did-change': ScreenChange[] }>()
  private readonly hook: Disposable

  constructor(
    private readonly buffer: TextBuffer,
    options: DisplayLayerOptions = {},
  ) {
    this.tabLength = options.tabLength ?? 2
    this.softWrapped = options.softWrapped ?? false
    this.editorWidthInChars = options.editorWidthInChars ?? 80
    this.hangingIndent = options.softWrapHangingIndentLength ?? 0
    this.hook = buffer.addChangeHook((event) => {
      const spans = event.changes.map((c) => ({ start: c.start.row, oldCount: c.oldExtent.row + 1, newCount: c.newExtent.row + 1 }))
      this.emitter.emit('did-change', spans)
    })
  }

  destroy(): void {
    this.hook.dispose()
    this.emitter.dispose()
  }

  getTabLength(): number {
    return this.tabLength
  }
  setTabLength(n: number): void {
    this.tabLength = Math.max(1, Math.floor(n))
    this.emitAll()
  }
  isSoftWrapped(): boolean {
    return this.softWrapped
  }
  setSoftWrapped(on: boolean): void {
    this.softWrapped = on
  }
  getEditorWidthInChars(): number {
    return this.editorWidthInChars
  }
  setEditorWidthInChars(n: number): void {
    this.editorWidthInChars = n
  }
  getSoftWrapHangingIndentLength(): number {
    return this.hangingIndent
  }
  setSoftWrapHangingIndentLength(n: number): void {
    this.hangingIndent = n
  }

  screenPositionForBufferPosition(position: PointLike, options: ClipOptions = {}): Point {
    const { row, column } = this.buffer.clipPosition(position)
    const line = this.buffer.lineForRow(row) ?? ''
    const clipped = this.clipBufferColumn(line, column, options.clipDirection ?? 'closest')
    return new Point(row, this.screenColumnFor(line, clipped))
  }

  bufferPositionForScreenPosition(position: PointLike, options: ClipOptions = {}): Point {
    const point = Point.fromObject(position, false, 'screenPosition')
    const lastRow = this.buffer.getLastRow()
    if (point.row < 0 || Number.isNaN(point.row)) return Point.ZERO
    if (point.row > lastRow) return this.buffer.getEndPosition()
    const row = Math.floor(point.row)
    const line = this.buffer.lineForRow(row) ?? ''
    const column = this.bufferColumnFor(line, Number.isNaN(point.column) ? 0 : point.column, options.clipDirection ?? 'closest')
    return new Point(row, this.clipBufferColumn(line, column, options.clipDirection ?? 'closest'))
  }

  screenRangeForBufferRange(range: RangeLike, options: ClipOptions = {}): Range {
    const r = Range.fromObject(range)
    return new Range(this.screenPositionForBufferPosition(r.start, options), this.screenPositionForBufferPosition(r.end, options))
  }

  bufferRangeForScreenRange(range: RangeLike, options: ClipOptions = {}): Range {
    const r = Range.fromObject(range)
    return new Range(this.bufferPositionForScreenPosition(r.start, options), this.bufferPositionForScreenPosition(r.end, options))
  }

  clipScreenPosition(position: PointLike, options: ClipOptions = {}): Point {
    return this.screenPositionForBufferPosition(this.bufferPositionForScreenPosition(position, options), options)
  }

  clipBufferPosition(position: PointLike, options: ClipOptions = {}): Point {
    const { row, column } = this.buffer.clipPosition(position)
    const line = this.buffer.lineForRow(row) ?? ''
    return new Point(row, this.clipBufferColumn(line, column, options.clipDirection ?? 'closest'))
  }

  getScreenLineCount(): number {
    return this.buffer.getLineCount()
  }
  getLastScreenRow(): number {
    return this.buffer.getLastRow()
  }
  lineTextForScreenRow(screenRow: number): string {
    const line = this.buffer.lineForRow(screenRow) ?? ''
    if (!line.includes('\t')) return line
    let out = ''
    for (const ch of line) out += ch === '\t' ? ' '.repeat(this.tabLength - (out.length % this.tabLength)) : ch
    return out
  }
  lineLengthForScreenRow(screenRow: number): number {
    return this.lineTextForScreenRow(screenRow).length
  }
  bufferRowForScreenRow(screenRow: number): number {
    return Math.max(0, Math.min(this.buffer.getLastRow(), Math.floor(screenRow)))
  }
  screenRowForBufferRow(bufferRow: number): number {
    return Math.max(0, Math.min(this.buffer.getLastRow(), Math.floor(bufferRow)))
  }
  softWrapIndentLengthForScreenRow(_screenRow: number): number {
    return 0
  }

  // Folds arrive with the display-layer work; until then nothing is ever folded.
  foldBufferRange(_range: RangeLike): number {
    throw new Error('Folding is not available yet')
  }
  foldBufferRow(_bufferRow: number): number | null {
    return null
  }
  unfoldBufferRow(_bufferRow: number): void {}
  destroyFold(_id: number): void {}
  destroyFoldsIntersectingBufferRange(_range: RangeLike): void {}
  destroyFoldsContainingBufferPositions(_positions: PointLike[], _excludeEndpoints: boolean): void {}
  unfoldAll(): void {}
  foldsIntersectingBufferRange(_range: RangeLike): Fold[] {
    return []
  }
  getFolds(): Fold[] {
    return []
  }
  isFoldedAtBufferRow(_bufferRow: number): boolean {
    return false
  }
  isFoldedAtScreenRow(_screenRow: number): boolean {
    return false
  }
  isFoldableAtBufferRow(_bufferRow: number): boolean {
    return false
  }

  onDidChange(callback: (changes: ScreenChange[]) => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  private emitAll(): void {
    this.emitter.emit('did-change', [{ start: 0, oldCount: this.getScreenLineCount(), newCount: this.getScreenLineCount() }])
  }

  private screenColumnFor(line: string, bufferColumn: number): number {
    let screen = 0
    for (let i = 0; i < bufferColumn && i < line.length; i++) {
      screen += line.charCodeAt(i) === 9 ? this.tabLength - (screen % this.tabLength) : 1
    }
    return screen
  }

  private bufferColumnFor(line: string, screenColumn: number, direction: ClipDirection): number {
    let screen = 0
    for (let i = 0; i < line.length; i++) {
      if (screen >= screenColumn) return i
      const width = line.charCodeAt(i) === 9 ? this.tabLength - (screen % this.tabLength) : 1
      if (screen + width > screenColumn) {
        if (direction === 'forward') return i + 1
        if (direction === 'backward') return i
        return screenColumn - screen > width / 2 ? i + 1 : i
      }
      screen += width
    }
    return line.length
  }

  /** Atomic soft tabs: inside leading-space indentation a position snaps to a tab stop. */
  private clipBufferColumn(line: string, column: number, direction: ClipDirection): number {
    let leading = 0
    while (leading < line.length && line.charCodeAt(leading) === 32) leading++
    const atomicEnd = leading - (leading % this.tabLength)
    if (column <= 0 || column >= atomicEnd || column % this.tabLength === 0) return column
    const before = column - (column % this.tabLength)
    const after = before + this.tabLength
    if (direction === 'backward') return before
    if (direction === 'forward') return after
    return column - before >= after - column ? after : before
  }
}
