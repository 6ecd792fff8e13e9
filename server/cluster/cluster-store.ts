import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import * as Y from 'yjs'
import type { Logger } from 'pino'
import type { AppendEntry, Store, StoredUpdate } from '../persistence.ts'
import { StorageError } from '../persistence.ts'
import type { RecordStore } from '../records.ts'
import { ClusterMetrics } from './cluster-metrics.ts'
import { Heartbeat } from './heartbeat.ts'
import { PgStore } from './pg-store.ts'
import type { PgPart } from './pg-store.ts'
import { RoomLink } from './room-link.ts'
import type { RoomView } from './room-link.ts'
import { RedisEpoch, readRedisPersistence, warnAboutRedisPersistence } from './redis-epoch.ts'
import { RoomStreams } from './stream.ts'
import type { RedisClient, StreamEntry } from './stream.ts'
import { StreamReader } from './stream-reader.ts'
import { compareStreamIds, streamIdBefore, streamIdTime } from './stream-id.ts'

/**
 * Where a room learns of its stream: the Room calls `follow` once loaded and the returned
 * function when destroyed. The room must apply a client's update to its document no later than
 * it hands the update to the writer (which appends it): an open room is compacted from its
 * document at the reader's position, which may already be past this process's own entries.
 */
export interface RoomFollower {
  follow(room: RoomView): () => void
}

export interface ClusterOptions {
  redisUrl: string
  databaseUrl: string
  logger: Logger
  /** Timings, shorter in tests; defaults in DEFAULTS. */
  heartbeatIntervalMs?: number
  heartbeatTtlMs?: number
  presenceSweepMs?: number
  compactEveryMs?: number
  /** Entries younger than this (before the stored position) stay in the stream after a compaction. */
  trimMarginMs?: number
  /** A room is compacted after this many appends by this process (besides the timer and unloading). */
  compactAfter?: number
  /** FSYNC: say at start whether Redis makes appends durable before it acknowledges them. */
  fsync?: boolean
}

const DEFAULTS = {
  heartbeatIntervalMs: 2000,
  heartbeatTtlMs: 8000,
  presenceSweepMs: 2000,
  compactEveryMs: 30_000,
  trimMarginMs: 30_000,
  compactAfter: 500,
}
const LEASE_MS = 30_000
/** At start only: later outages are waited out, but a server that never reached Redis should say so. */
const CONNECT_TIMEOUT_MS = 10_000
/** How long one reopen attempt waits for Redis before the writer logs and tries again. */
const REOPEN_TIMEOUT_MS = 5000
const CLOSE_LEASE_WAIT_MS = 5000
/** How long an append waits for a restarted Redis to load its data before it counts as failed. */
const LOADING_WAIT_MS = 30_000

/** What this process knows of one room it has loaded since it started. */
interface RoomRecord {
  /** The position of the snapshot in PostgreSQL, as last seen. */
  storedId: string
  /** The last entry read at load; the room follows the stream from there. */
  loadedId: string
  /** Awareness entries of other processes read at load, applied when the room follows. */
  backlog: StreamEntry[]
  /** The newest entry this process appended or read; the room needs compacting while it is past `storedId`. */
  lastSeenId: string
  /** Entries seen since `storedId` (roughly: entries appended during a compaction stay counted), and when the oldest was added. */
  pending: number
  oldestPendingMs: number | null
  /** Updates this process appended since the room's last compaction was started. */
  appended: number
  link: RoomLink | null
  /** While the room is open here: its whole state and the stream position that state includes. */
  snapshot: (() => Snapshot) | null
  /** The state the room had when it closed here, kept until a compaction has stored it. */
  leftState: Snapshot | null
}

/** Where a part handed out by `load` lives, so that it can be set aside. */
type LoadedPart = { pg: PgPart } | { streamId: string }

/** A room's document state with the last stream entry it includes. */
interface Snapshot {
  state: Uint8Array
  position: string
}

/**
 * Cluster mode (REDIS_URL and DATABASE_URL) as the rooms see it. As their Store (behind the
 * StoreWriter): loading reads the snapshot from PostgreSQL and the room's stream after it; an
 * append is an XADD to each room's stream (several rooms: one MULTI/EXEC), stored once Redis has
 * it, since that is what every process reads and what compaction folds into PostgreSQL. Under a
 * Redis lease, so that one process at a time does it, this class compacts a room by writing it
 * to PostgreSQL and trimming the stream up to what is stored; `replace` (the writer's recovery)
 * therefore appends the whole state as one more entry rather than rewriting the log. As their
 * follower: the process's one blocking reader applies other processes' entries to the room.
 * Presence of a process that stopped its heartbeat is removed from every room.
 */
