import type { FindQuery, TextEditor } from '../../core/index.ts'
import { ElementPool } from './pool.ts'
import { rectsForScreenRange } from './rects.ts'
import { placeRect, type Placement } from './selections-layer.ts'

/**
 * The matches of the find bar's query in the rendered rows, behind the text: every match in one color
 * and the current one in a stronger one. Only the rows on screen are asked for (the query keeps all).
 */
export class FindLayer {
  private readonly pool: ElementPool
  private query: FindQuery | null = null
  private current = -1

  constructor(
    private readonly editor: TextEditor,
    parent: HTMLElement,
  ) {
    this.pool = new ElementPool(parent, () => {
      const element = parent.ownerDocument.createElement('div')
      element.className = 'cx-find-match'
      element.dataset.testid = 'find-match'
      return element
    })
  }

  /** What to draw from the next render on: a query (or none) and the index of its current match. */
  show(query: FindQuery | null, current: number): void {
    this.query = query
    this.current = current
  }

  render(placement: Placement): void {
    this.pool.begin()
    const query = this.query
    if (query !== null && query.getMatchCount() > 0) {
      const editor = this.editor
      const firstRow = editor.bufferPositionForScreenPosition([placement.first, 0]).row
      const lastRow = editor.bufferPositionForScreenPosition([placement.last, Infinity]).row
      for (const { index, range } of query.getMatchesInRowRange(firstRow, lastRow)) {
        const screenRange = editor.screenRangeForBufferRange(range)
        const rects = rectsForScreenRange(screenRange, placement.first, placement.last, placement.xFor, placement.lineHeight)
        for (const rect of rects) {
          const element = this.pool.next()
          // An empty match still shows, as a thin bar.
          placeRect(element, rect.width === 0 ? { ...rect, width: 2 } : rect)
          element.classList.toggle('cx-find-current', index === this.current)
        }
      }
    }
    this.pool.end()
  }
}
