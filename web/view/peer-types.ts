import type { Cursor, Disposable, Selection } from '../../core/index.ts'

/**
 * The part of core's collaboration API the page draws from (API.md, "Collaboration"): a peer with
 * its user and its selections, and the editor's peer events. Written as narrow interfaces so the
 * view depends on exactly what it uses.
 */
export interface PeerUser {
  readonly name: string
  readonly color: string
}

export interface PeerLike {
  readonly clientId: number
  readonly user: PeerUser
  getSelections(): Selection[]
  getLastCursor(): Cursor | undefined
  onDidAddSelection(callback: (selection: Selection) => void): Disposable
  onDidRemoveSelection(callback: (selection: Selection) => void): Disposable
  onDidChangeUser(callback: (user: PeerUser) => void): Disposable
  onDidDestroy(callback: () => void): Disposable
}

export interface PeerSource {
  getPeers(): PeerLike[]
  onDidAddPeer(callback: (peer: PeerLike) => void): Disposable
  onDidRemovePeer(callback: (peer: PeerLike) => void): Disposable
}