export class ClusterStore implements Store, RoomFollower {
  private readonly rooms = new Map<string, RoomRecord>()
  /** Per room, where each part its last load handed out lives, by sequence number. */
  private readonly loadedParts = new Map<string, Map<number, LoadedPart>>()
  private nextSeq = 1
  private readonly compacting = new Map<string, Promise<void>>()
  private readonly timers: NodeJS.Timeout[] = []
  private readonly timings: typeof DEFAULTS
  private readonly streams: RoomStreams
  private readonly reader: StreamReader
  private readonly heartbeat: Heartbeat
  private readonly epoch: RedisEpoch
  /** Set when Redis was found restarted or emptied, until every room held here is appended again. */
  private reappendDue = false
  private checkingEpoch: Promise<void> | null = null

  private constructor(
    readonly processId: string,
    readonly metrics: ClusterMetrics,
    private readonly services: { redis: RedisClient; blocking: RedisClient; pg: PgStore },
    private readonly logger: Logger,
    options: ClusterOptions,
  ) {
    this.timings = { ...DEFAULTS, ...definedTimings(options) }
    this.streams = new RoomStreams(services.redis, processId)
    this.reader = new StreamReader(services.blocking, services.redis, processId, metrics, logger)
    this.heartbeat = new Heartbeat(services.redis, processId, { intervalMs: this.timings.heartbeatIntervalMs, ttlMs: this.timings.heartbeatTtlMs, metrics, logger })
    this.epoch = new RedisEpoch(services.redis)
    metrics.postgresErrors = () => services.pg.errors
  }

  private get pg(): PgStore {
    return this.services.pg
  }

  /** Connects to Redis and PostgreSQL (creating the tables) and starts the reader and the heartbeat. */
  static async open(options: ClusterOptions): Promise<ClusterStore> {
    const { logger } = options
    const processId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
    // Loaded here, not at start: a server on LevelDB never holds Redis's client in memory (docs/server-scale.md).
    const { createClient } = await import('redis')
    const redis: RedisClient = createClient({ url: options.redisUrl, socket: { reconnectStrategy: (retries) => Math.min(50 * (retries + 1), 500) } })
    let redisDown = false
    redis.on('error', (error: Error) => {
      // node-redis reconnects by itself; say it once per outage, not once per attempt.
      if (!redisDown) logger.warn({ err: error }, 'Redis connection lost; reconnecting')
      redisDown = true
    })
    const blocking = redis.duplicate()
    blocking.on('error', () => {})
    try {
      await withTimeout(Promise.all([redis.connect(), blocking.connect()]), CONNECT_TIMEOUT_MS, `Redis did not answer within ${CONNECT_TIMEOUT_MS / 1000} s`)
    } catch (error) {
      redis.destroy()
      blocking.destroy()
      throw error
    }
    let pg: PgStore
    try {
      pg = await PgStore.open(options.databaseUrl, (error) => logger.warn({ err: error }, 'PostgreSQL connection error'), { fsync: options.fsync ?? false })
      await pg.checkDurability(logger)
    } catch (error) {
      redis.destroy()
      blocking.destroy()
      throw error
    }
    const cluster = new ClusterStore(processId, new ClusterMetrics(), { redis, blocking, pg }, logger, options)
    warnAboutRedisPersistence(await readRedisPersistence(redis), options.fsync ?? false, logger)
    await cluster.epoch.changed()
    await cluster.heartbeat.start()
    redis.on('ready', () => {
      if (redisDown) logger.info('Redis connection back')
      redisDown = false
      // Beats may have been missed during the outage, and Redis may have come back without its data.
      void cluster.heartbeat.beat()
      void cluster.checkEpoch()
    })
    cluster.reader.start()
    cluster.startTimers()
    logger.info({ processId }, 'cluster mode: rooms on Redis streams, stored in PostgreSQL')
    return cluster
  }

