import type { TextEditor } from '../../core/index.ts'
import { spansKey, type ScreenSpan } from './highlights.ts'

/**
 * The text: one absolutely positioned element per rendered screen row, keyed by row, reading only
 * screen lines (`lineTextForScreenRow`). A render touches the DOM only where a row's text changed,
 * and keeps the elements in row order so the layer's text reads like the document
 * (`<div><span>text</span>\n</div>`: the newline is collapsed away on screen and in innerText but
 * separates lines in textContent).
 */

interface RenderedLine {
  element: HTMLElement
  span: HTMLElement
  text: string
  /** spansKey() of the highlight painted on it. */
  highlight: string
  newline: boolean
  /** Every character is printable ASCII, so column * charWidth is exact. */
  simple: boolean
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/** Room made inside a row for an IME composition: the text after `column` moves right by `width` px. */
export interface CompositionGap {
  row: number
  column: number
  width: number
}

export class LinesLayer {
  private rendered = new Map<number, RenderedLine>()
  private spare: RenderedLine[] = []
  private readonly range: Range
  /** The longest rendered line so far, in columns: the content's width (never shrinks while unwrapped). */
  maxColumns = 0
  private gap: CompositionGap | null = null

  constructor(
    private readonly editor: TextEditor,
    private readonly surface: HTMLElement,
    /** An element that must stay the container's last child, if any. */
    private readonly tail: HTMLElement | null,
    private lineHeight: number,
    /** Syntax highlight spans for screen rows, or null to paint them plain. */
    private readonly highlight: (first: number, texts: readonly string[]) => ScreenSpan[][] | null = () => null,
  ) {
    this.range = surface.ownerDocument.createRange()
  }

  setLineHeight(lineHeight: number): void {
    this.lineHeight = lineHeight
    for (const [row, line] of this.rendered) line.element.style.top = `${row * lineHeight}px`
  }

  /** Brings rows first..last (inclusive) up to date and drops the others. */
  render(first: number, last: number): void {
    const lastScreenRow = this.editor.getLastScreenRow()
    const end = Math.min(last, lastScreenRow)
    const next = new Map<number, RenderedLine>()
    for (const [row, line] of this.rendered) {
      if (row >= first && row <= end) next.set(row, line)
      else {
        line.element.remove()
        this.spare.push(line)
      }
    }
    const texts: string[] = []
    for (let row = first; row <= end; row++) texts.push(this.editor.lineTextForScreenRow(row))
    const spans = this.highlight(first, texts)
    let expected: ChildNode | null = this.surface.firstChild
    for (let row = first; row <= end; row++) {
      let line = next.get(row)
      if (line === undefined) {
        line = this.spare.pop() ?? this.createLine()
        line.element.style.top = `${row * this.lineHeight}px`
        next.set(row, line)
      }
      const gap = this.gap !== null && this.gap.row === row ? this.gap : null
      this.update(line, texts[row - first]!, spans?.[row - first], row < lastScreenRow, gap)
      if (line.element !== expected) this.surface.insertBefore(line.element, expected)
      expected = line.element.nextSibling
    }
    if (this.spare.length > 64) this.spare.length = 64
    this.rendered = next
    if (this.tail !== null && (this.tail.parentNode !== this.surface || this.tail.nextSibling !== null)) this.surface.appendChild(this.tail)
  }

  /** Opens (or, with null, closes) room for an IME composition; applied on the next render. */
  setCompositionGap(gap: CompositionGap | null): void {
    this.gap = gap
  }

  /** Forgets the widest-line estimate (after soft wrap is toggled). */
  resetWidth(): void {
    this.maxColumns = 0
    for (const line of this.rendered.values()) this.maxColumns = Math.max(this.maxColumns, line.text.length)
  }

  /** The text of a screen row, from the rendered copy when there is one. */
  textForRow(row: number): string {
    return this.rendered.get(row)?.text ?? this.editor.lineTextForScreenRow(row)
  }

  /** Pixels from the start of the text to a screen column (measured for lines that are not plain ASCII). */
  xFor(row: number, column: number, charWidth: number): number {
    const line = this.rendered.get(row)
    if (line === undefined) return Math.max(0, column) * charWidth
    const col = Math.max(0, Math.min(column, line.text.length))
    if (line.simple) return col * charWidth
    const place = textNodeAt(line.span, col)
    if (place === null) return 0
    this.range.setStart(place.node, place.offset)
    this.range.setEnd(place.node, place.offset)
    const rect = this.range.getBoundingClientRect()
    return rect.left - line.span.getBoundingClientRect().left
  }

