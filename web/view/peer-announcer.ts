import type { Disposable } from '../../core/index.ts'
import type { PeerLike, PeerSource } from './peer-types.ts'

/** Arrivals in the first moments after mounting are the room as it was: not news. */
const QUIET_START_MS = 2000
/** Arrivals and departures this close together are announced in one sentence. */
const GATHER_MS = 400

/**
 * Tells screen-reader users who joins and leaves the room, politely (an `aria-live="polite"` status
 * that does not interrupt): "Kind Seal joined.", "Brave Otter and Kind Seal left.". The people
 * already there when the editor opens are not announced.
 */
export class PeerAnnouncer {
  readonly element: HTMLElement
  private readonly subscriptions: Disposable[]
  private readonly joined: string[] = []
  private readonly left: string[] = []
  private readonly quietUntil: number
  private timer = 0

  constructor(
    parent: HTMLElement,
    source: PeerSource,
    private readonly win: Window,
  ) {
    this.element = parent.ownerDocument.createElement('div')
    this.element.className = 'cx-visually-hidden'
    this.element.dataset.testid = 'peer-announcements'
    this.element.setAttribute('role', 'status')
    this.element.setAttribute('aria-live', 'polite')
    parent.appendChild(this.element)
    this.quietUntil = win.performance.now() + QUIET_START_MS
    this.subscriptions = [source.onDidAddPeer((peer) => this.note(peer, this.joined)), source.onDidRemovePeer((peer) => this.note(peer, this.left))]
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose()
    this.win.clearTimeout(this.timer)
    this.element.remove()
  }

  private note(peer: PeerLike, list: string[]): void {
    if (this.win.performance.now() < this.quietUntil) return
    list.push(peer.user.name || 'Anonymous')
    if (this.timer === 0) this.timer = this.win.setTimeout(() => this.announce(), GATHER_MS)
  }

  private announce(): void {
    this.timer = 0
    const sentences: string[] = []
    if (this.joined.length > 0) sentences.push(`${listOf(this.joined)} joined.`)
    if (this.left.length > 0) sentences.push(`${listOf(this.left)} left.`)
    this.joined.length = 0
    this.left.length = 0
    this.element.textContent = sentences.join(' ')
  }
}

/** ['A'] -> 'A'; ['A', 'B', 'C'] -> 'A, B and C'. */
export function listOf(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`
}
