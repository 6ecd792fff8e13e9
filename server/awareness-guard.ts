import type { Logger } from 'pino'
import * as Y from 'yjs'
import * as awarenessProtocol from 'y-protocols/awareness'
import { Connection } from './connection.ts'
import type { Metrics } from './metrics.ts'
import { decodeAwarenessEntries, encodeAwarenessEntries, encodeAwarenessMessage } from './protocol.ts'
import type { AwarenessEntry } from './protocol.ts'
import { changedClients } from './transaction-update.ts'

/**
 * Who may publish awareness under which client id, and how large a state may be, checked on
 * each awareness frame before its room sees it.
 *
 * A client id belongs to whoever first publishes a state under it: the token's subject (`sub`)
 * when it has one, for as long as the room stays loaded, or else the connection, until it
 * closes. So a user who reconnects gets their id back even when someone else tried to take it
 * meanwhile, and an impostor's states under that id are dropped. Without AUTH_SECRET no
 * connection has a subject, and an id is its connection's while it is open.
 *
 * A connection speaks for one id (`Connection.awarenessClientId`, the first it may own), as the
 * room expects: the stock client re-sends every change it receives, a departed peer's `null`
 * included, so a removal never claims an id.
 *
 * Writing settles a dispute: a connection whose document updates were made by Yjs client X (the
 * stock client's awareness id is its document's client id) takes X back from an owner that
 * never wrote as X, at once, without waiting for its next awareness message. Otherwise a
 * read-only connection could publish under a writer's id while the writer was briefly away and
 * keep it when the writer came back. The impostor's state is replaced by the first state the
 * writer tried to publish under X (or removed, if it tried none); the stock client overwrites its
 * own local state with whatever it is sent under its id, so this also puts the writer's back.
 */

type Owner = string | Connection

export interface AwarenessGuardOptions {
  maxStateBytes: number
  metrics: Metrics
  logger: Logger
}

export class AwarenessOwners {
  // One per room; each made when first written (an idle room's stay empty, and an empty Map still holds a table).
  private owners: Map<number, Owner> | null = null
  /** Per client id: who has written document updates as that Yjs client (connections weakly: they close). */
  private writers: Map<number, { subjects: Set<string>; connections: WeakSet<Connection> }> | null = null
  /** Per connection: the last state it published under an id it could not claim. */
  private refused: WeakMap<Connection, AwarenessEntry> | null = null
  /** Every id a connection of the room has been made to speak for (only `claim` makes one), for the room's life. */
  private spokenFor: Set<number> | null = null

  /**
   * Forgets the ids owned by `connection` itself (ids owned by a subject stay owned). Called as
   * the connection closes, before its room removes the state it spoke for: when another open
   * connection speaks for the same id (the same user, reconnected before the old socket was
   * found dead), the closing one lets go of the id, so that the user's state stays.
   */
  release(connection: Connection, roomConnections: Iterable<Connection>): void {
    if (this.owners !== null) for (const [clientId, owner] of this.owners) if (owner === connection) this.owners.delete(clientId)
    const clientId = connection.awarenessClientId
    if (clientId === null) return
    for (const other of roomConnections) {
      if (other !== connection && other.isOpen && other.awarenessClientId === clientId) connection.awarenessClientId = null
    }
  }

  /** Whether `connection` may take `clientId` as its own, with `others` the room's other connections. */
  mayClaim(connection: Connection, clientId: number, others: Iterable<Connection>): boolean {
    const owner = this.owners?.get(clientId)
    const outranks = (holder: Owner): boolean => this.hasWritten(ownerOf(connection), clientId) && !this.hasWritten(holder, clientId)
    if (owner === undefined) {
      // Not owned yet: as before ownership, an id another open connection speaks for is taken.
      for (const other of others) if (other !== connection && other.awarenessClientId === clientId && !outranks(ownerOf(other))) return false
      return true
    }
    if (typeof owner === 'string') return owner === connection.subject || outranks(owner)
    return owner === connection || !owner.isOpen || outranks(owner)
  }

  /** Makes `clientId` `connection`'s; any other connection that spoke for it stops doing so. */
  claim(connection: Connection, clientId: number, roomConnections: Iterable<Connection> = []): void {
    for (const other of roomConnections) if (other !== connection && other.awarenessClientId === clientId) other.awarenessClientId = null
    connection.awarenessClientId = clientId
    this.spokenFor ??= new Set()
    this.spokenFor.add(clientId)
    this.owners ??= new Map()
    this.owners.set(clientId, ownerOf(connection))
  }

  /**
   * Whether some connection of the room may speak for `clientId`: false when none has ever
   * claimed it, so no walk of the room's connections can find one.
   */
  maySpeakFor(clientId: number): boolean {
    return this.spokenFor?.has(clientId) === true
  }

  /**
   * Remembers the first state `connection` tried to publish under an id it could not claim: the
   * stock client sends its own state as it connects, then re-sends whatever it is sent under its
   * id, an impostor's state included, so later ones need not be its own.
   */
  noteRefused(connection: Connection, entry: AwarenessEntry): void {
    this.refused ??= new WeakMap()
    if (!this.refused.has(connection)) this.refused.set(connection, entry)
  }

  /** The state `connection` last tried to publish under `clientId` and could not, if any. */
  refusedState(connection: Connection, clientId: number): AwarenessEntry | null {
    const entry = this.refused?.get(connection)
    return entry !== undefined && entry.clientId === clientId ? entry : null
  }

  /** Records that `connection` wrote document updates as the Yjs client `clientId`. */
  recordWrite(connection: Connection, clientId: number): void {
    this.writers ??= new Map()
    let writers = this.writers.get(clientId)
    if (writers === undefined) {
      writers = { subjects: new Set(), connections: new WeakSet() }
      this.writers.set(clientId, writers)
    }
    const owner = ownerOf(connection)
    if (typeof owner === 'string') writers.subjects.add(owner)
    else writers.connections.add(owner)
  }

