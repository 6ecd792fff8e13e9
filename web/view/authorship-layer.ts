import type { ChangeAuthor, Disposable, TextEditor } from '../../core/index.ts'
import { withAlpha } from '../app/user.ts'
import type { DecorationLayer, EditorView } from './editor-view.ts'
import { PALETTE } from './colors.ts'
import { ElementPool, setData, setStyle } from './pool.ts'
import { rectsForScreenRange } from './rects.ts'
import { placeRect, type Placement } from './selections-layer.ts'

/**
 * Who wrote what, on the text: when switched on, each author's text gets a light tint of their
 * colour behind it (alpha 0.2 over white: black text keeps at least 13:1 contrast on any colour) and
 * a 2 px underline in the colour itself, for the rendered rows only. Hovering the text names its
 * author and when they wrote it in a tooltip; `describeAt` says the same for the cursor (the page
 * announces it for keyboard and screen-reader users).
 */
export class AuthorshipLayer implements DecorationLayer {
  private readonly tints: ElementPool
  private readonly tooltip: HTMLElement
  private enabled = false
  private readonly subscriptions: Disposable[] = []
  private readonly onMove = (event: MouseEvent): void => this.hover(event)
  private readonly onLeave = (): void => this.hideTooltip()

  constructor(
    private readonly view: EditorView,
    private readonly editor: TextEditor,
  ) {
    const parent = view.getHighlightElement()
    this.tints = new ElementPool(parent, () => {
      const element = parent.ownerDocument.createElement('div')
      element.className = 'cx-author-tint'
      element.dataset.testid = 'author-tint'
      return element
    })
    const doc = view.element.ownerDocument
    this.tooltip = doc.createElement('div')
    this.tooltip.className = 'cx-author-tooltip'
    this.tooltip.dataset.testid = 'author-tooltip'
    this.tooltip.setAttribute('role', 'tooltip')
    this.tooltip.hidden = true
    view.element.appendChild(this.tooltip)
    view.addDecorationLayer(this)
    // Bindings or names that change re-colour the text.
    this.subscriptions.push(editor.onDidChangeAuthors(() => this.enabled && this.view.requestRender({ decorations: true })))
  }

  isEnabled(): boolean {
    return this.enabled
  }

  setEnabled(on: boolean): void {
    if (on === this.enabled) return
    this.enabled = on
    this.view.element.classList.toggle('cx-authorship-on', on)
    if (on) {
      this.view.element.addEventListener('mousemove', this.onMove)
      this.view.element.addEventListener('mouseleave', this.onLeave)
    } else {
      this.view.element.removeEventListener('mousemove', this.onMove)
      this.view.element.removeEventListener('mouseleave', this.onLeave)
      this.hideTooltip()
    }
    this.view.requestRender({ decorations: true })
  }

  render(placement: Placement): void {
    this.tints.begin()
    if (this.enabled) {
      const editor = this.editor
      const { first, last, lineHeight, xFor } = placement
      const startRow = editor.bufferPositionForScreenPosition([first, 0]).row
      const endRow = editor.bufferPositionForScreenPosition([last, Infinity]).row
      for (const run of editor.getAuthorship([[startRow, 0], [endRow + 1, 0]])) {
        const color = colorOf(run.author)
        const screen = editor.screenRangeForBufferRange(run.range)
        for (const rect of rectsForScreenRange(screen, first, last, xFor, lineHeight)) {
          const element = this.tints.next()
          placeRect(element, rect)
          setStyle(element, 'background', withAlpha(color, 0.2))
          // The underline is drawn in currentColor (see .cx-author-tint).
          setStyle(element, 'color', color)
          setData(element, 'author', authorName(run.author))
        }
      }
    }
    this.tints.end()
  }

  /** "Written by NAME (verified) at TIME", for the character at `position` (buffer coordinates). */
  describeAt(position: { row: number; column: number }): string {
    const runs = this.editor.getAuthorship([position, [position.row, position.column + 1]])
    const run = runs[0]
    if (run === undefined) return 'No text here'
    const change = this.editor.getChangeAtBufferPosition(position)
    const when = change === null ? 'before you opened the document' : `at ${new Date(change.time).toLocaleTimeString()}`
    return `Written by ${authorName(run.author)}${run.author.attested ? ' (verified)' : ''} ${when}`
  }

  dispose(): void {
    this.setEnabled(false)
    for (const subscription of this.subscriptions) subscription.dispose()
    this.tooltip.remove()
  }

  private hover(event: MouseEvent): void {
    const screen = this.view.screenPositionForClientPoint(event.clientX, event.clientY)
    const position = this.editor.bufferPositionForScreenPosition(screen)
    if (position.column >= this.editor.getBuffer().lineLengthForRow(position.row)) {
      this.hideTooltip()
      return
    }
    this.tooltip.textContent = this.describeAt(position)
    const box = this.view.element.getBoundingClientRect()
    setStyle(this.tooltip, 'left', `${event.clientX - box.left + 12}px`)
    setStyle(this.tooltip, 'top', `${event.clientY - box.top + 16}px`)
    this.tooltip.hidden = false
  }

  private hideTooltip(): void {
    this.tooltip.hidden = true
  }
}

/** How an author is named: their user name, else "someone (client N)". */
export function authorName(author: ChangeAuthor): string {
  return author.user?.name ?? (author.clientID === 0 ? 'someone' : `someone (client ${author.clientID})`)
}

/** An author's colour: theirs, else one picked from the palette by client (stable for everyone). */
export function colorOf(author: ChangeAuthor): string {
  const color = author.user?.color
  if (typeof color === 'string' && /^#[0-9a-fA-F]{6}$/.test(color)) return color
  return PALETTE[author.clientID % PALETTE.length]!
}
