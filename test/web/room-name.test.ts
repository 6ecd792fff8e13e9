import { describe, expect, it } from 'vitest'
import { isValidRoomName as serverAccepts } from '../../server/room-name.ts'
import { isValidRoomName, randomRoomName, roomNameFromInput } from '../../web/app/room-name.ts'
import { Random } from '../helpers/random.ts'

describe('room names', () => {
  it('turns what a person types into a name the server accepts', () => {
    expect(roomNameFromInput('  My notes.md ')).toBe('My-notes.md')
    expect(roomNameFromInput('/team//plan/')).toBe('team/plan')
    expect(roomNameFromInput('café?')).toBe('caf')
    expect(roomNameFromInput('???')).toBeNull()
    expect(roomNameFromInput('x'.repeat(200))).toBe('x'.repeat(128))
  })

  it('agrees with the server on what is valid', () => {
    const random = new Random(11)
    const alphabet = ['a', 'Z', '0', '.', '_', '-', '/', ' ', 'é', '?', '*']
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