  /** The screen column between two clusters nearest to `x` pixels on a row. */
  columnAt(row: number, x: number, charWidth: number): number {
    const line = this.rendered.get(row)
    const text = line?.text ?? this.editor.lineTextForScreenRow(row)
    if (line === undefined || line.simple) return Math.max(0, Math.min(text.length, Math.round(x / charWidth)))
    // Positions grow with the column on a left-to-right line: binary search for the nearest one.
    let low = 0
    let high = text.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (this.xFor(row, mid + 1, charWidth) <= x) low = mid + 1
      else high = mid
    }
    if (low >= text.length) return text.length
    // Only the columns between clusters count (inside a ZWJ emoji or a base with its marks, every
    // column measures at the cluster's left edge): the nearer by pixels of the engine's boundaries
    // around `low`, so a click lands before or after a cluster, never inside it.
    const before = this.editor.clipScreenPosition([row, low], { clipDirection: 'backward' }).column
    const after = this.editor.clipScreenPosition([row, low + 1], { clipDirection: 'forward' }).column
    const left = this.xFor(row, before, charWidth)
    const right = this.xFor(row, after, charWidth)
    return x - left > right - x ? after : before
  }

  isRendered(row: number): boolean {
    return this.rendered.has(row)
  }

  private update(line: RenderedLine, text: string, spans: readonly ScreenSpan[] | undefined, newline: boolean, gap: CompositionGap | null): void {
    const highlight = spansKey(spans) + (gap === null ? '' : `|gap:${gap.column}:${gap.width}`)
    if (line.text !== text || line.highlight !== highlight) {
      paint(line.span, text, spans, gap)
      line.text = text
      line.highlight = highlight
      line.simple = gap === null && PRINTABLE_ASCII.test(text)
      if (text.length > this.maxColumns) this.maxColumns = text.length
    }
    if (line.newline !== newline) {
      if (newline) line.element.appendChild(line.element.ownerDocument.createTextNode('\n'))
      else line.element.lastChild!.remove()
      line.newline = newline
    }
  }

  private createLine(): RenderedLine {
    const doc = this.surface.ownerDocument
    const element = doc.createElement('div')
    element.className = 'cx-line'
    element.contentEditable = 'false'
    const span = doc.createElement('span')
    element.appendChild(span)
    return { element, span, text: '', highlight: '', newline: false, simple: true }
  }
}

/**
 * Fills a line's span with its text, wrapping highlighted parts in `<span class="tok-…">`, and with
 * an empty inline-block of the composition's width at the gap's column (text after it moves right).
 */
function paint(target: HTMLElement, text: string, spans: readonly ScreenSpan[] | undefined, gap: CompositionGap | null = null): void {
  if ((spans === undefined || spans.length === 0) && gap === null) {
    target.textContent = text
    return
  }
  const doc = target.ownerDocument
  const pieces: { start: number; end: number; classes: string | null }[] = []
  let at = 0
  for (const span of spans ?? []) {
    const start = Math.max(at, Math.min(span.start, text.length))
    const end = Math.min(span.end, text.length)
    if (start > at) pieces.push({ start: at, end: start, classes: null })
    if (end > start) {
      pieces.push({ start, end, classes: span.classes })
      at = end
    }
  }
  if (at < text.length) pieces.push({ start: at, end: text.length, classes: null })
  const parts: (string | HTMLElement)[] = []
  const emit = (start: number, end: number, classes: string | null): void => {
    if (end <= start) return
    if (classes === null) {
      parts.push(text.slice(start, end))
      return
    }
    const token = doc.createElement('span')
    token.className = classes
    token.textContent = text.slice(start, end)
    parts.push(token)
  }
  const gapColumn = gap === null ? -1 : Math.min(gap.column, text.length)
  let gapPlaced = gap === null
  const placeGap = (): void => {
    const spacer = doc.createElement('span')
    spacer.className = 'cx-composition-gap'
    spacer.style.width = `${gap!.width}px`
    parts.push(spacer)
    gapPlaced = true
  }
  for (const piece of pieces) {
    if (!gapPlaced && gapColumn >= piece.start && gapColumn < piece.end) {
      emit(piece.start, gapColumn, piece.classes)
      placeGap()
      emit(gapColumn, piece.end, piece.classes)
    } else emit(piece.start, piece.end, piece.classes)
  }
  if (!gapPlaced) placeGap()
  target.replaceChildren(...parts)
}

/** The text node and offset holding a column of a painted line (its text may be split into tokens). */
function textNodeAt(target: HTMLElement, column: number): { node: Text; offset: number } | null {
  let remaining = column
  let last: Text | null = null
  const walker = target.ownerDocument.createTreeWalker(target, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode() as Text | null; node !== null; node = walker.nextNode() as Text | null) {
    if (remaining <= node.length) return { node, offset: remaining }
    remaining -= node.length
    last = node
  }
  return last === null ? null : { node: last, offset: last.length }
}
