import type * as Y from 'yjs'
import type { Awareness } from 'y-protocols/awareness'
import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'

/** The name of the map in the document where the server binds Yjs client IDs to users (only it writes there). */
export const AUTHORS_MAP = 'cotext:authors'

/** A person as authorship names them: `id` is the server's subject when attested. */
export interface AuthorUser {
  readonly id?: string
  readonly name: string
  readonly color?: string
}

/**
 * Who made a change or wrote some text: the Yjs client, and the user behind it. `attested` is true
 * when the server bound that client to that user (it checks every update against the binding);
 * otherwise the user is what the client says of itself in its awareness state, or null when unknown
 * (client 0: a deletion that arrived from elsewhere, whose deleter Yjs does not record).
 */
export interface ChangeAuthor {
  readonly clientID: number
  readonly user: AuthorUser | null
  readonly attested: boolean
}

/**
 * Resolves Yjs client IDs to authors: first the server's bindings (`doc.getMap('cotext:authors')`:
 * client ID as a string → `{id, name, attested}`; attested unless `attested: false`), else the client's awareness `user`, else the last `user` that
 * client had while it was connected. Keeps one user per client seen, not per change.
 */
export class Authors {
  private readonly bindings: Y.Map<unknown>
  private readonly seen = new Map<number, AuthorUser>()
  private readonly cache = new Map<number, ChangeAuthor>()
  private readonly emitter = new Emitter<{ 'did-change': undefined }>()
  private readonly onBindings = (): void => this.changed()
  private readonly onAwareness = ({ added, updated }: { added: number[]; updated: number[] }): void => {
    let changed = false
    for (const client of [...added, ...updated]) changed = this.remember(client) || changed
    if (changed) this.changed()
  }

  constructor(
    doc: Y.Doc,
    private readonly awareness: Awareness | null,
  ) {
    this.bindings = doc.getMap(AUTHORS_MAP)
    this.bindings.observe(this.onBindings)
    if (awareness) {
      for (const client of awareness.getStates().keys()) this.remember(client)
      awareness.on('change', this.onAwareness)
    }
  }

  destroy(): void {
    this.bindings.unobserve(this.onBindings)
    this.awareness?.off('change', this.onAwareness)
    this.emitter.dispose()
  }

  /** The author behind `clientID` as far as is known now. */
  author(clientID: number): ChangeAuthor {
    const cached = this.cache.get(clientID)
    if (cached) return cached
    const bound = this.bindings.get(String(clientID))
    let author: ChangeAuthor
    const seen = this.seen.get(clientID)
    // The server marks bindings it could not check (no AUTH_SECRET: by connection) `attested: false`;
    // then the name the client gives itself is as good, and the one its peers see.
    if (isBinding(bound) && (bound.attested !== false || seen === undefined)) {
      const color = seen?.color
      const user: AuthorUser = color === undefined ? { id: bound.id, name: bound.name } : { id: bound.id, name: bound.name, color }
      author = { clientID, user, attested: bound.attested !== false }
    } else {
      author = { clientID, user: seen ?? null, attested: false }
    }
    this.cache.set(clientID, author)
    return author
  }

  /** Whether `author` is who `who` names: a client ID, or a user's id or name. */
  static matches(author: ChangeAuthor, who: number | string): boolean {
    if (typeof who === 'number') return author.clientID === who
    return author.user !== null && (author.user.id === who || (author.user.id === undefined && author.user.name === who))
  }

  /** Fires when a binding or a client's user changed (authors may read differently now). */
  onDidChange(callback: () => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  private remember(client: number): boolean {
    const user = (this.awareness?.getStates().get(client) as { user?: unknown } | undefined)?.user
    if (!isUser(user)) return false
    const previous = this.seen.get(client)
    if (previous && previous.name === user.name && previous.color === user.color && previous.id === user.id) return false
    const entry: { id?: string; name: string; color?: string } = { name: user.name }
    if (typeof user.id === 'string') entry.id = user.id
    if (typeof user.color === 'string') entry.color = user.color
    this.seen.set(client, entry)
    return true
  }

  private changed(): void {
    this.cache.clear()
    this.emitter.emit('did-change', undefined)
  }
}

function isBinding(value: unknown): value is { id: string; name: string; attested?: unknown } {
  if (value === null || typeof value !== 'object') return false
  const { id, name } = value as { id?: unknown; name?: unknown }
  return typeof id === 'string' && typeof name === 'string'
}

function isUser(value: unknown): value is { id?: unknown; name: string; color?: unknown } {
  return value !== null && typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string'
}
