/**
 * What a room may be called: the one set of rules the server (which reads the name from the URL path,
 * as `WebsocketProvider` builds it) and the page (which reads it from `?room=`) both apply, so the
 * name in the address bar, on the page and on the server is always the same string.
 *
 * A name is 1–128 characters (code points) in parts separated by single `/`; each part is letters and
 * digits of any script, combining marks, `.`, `_` and `-`, and is not `.` or `..` (a browser resolves
 * those in the WebSocket URL, so `../a` would edit `a`). Names are in Unicode NFC, so `ü` typed two
 * ways is one room. Pure: no Node-only or DOM APIs, so the page can import it.
 */

export const MAX_ROOM_NAME_LENGTH = 128

/** One character a room name part may hold. */
export const ROOM_NAME_CHARACTER = /[\p{L}\p{N}\p{M}._-]/u
const PART = /^[\p{L}\p{N}\p{M}._-]+$/u

export type RoomNameCheck = { ok: true; name: string } | { ok: false; reason: string }

/** Whether `name` is a canonical room name (exactly what the server stores it as). */
export function isValidRoomName(name: string): boolean {
  return checkRoomName(name).ok
}

/** The canonical form of `name`, or why it cannot name a room (a sentence for people). */
export function checkRoomName(name: string): RoomNameCheck {
  if (name === '') return { ok: false, reason: 'A room name cannot be empty.' }
  if (name.normalize('NFC') !== name) return { ok: false, reason: 'A room name must be in Unicode NFC form.' }
  if ([...name].length > MAX_ROOM_NAME_LENGTH) return { ok: false, reason: `A room name has at most ${MAX_ROOM_NAME_LENGTH} characters.` }
  for (const part of name.split('/')) {
    if (part === '') return { ok: false, reason: 'A room name cannot start or end with “/” or hold “//”.' }
    if (part === '.' || part === '..') return { ok: false, reason: 'A room name cannot have “.” or “..” as a part between slashes.' }
    if (!PART.test(part)) {
      const bad = [...part].find((char) => !ROOM_NAME_CHARACTER.test(char)) ?? ''
      return { ok: false, reason: `A room name holds letters, digits, “.”, “_”, “-” and “/”, not “${bad}”.` }
    }
  }
  return { ok: true, name }
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
