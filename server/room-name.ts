/**
 * Room names come from the URL path (`ws://host:port/<room>`, which is how `WebsocketProvider`
 * builds it). They are keys in LevelDB and labels in logs, never file paths, but a small fixed
 * alphabet keeps logs readable and token prefixes unambiguous (`*` can only mean "prefix").
 */

export const MAX_ROOM_NAME_LENGTH = 128

const ROOM_NAME = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/

export function isValidRoomName(name: string): boolean {
  return name.length <= MAX_ROOM_NAME_LENGTH && ROOM_NAME.test(name)
}

/** The room named by a request path such as `/notes/today`, or null when it names no valid room. */
export function roomNameFromPath(pathname: string): string | null {
  let name: string
  try {
    name = decodeURIComponent(pathname.replace(/^\//, ''))
  } catch {
    return null
  }
  return isValidRoomName(name) ? name : null
}
