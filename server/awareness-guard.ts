import type { Logger } from 'pino'
import type { Connection } from './connection.ts'
import type { Metrics } from './metrics.ts'
import { ProtocolError, decodeAwarenessEntries, encodeAwarenessMessage } from './protocol.ts'
import type { AwarenessEntry } from './protocol.ts'

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
 */

type Owner = string | Connection

export interface AwarenessGuardOptions {
  maxStateBytes: number
  metrics: Metrics
  logger: Logger
}

export class AwarenessOwners {
  private readonly owners = new Map<number, Owner>()

  /**
   * Forgets the ids owned by `connection` itself (ids owned by a subject stay owned). Called as
   * the connection closes, before its room removes the state it spoke for: when another open
   * connection speaks for the same id (the same user, reconnected before the old socket was
   * found dead), the closing one lets go of the id, so that the user's state stays.
   */
  release(connection: Connection, roomConnections: Iterable<Connection>): void {
    for (const [clientId, owner] of this.owners) if (owner === connection) this.owners.delete(clientId)
    const clientId = connection.awarenessClientId
    if (clientId === null) return
    for (const other of roomConnections) {
      if (other !== connection && other.isOpen && other.awarenessClientId === clientId) connection.awarenessClientId = null
    }
  }

  /** Whether `connection` may take `clientId` as its own, with `others` the room's other connections. */
  mayClaim(connection: Connection, clientId: number, others: Iterable<Connection>): boolean {
    const owner = this.owners.get(clientId)
    if (owner === undefined) {
      // Not owned yet: as before ownership, an id another open connection speaks for is taken.
      for (const other of others) if (other !== connection && other.awarenessClientId === clientId) return false
      return true
    }
    if (typeof owner === 'string') return owner === connection.subject
    return owner === connection || !owner.isOpen
  }

  claim(connection: Connection, clientId: number): void {
    connection.awarenessClientId = clientId
    this.owners.set(clientId, connection.subject ?? connection)
  }
}

/**
 * The frame to hand to the room for an awareness `frame` (whose payload is `update`) from
 * `connection`: the frame itself when every entry may pass, one with only those that may, or
 * null when none may. A malformed frame is passed on unchanged, for the room to refuse.
 */
export function guardAwareness(
  frame: Uint8Array,
  update: Uint8Array,
  connection: Connection,
  owners: AwarenessOwners,
  roomConnections: Iterable<Connection>,
  options: AwarenessGuardOptions,
): Uint8Array | null {
  let entries: AwarenessEntry[]
  try {
    entries = decodeAwarenessEntries(update)
  } catch (error) {
    if (error instanceof ProtocolError) return frame
    throw error
  }
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
    if (free !== undefined) owners.claim(connection, free.clientId)
  }
  const own = small.filter((entry) => entry.clientId === connection.awarenessClientId)
  if (own.length < small.length) {
    options.metrics.dropped.foreign_awareness += small.length - own.length
    options.logger.debug({ conn: connection.id, clientId: connection.awarenessClientId }, 'dropped awareness published for another client')
  }
  if (own.length === 0) return null
  return own.length === entries.length ? frame : encodeAwarenessMessage(own)
}