  async load(room: string): Promise<StoredUpdate[]> {
    const stored = await this.pg.load(room)
    const entries = await this.streams.readAfter(room, stored.streamId)
    const parts = new Map<number, LoadedPart>()
    const records: StoredUpdate[] = []
    for (const { where, update } of stored.parts) {
      parts.set(this.nextSeq, { pg: where })
      records.push({ seq: this.nextSeq++, update })
    }
    for (const entry of entries) {
      if (entry.kind !== 'update') continue
      parts.set(this.nextSeq, { streamId: entry.id })
      records.push({ seq: this.nextSeq++, update: entry.data })
    }
    this.loadedParts.set(room, parts)
    const last = entries[entries.length - 1]
    const previous = this.rooms.get(room)
    this.rooms.set(room, {
      storedId: stored.streamId,
      loadedId: last?.id ?? stored.streamId,
      lastSeenId: last?.id ?? stored.streamId,
      // Our own presence entries are of connections that have left.
      backlog: entries.filter((entry) => entry.kind === 'awareness' && entry.processId !== this.processId),
      pending: entries.length,
      oldestPendingMs: entries.length > 0 ? streamIdTime(entries[0]!.id) : (previous?.oldestPendingMs ?? null),
      appended: previous?.appended ?? 0,
      link: null,
      snapshot: null,
      leftState: previous?.leftState ?? null,
    })
    return records
  }

  /** Appends each entry to its room's stream, all in one MULTI/EXEC; stored once Redis has them. */
  async append(entries: readonly AppendEntry[]): Promise<void> {
    let ids: string[]
    try {
      ids = await this.whileLoading(() => this.streams.appendAll(entries))
    } catch (error) {
      this.metrics.redisErrors += 1
      throw new StorageError(`appending to the streams of ${entries.length} room(s) failed: ${(error as Error).message}`)
    }
    this.metrics.entriesWritten += entries.length
    entries.forEach(({ room }, index) => {
      const record = this.rooms.get(room)
      if (record === undefined) return
      this.notePending(record, ids[index]!)
      if (++record.appended >= this.timings.compactAfter) {
        record.appended = 0
        void this.compactNow(room)
      }
    })
  }

  /**
   * The writer's recovery (and nothing else: rooms leave compaction to this class) writes a
   * room's whole state here. The stream only grows, so the state goes in as one more entry; what
   * it replaces is contained in it, and the next compaction folds both into PostgreSQL.
   */
  async replace(room: string, _upTo: number, updates: readonly Uint8Array[]): Promise<void> {
    if (updates.length > 0) await this.append(updates.map((update) => ({ room, update })))
  }

  /** Moves a part the room's last load handed out to PostgreSQL's `cotext_aside`, out of the room. */
  async setAside(room: string, seq: number, reason: string): Promise<void> {
    const part = this.loadedParts.get(room)?.get(seq)
    if (part === undefined) {
      // A later load handed out new numbers; not a failed write (that would make the writer
      // recover): the part stays where it is and is found again by the next load.
      this.logger.warn({ room, seq }, 'a part to set aside is no longer known; left in place')
      return
    }
    if ('pg' in part) {
      await this.pg.setAside(room, part.pg, reason)
      return
    }
    const [entry] = await this.redisCall(() => this.streams.readRange(room, part.streamId))
    if (entry === undefined) return // Trimmed or set aside meanwhile: nothing left to move.
    await this.pg.keepAside(room, entry.data, reason)
    await this.redisCall(() => this.streams.remove(room, part.streamId))
  }

  /**
   * A stream append is all or nothing, so there is nothing half-done to clean up: waits until
   * Redis answers again (the client reconnects by itself), for at most REOPEN_TIMEOUT_MS per try.
   */
  async reopen(): Promise<void> {
    await withTimeout(this.redisCall(() => this.services.redis.ping()), REOPEN_TIMEOUT_MS, `Redis did not answer within ${REOPEN_TIMEOUT_MS / 1000} s`)
  }

  /** The rooms' records (versions, change log): in PostgreSQL, shared by every process. */
  records(): RecordStore {
    return this.pg.records()
  }

  /** Folds the room's stream into PostgreSQL, unless another process holds the lease for longer than `waitMs`. */
  compactNow(room: string, waitMs = 0, captured?: Snapshot): Promise<void> {
    const running = this.compacting.get(room)
    if (running !== undefined) return waitMs > 0 ? running.then(() => this.compactNow(room, waitMs)) : running
    const compaction = this.compactRoom(room, waitMs, captured).finally(() => this.compacting.delete(room))
    this.compacting.set(room, compaction)
    return compaction
  }

