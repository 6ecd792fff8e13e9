/**
 * WebSocket close codes the server sends. The 44xx codes mirror HTTP 4xx and the stock
 * y-websocket client (v3) treats 4400–4499 as permanent: it stops reconnecting and emits
 * `closed` with the code and reason, so a web page can tell the user why.
 *
 * | code | when                                                                      |
 * |------|---------------------------------------------------------------------------|
 * | 1001 | the server is shutting down (the client reconnects later)                 |
 * | 1009 | a frame was larger than MAX_MESSAGE_BYTES, or an unfinished message held   |
 * |      | more than MAX_CONNECTION_UNFINISHED_BYTES                                 |
 * | 1011 | the room's stored state could not be loaded                                |
 * | 1013 | storage failed: the server is reopening it and writing every room again;   |
 * |      | the stock client reconnects (with backoff) and re-sends what it has; or   |
 * |      | unfinished messages across all connections passed MAX_UNFINISHED_BYTES    |
 * | 4400 | malformed frame (not a y-protocols message), text frame, bad room name    |
 * | 4401 | token missing, malformed, tampered, signed with another secret or expired, |
 * |      | or the token of an open connection expired                                 |
 * | 4403 | valid token, but for another room (or another room prefix)               |
 * | 4413 | the connection's updates left more than MAX_PENDING_BYTES or               |
 * |      | MAX_PENDING_ITEMS waiting in the room for dependencies that never came    |
 * |      | ('too many unresolved updates'), or one update held more structs and      |
 * |      | deleted ranges than MAX_UPDATE_ITEMS ('update too large'), or what its    |
 * |      | address sent took more than MAX_APPLY_MS to apply ('updates too costly')  |
 * | 4429 | MAX_CONNECTIONS_PER_ROOM or MAX_CONNECTIONS_PER_ADDRESS reached            |
 *
 * A refused connection (4400 for the room name, 4401, 4403, 4429) is closed before the server
 * sends a single byte of any document or awareness state. A connection that misses a pong,
 * or leaves more than MAX_BUFFERED_BYTES unread, is cut without a close frame (a close frame
 * would queue behind what it does not read), so its client reports 1006 and reconnects.
 * An upgrade from a foreign Origin, or (without AUTH_SECRET) naming a Host that is not one of
 * this server's names (ALLOWED_HOSTS), is refused with HTTP 403 before it becomes a WebSocket.
 */
export const CloseCode = {
  goingAway: 1001,
  messageTooBig: 1009,
  internalError: 1011,
  /** "Try Again Later" (RFC 6455 registry): not in 4400–4499, so y-websocket reconnects. */
  storageUnavailable: 1013,
  /** The same code, sent when the process's budget for unfinished messages is spent. */
  tryAgainLater: 1013,
  malformed: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  tooManyPending: 4413,
  tooManyConnections: 4429,
} as const

export type CloseCodeValue = (typeof CloseCode)[keyof typeof CloseCode]
