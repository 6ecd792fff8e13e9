import type { Disposable } from '../../core/index.ts'
import type { MountedEditor } from '../mount.ts'
import { textColorOn } from '../view/colors.ts'
import type { PeerLike, PeerSource } from '../view/peer-types.ts'

/** Avatars shown in the bar before the rest go under "+N". */
export const MAX_SHOWN = 4

/**
 * The people in the room, as one row of stacked avatars (initials in each person's colour) that
 * never wraps: the person followed first, then the most recently active, at most MAX_SHOWN; the
 * others behind a "+N" button that opens the whole list. Clicking someone follows them (the view
 * keeps their last cursor in sight until the local user moves); clicking again stops. A click with
 * the mouse hands focus back to the editor, so typing goes on; activated by keyboard, focus stays on
 * the person's button (which survives re-rendering) so keyboard users are not lost.
 */
export class PeerList {
  private readonly subscriptions: Disposable[] = []
  private readonly userSubscriptions = new Map<PeerLike, Disposable>()
  private readonly stops: (() => void)[] = []
  private readonly bar: HTMLElement
  private readonly more: HTMLButtonElement
  private readonly list: HTMLElement
  // Buttons are kept per person and only updated: replacing them on every render (someone typing
  // re-renders often) would drop a click whose press and release land on different elements.
  private readonly buttons = { avatar: new Map<PeerLike, HTMLButtonElement>(), row: new Map<PeerLike, HTMLButtonElement>() }
  private frame = 0

