/**
 * WebSocket close codes the server sends. The 44xx codes mirror HTTP 4xx and the stock
 * y-websocket client (v3) treats 4400–4499 as permanent: it stops reconnecting and emits
 * `closed` with the code and reason, so a web page can tell the user why.
 *
 * | code | when                                                                      |
 * |------|---------------------------------------------------------------------------|
 * | 1001 | the server is shutting down (the client reconnects later)                 |
 * | 1009 | a frame was larger than MAX_MESSAGE_BYTES                                  |
 * | 1011 | the room's stored state could not be loaded                                |
 * | 1013 | storage failed: the server is reopening it and writing every room again;   |
 * |      | the stock client reconnects (with backoff) and re-sends what it has       |
 * | 4400 | malformed frame (not a y-protocols message), text frame, bad room name    |
 * | 4401 | token missing, malformed, tampered, signed with another secret or expired |
 * | 4403 | valid token, but for another room (or another room prefix)               |
 *
 * A refused connection (4400 for the room name, 4401, 4403) is closed before the server
 * sends a single byte of any document or awareness state. A connection that misses a pong is
 * cut without a close frame, so its client reports 1006.
 */
export const CloseCode = {
  goingAway: 1001,
  messageTooBig: 1009,
  internalError: 1011,
  /** "Try Again Later" (RFC 6455 registry): not in 4400–4499, so y-websocket reconnects. */
  storageUnavailable: 1013,
  malformed: 4400,
  unauthorized: 4401,
  forbidden: 4403,
} as const

export type CloseCodeValue = (typeof CloseCode)[keyof typeof CloseCode]
