import type { Disposable } from '../../core/index.ts'
import type { PeerLike, PeerSource } from '../view/peer-types.ts'

/**
 * The people in the room, each in their colour; clicking one follows them (the view keeps their
 * last cursor in sight until the local user moves), clicking again stops.
 */
export class PeerList {
  private readonly subscriptions: Disposable[] = []
  private readonly userSubscriptions = new Map<PeerLike, Disposable>()
  private followed: PeerLike | null = null

  constructor(
    private readonly container: HTMLElement,
    private readonly source: PeerSource,
    private readonly onFollow: (peer: PeerLike | null) => void,
  ) {
    const changed = (): void => this.render()
    for (const peer of source.getPeers()) this.userSubscriptions.set(peer, peer.onDidChangeUser(changed))
    this.subscriptions.push(
      source.onDidAddPeer((peer) => {
        this.userSubscriptions.set(peer, peer.onDidChangeUser(changed))
        this.render()
      }),
      source.onDidRemovePeer((peer) => {
        this.userSubscriptions.get(peer)?.dispose()
        this.userSubscriptions.delete(peer)
        if (peer === this.followed) this.onFollow(null)
        this.render()
      }),
    )
    this.render()
  }

  setFollowed(peer: PeerLike | null): void {
    this.followed = peer
    this.render()
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose()
    for (const subscription of this.userSubscriptions.values()) subscription.dispose()
  }

  private render(): void {
    const doc = this.container.ownerDocument
    const peers = [...this.source.getPeers()].sort((a, b) => a.clientId - b.clientId)
    const buttons = peers.map((peer) => {
      const button = doc.createElement('button')
      button.type = 'button'
      button.className = 'cx-peer'
      button.dataset.testid = 'peer'
      const name = peer.user.name || 'Anonymous'
      button.dataset.peerName = name
      button.style.setProperty('--cx-peer-color', peer.user.color || '#6e7781')
      const following = peer === this.followed
      button.setAttribute('aria-pressed', String(following))
      button.title = following ? `Following ${name}; click to stop` : `Follow ${name}`
      const dot = doc.createElement('span')
      dot.className = 'cx-peer-dot'
      const label = doc.createElement('span')
      label.textContent = name
      button.append(dot, label)
      button.addEventListener('click', () => this.onFollow(following ? null : peer))
      return button
    })
    this.container.replaceChildren(...buttons)
  }
}
