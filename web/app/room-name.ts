/**
 * Room names as the server accepts them (server/room-name.ts): segments of letters, digits, '.', '_'
 * and '-', joined by '/', at most 128 characters. The home page turns what a person types into one.
 */

export const MAX_ROOM_NAME_LENGTH = 128
const ROOM_NAME = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/

export function isValidRoomName(name: string): boolean {
  return name.length <= MAX_ROOM_NAME_LENGTH && ROOM_NAME.test(name)
}

/** 'My notes.md' -> 'My-notes.md'; null when nothing usable is left. */
export function roomNameFromInput(input: string): string | null {
  const name = input
    .trim()
    .replace(/\s+/g, '-')
    .replace(/[^A-Za-z0-9._/-]/g, '')
    .replace(/\/{2,}/g, '/')
    .replace(/^\/+|\/+$/g, '')
    .slice(0, MAX_ROOM_NAME_LENGTH)
  return isValidRoomName(name) ? name : null
}

export function randomRoomName(random: () => number = Math.random): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789'
  let suffix = ''
  for (let i = 0; i < 6; i++) suffix += alphabet[Math.floor(random() * alphabet.length) % alphabet.length]
  return `room-${suffix}`
}