  follow(room: RoomView): () => void {
    const record = this.rooms.get(room.name)
    if (record === undefined) throw new Error(`room ${JSON.stringify(room.name)} follows before it was loaded`)
    const link = new RoomLink(room, (update) => {
      this.appendEntry(room.name, 'awareness', update).catch((error: unknown) => {
        this.logger.warn({ room: room.name, err: error }, 'publishing presence failed')
      })
    })
    record.link = link
    for (const entry of record.backlog) link.apply(entry)
    record.backlog = []
    const onFailure = (entry: StreamEntry, error: unknown): void => {
      // One bad entry must not stop the room's other entries.
      this.logger.error({ room: room.name, entry: entry.id, err: error }, 'applying a stream entry failed; skipped')
    }
    const subscription = this.reader.follow(room.name, record.loadedId, (entries) => {
      for (const entry of entries) this.notePending(record, entry.id)
      link.applyAll(entries, onFailure)
    })
    const snapshot = (): Snapshot => ({ state: Y.encodeStateAsUpdate(room.doc), position: subscription.position() })
    record.snapshot = snapshot
    return () => {
      // Taken before the room lets go of its document: the compaction below stores it, and
      // until one has, it is what this process still holds of the room.
      const captured = needsCompaction(record) ? snapshot() : undefined
      subscription.stop()
      link.detach()
      if (record.link === link) {
        record.link = null
        record.snapshot = null
        if (captured !== undefined) record.leftState = captured
      }
      // The last client left (or the server stops): store the room while its state is at hand.
      if (captured !== undefined) void this.compactNow(room.name, 0, captured)
    }
  }

  /** Stops following, stores every room it knows of that has entries not in PostgreSQL, disconnects. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer)
    await Promise.all([...this.rooms.entries()].filter(([, record]) => needsCompaction(record)).map(([room]) => this.compactNow(room, CLOSE_LEASE_WAIT_MS)))
    await this.reader.stop()
    await this.heartbeat.stop()
    this.services.blocking.destroy()
    await this.services.redis.close().catch(() => this.services.redis.destroy())
    await this.pg.close()
  }

  private async appendEntry(room: string, kind: 'update' | 'awareness', data: Uint8Array): Promise<void> {
    const id = await this.redisCall(() => this.streams.append(room, kind, data))
    this.metrics.entriesWritten += 1
    const record = this.rooms.get(room)
    if (record !== undefined) this.notePending(record, id)
  }

  /**
   * Runs `command`, again while Redis answers LOADING (it has restarted and is reading its
   * data back): nothing was written, and appends queued during an outage reach Redis then.
   */
  private async whileLoading<T>(command: () => Promise<T>): Promise<T> {
    const deadline = performance.now() + LOADING_WAIT_MS
    for (;;) {
      try {
        return await command()
      } catch (error) {
        if (!/^LOADING\b/.test((error as Error).message) || performance.now() > deadline) throw error
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
  }

  /** Runs a Redis command, counting and rewording its failure. */
  private async redisCall<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command()
    } catch (error) {
      this.metrics.redisErrors += 1
      throw new StorageError(`Redis: ${(error as Error).message}`)
    }
  }

  /**
   * Appends again every room this process holds (open, or closed and not yet stored) when
   * Redis was restarted or emptied since the last check: its streams may have lost entries
   * that other processes and PostgreSQL never got. Each room's whole state goes in as one
   * entry, so every process converges and a room opened later loads it. Retried at the next
   * check while Redis does not take it.
   */
  private checkEpoch(): Promise<void> {
    this.checkingEpoch ??= (async () => {
      try {
        if (await this.epoch.changed()) {
          this.metrics.redisResets += 1
          this.reappendDue = true
          this.logger.warn({ rooms: this.rooms.size }, 'Redis was restarted or emptied: appending every room held here again, its stream may have lost entries')
        }
        if (!this.reappendDue) return
        for (const [room, record] of [...this.rooms]) {
          const state = record.snapshot?.().state ?? record.leftState?.state
          if (state === undefined) continue
          const id = await this.streams.append(room, 'update', state)
          this.metrics.entriesWritten += 1
          this.notePending(record, id)
        }
        this.reappendDue = false
      } catch (error) {
        this.metrics.redisErrors += 1
        this.logger.debug({ err: error }, 'checking Redis for lost data failed; trying again')
      }
    })().finally(() => {
      this.checkingEpoch = null
    })
    return this.checkingEpoch
  }

  private notePending(record: RoomRecord, id: string): void {
    record.pending += 1
    record.oldestPendingMs ??= streamIdTime(id)
    if (compareStreamIds(id, record.lastSeenId) > 0) record.lastSeenId = id
  }