  constructor(
    private readonly container: HTMLElement,
    private readonly source: PeerSource,
    private readonly mounted: MountedEditor,
  ) {
    const doc = container.ownerDocument
    this.bar = doc.createElement('div')
    this.bar.className = 'cx-avatars'
    this.more = doc.createElement('button')
    this.more.type = 'button'
    this.more.className = 'cx-more'
    this.more.dataset.testid = 'peers-more'
    this.more.setAttribute('aria-expanded', 'false')
    this.more.addEventListener('click', () => this.setListOpen(this.list.hidden))
    this.list = doc.createElement('div')
    this.list.className = 'cx-peer-list'
    this.list.dataset.testid = 'peers-list'
    this.list.setAttribute('role', 'group')
    this.list.setAttribute('aria-label', 'Everyone in this room')
    this.list.hidden = true
    this.list.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        this.setListOpen(false)
        this.more.focus()
      }
    })
    container.append(this.bar, this.more, this.list)

    const changed = (): void => this.scheduleRender()
    for (const peer of source.getPeers()) this.userSubscriptions.set(peer, peer.onDidChangeUser(changed))
    this.subscriptions.push(
      source.onDidAddPeer((peer) => {
        this.userSubscriptions.set(peer, peer.onDidChangeUser(changed))
        changed()
      }),
      source.onDidRemovePeer((peer) => {
        this.userSubscriptions.get(peer)?.dispose()
        this.userSubscriptions.delete(peer)
        changed()
      }),
    )
    this.stops.push(mounted.onDidChangeFollowed(changed), mounted.activity.onDidChange(changed))
    this.render()
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose()
    for (const subscription of this.userSubscriptions.values()) subscription.dispose()
    for (const stop of this.stops) stop()
    this.container.ownerDocument.defaultView?.cancelAnimationFrame(this.frame)
    this.container.replaceChildren()
  }

  /** The peers in the order shown: the followed one, then the most recently active. */
  ordered(): PeerLike[] {
    const followed = this.mounted.getFollowed()
    const activity = this.mounted.activity
    return [...this.source.getPeers()].sort((a, b) => {
      if (a === followed) return -1
      if (b === followed) return 1
      return activity.lastActiveAt(b) - activity.lastActiveAt(a) || a.clientId - b.clientId
    })
  }

  private setListOpen(open: boolean): void {
    this.list.hidden = !open
    this.more.setAttribute('aria-expanded', String(open))
    if (open) this.render()
  }

  private scheduleRender(): void {
    const win = this.container.ownerDocument.defaultView!
    if (this.frame === 0) {
      this.frame = win.requestAnimationFrame(() => {
        this.frame = 0
        this.render()
      })
    }
  }

  private render(): void {
    const doc = this.container.ownerDocument
    const focusedId = (doc.activeElement as HTMLElement | null)?.dataset?.clientId
    const focusedIn = doc.activeElement?.closest('.cx-avatars') ? 'bar' : doc.activeElement?.closest('.cx-peer-list') ? 'list' : null
    const peers = this.ordered()
    const shown = peers.length > MAX_SHOWN + 1 ? peers.slice(0, MAX_SHOWN) : peers
    for (const kind of ['avatar', 'row'] as const) {
      for (const peer of this.buttons[kind].keys()) if (!peers.includes(peer)) this.buttons[kind].delete(peer)
    }
    placeChildren(this.bar, shown.map((peer) => this.button(peer, 'avatar')))
    const hidden = peers.length - shown.length
    this.more.hidden = hidden === 0
    this.more.textContent = `+${hidden}`
    this.more.title = `${hidden} more in this room`
    this.more.setAttribute('aria-label', `+${hidden} more people in this room: show everyone`)
    if (hidden === 0 && !this.list.hidden) this.setListOpen(false)
    if (!this.list.hidden) placeChildren(this.list, peers.map((peer) => this.button(peer, 'row')))
    if (focusedId !== undefined && focusedIn !== null) {
      const parent = focusedIn === 'bar' ? this.bar : this.list
      parent.querySelector<HTMLElement>(`[data-client-id="${focusedId}"]`)?.focus()
    }
  }

  /** The person's button of this kind, made once and brought up to date. */
  private button(peer: PeerLike, kind: 'avatar' | 'row'): HTMLButtonElement {
    let button = this.buttons[kind].get(peer)
    if (button === undefined) {
      button = this.createButton(peer, kind)
      this.buttons[kind].set(peer, button)
    }
    const name = peer.user.name || 'Anonymous'
    const color = peer.user.color || '#6e7781'
    button.dataset.peerName = name
    button.style.setProperty('--cx-peer-color', color)
    button.style.setProperty('--cx-peer-text', textColorOn(color))
    const following = peer === this.mounted.getFollowed()
    button.setAttribute('aria-pressed', String(following))
    button.title = following ? `Following ${name}; click to stop` : `Follow ${name}`
    // The accessible name starts with what the button shows ("KS Kind Seal", WCAG 2.5.3), from its
    // content; aria-pressed says whether this person is followed.
    const initials = initialsOf(name)
    button.querySelector('.cx-initials')!.textContent = initials
    button.querySelector('.cx-peer-name')!.textContent = name
    return button
  }

  private createButton(peer: PeerLike, kind: 'avatar' | 'row'): HTMLButtonElement {
    const doc = this.container.ownerDocument
    const button = doc.createElement('button')
    button.type = 'button'
    button.className = kind === 'avatar' ? 'cx-peer cx-avatar' : 'cx-peer cx-peer-row'
    button.dataset.testid = kind === 'avatar' ? 'peer' : 'peer-row'
    button.dataset.clientId = String(peer.clientId)
    const initials = doc.createElement('span')
    initials.className = 'cx-initials'
    // The row shows the name beside the initials; the avatar has it for screen readers only.
    const label = doc.createElement('span')
    label.className = kind === 'avatar' ? 'cx-peer-name cx-visually-hidden' : 'cx-peer-name'
    button.append(initials, doc.createTextNode(' '), label)
    button.addEventListener('click', (event) => {
      this.mounted.follow(peer === this.mounted.getFollowed() ? null : peer)
      // Pressed at once, not a frame later: the button answers the click it was given.
      this.render()
      // detail is 0 for a keyboard activation: keep focus here; after a mouse click, type on.
      if (event.detail > 0) this.mounted.focus()
    })
    return button
  }
}

/** Makes `children` the parent's children, touching the DOM only when they differ (in order). */
function placeChildren(parent: HTMLElement, children: HTMLElement[]): void {
  const current = parent.children
  if (current.length === children.length && children.every((child, i) => current[i] === child)) return
  parent.replaceChildren(...children)
}

/** 'Brave Otter' -> 'BO', 'ada' -> 'A'. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter((word) => word !== '')
  const letters = words.slice(0, 2).map((word) => [...word][0]!.toUpperCase())
  return letters.join('') || '?'
}
