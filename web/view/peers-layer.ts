import type { Disposable } from '../../core/index.ts'
import { withAlpha } from '../app/user.ts'
import type { DecorationLayer, EditorView } from './editor-view.ts'
import { textColorOn } from './colors.ts'
import type { PeerActivity } from './peer-activity.ts'
import type { PeerLike, PeerSource } from './peer-types.ts'
import { ElementPool, setData, setStyle } from './pool.ts'
import { rectsForScreenRange } from './rects.ts'
import { placeRect, type Placement } from './selections-layer.ts'

/** How far apart cursors at the same spot are drawn, and how far apart their labels stack. */
const STACK_OFFSET_PX = 3
const LABEL_STEP_PX = 16
const FALLBACK_COLOR = '#6e7781'
/** How long a peer's name stays by their cursor after they last acted. */
export const LABEL_MS = 3000

/**
 * Every peer's selections (translucent, in the peer's colour, behind the text) and cursors (solid,
 * `[data-testid=remote-cursor][data-peer-name]`), for the rendered rows. The peer's last cursor
 * carries its name while the peer is active and a few seconds after (then only the caret stays, so
 * names do not cover the text); hovering a cursor shows it again, as does following the peer. The
 * label's text is black or white, whichever contrasts more with the peer's colour. Cursors that
 * share a spot (with each other or with a local cursor) step aside by a few pixels and stack their
 * labels, so every one stays visible.
 */
export class PeersLayer implements DecorationLayer {
  private readonly highlights: ElementPool
  private readonly cursors: ElementPool
  private readonly watched = new Map<PeerLike, Disposable[]>()
  /** Where each peer's label was shown, and whether they have typed there since (the label fades). */
  private readonly labelSpots = new Map<PeerLike, { row: number; column: number; faded: boolean }>()
  private readonly subscriptions: Disposable[] = []
  private followed: PeerLike | null = null
  private labelTimer = 0
  private readonly stopActivity: () => void

  constructor(
    private readonly view: EditorView,
    private readonly source: PeerSource,
    private readonly activity: PeerActivity,
    private readonly labelMs: number = LABEL_MS,
  ) {
    const highlightParent = view.getHighlightElement()
    const cursorParent = view.getOverlayElement()
    this.highlights = new ElementPool(highlightParent, () => {
      const element = highlightParent.ownerDocument.createElement('div')
      element.className = 'cx-peer-selection'
      return element
    })
    this.cursors = new ElementPool(cursorParent, () => {
      const doc = cursorParent.ownerDocument
      const element = doc.createElement('div')
      element.className = 'cx-remote-cursor'
      element.dataset.testid = 'remote-cursor'
      const label = doc.createElement('div')
      label.className = 'cx-remote-label'
      label.dataset.testid = 'remote-cursor-label'
      element.appendChild(label)
      return element
    })
    for (const peer of source.getPeers()) this.watch(peer)
    this.subscriptions.push(
      source.onDidAddPeer((peer) => {
        this.watch(peer)
        this.changed(peer)
      }),
      source.onDidRemovePeer((peer) => {
        this.unwatch(peer)
        this.changed(peer)
      }),
    )
    this.stopActivity = activity.onDidChange(() => this.scheduleLabelCheck())
    view.addDecorationLayer(this)
  }

  dispose(): void {
    for (const peer of [...this.watched.keys()]) this.unwatch(peer)
    for (const subscription of this.subscriptions) subscription.dispose()
    this.stopActivity()
    this.view.element.ownerDocument.defaultView?.clearTimeout(this.labelTimer)
  }

  /** Keeps this peer's last cursor in view whenever it moves (null: stop). */
  setFollowed(peer: PeerLike | null): void {
    this.followed = peer
    this.view.requestRender({ decorations: true })
    if (peer !== null) this.scrollToFollowed()
  }

