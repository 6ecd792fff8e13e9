import type { Point } from '../../core/index.ts'
import type { InputHost } from './keyboard-input.ts'

/** Pixels per frame a drag scrolls by when the pointer is this far outside the scroller, roughly. */
const DRAG_SCROLL_SPEED = 0.5

/**
 * The mouse, as in Atom on Linux: click places the cursor, shift+click extends, ctrl+click adds a
 * cursor (or removes the one clicked); double-click selects a word and triple-click a line, and
 * dragging extends by characters, words or lines accordingly (scrolling when the pointer leaves the
 * view). Clicking the gutter selects lines; its arrows fold and unfold. Shift+Alt+drag or a drag
 * with the middle button selects a column (box): one selection per row between the corners, as in
 * VS Code and Sublime Text.
 */
export class MouseInput {
  private readonly cleanups: (() => void)[] = []
  private drag: { lastPosition: Point; clientX: number; clientY: number; frame: number; moved: boolean } | null = null

  constructor(
    private readonly host: InputHost,
    private readonly placeCaret: () => void,
  ) {
    const { view } = host
    const on = <K extends keyof HTMLElementEventMap>(target: HTMLElement, type: K, listener: (event: HTMLElementEventMap[K]) => void): void => {
      target.addEventListener(type, listener)
      this.cleanups.push(() => target.removeEventListener(type, listener))
    }
    on(view.content, 'mousedown', (event) => this.onTextMouseDown(event))
    on(view.scroller.querySelector<HTMLElement>('.cx-gutter')!, 'mousedown', (event) => this.onGutterMouseDown(event))
    on(view.scroller, 'wheel', () => host.didLocalInput())
    // The middle button drags a column selection: no X primary-selection paste when it is released.
    on(view.content, 'auxclick', (event) => {
      if (event.button === 1) event.preventDefault()
    })
  }

  dispose(): void {
    this.stopDrag()
    for (const cleanup of this.cleanups) cleanup()
  }

  private onTextMouseDown(event: MouseEvent): void {
    const { editor, view } = this.host
    if (event.button === 1 || (event.button === 0 && event.shiftKey && event.altKey)) {
      // The middle button would also paste the X primary selection on Linux: the box drag wins.
      event.preventDefault()
      view.focus()
      this.placeCaret()
      this.host.didLocalInput()
      this.startBoxDrag(event)
      return
    }
    if (event.button !== 0) {
      view.focus()
      return
    }
    event.preventDefault()
    view.focus()
    this.placeCaret()
    this.host.didLocalInput()
    const position = view.screenPositionForClientPoint(event.clientX, event.clientY)
    const clicks = ((Math.max(1, event.detail) - 1) % 3) + 1
    const addOrRemove = event.ctrlKey
    if (clicks === 1) {
      if (addOrRemove) {
        const existing = editor.getCursors().find((cursor) => cursor.getScreenPosition().isEqual(position))
        if (existing !== undefined && editor.hasMultipleCursors()) existing.destroy()
        else editor.addCursorAtScreenPosition(position)
      } else if (event.shiftKey) {
        editor.selectToScreenPosition(position)
      } else {
        editor.setCursorScreenPosition(position)
      }
    } else {
      if (addOrRemove) editor.addCursorAtScreenPosition(position)
      if (clicks === 2) editor.getLastSelection()!.selectWord()
      else editor.getLastSelection()!.selectLine()
    }
    this.startDrag(event, position)
  }

  private onGutterMouseDown(event: MouseEvent): void {
    if (event.button !== 0) return
    const target = event.target instanceof HTMLElement ? event.target : null
    const row = target?.closest<HTMLElement>('.cx-gutter-row')
    if (!target || !row) return
    event.preventDefault()
    const { editor, view } = this.host
    view.focus()
    this.placeCaret()
    const bufferRow = Number(row.dataset.bufferRow)
    if (target.closest('.cx-fold') && target.textContent !== '') {
      editor.toggleFoldAtBufferRow(bufferRow)
      view.requestRender({ lines: true, decorations: true, size: true })
      return
    }
    this.host.didLocalInput()
    const position = editor.clipScreenPosition([Number(row.dataset.screenRow), 0])
    if (event.shiftKey) editor.selectToScreenPosition(position)
    else {
      if (event.ctrlKey) editor.addCursorAtScreenPosition(position)
      else editor.setCursorScreenPosition(position)
      editor.getLastSelection()!.selectLine()
    }
    this.startDrag(event, position)
  }

