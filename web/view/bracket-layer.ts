import { bracketPairAt, type Disposable, type TextEditor } from '../../core/index.ts'
import type { DecorationLayer, EditorView } from './editor-view.ts'
import { ElementPool, setStyle } from './pool.ts'
import type { Placement } from './selections-layer.ts'

/**
 * Highlights the bracket at the last cursor and its partner (bracket-matcher's highlight), behind
 * the text. The pair is looked up again only when the cursor or the text changed.
 */
export class BracketLayer implements DecorationLayer {
  private readonly boxes: ElementPool
  private readonly subscription: Disposable
  private version = 0
  private cached: { key: string; points: { row: number; column: number }[] } = { key: '', points: [] }

  constructor(
    view: EditorView,
    private readonly editor: TextEditor,
  ) {
    const parent = view.getHighlightElement()
    this.boxes = new ElementPool(parent, () => {
      const element = parent.ownerDocument.createElement('div')
      element.className = 'cx-bracket-match'
      element.dataset.testid = 'bracket-match'
      return element
    })
    this.subscription = editor.getBuffer().onDidChange(() => this.version++)
    view.addDecorationLayer(this)
  }

  dispose(): void {
    this.subscription.dispose()
  }

  render(placement: Placement): void {
    this.boxes.begin()
    for (const point of this.pairAtCursor()) {
      const { row, column } = this.editor.screenPositionForBufferPosition(point)
      if (row < placement.first || row > placement.last) continue
      const left = placement.xFor(row, column)
      const box = this.boxes.next()
      setStyle(box, 'top', `${row * placement.lineHeight}px`)
      setStyle(box, 'left', `${left}px`)
      setStyle(box, 'width', `${Math.max(2, placement.xFor(row, column + 1) - left)}px`)
      setStyle(box, 'height', `${placement.lineHeight}px`)
      box.dataset.row = String(point.row)
      box.dataset.column = String(point.column)
    }
    this.boxes.end()
  }

  /** The bracket next to the last cursor and its partner, in buffer coordinates; empty when unmatched. */
  private pairAtCursor(): { row: number; column: number }[] {
    const selection = this.editor.getLastSelection()
    if (!selection.isEmpty()) return []
    const head = selection.getHeadBufferPosition()
    const key = `${head.row}:${head.column}:${this.version}`
    if (this.cached.key !== key) {
      const pair = bracketPairAt(this.editor.getBuffer(), head)
      this.cached = { key, points: pair === null || pair.match === null ? [] : [pair.bracket, pair.match] }
    }
    return this.cached.points
  }
}
