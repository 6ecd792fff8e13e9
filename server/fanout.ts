import * as Y from 'yjs'
import type { Awareness } from 'y-protocols/awareness'
import { binaryFrame, type Connection } from './connection.ts'
import type { Metrics } from './metrics.ts'
import { encodeAwarenessMessage, encodeUpdate, type AwarenessEntry } from './protocol.ts'
import { disjointClients, joinUpdates, sectionCount, splitUpdate, type SplitUpdate } from './relay-merge.ts'

export interface FanoutOptions {
  /** The longest a relay waits to be merged with the ones that follow it, in a busy room (ms); 0 relays each at once. */
  windowMs: number
  /** The connections that get relays now (none while the room is not ready). */
  recipients: () => Iterable<Connection>
  metrics: Metrics
}

/** Who sent a relayed change: a connection of this room, or null (another process, the server itself). */
type Sender = Connection | null

/**
 * A room's relays, batched. Without batching every update and every cursor move is one frame to
 * every other client, so N typists cost N² frames and a presence storm of 200 clients 200,000
 * frames a second. Here the first relay after a quiet spell goes out at once (no added latency
 * while a room is calm); the ones that follow within the window are merged — document updates
 * with `Y.mergeUpdates`, awareness keeping each client's latest state — and go out together when
 * the window ends, which opens the next one. So each client gets at most 1000 / window frames of
 * each kind a second, whatever the number of writers.
 *
 * The window grows with the room (see `fanoutWindowMs`): a pair of typists never waits, a room of
 * hundreds waits up to `windowMs`. In cluster mode a process holds only part of a busy room's
 * connections, so the rate of relays (its own clients' and other processes') counts too.
 *
 * Only what the room store has released (stored) is handed here, so store-before-relay holds for
 * every change in a batch. No one gets back what they sent: a sender's batch is merged without its
 * own updates and its own awareness entry. Document updates go out before awareness in each
 * flush, so a cursor never arrives ahead of the text it points into.
 */
export class RoomFanout {
  private updates: Array<{ update: Uint8Array; from: Sender }> = []
  /** Made by the first awareness relay: most rooms' documents change more often than anyone moves a cursor, and an idle room does neither. */
  private entries: Map<number, { entry: AwarenessEntry; from: Sender }> | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  private disposed = false
  /** Relays handed in since `countedSince` (performance.now()), and their rate over the last count of a second or more; an update counts once per Yjs client in it. */
  private arrivals = 0
  private countedSince = 0
  private relaysPerSecond = 0

  constructor(private readonly options: FanoutOptions) {}

  /** Relays a stored document update to everyone but its sender. */
  relayUpdate(update: Uint8Array, from: Sender): void {
    if (this.disposed) return
    this.updates.push({ update, from })
    // By its clients' sections: a run of other processes' updates comes in as one.
    this.arrivals += sectionCount(update)
    this.arrive()
  }

  /** Relays awareness entries (each client's state as it was published) to everyone but their sender. */
  relayAwareness(entries: readonly AwarenessEntry[], from: Sender): void {
    if (this.disposed) return
    this.entries ??= new Map()
    // Re-inserted so that the Map's order stays the order of the latest publications.
    for (const entry of entries) {
      this.entries.delete(entry.clientId)
      this.entries.set(entry.clientId, { entry, from })
    }
    this.arrivals += 1
    this.arrive()
  }

  /** Sends whatever waits now (the room is going away, or a test wants it out). */
  flush(): void {
    if (this.updates.length > 0) this.flushUpdates()
    if (this.entries !== null && this.entries.size > 0) this.flushAwareness(this.entries)
  }

