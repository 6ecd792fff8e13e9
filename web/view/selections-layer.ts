import type { Selection } from '../../core/index.ts'
import { ElementPool, setStyle } from './pool.ts'
import { rectsForScreenRange, type Rect } from './rects.ts'

/** What a decoration layer needs from the view to place things. */
export interface Placement {
  first: number
  last: number
  lineHeight: number
  xFor(row: number, column: number): number
}

export function placeRect(element: HTMLElement, rect: Rect): void {
  setStyle(element, 'top', `${rect.top}px`)
  setStyle(element, 'left', `${rect.left}px`)
  setStyle(element, 'height', `${rect.height}px`)
  if (rect.width === null) {
    setStyle(element, 'width', '')
    setStyle(element, 'right', '0px')
  } else {
    setStyle(element, 'right', '')
    setStyle(element, 'width', `${rect.width}px`)
  }
}

/**
 * The local user's selections (behind the text) and cursors (in front of it) for the rendered rows.
 * Returns where each cursor was drawn, so peers' cursors at the same spot can step aside.
 */
export class SelectionsLayer {
  private readonly highlights: ElementPool
  private readonly cursors: ElementPool

  constructor(highlightParent: HTMLElement, cursorParent: HTMLElement) {
    this.highlights = new ElementPool(highlightParent, () => {
      const element = highlightParent.ownerDocument.createElement('div')
      element.className = 'cx-selection'
      return element
    })
    this.cursors = new ElementPool(cursorParent, () => {
      const element = cursorParent.ownerDocument.createElement('div')
      element.className = 'cx-cursor'
      element.dataset.testid = 'cursor'
      return element
    })
  }

  render(selections: readonly Selection[], placement: Placement): Set<string> {
    const { first, last, lineHeight } = placement
    const xFor = placement.xFor
    const occupied = new Set<string>()
    this.highlights.begin()
    this.cursors.begin()
    for (const selection of selections) {
      const range = selection.getScreenRange()
      if (range.end.row < first || range.start.row > last) continue
      for (const rect of rectsForScreenRange(range, first, last, xFor, lineHeight)) placeRect(this.highlights.next(), rect)
      const head = selection.getCursor().getScreenPosition()
      if (head.row < first || head.row > last) continue
      const cursor = this.cursors.next()
      setStyle(cursor, 'top', `${head.row * lineHeight}px`)
      setStyle(cursor, 'left', `${xFor(head.row, head.column)}px`)
      setStyle(cursor, 'height', `${lineHeight}px`)
      occupied.add(`${head.row}:${head.column}`)
    }
    this.highlights.end()
    this.cursors.end()
    return occupied
  }
}
