import type { Logger } from 'pino'
import { CloseCode } from './close-codes.ts'
import type { Connection } from './connection.ts'
import type { Metrics } from './metrics.ts'
import { Room } from './room.ts'
import type { RoomContext } from './room.ts'
import type { HistorySettings } from './room-history.ts'
import type { StoreWriter } from './store-writer.ts'
import type { RoomFollower } from './cluster/cluster-store.ts'
import { DEFAULT_ANSWER_SLICE_BYTES, SlicedSender } from './sliced-send.ts'
import { AnswerEncoder, DEFAULT_ANSWER_WORKER_BYTES } from './answer-encoder.ts'

/** See RoomFanout: a few to tens of milliseconds bound each client's frames a second in a busy room. */
export const DEFAULT_FANOUT_WINDOW_MS = 20

export interface RoomRegistryOptions {
  /** Every write goes through it; the registry hands it the rooms to write again after a failure. */
  writer: StoreWriter
  metrics: Metrics
  logger: Logger
  /** Stored updates per room after which its log is merged; see RoomStore. */
  compactAfter: number
  /** false relays updates before they are stored: only to measure what storing first costs. */
  storeBeforeRelay?: boolean
  /** Cluster mode: makes each loaded room follow its stream. */
  follower?: RoomFollower
  /** The longest a relay waits to be batched with others in a busy room (ms; default 20, 0: none); see RoomFanout. */
  fanoutWindowMs?: number
  /** Attested authorship, change log and versions; absent: none. */
  history?: HistorySettings
  /** A sync answer larger than this goes out in slices of this size (default 4 MiB; 0: whole); see SlicedSender. */
  answerSliceBytes?: number
  /** Bytes that may wait behind a connection's sliced answer before it is cut (default 4 MiB, as MAX_BUFFERED_BYTES). */
  maxBufferedBytes?: number
  /** A room's document of this size or more has its large sync answers encoded off the event loop (default 1 MiB; 0: never); see AnswerEncoder. */
  answerWorkerBytes?: number
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
    // One sender for every room: its turns go round all the joiners of the process.
    const answers = new SlicedSender({
      sliceBytes: options.answerSliceBytes ?? DEFAULT_ANSWER_SLICE_BYTES,
      maxHeldBytes: options.maxBufferedBytes ?? 4 * 1024 * 1024,
      metrics: options.metrics,
      logger: options.logger,
    })
    const encoder = new AnswerEncoder({ minBytes: options.answerWorkerBytes ?? DEFAULT_ANSWER_WORKER_BYTES, logger: options.logger })
    this.context = { ...options, storeBeforeRelay: options.storeBeforeRelay ?? true, fanoutWindowMs: options.fanoutWindowMs ?? DEFAULT_FANOUT_WINDOW_MS, answers, encoder }
    this.logger = options.logger
    options.writer.rooms = () => [...this.rooms.values()].map((room) => room.recoverable)
    options.writer.onUnhealthy = () => {
      for (const room of this.rooms.values()) room.closeAllForStorage()
    }
  }

  /** False from a failed write until the store is reopened and every loaded room written again. */
  get storageHealthy(): boolean {
    return this.context.writer.healthy
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
    const room = this.loadRoom(name)
    room.join(connection)
    return room
  }

  /**
   * The named room, loaded, for a REST request: it stays loaded until `release` is called, and
   * unloads then once stored if nobody else uses it. Null when it cannot be loaded.
   */
  async hold(name: string): Promise<{ room: Room; release: () => void } | null> {
    const room = this.loadRoom(name)
    room.holds += 1
    let released = false
    const release = (): void => {
      if (released) return
      released = true
      room.holds -= 1
      if (room.isEmpty) void this.unloadWhenStored(room)
    }
    if (await room.loaded) return { room, release }
    release()
    return null
  }

  private loadRoom(name: string): Room {
    let room = this.rooms.get(name)
    if (room === undefined) {
      const created = new Room(name, this.context)
      room = created
      this.rooms.set(name, created)
      void created.loaded.then((ok) => {
        if (!ok) this.forget(created)
      })
    }
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
    await Promise.all(rooms.map((room) => room.historyClosed))
    await this.context.encoder.close()
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
