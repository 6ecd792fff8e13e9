/**
 * Open connections per room and per client address, against their caps. A connection is
 * counted from the moment it is admitted until its socket closes, so a burst of upgrades
 * cannot slip past a cap while earlier ones are still being set up.
 */
export class ConnectionCaps {
  private readonly perRoom = new Map<string, number>()
  private readonly perAddress = new Map<string, number>()

  constructor(
    private readonly maxPerRoom: number,
    private readonly maxPerAddress: number,
  ) {}

  /** Counts the connection in, or says which cap it would pass (and counts nothing). */
  admit(room: string, address: string): 'room' | 'address' | null {
    if ((this.perRoom.get(room) ?? 0) >= this.maxPerRoom) return 'room'
    if ((this.perAddress.get(address) ?? 0) >= this.maxPerAddress) return 'address'
    increment(this.perRoom, room, 1)
    increment(this.perAddress, address, 1)
    return null
  }

  release(room: string, address: string): void {
    increment(this.perRoom, room, -1)
    increment(this.perAddress, address, -1)
  }
}

function increment(counts: Map<string, number>, key: string, by: number): void {
  const count = (counts.get(key) ?? 0) + by
  if (count <= 0) counts.delete(key)
  else counts.set(key, count)
}
