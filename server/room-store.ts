import * as Y from 'yjs'
import type { Logger } from 'pino'
import type { Metrics } from './metrics.ts'
import type { StoredUpdate } from './persistence.ts'
import type { RecoverableRoom, StoreWriter } from './store-writer.ts'
import { inYjsOrder } from './relay-merge.ts'
import { loadSteps, PREPARING } from './update-parts.ts'

export interface RoomStoreOptions {
  /** Stored updates after which the room's log is merged. */
  compactAfter: number
  /** false: relay at once and store behind (only to measure what storing first costs). */
  storeBeforeRelay: boolean
  metrics: Metrics
  /** The room's logger, made when first asked for (an idle room logs nothing). */
  logger: () => Logger
}

/** The longest the room holds the event loop while loading or compacting before it yields. */
const SLICE_MS = 10
/** A stored update of more structs than this is applied in parts of this many (update-parts.ts). */
const LOAD_PART_STRUCTS = 64
/** A compacted part merges stored updates up to this size, so that loading it is one short step. */
const PART_BYTES = 256 * 1024
const PART_UPDATES = 2000

type Step = { ready: boolean; run: () => void }

/** What RoomStore.load tells its room, and asks of it. */
export interface LoadHooks {
  /** True once the room is gone: the load stops. */
  isDestroyed: () => boolean
  /** Given every stored update, in order, before the first is applied. */
  onRead?: (updates: readonly Uint8Array[]) => void
  /** Given each stored update once it has applied (all its parts), in order, within the slice that applied it. */
  onApplied?: (update: Uint8Array) => void
  /** Awaited before the first update is applied, and only when there is something to apply (a new room's load reads nothing more). */
  beforeApply?: () => Promise<void>
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
const noop = (): void => {}

/**
 * One room's commit pipeline: accept → durable append → relay. The room applies an update to
 * its document as it arrives (which validates it and yields what it changed), hands that
 * change here, and everything the room would send because of it (the relay, and any answer or
 * awareness relay that comes after it) waits in an ordered outbox until the StoreWriter says it
 * is stored. So nothing leaves the server before it is stored, and relays keep arrival order.
 *
 * Also loads the room (in slices of about SLICE_MS, setting aside stored updates that fail to
 * apply) and compacts its log (in parts of at most PART_BYTES), never holding the event loop
 * for long.
 */
export class RoomStore implements RecoverableRoom {
  private readonly outbox: Step[] = []
  private writesInFlight = 0
  private unstored = false
  private loaded = false
  private updatesSinceCompaction = 0
  private compacting: Promise<void> | null = null
  private idleWaiters: Array<() => void> = []

  constructor(
    readonly name: string,
    private readonly doc: Y.Doc,
    private readonly writer: StoreWriter,
    private readonly options: RoomStoreOptions,
  ) {}

  get hasUnstored(): boolean {
    return this.unstored
  }

  takeSnapshot(): Uint8Array | null {
    if (!this.loaded) return null
    this.unstored = false
    return Y.encodeStateAsUpdate(this.doc)
  }

  /**
   * Applies the stored updates to the document with `origin`, yielding to other work between
   * slices. An update that fails to apply is set aside (kept, out of the room's log), logged
   * and counted; the rest load. Resolves with the updates that applied, in order (the room's
   * state, as stored bytes); rejects only when the store cannot be read. See LoadHooks.
   */
  async load(origin: unknown, hooks: LoadHooks): Promise<Uint8Array[]> {
    const { isDestroyed, onRead = noop, onApplied = noop, beforeApply } = hooks
    const { metrics } = this.options
    let records: StoredUpdate[]
    for (;;) {
      try {
        records = await this.writer.store.load(this.name)
        break
      } catch (error) {
        // While the store is being reopened reads fail too; wait for it rather than fail the room.
        if (this.writer.healthy) throw error
        await this.writer.whenHealthy()
      }
    }
    if (records.length > 0 && beforeApply !== undefined) {
      await beforeApply()
      if (isDestroyed()) return []
    }
    onRead(records.map((record) => record.update))
    let sliceStart = performance.now()
    const applied: Uint8Array[] = []
    for (const record of records) {
      if (isDestroyed()) return []
      try {
        // A long update in parts, yielding between them as between updates (update-parts.ts): one update of
        // 2,000 scattered edits took up to a second to apply, every room waiting.
        for (const step of loadSteps(record.update, LOAD_PART_STRUCTS, () => Y.decodeStateVector(Y.encodeStateVector(this.doc)))) {
          if (step !== PREPARING) Y.applyUpdate(this.doc, step, origin)
          if (performance.now() - sliceStart > SLICE_MS) {
            await nextTurn()
            sliceStart = performance.now()
            if (isDestroyed()) return []
          }
        }
        applied.push(record.update)
      } catch (error) {
        const cause = `${(error as Error).name}: ${(error as Error).message}`
        metrics.badStoredUpdates += 1
        this.options.logger().error({ seq: record.seq, bytes: record.update.length, cause }, 'a stored update fails to apply: set aside, loading the rest')
        void this.writer.setAside(this.name, record.seq, cause)
      }
      // Outside the try: only Yjs failing to apply the update sets it aside.
      if (applied.at(-1) === record.update) onApplied(record.update)
      if (performance.now() - sliceStart > SLICE_MS) {
        await nextTurn()
        sliceStart = performance.now()
      }
    }
    this.loaded = true
    this.updatesSinceCompaction = records.length
    if (records.length > this.options.compactAfter) void this.compact()
    return applied
  }

