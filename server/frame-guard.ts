import type { Logger } from 'pino'
import { AwarenessOwners, guardAwareness } from './awareness-guard.ts'
import { CloseCode } from './close-codes.ts'
import type { Connection } from './connection.ts'
import type { Metrics } from './metrics.ts'
import { ProtocolError, decodeClientMessage, peekMessageType } from './protocol.ts'
import type { Room } from './room.ts'

/**
 * What a connection may send, checked on each frame before its room sees it: nothing once its
 * token has expired (the connection is closed with 4401), sync step 1 and awareness queries
 * within their rate limits (beyond them the request is dropped, not answered), and awareness
 * only within MAX_AWARENESS_BYTES and for a client id the connection owns (awareness-guard.ts).
 */

export interface FrameGuardContext {
  metrics: Metrics
  logger: Logger
  maxAwarenessBytes: number
}

const ownersByRoom = new WeakMap<Room, AwarenessOwners>()

export function awarenessOwnersOf(room: Room): AwarenessOwners {
  let owners = ownersByRoom.get(room)
  if (owners === undefined) {
    owners = new AwarenessOwners()
    ownersByRoom.set(room, owners)
  }
  return owners
}

/** Closes `connection` with 4401 because its token has expired. */
export function closeExpired(connection: Connection, context: FrameGuardContext): void {
  if (!connection.isOpen) return
  context.metrics.closedByServer.token_expired += 1
  context.logger.info({ conn: connection.id, code: CloseCode.unauthorized }, 'closing connection: token expired')
  connection.close(CloseCode.unauthorized, 'token expired')
}

/** The frame to hand to `room` (possibly with some awareness entries taken out), or null to drop it. */
export function admitFrame(connection: Connection, room: Room, frame: Uint8Array, context: FrameGuardContext): Uint8Array | null {
  const { metrics, logger } = context
  if (connection.hasExpired()) {
    metrics.dropped.token_expired += 1
    closeExpired(connection, context)
    return null
  }
  switch (peekMessageType(frame)) {
    case 'sync-step-1':
      if (connection.syncRequests.take()) return frame
      metrics.dropped.rate_limited += 1
      logger.debug({ conn: connection.id, type: 'sync-step-1' }, 'dropped a request over its rate limit')
      return null
    case 'query-awareness':
      if (connection.awarenessQueries.take()) return frame
      metrics.dropped.rate_limited += 1
      logger.debug({ conn: connection.id, type: 'query-awareness' }, 'dropped a request over its rate limit')
      return null
    case 'awareness': {
      let update: Uint8Array
      try {
        const message = decodeClientMessage(frame)
        if (message.type !== 'awareness') return frame
        update = message.update
      } catch (error) {
        if (error instanceof ProtocolError) return frame
        throw error
      }
      return guardAwareness(frame, update, connection, awarenessOwnersOf(room), room.getConnections(), {
        maxStateBytes: context.maxAwarenessBytes,
        metrics,
        logger,
      })
    }
    default:
      return frame
  }
}
