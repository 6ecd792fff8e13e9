import type { Disposable, Point, TextEditor } from '../../core/index.ts'
import { Gutter } from './gutter.ts'
import { RowHighlighter } from './highlights.ts'
import { LinesLayer } from './lines-layer.ts'
import { SelectionsLayer, type Placement } from './selections-layer.ts'
import { setStyle } from './pool.ts'
import { rowWindow, rowsInsertedAbove, scrollToShow } from './rects.ts'

/** Pixels between the gutter and column 0. */
const PAD = 6
/** Rows rendered above and below the viewport, so a scroll rarely shows unrendered rows. */
const OVERSCAN = 10
/**
 * The input span always holds one zero-width space and the DOM caret sits after it: Chromium only
 * updates an IME composition in place when it starts after a character (in an empty element the
 * composition's later updates are dropped). Playwright's text matchers ignore this character.
 */
export const INPUT_ANCHOR = '\u200b'
/** Views made in this page so far: gives each one's description element its own id. */
let viewCount = 0
/** How long a hint ("read-only") stays on screen. */
const HINT_MS = 2500
/** The most of a selection the caret line holds for screen readers (a whole 5 MB file is not read out). */
const MAX_SPOKEN_SELECTION = 10_000
/** Documents this long (UTF-16 units) show fold toggles once highlighting has covered them. */
const BIG_DOCUMENT = 256 * 1024
/** Characters of the cursor's row copied on each side of the caret. */
const MAX_ROW_COPY = 2_000

/** A layer drawn over the text each frame (the peers' cursors): told where things go. */
export interface DecorationLayer {
  render(placement: Placement, occupied: Set<string>): void
}

interface Dirty {
  lines: boolean
  decorations: boolean
  size: boolean
}

/**
 * The editor on screen: a scroller holding a sticky gutter and the text surface, with selections
 * behind the text and cursors in front. Only the rows in (and near) the viewport exist in the DOM;
 * every change (edit, cursor move, scroll, resize) marks what it affects and one animation frame
 * brings the DOM up to date, reading screen lines and screen positions only.
 */
export class EditorView {
  readonly element: HTMLElement
  readonly scroller: HTMLElement
  /** `[data-testid=editor]`: the focusable editing surface, which holds the caret line. */
  readonly surface: HTMLElement
  /** The rendered rows (`.cx-line`), under the surface. */
  readonly textLayer: HTMLElement
  /** Where the DOM caret lives for typing and IME; drawn at the last cursor. */
  readonly inputSpan: HTMLElement
  /**
   * What assistive technology reads, as Monaco's screen-reader mode does with its textarea: the
   * last cursor's row (text before the caret, the input span, text after), or the last selection's
   * text, with the DOM selection set to match. Transparent, laid over the row it copies; the
   * rendered rows are hidden from assistive technology.
   */
  readonly caretLine: HTMLElement
  private readonly beforeCaret: HTMLElement
  private readonly afterCaret: HTMLElement
  private composing = false
  readonly content: HTMLElement
  /** What an attempt to edit a read-only editor shows. */
  readOnlyHint = 'Read-only: this link can follow the document but not change it'
  private readonly sizer: HTMLElement
  private readonly cursorLayer: HTMLElement
  private readonly highlightLayer: HTMLElement
  private readonly overlayLayer: HTMLElement
  private readonly hint: HTMLElement
  private readonly probe: HTMLElement
  private readonly lines: LinesLayer
  private readonly highlighter: RowHighlighter
  private readonly gutter: Gutter
  private readonly selections: SelectionsLayer
  private readonly decorationLayers: DecorationLayer[] = []
  private readonly subscriptions: Disposable[] = []
  private readonly resizeObserver: ResizeObserver
  private charWidth = 8
  private lineHeight = 20
  private dirty: Dirty = { lines: true, decorations: true, size: true }
  private frame = 0
  private autoscroll: 'none' | 'cursor' | 'center' = 'none'
  /** Rows inserted (or, negative, removed) above the viewport since the last frame: scrolled past. */
  private anchorRows = 0
  private scrollTarget: (() => Point | null) | null = null
  private blinkTimer = 0
  private hintTimer = 0
  private destroyed = false
  private readonly win: Window