  private startDrag(event: MouseEvent, position: Point): void {
    this.stopDrag()
    const win = this.host.view.element.ownerDocument.defaultView!
    const onMove = (move: MouseEvent): void => {
      if (this.drag === null) return
      if ((move.buttons & 1) === 0) {
        onUp()
        return
      }
      this.drag.clientX = move.clientX
      this.drag.clientY = move.clientY
      this.dragTo()
    }
    const onUp = (): void => {
      if (this.drag === null) return
      // While dragging, selections may overlap; they merge once the button is released, as in Atom.
      if (this.drag.moved) this.host.editor.selectToScreenPosition(this.drag.lastPosition)
      this.stopDrag()
    }
    win.addEventListener('mousemove', onMove)
    win.addEventListener('mouseup', onUp)
    this.drag = { lastPosition: position, clientX: event.clientX, clientY: event.clientY, frame: 0, moved: false }
    this.stopDragListeners = () => {
      win.removeEventListener('mousemove', onMove)
      win.removeEventListener('mouseup', onUp)
    }
  }

  private stopDragListeners: () => void = () => {}

  /** A column selection from where the button went down to wherever the pointer goes until it is released. */
  private startBoxDrag(event: MouseEvent): void {
    this.stopDrag()
    const { editor, view } = this.host
    const win = view.element.ownerDocument.defaultView!
    const anchor = view.boxPointForClientPoint(event.clientX, event.clientY)
    const button = event.button === 1 ? 4 : 1
    const selectTo = (clientX: number, clientY: number): void => {
      const head = view.boxPointForClientPoint(clientX, clientY)
      const step = head.row >= anchor.row ? 1 : -1
      const ranges: [[number, number], [number, number]][] = []
      for (let row = anchor.row; row !== head.row + step; row += step) {
        ranges.push([[row, Math.min(anchor.column, head.column)], [row, Math.max(anchor.column, head.column)]])
      }
      editor.setSelectedScreenRanges(ranges, { reversed: head.column < anchor.column })
    }
    selectTo(event.clientX, event.clientY)
    const onMove = (move: MouseEvent): void => {
      if ((move.buttons & button) === 0) return onUp()
      selectTo(move.clientX, move.clientY)
    }
    // On Linux, releasing the middle button pastes the primary selection: not at the end of a box drag.
    const surface = view.surface
    const dropPaste = (paste: Event): void => {
      paste.preventDefault()
      paste.stopImmediatePropagation()
    }
    if (button === 4) surface.addEventListener('paste', dropPaste, true)
    const onUp = (): void => this.stopDrag()
    win.addEventListener('mousemove', onMove)
    win.addEventListener('mouseup', onUp)
    this.stopDragListeners = () => {
      win.removeEventListener('mousemove', onMove)
      win.removeEventListener('mouseup', onUp)
      // After the release's own paste event has gone by.
      win.setTimeout(() => surface.removeEventListener('paste', dropPaste, true), 0)
    }
  }

  private stopDrag(): void {
    if (this.drag?.frame) this.host.view.element.ownerDocument.defaultView!.cancelAnimationFrame(this.drag.frame)
    this.stopDragListeners()
    this.stopDragListeners = () => {}
    this.drag = null
  }

  /** Extends the last selection to the pointer, scrolling (every frame) while it is outside the view. */
  private dragTo(): void {
    const drag = this.drag
    if (drag === null) return
    const { editor, view } = this.host
    const box = view.scroller.getBoundingClientRect()
    const dy = drag.clientY < box.top ? drag.clientY - box.top : drag.clientY > box.bottom ? drag.clientY - box.bottom : 0
    const dx = drag.clientX < box.left ? drag.clientX - box.left : drag.clientX > box.right ? drag.clientX - box.right : 0
    if (dx !== 0 || dy !== 0) {
      view.scroller.scrollTop += dy * DRAG_SCROLL_SPEED
      view.scroller.scrollLeft += dx * DRAG_SCROLL_SPEED
    }
    const position = view.screenPositionForClientPoint(drag.clientX, drag.clientY)
    if (!position.isEqual(drag.lastPosition)) {
      drag.lastPosition = position
      drag.moved = true
      editor.selectToScreenPosition(position, { suppressSelectionMerge: true })
    }
    if (drag.frame) view.element.ownerDocument.defaultView!.cancelAnimationFrame(drag.frame)
    drag.frame = dx !== 0 || dy !== 0 ? view.element.ownerDocument.defaultView!.requestAnimationFrame(() => this.dragTo()) : 0
  }
}
