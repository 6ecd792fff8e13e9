import { checkRoomName, isValidRoomName, MAX_ROOM_NAME_LENGTH, ROOM_NAME_CHARACTER, type RoomNameCheck } from '../../server/room-name.ts'

/**
 * Room names as the server accepts them: the rules live in server/room-name.ts (pure, shared), so the
 * page never shows one name and edits another. The home page turns what a person types into a name;
 * `?room=` in the address bar is taken as it is, and refused with the reason when it is not valid.
 */

export { checkRoomName, isValidRoomName, MAX_ROOM_NAME_LENGTH, type RoomNameCheck }

/** 'My notes.md' -> 'My-notes.md', 'ünï' stays 'ünï'; null when nothing usable is left. */
export function roomNameFromInput(input: string): string | null {
  const cleaned = [...input.normalize('NFC').trim().replace(/\s+/g, '-')]
    .filter((char) => char === '/' || ROOM_NAME_CHARACTER.test(char))
    .join('')
    .replace(/\/{2,}/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.' && part !== '..')
    .join('/')
  const name = [...cleaned].slice(0, MAX_ROOM_NAME_LENGTH).join('').replace(/\/+$/, '')
  return isValidRoomName(name) ? name : null
}

export function randomRoomName(random: () => number = Math.random): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789'
  let suffix = ''
  for (let i = 0; i < 6; i++) suffix += alphabet[Math.floor(random() * alphabet.length) % alphabet.length]
  return `room-${suffix}`
}
