import type { Cursor, Selection, SelectionEditing, SelectionHost } from './host.ts'

/** Who owns a peer's selections: its name (for messages) and its last selection. */
export interface PeerOwner {
  readonly name: string
  getLastSelection(): Selection | undefined
  /** Someone listens to one of the owner's selections: the owner must keep it. */
  retain(selection: Selection): void
}

/**
 * The host of another user's selections: every change is refused, so a peer's `Cursor` and `Selection`
 * answer every query but cannot be moved or edited through from here, by construction. Their moves
 * reach the editor's listeners through the peer, not through this host.
 */
export class PeerSelectionHost implements SelectionHost {
  readonly local = false

  constructor(private readonly owner: PeerOwner) {}

  get ownerName(): string {
    return this.owner.name
  }

  get editing(): SelectionEditing {
    throw this.refusal('selection', 'edit through')
  }

  change<T>(what: 'selection' | 'cursor', action: string): T {
    throw this.refusal(what, action)
  }

  write<T>(): T {
    throw this.refusal('selection', 'edit through')
  }

  isLastSelection(selection: Selection): boolean {
    return selection === this.owner.getLastSelection()
  }

  lastCursor(): Cursor | undefined {
    return this.owner.getLastSelection()?.cursor
  }

  retain(selection: Selection): void {
    this.owner.retain(selection)
  }

  cursorMoved(): void {}

  selectionRangeChanged(): void {}

  selectionDestroyed(): void {}

  private refusal(what: string, action: string): Error {
    return new Error(`Cannot ${action} this ${what}: it belongs to another user (${this.owner.name || 'a peer'})`)
  }
}
