import { describe, expect, it } from 'vitest'
import { fanoutWindowMs } from '../../server/fanout.ts'

/** Issue 24: the fan-out's window grows with the room, counted by its connections here or by its relays a second. */

describe('fanoutWindowMs', () => {
  it('is 1 ms for a quiet pair of typists', () => {
    expect(fanoutWindowMs(20, 2, 0)).toBe(1)
    expect(fanoutWindowMs(20, 2, 4)).toBe(1)
  })

  it('grows by a tenth of a millisecond per connection, up to the setting', () => {
    expect(fanoutWindowMs(20, 45, 0)).toBe(5)
    expect(fanoutWindowMs(20, 200, 0)).toBe(20)
    expect(fanoutWindowMs(20, 1500, 0)).toBe(20)
    expect(fanoutWindowMs(8, 200, 0)).toBe(8)
  })

  it('grows with the relays a second when they are more than the connections here (a cluster process holding a third of a hot room)', () => {
    // 67 of 200 writers here, each typing once a second: 200 relays a second reach this process.
    expect(fanoutWindowMs(20, 67, 200)).toBe(20)
    expect(fanoutWindowMs(20, 67, 120)).toBe(12)
    expect(fanoutWindowMs(20, 67, 10_000)).toBe(20)
  })
})
