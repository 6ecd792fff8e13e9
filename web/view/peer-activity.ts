import type { Disposable } from '../../core/index.ts'
import type { PeerLike, PeerSource } from './peer-types.ts'

/**
 * When each peer last did something (moved a cursor, selected or typed: every move of their cursors
 * that they made, which their typing does too; not the shifts our edits cause). Name labels show only while a peer is active, and the
 * people list puts the most recently active first.
 */
export class PeerActivity {
  private readonly lastActive = new Map<PeerLike, number>()
  private readonly watched = new Map<PeerLike, Disposable[]>()
  private readonly subscriptions: Disposable[] = []
  private readonly listeners = new Set<(peer: PeerLike) => void>()

  constructor(
    source: PeerSource,
    private readonly now: () => number = () => Date.now(),
  ) {
    for (const peer of source.getPeers()) this.watch(peer)
    this.subscriptions.push(
      source.onDidAddPeer((peer) => {
        this.watch(peer)
        this.touch(peer)
      }),
      source.onDidRemovePeer((peer) => this.unwatch(peer)),
    )
  }

  /** Milliseconds since the epoch of the peer's last action; 0 when never seen acting. */
  lastActiveAt(peer: PeerLike): number {
    return this.lastActive.get(peer) ?? 0
  }

  onDidChange(listener: (peer: PeerLike) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  dispose(): void {
    for (const peer of [...this.watched.keys()]) this.unwatch(peer)
    for (const subscription of this.subscriptions) subscription.dispose()
    this.listeners.clear()
  }

  private touch(peer: PeerLike): void {
    this.lastActive.set(peer, this.now())
    for (const listener of this.listeners) listener(peer)
  }

  private watch(peer: PeerLike): void {
    if (this.watched.has(peer)) return
    const disposables: Disposable[] = []
    const watchSelection = (selection: ReturnType<PeerLike['getSelections']>[number]): void => {
      // A move the peer made, not one an edit pushed it through (typing before their cursor is ours).
      disposables.push(selection.getCursor().onDidChangePosition(({ textChanged }) => textChanged || this.touch(peer)))
    }
    for (const selection of peer.getSelections()) watchSelection(selection)
    disposables.push(
      peer.onDidAddSelection((selection) => {
        watchSelection(selection)
        this.touch(peer)
      }),
    )
    this.watched.set(peer, disposables)
  }

  private unwatch(peer: PeerLike): void {
    for (const disposable of this.watched.get(peer) ?? []) disposable.dispose()
    this.watched.delete(peer)
    this.lastActive.delete(peer)
  }
}