  render(placement: Placement, occupied: Set<string>): void {
    const { first, last, lineHeight, xFor } = placement
    const taken = new Map<string, number>()
    for (const key of occupied) taken.set(key, 1)
    this.highlights.begin()
    this.cursors.begin()
    const peers = [...this.source.getPeers()].sort((a, b) => a.clientId - b.clientId)
    const now = Date.now()
    // Labels shown at each spot so far: a second one stacks onto the first, never away from its caret
    // because a local cursor (which has no label) shares the spot.
    const labelsAt = new Map<string, number>()
    for (const peer of peers) {
      const color = peer.user.color || FALLBACK_COLOR
      const name = peer.user.name || 'Anonymous'
      const lastCursor = peer.getLastCursor()
      const labeled = peer === this.followed || now - this.activity.lastActiveAt(peer) < this.labelMs
      for (const selection of peer.getSelections()) {
        const range = selection.getScreenRange()
        if (range.end.row < first || range.start.row > last) continue
        for (const rect of rectsForScreenRange(range, first, last, xFor, lineHeight)) {
          const element = this.highlights.next()
          placeRect(element, rect)
          setStyle(element, 'background', withAlpha(color, 0.22))
        }
        const cursor = selection.getCursor()
        const head = cursor.getScreenPosition()
        if (head.row < first || head.row > last) continue
        const key = `${head.row}:${head.column}`
        const stacked = taken.get(key) ?? 0
        taken.set(key, stacked + 1)
        const element = this.cursors.next()
        setStyle(element, 'top', `${head.row * lineHeight}px`)
        setStyle(element, 'left', `${xFor(head.row, head.column) - 1 + stacked * STACK_OFFSET_PX}px`)
        setStyle(element, 'height', `${lineHeight}px`)
        setStyle(element, 'background', color)
        const label = element.firstElementChild as HTMLElement
        setStyle(label, 'background', color)
        setStyle(label, 'color', textColorOn(color))
        if (label.textContent !== name) label.textContent = name
        const below = head.row === 0
        // Every peer's last cursor has a label (shown while active, or on hover): those stack.
        const hasLabel = cursor === lastCursor
        const showsLabel = hasLabel && labeled
        const labelIndex = hasLabel ? (labelsAt.get(key) ?? 0) : 0
        if (hasLabel) labelsAt.set(key, labelIndex + 1)
        setStyle(label, 'transform', labelIndex === 0 ? '' : `translateY(${below ? '' : '-'}${labelIndex * LABEL_STEP_PX}px)`)
        if (cursor === lastCursor && !labeled) this.labelSpots.delete(peer)
        const faded = showsLabel && this.typesInPlace(peer, head)
        const className = `cx-remote-cursor${below ? ' cx-label-below' : ''}${showsLabel ? ' cx-labeled' : ''}${faded ? ' cx-label-faded' : ''}`
        if (element.className !== className) element.className = className
        // A faded label is decoration the text shows through (the people list names the peer): inert, so
        // neither assistive technology nor a contrast check reads it as text.
        if (label.inert !== faded) label.inert = faded
        setData(element, 'peerName', name)
        setData(element, 'clientId', String(peer.clientId))
        setData(element, 'row', String(head.row))
        setData(element, 'column', String(head.column))
      }
    }
    this.highlights.end()
    this.cursors.end()
  }

  /**
   * Whether the peer is typing on the row their label was shown on: the label then fades (its text
   * lies over the line above or below) until they move to another row.
   */
  private typesInPlace(peer: PeerLike, head: { row: number; column: number }): boolean {
    const shown = this.labelSpots.get(peer)
    if (shown === undefined || shown.row !== head.row) {
      this.labelSpots.set(peer, { row: head.row, column: head.column, faded: false })
      return false
    }
    if (shown.column !== head.column) shown.faded = true
    return shown.faded
  }

  private watch(peer: PeerLike): void {
    if (this.watched.has(peer)) return
    const disposables: Disposable[] = []
    const watchSelection = (selection: ReturnType<PeerLike['getSelections']>[number]): void => {
      disposables.push(selection.onDidChangeRange(() => this.changed(peer)))
    }
    for (const selection of peer.getSelections()) watchSelection(selection)
    disposables.push(
      peer.onDidAddSelection((selection) => {
        watchSelection(selection)
        this.changed(peer)
      }),
      peer.onDidRemoveSelection(() => this.changed(peer)),
      peer.onDidChangeUser(() => this.changed(peer)),
    )
    this.watched.set(peer, disposables)
  }

  private unwatch(peer: PeerLike): void {
    for (const disposable of this.watched.get(peer) ?? []) disposable.dispose()
    this.watched.delete(peer)
    this.labelSpots.delete(peer)
    if (this.followed === peer) this.followed = null
  }

  private changed(peer: PeerLike): void {
    this.view.requestRender({ decorations: true })
    if (peer === this.followed) this.scrollToFollowed()
  }

  /** Someone acted: their label shows now; draw again when the next shown label is due to go. */
  private scheduleLabelCheck(): void {
    const win = this.view.element.ownerDocument.defaultView!
    win.clearTimeout(this.labelTimer)
    this.labelTimer = 0
    this.view.requestRender({ decorations: true })
    const now = Date.now()
    let next = Infinity
    for (const peer of this.source.getPeers()) {
      const until = this.activity.lastActiveAt(peer) + this.labelMs
      if (until > now) next = Math.min(next, until)
    }
    if (next !== Infinity) this.labelTimer = win.setTimeout(() => this.scheduleLabelCheck(), next - now + 20)
  }

  private scrollToFollowed(): void {
    const peer = this.followed
    if (peer === null) return
    this.view.requestScrollTo(() => peer.getLastCursor()?.getScreenPosition() ?? null)
  }
}