  /** `update` is applied to the document; `release` relays it once it is stored. */
  commit(update: Uint8Array, release: () => void): void {
    if (!this.options.storeBeforeRelay) {
      release()
      this.startWrite(update, null)
      return
    }
    if (!this.writer.healthy) {
      // The room's connections are being closed; recovery writes the whole document.
      this.unstored = true
      return
    }
    const step: Step = { ready: false, run: release }
    this.outbox.push(step)
    this.startWrite(update, step)
  }

  /** Runs `send` once every update committed before it is stored (at once if there is none). */
  after(send: () => void): void {
    if (this.outbox.length === 0) send()
    else this.outbox.push({ ready: true, run: send })
  }

  /** Resolves when every update committed so far is stored (or handed to recovery) and no compaction runs. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  private startWrite(update: Uint8Array, step: Step | null): void {
    this.writesInFlight += 1
    const started = performance.now()
    void this.writer.append(this.name, update).then((stored) => {
      this.writesInFlight -= 1
      if (stored) {
        this.options.metrics.observeCommitWait(performance.now() - started)
        if (++this.updatesSinceCompaction >= this.options.compactAfter) void this.compact()
      } else {
        this.unstored = true
      }
      if (step !== null) {
        step.ready = true
        // Not stored: the room's connections are being closed, and must not get it.
        if (!stored) step.run = noop
      }
      this.settle()
    })
  }

  private settle(): void {
    while (this.outbox.length > 0 && this.outbox[0]!.ready) this.outbox.shift()!.run()
    if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve()
  }

  private isIdle(): boolean {
    return this.outbox.length === 0 && this.writesInFlight === 0 && this.compacting === null
  }

  /**
   * Merges the room's stored updates into parts of at most PART_BYTES (merging is associative,
   * so each part is the merge of a run of consecutive updates), one part per turn, and has the
   * writer swap them in for the run they replace. Updates stored meanwhile stay as they are.
   */
  private compact(): Promise<void> {
    if (this.compacting !== null || !this.writer.healthy) return this.compacting ?? Promise.resolve()
    this.updatesSinceCompaction = 0
    const { metrics } = this.options
    const started = performance.now()
    this.compacting = (async () => {
      const epoch = this.writer.epoch
      try {
        const records = await this.writer.store.load(this.name)
        const parts: Uint8Array[] = []
        let run: Uint8Array[] = []
        let runBytes = 0
        let sliceStart = performance.now()
        for (const { update } of records) {
          if (run.length > 0 && (runBytes + update.length > PART_BYTES || run.length >= PART_UPDATES)) {
            parts.push(run.length === 1 ? run[0]! : mergeStored(run))
            run = []
            runBytes = 0
            if (performance.now() - sliceStart > SLICE_MS) {
              await nextTurn()
              sliceStart = performance.now()
            }
          }
          run.push(update)
          runBytes += update.length
        }
        if (run.length > 0) parts.push(run.length === 1 ? run[0]! : mergeStored(run))
        if (parts.length >= records.length) return
        if (await this.writer.replace(this.name, records[records.length - 1]!.seq, parts, epoch)) {
          metrics.compactions += 1
          this.options.logger().debug({ updates: records.length, parts: parts.length, ms: Math.round(performance.now() - started) }, 'compacted stored updates')
        }
      } catch (error) {
        // The updates stay stored one by one; the next compaction tries again.
        this.options.logger().error({ err: error }, 'compacting stored updates failed')
      }
    })().finally(() => {
      this.compacting = null
      this.settle()
    })
    return this.compacting
  }
}

/**
 * The merge of a run of stored updates. Y.mergeUpdates drops what an update holds out of its client order, and
 * earlier versions stored joins in arrival order, so each is put in order first. Only a run of several is merged
 * (a large update stays alone in its run and is kept as it is, never read here).
 */
function mergeStored(run: readonly Uint8Array[]): Uint8Array {
  return Y.mergeUpdates(run.map(inYjsOrder))
}