  /**
   * Takes the lease (waiting up to `waitMs` for it), folds the stream after the stored position
   * into PostgreSQL, then trims the stream up to that position less a margin: a process that
   * read the old position a moment ago still finds the entries after it.
   */
  private async compactRoom(room: string, waitMs: number, captured?: Snapshot): Promise<void> {
    const deadline = performance.now() + waitMs
    try {
      while (!(await this.streams.takeLease(room, LEASE_MS))) {
        if (performance.now() >= deadline) return
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    } catch (error) {
      this.metrics.redisErrors += 1
      this.logger.warn({ room, err: error }, 'cannot take the compaction lease')
      return
    }
    const started = performance.now()
    try {
      // An open room's document already holds the stored state and the stream up to the reader's
      // position: storing it costs one encoding, where folding the stream in costs applying
      // every entry again. The stream is folded in when there is no document at hand.
      const held = this.rooms.get(room)
      const snapshot = captured ?? held?.snapshot?.() ?? held?.leftState ?? null
      // A state this room had when it closed here may hold what the stream lost; the stored
      // snapshot is a merge, so storing it first and the open document after loses nothing.
      const left = held?.leftState ?? null
      if (left !== null && left !== snapshot) await this.pg.storeSnapshot(room, left.state, left.position)
      const stored = snapshot === null ? null : await this.pg.storeSnapshot(room, snapshot.state, snapshot.position)
      if (held !== undefined && stored !== null && (held.leftState === left || held.leftState === snapshot)) held.leftState = null
      const result = stored !== null ? { ...stored, entries: 0 } : await this.pg.compact(room, async (storedId, apply) => {
        let updates = 0
        const streamId = await this.streams.readPages(room, storedId, (page) => {
          for (const entry of page) {
            if (entry.kind !== 'update') continue
            apply(entry.data)
            updates += 1
          }
        })
        return { streamId, updates }
      })
      const record = this.rooms.get(room)
      if (record !== undefined && compareStreamIds(result.streamId, record.storedId) > 0) record.storedId = result.streamId
      // An entry appended while the compaction ran may not be in it: then the room stays due.
      if (record !== undefined && !needsCompaction(record)) {
        record.pending = 0
        record.oldestPendingMs = null
        if (record.link === null) {
          this.rooms.delete(room)
          this.loadedParts.delete(room)
        }
      }
      if (result.written) {
        this.metrics.compactions += 1
        await this.streams.trimBefore(room, streamIdBefore(result.streamId, this.timings.trimMarginMs))
        this.logger.debug({ room, entries: result.entries, streamId: result.streamId, ms: Math.round(performance.now() - started) }, 'compacted room into PostgreSQL')
      }
    } catch (error) {
      this.logger.error({ room, err: error }, 'compacting room into PostgreSQL failed; the stream keeps its entries')
    } finally {
      await this.streams.releaseLease(room).catch(() => {})
    }
  }

  private startTimers(): void {
    const every = (ms: number, task: () => Promise<void>): void => {
      const timer = setInterval(() => void task(), ms)
      timer.unref()
      this.timers.push(timer)
    }
    every(this.timings.presenceSweepMs, () => this.expirePresence())
    // The connection's 'ready' event tells a restart; this tells a FLUSHALL or a failover.
    every(this.timings.heartbeatIntervalMs, () => this.checkEpoch())
    every(this.timings.compactEveryMs, async () => {
      for (const [room, record] of [...this.rooms]) if (needsCompaction(record)) await this.compactNow(room)
    })
    every(1000, async () => this.updateGauges())
  }

  private async expirePresence(): Promise<void> {
    const links = [...this.rooms.values()].flatMap((record) => (record.link === null ? [] : [record.link]))
    const owners = new Set(links.flatMap((link) => [...link.ownerProcesses()]))
    if (owners.size === 0) return
    let dead: Set<string>
    try {
      dead = await this.heartbeat.dead([...owners])
    } catch {
      return // Redis is away: nobody can be declared dead.
    }
    if (dead.size === 0) return
    const alive = new Set([...owners].filter((id) => !dead.has(id)))
    for (const link of links) this.metrics.presenceExpired += link.expire(alive)
  }

  private updateGauges(): void {
    let pending = 0
    let oldest: number | null = null
    for (const record of this.rooms.values()) {
      pending += record.pending
      if (record.oldestPendingMs !== null && (oldest === null || record.oldestPendingMs < oldest)) oldest = record.oldestPendingMs
    }
    this.metrics.uncompactedEntries = pending
    this.metrics.compactionLagSeconds = oldest === null ? 0 : Math.max(0, Date.now() - oldest) / 1000
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StorageError(message)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

function needsCompaction(record: RoomRecord): boolean {
  return compareStreamIds(record.lastSeenId, record.storedId) > 0
}

function definedTimings(options: ClusterOptions): Partial<typeof DEFAULTS> {
  const timings: Partial<typeof DEFAULTS> = {}
  for (const key of Object.keys(DEFAULTS) as Array<keyof typeof DEFAULTS>) {
    const value = options[key]
    if (value !== undefined) timings[key] = value
  }
  return timings
}
