import { describe, expect, it } from 'vitest'
import { RemotePositions } from '../../core/collab/remote-positions.ts'

describe('RemotePositions', () => {
  it('maps every entry as a position bound to the character before it', () => {
    const positions = new RemotePositions()
    const a = positions.add(0, 0)
    const b = positions.add(5, 2)
    const c = positions.add(10, 10)
    // Typing at an offset never pushes a position there; positions after it shift.
    positions.map(5, 0, 3)
    expect([positions.head(a), positions.tail(a), positions.head(b), positions.tail(b), positions.head(c), positions.tail(c)]).toEqual([0, 0, 5, 2, 13, 13])
    // A deletion pulls positions inside it to its start, and after it back by its length.
    positions.map(1, 5, 0)
    expect([positions.head(b), positions.tail(b), positions.head(c)]).toEqual([1, 1, 8])
    // A replacement sends positions inside it to the end of the new text.
    positions.map(0, 4, 2)
    expect([positions.head(a), positions.head(b), positions.head(c)]).toEqual([0, 2, 6])
  })

  it('reuses removed entries and grows past its first capacity', () => {
    const positions = new RemotePositions()
    const entries = Array.from({ length: 100 }, (_, i) => positions.add(i, i + 1))
    expect(entries[99]).toBe(99)
    positions.remove(entries[40]!)
    expect(positions.add(7, 8)).toBe(40)
    positions.map(50, 0, 10)
    expect([positions.head(40), positions.tail(40), positions.head(99), positions.tail(99)]).toEqual([7, 8, 109, 110])
  })
})
