import type { Logger } from 'pino'
import { AwarenessOwners, guardAwareness } from './awareness-guard.ts'
import { AwarenessThrottle } from './awareness-throttle.ts'
import { CloseCode } from './close-codes.ts'
import type { Connection } from './connection.ts'
import type { RefusalLog } from './log-once.ts'
import type { Metrics } from './metrics.ts'
import * as Y from 'yjs'
import { ProtocolError, decodeClientMessage } from './protocol.ts'
import type { ClientMessage } from './protocol.ts'
import type { Room } from './room.ts'
import { measureUpdate } from './update-budget.ts'

/**
 * What a connection may send, checked on each frame before its room sees it: nothing once its
 * token has expired (the connection is closed with 4401), sync step 1 and awareness queries
 * within their rate limits (beyond them the request is dropped, not answered), document updates
 * that Yjs can read and that hold at most MAX_UPDATE_ITEMS structs and deleted ranges (counted
 * before anything is built: update-budget.ts; a larger one closes the connection with 4413), and
 * awareness only within MAX_AWARENESS_BYTES, for a client id the connection owns
 * (awareness-guard.ts) and within its rate limit (awareness-throttle.ts: past it, coalesced).
 * Refusals are logged once per connection and reason, within the process's line budget.
 */

export interface FrameGuardContext {
  metrics: Metrics
  logger: Logger
  refusals: RefusalLog
  maxAwarenessBytes: number
  maxUpdateItems: number
  /** Who owns which awareness client id, per room (one map per server; see awarenessOwnersOf). */
  owners: WeakMap<Room, AwarenessOwners>
  /**
   * Called with the room of every admitted update that holds something, before the room applies it: the server
   * watches a room's writes (pending limit, awareness reclaim) from its first, so a room nobody writes to (a
   * client with an empty document answers the sync with an empty update) keeps no listeners for them.
   */
  watchWrites: (room: Room) => void
}

/** Who owns which awareness client id in `room` (awareness-guard.ts), made on first use. */
export function awarenessOwnersOf(room: Room, context: Pick<FrameGuardContext, 'owners'>): AwarenessOwners {
  let owners = context.owners.get(room)
  if (owners === undefined) {
    owners = new AwarenessOwners()
    context.owners.set(room, owners)
  }
  return owners
}

/** Stops what the guard keeps for `connection` (its held awareness update); called as it closes. */
export function releaseConnection(connection: Connection): void {
  connection.awarenessThrottle?.dispose()
  connection.awarenessThrottle = null
}

/** Closes `connection` with 4401 because its token has expired. */
export function closeExpired(connection: Connection, context: FrameGuardContext): void {
  if (!connection.isOpen) return
  context.metrics.closedByServer.token_expired += 1
  context.refusals.write(context.logger, 'info', connection, 'token_expired', { conn: connection.id, code: CloseCode.unauthorized }, 'closing connection: token expired')
  connection.close(CloseCode.unauthorized, 'token expired')
}

/** Closes `connection` with 4400 for a frame that is not a y-websocket message Yjs can read. */
export function refuseMalformed(connection: Connection, room: Room, reason: string, context: FrameGuardContext): void {
  if (!connection.isOpen) return
  context.metrics.closedByServer.malformed += 1
  context.refusals.write(context.logger, 'warn', connection, 'malformed', { conn: connection.id, room: room.name, code: CloseCode.malformed, reason }, 'closing connection: malformed message')
  connection.close(CloseCode.malformed, 'malformed message')
}

/** The frame to hand to `room` (possibly with some awareness entries taken out), or null to drop it. */
export function admitFrame(connection: Connection, room: Room, frame: Uint8Array, context: FrameGuardContext): Uint8Array | null {
  const { metrics, logger } = context
  if (connection.hasExpired()) {
    metrics.dropped.token_expired += 1
    closeExpired(connection, context)
    return null
  }
  // Views into `frame`, nothing copied; a frame that is not a message is refused here, so that
  // its log line is within the budget (the room refuses only what Yjs fails on past these checks).
  let message: ClientMessage
  try {
    message = decodeClientMessage(frame)
    if (message.type === 'sync-step-1') Y.decodeStateVector(message.stateVector)
  } catch (error) {
    refuseMalformed(connection, room, error instanceof ProtocolError ? error.message : `a state vector Yjs cannot read (${(error as Error).message})`, context)
    return null
  }
  switch (message.type) {
    case 'sync-step-1':
      if (connection.takeSyncRequest()) return frame
      metrics.dropped.rate_limited += 1
      logger.debug({ conn: connection.id, type: 'sync-step-1' }, 'dropped a request over its rate limit')
      return null
    case 'query-awareness':
      if (connection.awarenessQueries.take()) return frame
      metrics.dropped.rate_limited += 1
      logger.debug({ conn: connection.id, type: 'query-awareness' }, 'dropped a request over its rate limit')
      return null
    case 'sync-step-2':
    case 'update':
      // A read-only connection's writes are dropped by the room, unread.
      return connection.mode === 'rw' ? admitUpdate(connection, room, frame, message.update, context) : frame
    case 'awareness': {
      let admitted: Uint8Array | null
      try {
        admitted = guardAwareness(frame, message.update, connection, awarenessOwnersOf(room, context), room.getConnections(), {
          maxStateBytes: context.maxAwarenessBytes,
          metrics,
          logger,
        })
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error
        refuseMalformed(connection, room, error.message, context)
        return null
      }
      return admitted === null ? null : throttleOf(connection, room, context).offer(admitted)
    }
  }
}

function admitUpdate(connection: Connection, room: Room, frame: Uint8Array, update: Uint8Array, context: FrameGuardContext): Uint8Array | null {
  const size = measureUpdate(update, context.maxUpdateItems)
  if (size === null) {
    refuseMalformed(connection, room, 'an update Yjs cannot read', context)
    return null
  }
  if (size !== 'too-large') {
    if (size.structs + size.deletes > 0) context.watchWrites(room)
    return frame
  }
  context.metrics.closedByServer.update_too_large += 1
  context.refusals.write(
    context.logger,
    'warn',
    connection,
    'update_too_large',
    { conn: connection.id, room: room.name, code: CloseCode.tooManyPending, bytes: update.length, max: context.maxUpdateItems },
    'closing connection: an update with more structs and deleted ranges than MAX_UPDATE_ITEMS; refused it unapplied',
  )
  connection.close(CloseCode.tooManyPending, 'update too large')
  return null
}

/** The connection's awareness throttle, made by its first awareness update (most connections of a quiet room never send one). */
function throttleOf(connection: Connection, room: Room, context: FrameGuardContext): AwarenessThrottle {
  return (connection.awarenessThrottle ??= new AwarenessThrottle(
    (frame) => room.receive(connection, frame),
    () => (context.metrics.dropped.awareness_coalesced += 1),
  ))
}
