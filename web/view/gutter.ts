import type { TextEditor } from '../../core/index.ts'

/**
 * Line numbers and fold toggles for the rendered rows. A number shows on the first screen row of a
 * buffer row (soft-wrapped continuations get none); a toggle shows where an indentation block
 * starts (▾, click folds) or where a fold is (▸, click unfolds).
 */

interface GutterRow {
  element: HTMLElement
  number: HTMLElement
  fold: HTMLElement
  key: string
}

export class Gutter {
  private rendered = new Map<number, GutterRow>()
  private spare: GutterRow[] = []
  private digits = 0

  constructor(
    private readonly editor: TextEditor,
    readonly element: HTMLElement,
    private lineHeight: number,
    /**
     * Whether fold toggles may be asked for now: syntax folds read the language mode's whole tree, which
     * in a big document the page's progressive parse builds in slices (the view says when it is done);
     * asking before would parse the rest of the document in one task.
     */
    private readonly foldsReady: () => boolean = () => true,
  ) {}

  setLineHeight(lineHeight: number): void {
    this.lineHeight = lineHeight
    for (const [row, line] of this.rendered) line.element.style.top = `${row * lineHeight}px`
  }

  /** Characters the widest line number needs; the view sizes the gutter from it. */
  digitsNeeded(): number {
    return Math.max(2, String(this.editor.getLineCount()).length)
  }

  render(first: number, last: number): void {
    const end = Math.min(last, this.editor.getLastScreenRow())
    const next = new Map<number, GutterRow>()
    for (const [row, line] of this.rendered) {
      if (row >= first && row <= end) next.set(row, line)
      else {
        line.element.remove()
        this.spare.push(line)
      }
    }
    const displayLayer = this.editor.getDisplayLayer()
    const foldsReady = this.foldsReady()
    let previousBufferRow = first > 0 ? this.editor.bufferRowForScreenRow(first - 1) : -1
    for (let row = first; row <= end; row++) {
      let line = next.get(row)
      if (line === undefined) {
        line = this.spare.pop() ?? this.createRow()
        line.element.style.top = `${row * this.lineHeight}px`
        line.element.dataset.screenRow = String(row)
        this.element.appendChild(line.element)
        next.set(row, line)
      }
      const bufferRow = this.editor.bufferRowForScreenRow(row)
      const startsBufferRow = bufferRow !== previousBufferRow
      previousBufferRow = bufferRow
      let fold = ''
      if (startsBufferRow) {
        if (displayLayer.isFoldedAtBufferRow(bufferRow)) fold = 'folded'
        else if (foldsReady && this.editor.isFoldableAtBufferRow(bufferRow)) fold = 'foldable'
      }
      const key = `${startsBufferRow ? bufferRow : -1}:${fold}`
      if (line.key !== key) {
        line.key = key
        line.number.textContent = startsBufferRow ? String(bufferRow + 1) : ''
        line.fold.textContent = fold === 'folded' ? '▸' : fold === 'foldable' ? '▾' : ''
        line.fold.title = fold === 'folded' ? 'Unfold' : fold === 'foldable' ? 'Fold' : ''
        line.element.dataset.bufferRow = String(bufferRow)
        line.element.classList.toggle('cx-folded', fold === 'folded')
      }
    }
    if (this.spare.length > 64) this.spare.length = 64
    this.rendered = next
    const digits = this.digitsNeeded()
    if (digits !== this.digits) {
      this.digits = digits
      this.element.style.setProperty('--cx-gutter-digits', String(digits))
    }
  }

  private createRow(): GutterRow {
    const doc = this.element.ownerDocument
    const element = doc.createElement('div')
    element.className = 'cx-gutter-row'
    const number = doc.createElement('span')
    number.className = 'cx-line-number'
    const fold = doc.createElement('span')
    fold.className = 'cx-fold'
    element.append(number, fold)
    return { element, number, fold, key: '' }
  }
}
