import { describe, expect, it } from 'vitest'
import { checkRoomName, isValidRoomName as serverAccepts, roomNameFromPath } from '../../server/room-name.ts'
import { isValidRoomName, randomRoomName, roomNameFromInput } from '../../web/app/room-name.ts'
import { Random } from '../helpers/random.ts'

describe('room names', () => {
  it('turns what a person types into a name the server accepts', () => {
    expect(roomNameFromInput('  My notes.md ')).toBe('My-notes.md')
    expect(roomNameFromInput('/team//plan/')).toBe('team/plan')
    expect(roomNameFromInput('café?')).toBe('café')
    expect(roomNameFromInput('ünï.md')).toBe('ünï.md')
    expect(roomNameFromInput('u\u0308n.md')).toBe('\u00fcn.md')
    expect(roomNameFromInput('../alias1')).toBe('alias1')
    expect(roomNameFromInput('???')).toBeNull()
    expect(roomNameFromInput('x'.repeat(200))).toBe('x'.repeat(128))
  })

  it('refuses names that cannot be used, saying why', () => {
    expect(checkRoomName('ünï.md')).toEqual({ ok: true, name: 'ünï.md' })
    expect(checkRoomName('日本/メモ')).toEqual({ ok: true, name: '日本/メモ' })
    expect(checkRoomName('../alias1')).toEqual({ ok: false, reason: 'A room name cannot have “.” or “..” as a part between slashes.' })
    expect(checkRoomName('a/./b')).toEqual({ ok: false, reason: 'A room name cannot have “.” or “..” as a part between slashes.' })
    expect(checkRoomName('a b')).toEqual({ ok: false, reason: 'A room name holds letters, digits, “.”, “_”, “-” and “/”, not “ ”.' })
    expect(checkRoomName('a//b')).toEqual({ ok: false, reason: 'A room name cannot start or end with “/” or hold “//”.' })
    expect(checkRoomName('')).toEqual({ ok: false, reason: 'A room name cannot be empty.' })
    expect(checkRoomName('u\u0308')).toEqual({ ok: false, reason: 'A room name must be in Unicode NFC form.' })
    expect(checkRoomName('é'.repeat(129))).toEqual({ ok: false, reason: 'A room name has at most 128 characters.' })
    expect(checkRoomName('😀'.repeat(128)).ok).toBe(false)
    expect(checkRoomName('é'.repeat(128)).ok).toBe(true)
  })

  it('is what the server reads from the percent-encoded path the browser sends', () => {
    expect(roomNameFromPath(`/${encodeURIComponent('ünï.md')}`)).toBe('ünï.md')
    expect(roomNameFromPath('/%C3%BCn%C3%AF.md')).toBe('ünï.md')
    expect(roomNameFromPath('/..%2Falias1')).toBeNull()
  })

  it('agrees with the server on what is valid', () => {
    const random = new Random(11)
    const alphabet = ['a', 'Z', '0', '.', '_', '-', '/', ' ', 'é', '?', '*', 'ß', '日']
    for (let i = 0; i < 500; i++) {
      const input = random.string(12, alphabet)
      expect(isValidRoomName(input), JSON.stringify(input)).toBe(serverAccepts(input))
      const name = roomNameFromInput(input)
      if (name !== null) expect(serverAccepts(name), JSON.stringify(input)).toBe(true)
    }
  })

  it('suggests random names the server accepts', () => {
    const random = new Random(3)
    for (let i = 0; i < 20; i++) expect(serverAccepts(randomRoomName(() => random.next()))).toBe(true)
    expect(randomRoomName(() => 0)).toBe('room-aaaaaa')
  })
})