  /** Drops what waits and stops the timer: the room and its connections are gone. */
  dispose(): void {
    this.disposed = true
    this.updates = []
    this.entries = null
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  private arrive(): void {
    if (this.timer !== null) return
    // Quiet until now: out at once, and the window opens for whatever follows.
    this.flush()
    const windowMs = this.windowMs()
    if (windowMs > 0) this.timer = setTimeout(this.onWindowEnd, windowMs)
  }

  private readonly onWindowEnd = (): void => {
    this.timer = null
    if (this.disposed || (this.updates.length === 0 && (this.entries === null || this.entries.size === 0))) return
    this.flush()
    this.timer = setTimeout(this.onWindowEnd, this.windowMs())
  }

  private windowMs(): number {
    const { windowMs } = this.options
    if (windowMs <= 0) return 0
    const now = performance.now()
    if (now - this.countedSince >= 1000) {
      this.relaysPerSecond = (this.arrivals * 1000) / (now - this.countedSince)
      this.arrivals = 0
      this.countedSince = now
    }
    let connections = 0
    for (const _ of this.options.recipients()) connections += 1
    return fanoutWindowMs(windowMs, connections, this.relaysPerSecond)
  }

  private flushUpdates(): void {
    const batch = this.updates
    this.updates = []
    const metrics = this.options.metrics
    metrics.relayBatches += 1
    metrics.relayBatchedUpdates += batch.length
    const merge = batch.length === 1 ? null : mergerOf(batch.map((b) => b.update))
    const everything = encodeUpdate(merge === null ? batch[0]!.update : merge(() => true))
    // A sender gets the batch without its own updates; merged once per sender, not per recipient.
    const perSender = new Map<Connection, Uint8Array | null>()
    for (const { from } of batch) {
      if (from === null || perSender.has(from)) continue
      const others = batch.filter((b) => b.from !== from)
      perSender.set(from, others.length === 0 ? null : encodeUpdate(others.length === 1 ? others[0]!.update : merge!((i) => batch[i]!.from !== from)))
    }
    const everythingFrame = binaryFrame(everything)
    for (const connection of this.options.recipients()) {
      const own = perSender.get(connection)
      if (own === undefined) connection.send(everything, everythingFrame)
      // Framed here too: ws would write its header and the message as two chunks (a writev) under the write batcher's cork.
      else if (own !== null) connection.send(own, binaryFrame(own))
    }
  }

  private flushAwareness(entries: Map<number, { entry: AwarenessEntry; from: Sender }>): void {
    const batch = [...entries.values()]
    entries.clear()
    this.options.metrics.presenceBatches += 1
    const everything = encodeAwarenessMessage(batch.map((b) => b.entry))
    const everythingFrame = binaryFrame(everything)
    // Only the senders in this batch need a message of their own (without their entries).
    const senders = new Set<Connection>()
    const clients = new Set<number>()
    for (const { entry, from } of batch) {
      if (from !== null) senders.add(from)
      clients.add(entry.clientId)
    }
    for (const connection of this.options.recipients()) {
      const own = connection.awarenessClientId
      if (!senders.has(connection) && (own === null || !clients.has(own))) {
        connection.send(everything, everythingFrame)
        continue
      }
      const others = batch.filter((b) => b.from !== connection && b.entry.clientId !== own)
      if (others.length === 0) continue
      const message = encodeAwarenessMessage(others.map((b) => b.entry))
      connection.send(message, binaryFrame(message))
    }
  }
}

/**
 * The window of a room with `connections` here and `relaysPerSecond` relays a second (its
 * clients' and, in cluster mode, other processes'): a tenth of a millisecond per connection or
 * per relay a second, whichever is more, between 1 ms and `settingMs`. By connections, a flush
 * costs a frame per connection; by relays, each client gets at most min(rate, 10,000 / rate)
 * frames a second, at most 100 whatever the rate, however few of the room's clients are here.
 */
export function fanoutWindowMs(settingMs: number, connections: number, relaysPerSecond: number): number {
  return Math.min(settingMs, Math.max(1, Math.ceil(connections / 10), Math.ceil(relaysPerSecond / 10)))
}

/**
 * Merges of subsets of `updates` (those whose index `keep` accepts). Updates of different Yjs
 * clients, the usual batch of a room of typists, are read once and merged by copying bytes
 * (relay-merge.ts); any other batch is merged by Yjs.
 */
function mergerOf(updates: readonly Uint8Array[]): (keep: (index: number) => boolean) => Uint8Array {
  const split: SplitUpdate[] = []
  for (const update of updates) {
    const parts = splitUpdate(update)
    if (parts === null) break
    split.push(parts)
  }
  if (split.length === updates.length && disjointClients(split)) return (keep) => joinUpdates(split.filter((_, i) => keep(i)))
  return (keep) => Y.mergeUpdates(updates.filter((_, i) => keep(i)))
}

/** Awareness entries of `clients` as `awareness` holds them now (a removed client's with state null). */
export function awarenessEntries(awareness: Awareness, clients: readonly number[]): AwarenessEntry[] {
  const states = awareness.getStates()
  const entries: AwarenessEntry[] = []
  for (const clientId of clients) {
    const meta = awareness.meta.get(clientId)
    if (meta === undefined) continue
    entries.push({ clientId, clock: meta.clock, state: JSON.stringify(states.get(clientId) ?? null) })
  }
  return entries
}