  private hasWritten(owner: Owner, clientId: number): boolean {
    const writers = this.writers?.get(clientId)
    if (writers === undefined) return false
    return typeof owner === 'string' ? writers.subjects.has(owner) : writers.connections.has(owner)
  }
}

function ownerOf(connection: Connection): Owner {
  return connection.subject ?? connection
}

/** What `reclaimOnWrite` needs of a room. */
export interface AwarenessRoom {
  readonly name: string
  readonly doc: Y.Doc
  readonly awareness: awarenessProtocol.Awareness
  getConnections(): IterableIterator<Connection>
}

const reclaiming = new WeakSet<Y.Doc>()

/**
 * Watches `room`'s document (once per room): each transaction a connection makes records the
 * Yjs clients it wrote as, and gives that connection back an awareness id of one of them that
 * an owner who never wrote as it holds: the state the writer first tried to publish under the id
 * replaces the holder's (or the holder's is removed).
 */
export function reclaimOnWrite(room: AwarenessRoom, owners: AwarenessOwners, logger: Logger): void {
  if (reclaiming.has(room.doc)) return
  reclaiming.add(room.doc)
  room.doc.on('afterTransaction', (transaction: Y.Transaction) => {
    const writer = transaction.origin
    if (!(writer instanceof Connection)) return
    try {
      reclaim(room, owners, logger, writer, transaction)
    } catch (error) {
      // A fault here must not count as the writer's: the room would close it as malformed.
      logger.error({ err: error, conn: writer.id, room: room.name }, 'taking back an awareness id failed')
    }
  })
}

/** One transaction of `writer`'s: see reclaimOnWrite. */
function reclaim(room: AwarenessRoom, owners: AwarenessOwners, logger: Logger, writer: Connection, transaction: Y.Transaction): void {
  for (const [clientId] of changedClients(transaction)) {
    owners.recordWrite(writer, clientId)
    // Every update of a writer that publishes no awareness gets here: the room is walked (without building anything) only for an id someone has claimed.
    if (writer.awarenessClientId !== null || !writer.isOpen || !owners.maySpeakFor(clientId) || !heldByOther(room, writer, clientId)) continue
    const holders = [...room.getConnections()].filter((other) => other !== writer && other.awarenessClientId === clientId)
    if (!owners.mayClaim(writer, clientId, room.getConnections())) continue
    owners.claim(writer, clientId, room.getConnections())
    logger.warn({ conn: writer.id, room: room.name, clientId, from: holders.map((holder) => holder.id) }, 'awareness id taken back by the connection that writes as it, from one that never did')
    const wanted = owners.refusedState(writer, clientId)
    if (wanted === null || wanted.state === 'null') {
      awarenessProtocol.removeAwarenessStates(room.awareness, [clientId], 'reclaimed')
      continue
    }
    // Replaces the holder's state outright, one clock past it (a removal first would make the
    // writer's client re-send the state it was sent under its id, the holder's, at the clock
    // this needs). Origin null, not the writer: the writer's own client must get it too.
    const nextClock = (room.awareness.meta.get(clientId)?.clock ?? 0) + 1
    awarenessProtocol.applyAwarenessUpdate(room.awareness, encodeAwarenessEntries([{ ...wanted, clock: nextClock }]), null)
  }
}

/** Whether a connection of `room` other than `writer` speaks for `clientId`. */
function heldByOther(room: AwarenessRoom, writer: Connection, clientId: number): boolean {
  for (const other of room.getConnections()) if (other !== writer && other.awarenessClientId === clientId) return true
  return false
}

/**
 * The frame to hand to the room for an awareness `frame` (whose payload is `update`) from
 * `connection`: the frame itself when every entry may pass, one with only those that may, or
 * null when none may. Throws ProtocolError for a malformed update.
 */
export function guardAwareness(
  frame: Uint8Array,
  update: Uint8Array,
  connection: Connection,
  owners: AwarenessOwners,
  roomConnections: Iterable<Connection>,
  options: AwarenessGuardOptions,
): Uint8Array | null {
  const entries = decodeAwarenessEntries(update)
  const small = entries.filter((entry) => Buffer.byteLength(entry.state, 'utf8') <= options.maxStateBytes)
  if (small.length < entries.length) {
    options.metrics.dropped.awareness_too_large += entries.length - small.length
    if (!connection.awarenessSizeLogged) {
      connection.awarenessSizeLogged = true
      const largest = Math.max(...entries.map((entry) => Buffer.byteLength(entry.state, 'utf8')))
      options.logger.warn({ conn: connection.id, bytes: largest, max: options.maxStateBytes }, 'dropped an awareness state over MAX_AWARENESS_BYTES (logged once per connection)')
    }
  }
  if (connection.awarenessClientId === null) {
    const free = small.find((entry) => entry.state !== 'null' && owners.mayClaim(connection, entry.clientId, roomConnections))
    if (free !== undefined) owners.claim(connection, free.clientId, roomConnections)
    else {
      const wanted = small.find((entry) => entry.state !== 'null')
      if (wanted !== undefined) owners.noteRefused(connection, wanted)
    }
  }
  const own = small.filter((entry) => entry.clientId === connection.awarenessClientId)
  if (own.length < small.length) {
    options.metrics.dropped.foreign_awareness += small.length - own.length
    options.logger.debug({ conn: connection.id, clientId: connection.awarenessClientId }, 'dropped awareness published for another client')
  }
  if (own.length === 0) return null
  return own.length === entries.length ? frame : encodeAwarenessMessage(own)
}
