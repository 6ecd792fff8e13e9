import type { Logger } from 'pino'
import { CloseCode } from './close-codes.ts'
import type { Connection } from './connection.ts'
import type { Metrics } from './metrics.ts'
import type { Persistence } from './persistence.ts'
import { Room } from './room.ts'
import type { RoomContext } from './room.ts'
import type { RoomFollower } from './cluster/cluster-persistence.ts'

export interface RoomRegistryOptions {
  persistence: Persistence
  metrics: Metrics
  logger: Logger
  /** Writes per room after which its stored updates are merged; see RoomStore. */
  compactAfter: number
  /** Minimum time between two writes of one room; see RoomStore. */
  storeBatchMs: number
  /** Cluster mode: makes each loaded room follow its stream. */
  follower?: RoomFollower
}

/**
 * The rooms loaded in memory. A room is created by its first connection and dropped once its
 * last connection has left and its updates are stored; a connection that arrives meanwhile
 * keeps it. The server gets a registry passed in, so tests and embedders can run several.
 */
export class RoomRegistry {
  private readonly rooms = new Map<string, Room>()
  private readonly context: RoomContext
  private readonly logger: Logger

  constructor(options: RoomRegistryOptions) {
    this.context = { ...options }
    this.logger = options.logger
  }

  get size(): number {
    return this.rooms.size
  }

  get connectionCount(): number {
    let count = 0
    for (const room of this.rooms.values()) count += room.connectionCount
    return count
  }

  get(name: string): Room | undefined {
    return this.rooms.get(name)
  }

  getRooms(): IterableIterator<Room> {
    return this.rooms.values()
  }

  *getConnections(): Generator<Connection> {
    for (const room of this.rooms.values()) yield* room.getConnections()
  }

  /** Adds the connection to the named room, loading the room first if it is not in memory. */
  join(name: string, connection: Connection): Room {
    let room = this.rooms.get(name)
    if (room === undefined) {
      const created = new Room(name, this.context)
      room = created
      this.rooms.set(name, created)
      void created.loaded.then((ok) => {
        if (!ok) this.forget(created)
      })
    }
    room.join(connection)
    return room
  }

  leave(room: Room, connection: Connection): void {
    room.leave(connection)
    if (room.isEmpty) void this.unloadWhenStored(room)
  }

  /** Closes every connection with 1001, waits until every room is stored, and empties the registry. */
  async closeAll(): Promise<void> {
    const rooms = [...this.rooms.values()]
    for (const room of rooms) for (const connection of room.getConnections()) connection.close(CloseCode.goingAway, 'server shutting down')
    await Promise.all(rooms.map((room) => room.whenStored()))
    for (const room of rooms) this.forget(room)
  }

  private async unloadWhenStored(room: Room): Promise<void> {
    await room.whenStored()
    if (!room.isEmpty || this.rooms.get(room.name) !== room) return
    this.forget(room)
    this.context.metrics.roomsUnloaded += 1
    this.logger.debug({ room: room.name }, 'room stored and unloaded')
  }

  private forget(room: Room): void {
    if (this.rooms.get(room.name) === room) this.rooms.delete(room.name)
    room.destroy()
  }
}