  constructor(
    readonly editor: TextEditor,
    parent: HTMLElement,
    options: { label?: string } = {},
  ) {
    const doc = parent.ownerDocument
    this.win = doc.defaultView!
    const el = (tag: string, className: string): HTMLElement => {
      const element = doc.createElement(tag)
      element.className = className
      return element
    }
    this.element = el('div', 'cx-editor')
    this.scroller = el('div', 'cx-scroller')
    this.sizer = el('div', 'cx-sizer')
    const gutterElement = el('div', 'cx-gutter')
    gutterElement.setAttribute('aria-hidden', 'true')
    this.content = el('div', 'cx-content')
    this.highlightLayer = el('div', 'cx-layer cx-highlights')
    // The picture of the text, outside the editing surface: assistive technology reads the caret line.
    this.textLayer = el('div', 'cx-text')
    this.textLayer.setAttribute('aria-hidden', 'true')
    this.surface = el('div', 'cx-surface')
    this.surface.dataset.testid = 'editor'
    this.surface.contentEditable = 'true'
    this.surface.tabIndex = 0
    this.surface.spellcheck = false
    this.surface.setAttribute('role', 'textbox')
    this.surface.setAttribute('aria-multiline', 'true')
    this.surface.setAttribute('aria-label', options.label ?? 'Document')
    // Screen readers announce how to leave the editor and find the keys when it gets focus.
    const description = el('span', 'cx-visually-hidden')
    description.id = `cx-editor-keys-${++viewCount}`
    description.textContent = 'Escape then Tab leaves the editor; F1 lists the keys.'
    this.surface.setAttribute('aria-describedby', description.id)
    this.surface.setAttribute('autocapitalize', 'off')
    this.surface.setAttribute('autocorrect', 'off')
    this.surface.setAttribute('translate', 'no')
    this.surface.setAttribute('aria-readonly', String(editor.isReadOnly()))
    this.inputSpan = el('span', 'cx-input')
    this.inputSpan.textContent = INPUT_ANCHOR
    this.caretLine = el('span', 'cx-input-line')
    this.caretLine.dataset.testid = 'caret-line'
    this.beforeCaret = el('span', 'cx-input-before')
    this.afterCaret = el('span', 'cx-input-after')
    this.caretLine.append(this.beforeCaret, this.inputSpan, this.afterCaret)
    this.surface.appendChild(this.caretLine)
    this.cursorLayer = el('div', 'cx-layer cx-cursors')
    this.overlayLayer = el('div', 'cx-layer cx-overlays')
    this.probe = el('span', 'cx-probe')
    this.probe.textContent = 'x'.repeat(100)
    this.probe.setAttribute('aria-hidden', 'true')
    this.hint = el('div', 'cx-hint')
    this.hint.dataset.testid = 'hint'
    this.hint.setAttribute('role', 'status')
    this.content.append(this.highlightLayer, this.textLayer, this.surface, this.cursorLayer, this.overlayLayer, this.probe)
    this.sizer.append(gutterElement, this.content)
    this.scroller.appendChild(this.sizer)
    this.element.append(this.scroller, this.hint, description)
    parent.appendChild(this.element)
    this.content.style.setProperty('--cx-pad', `${PAD}px`)

    this.measure()
    this.highlighter = new RowHighlighter(editor, this.win, () => this.requestRender({ lines: true }))
    this.lines = new LinesLayer(editor, this.textLayer, null, this.lineHeight, (first, texts) => this.highlighter.spansForScreenRows(first, texts))
    this.gutter = new Gutter(editor, gutterElement, this.lineHeight, () => editor.getBuffer().getLength() < BIG_DOCUMENT || this.highlighter.isComplete())
    this.selections = new SelectionsLayer(this.highlightLayer, this.cursorLayer)

    const all = (): void => this.requestRender({ lines: true, decorations: true, size: true })
    const decorations = (): void => this.cursorsMoved()
    this.subscriptions.push(
      editor.getDisplayLayer().onDidChange((changes) => {
        this.anchorRows += rowsInsertedAbove(changes, Math.floor(this.scroller.scrollTop / this.lineHeight) + this.anchorRows)
        all()
      }),
      editor.onDidChangeSelectionRange(decorations),
      editor.onDidChangeCursorPosition(decorations),
      editor.onDidAddSelection(decorations),
      editor.onDidRemoveSelection(decorations),
      editor.onDidChangeReadOnly((readOnly) => this.surface.setAttribute('aria-readonly', String(readOnly))),
    )
    this.scroller.addEventListener('scroll', () => this.requestRender({ lines: true, decorations: true }))
    this.surface.addEventListener('focus', () => this.element.classList.add('cx-focused'))
    this.surface.addEventListener('blur', () => this.element.classList.remove('cx-focused'))
    this.resizeObserver = new ResizeObserver(() => this.didResize())
    this.resizeObserver.observe(this.scroller)
    void doc.fonts?.ready.then(() => {
      if (!this.destroyed && this.measure()) all()
    })
    this.render()
  }

  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    for (const subscription of this.subscriptions) subscription.dispose()
    this.resizeObserver.disconnect()
    this.highlighter.dispose()
    if (this.frame) this.win.cancelAnimationFrame(this.frame)
    this.win.clearTimeout(this.blinkTimer)
    this.win.clearTimeout(this.hintTimer)
    this.element.remove()
  }

  /** Adds a layer drawn over the text every time decorations are (peers' cursors). */
  addDecorationLayer(layer: DecorationLayer): void {
    this.decorationLayers.push(layer)
    this.requestRender({ decorations: true })
  }

  /** The layer a decoration layer puts its elements in: above the text, beside the local cursors. */
  getOverlayElement(): HTMLElement {
    return this.overlayLayer
  }

  /** Where selection highlights go: behind the text. */
  getHighlightElement(): HTMLElement {
    return this.highlightLayer
  }

  focus(): void {
    this.surface.focus({ preventScroll: true })
  }

  hasFocus(): boolean {
    return this.surface.ownerDocument.activeElement === this.surface
  }

  getLineHeight(): number {
    return this.lineHeight
  }

  getCharWidth(): number {
    return this.charWidth
  }

  /** Screen rows that fit in the viewport (page up/down distance). */
  rowsPerPage(): number {
    return Math.max(1, Math.floor(this.scroller.clientHeight / this.lineHeight) - 1)
  }

  requestRender(parts: Partial<Dirty>): void {
    if (this.destroyed) return
    this.dirty = {
      lines: this.dirty.lines || Boolean(parts.lines),
      decorations: this.dirty.decorations || Boolean(parts.decorations),
      size: this.dirty.size || Boolean(parts.size),
    }
    if (this.frame === 0) this.frame = this.win.requestAnimationFrame(() => this.render())
  }

  /** Scrolls the last local cursor into view on the next frame (after local commands and typing). */
  requestAutoscroll(): void {
    this.autoscroll = 'cursor'
    this.scrollTarget = null
    this.requestRender({ decorations: true })
  }

  /** Keeps a position in view on the next frame, centring it when it is far away (following a peer). */
  requestScrollTo(target: () => Point | null): void {
    this.autoscroll = 'center'
    this.scrollTarget = target
    this.requestRender({ decorations: true })
  }

  /** Soft wrap at the viewport's width, re-measured whenever the editor is resized. */
  setSoftWrapped(softWrapped: boolean): void {
    if (softWrapped) this.editor.setEditorWidthInChars(this.columnsThatFit())
    this.editor.setSoftWrapped(softWrapped)
    this.element.classList.toggle('cx-soft-wrapped', softWrapped)
    this.lines.resetWidth()
    // Wrapped lines fit the view: drop the width the longest unwrapped line needed.
    if (softWrapped) this.content.style.minWidth = ''
    this.requestRender({ lines: true, decorations: true, size: true })
    this.requestAutoscroll()
  }

  /** The clipped screen position under a point of the window (mouse events' clientX/clientY). */
  screenPositionForClientPoint(clientX: number, clientY: number): Point {
    const box = this.content.getBoundingClientRect()
    const x = clientX - box.left - PAD
    const y = clientY - box.top
    const lastRow = this.editor.getLastScreenRow()
    const row = Math.floor(y / this.lineHeight)
    if (row > lastRow) return this.editor.clipScreenPosition([lastRow, Infinity])
    const clampedRow = Math.max(0, row)
    return this.editor.clipScreenPosition([clampedRow, this.lines.columnAt(clampedRow, x, this.charWidth)])
  }

  /**
   * The screen row and column under a window point without clipping the column to the line (past
   * its end, columns go on at the font's cell width): the corner of a column (box) selection.
   */
  boxPointForClientPoint(clientX: number, clientY: number): { row: number; column: number } {
    const box = this.content.getBoundingClientRect()
    const x = clientX - box.left - PAD
    const row = Math.max(0, Math.min(this.editor.getLastScreenRow(), Math.floor((clientY - box.top) / this.lineHeight)))
    const length = this.lines.textForRow(row).length
    const end = this.lines.xFor(row, length, this.charWidth)
    if (x > end) return { row, column: length + Math.round((x - end) / this.charWidth) }
    return { row, column: this.lines.columnAt(row, Math.max(0, x), this.charWidth) }
  }

  /** Pixel position of a screen position in the content (for tests and the IME anchor). */
  pixelPositionForScreenPosition(row: number, column: number): { top: number; left: number } {
    return { top: row * this.lineHeight, left: PAD + this.lines.xFor(row, column, this.charWidth) }
  }

  /**
   * Makes room for an IME composition `width` px wide at the last cursor (the text after it moves
   * aside while the composition shows in the input span); null closes it when the composition ends.
   */
  setCompositionWidth(width: number | null): void {
    const cursor = this.editor.getLastCursor()
    const position = cursor?.getScreenPosition()
    this.lines.setCompositionGap(width === null || position === undefined ? null : { row: position.row, column: position.column, width })
    this.requestRender({ lines: true, decorations: true })
  }

  /** An IME composition is under way: the DOM selection is the browser's until it ends. */
  setComposing(composing: boolean): void {
    this.composing = composing
    this.element.classList.toggle('cx-composing', composing)
  }

  /** Whether a DOM node is part of the caret line (where the DOM selection belongs). */
  holdsDomNode(node: Node | null): boolean {
    return node !== null && this.caretLine.contains(node)
  }

  /**
   * Puts the DOM selection where the editor's last selection is, in the caret line: collapsed after
   * the input span's anchor character for a cursor, over the text for a selection (its focus at the
   * selection's head), so screen readers read the line or the selection and the caret's place in it.
   */
  syncDomSelection(): void {
    if (this.composing) return
    const selection = this.surface.ownerDocument.getSelection()
    if (selection === null) return
    let anchor = this.inputSpan.firstChild
    if (anchor === null || anchor.nodeType !== Node.TEXT_NODE || anchor.textContent !== INPUT_ANCHOR || anchor !== this.inputSpan.lastChild) {
      this.inputSpan.textContent = INPUT_ANCHOR
      anchor = this.inputSpan.firstChild!
    }
    const last = this.editor.getLastSelection()
    const spoken = last !== undefined && !last.isEmpty()
    const before = this.beforeCaret.firstChild
    const after = this.afterCaret.firstChild
    if (spoken && !last.isReversed() && before !== null) {
      setSelection(selection, before, 0, anchor, 0)
    } else if (spoken && last.isReversed() && after !== null) {
      setSelection(selection, after, after.textContent!.length, anchor, 1)
    } else {
      setSelection(selection, anchor, 1, anchor, 1)
    }
  }

  /** Shows a short message over the editor ("This document is read-only"). */
  showHint(text: string): void {
    this.hint.textContent = text
    this.hint.classList.add('cx-visible')
    this.win.clearTimeout(this.hintTimer)
    this.hintTimer = this.win.setTimeout(() => this.hint.classList.remove('cx-visible'), HINT_MS)
  }

  /** Whether syntax highlighting has covered the whole document (it goes on in the background). */
  isHighlightComplete(): boolean {
    return this.highlighter.isComplete()
  }

  /** Renders now instead of on the next frame (tests and benchmarks measure the DOM afterwards). */
  renderNow(): void {
    if (this.frame) this.win.cancelAnimationFrame(this.frame)
    this.render()
  }

  private cursorsMoved(): void {
    // Blinking pauses while the cursor moves and resumes half a second after, as in Atom.
    this.cursorLayer.classList.remove('cx-blink')
    this.win.clearTimeout(this.blinkTimer)
    this.blinkTimer = this.win.setTimeout(() => this.cursorLayer.classList.add('cx-blink'), 500)
    this.requestRender({ decorations: true })
  }

  private didResize(): void {
    if (this.editor.isSoftWrapped()) {
      const columns = this.columnsThatFit()
      if (columns !== this.editor.getEditorWidthInChars()) this.editor.setEditorWidthInChars(columns)
    }
    this.requestRender({ lines: true, decorations: true, size: true })
  }

  private columnsThatFit(): number {
    const width = this.scroller.clientWidth - this.gutter.element.offsetWidth - 2 * PAD
    return Math.max(10, Math.floor(width / this.charWidth) - 1)
  }

  /** Reads the font's cell size; true when it changed. */
  private measure(): boolean {
    const box = this.probe.getBoundingClientRect()
    const charWidth = box.width > 0 ? box.width / 100 : 8
    const lineHeight = parseFloat(this.win.getComputedStyle(this.content).getPropertyValue('--cx-line-height')) || 20
    const changed = charWidth !== this.charWidth || lineHeight !== this.lineHeight
    this.charWidth = charWidth
    this.lineHeight = lineHeight
    if (changed && this.lines) {
      this.lines.setLineHeight(lineHeight)
      this.gutter.setLineHeight(lineHeight)
    }
    return changed
  }

  private render(): void {
    this.frame = 0
    if (this.destroyed) return
    const dirty = this.dirty
    this.dirty = { lines: false, decorations: false, size: false }
    const lastRow = this.editor.getLastScreenRow()
    if (dirty.size || dirty.lines) this.updateSize(lastRow)
    if (this.anchorRows !== 0) {
      // Someone edited above what this user reads: keep the same text in view instead of letting it jump.
      this.scroller.scrollTop += this.anchorRows * this.lineHeight
      this.anchorRows = 0
      dirty.lines = true
    }
    if (this.autoscroll !== 'none') {
      this.applyAutoscroll(lastRow)
      dirty.lines = true
    }
    const { first, last } = rowWindow(this.scroller.scrollTop, this.scroller.clientHeight, this.lineHeight, lastRow, OVERSCAN)
    if (dirty.lines) {
      this.lines.render(first, last)
      this.gutter.render(first, last)
      if (!this.editor.isSoftWrapped()) this.updateWidth()
    }
    if (dirty.lines || dirty.decorations) this.renderDecorations(first, last)
  }

  private renderDecorations(first: number, last: number): void {
    const placement: Placement = {
      first,
      last,
      lineHeight: this.lineHeight,
      xFor: (row, column) => this.lines.xFor(row, column, this.charWidth),
    }
    const occupied = this.selections.render(this.editor.getSelections(), placement)
    for (const layer of this.decorationLayers) layer.render(placement, occupied)
    this.placeInput(placement)
  }

  /**
   * The caret line copies the last cursor's row, laid over it, so the DOM caret (and the IME's
   * candidate window) sits at the cursor; with a selection it holds the selected text instead.
   */
  private placeInput(placement: Placement): void {
    const last = this.editor.getLastSelection()
    if (last === undefined) return
    const { row, column } = last.getHeadScreenPosition()
    let before: string
    let after: string
    // Where the copy starts on the row: a very long line is copied only around the caret.
    let start = column
    if (last.isEmpty()) {
      const text = this.lines.textForRow(row)
      start = Math.max(0, column - MAX_ROW_COPY)
      before = text.slice(start, column)
      after = text.slice(column, column + MAX_ROW_COPY)
    } else {
      const range = last.getBufferRange()
      // Only so much is read out: a selection of a whole big file is spoken from its start.
      const end: [number, number] = range.end.row - range.start.row > 200 ? [range.start.row + 200, 0] : [range.end.row, range.end.column]
      const text = this.editor.getTextInBufferRange([range.start, end]).slice(0, MAX_SPOKEN_SELECTION)
      before = last.isReversed() ? '' : text
      after = last.isReversed() ? text : ''
    }
    const beforeChanged = setText(this.beforeCaret, before)
    const changed = setText(this.afterCaret, after) || beforeChanged
    setStyle(this.caretLine, 'top', `${row * this.lineHeight}px`)
    setStyle(this.caretLine, 'left', `${PAD + placement.xFor(row, start)}px`)
    if (this.hasFocus() && (changed || !this.domSelectionMatches())) this.syncDomSelection()
  }

  /** The DOM selection is still in the caret line (a click elsewhere or the browser may move it). */
  private domSelectionMatches(): boolean {
    const selection = this.surface.ownerDocument.getSelection()
    return selection !== null && selection.rangeCount > 0 && this.holdsDomNode(selection.anchorNode) && this.holdsDomNode(selection.focusNode)
  }

  private updateSize(lastRow: number): void {
    const height = `${(lastRow + 1) * this.lineHeight + Math.max(0, this.scroller.clientHeight - 3 * this.lineHeight)}px`
    if (this.sizer.style.height !== height) this.sizer.style.height = height
  }

  private updateWidth(): void {
    const width = `${2 * PAD + (this.lines.maxColumns + 2) * this.charWidth}px`
    if (this.content.style.minWidth !== width) this.content.style.minWidth = width
  }

  private applyAutoscroll(lastRow: number): void {
    const mode = this.autoscroll
    this.autoscroll = 'none'
    const target = this.scrollTarget ? this.scrollTarget() : (this.editor.getLastCursor()?.getScreenPosition() ?? null)
    this.scrollTarget = null
    if (target === null) return
    const row = Math.min(target.row, lastRow)
    const top = row * this.lineHeight
    const viewport = this.scroller.clientHeight
    const current = this.scroller.scrollTop
    if (mode === 'center' && (top < current || top + this.lineHeight > current + viewport)) {
      this.scroller.scrollTop = Math.max(0, top - viewport / 2)
    } else {
      this.scroller.scrollTop = scrollToShow(current, viewport, top, top + this.lineHeight, 2 * this.lineHeight)
    }
    if (this.editor.isSoftWrapped()) return
    const left = PAD + this.lines.xFor(row, target.column, this.charWidth)
    const visibleWidth = this.scroller.clientWidth - this.gutter.element.offsetWidth
    // Keep the content wide enough for the target before scrolling to it.
    const needed = left + 2 * this.charWidth + PAD
    if (this.content.offsetWidth < needed) this.content.style.minWidth = `${needed}px`
    this.scroller.scrollLeft = scrollToShow(this.scroller.scrollLeft, visibleWidth, left, left + 2, 6 * this.charWidth)
  }
}

function setSelection(selection: Selection, anchorNode: Node, anchorOffset: number, focusNode: Node, focusOffset: number): void {
  if (selection.anchorNode === anchorNode && selection.anchorOffset === anchorOffset && selection.focusNode === focusNode && selection.focusOffset === focusOffset) return
  selection.setBaseAndExtent(anchorNode, anchorOffset, focusNode, focusOffset)
}

/** Sets an element's text when it differs; true when it changed (its text node was replaced). */
function setText(element: HTMLElement, text: string): boolean {
  if (element.textContent === text && (text === '' || element.firstChild !== null)) return false
  element.textContent = text
  return true
}
