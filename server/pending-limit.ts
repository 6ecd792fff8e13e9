import * as Y from 'yjs'
import { Connection } from './connection.ts'

/**
 * Caps the updates a room holds back because their dependencies have not arrived (Yjs keeps
 * them in `doc.store.pendingStructs` and `pendingDs` until they do). On one server an honest
 * client's updates always resolve, so pending updates come from a faulty or hostile client;
 * without a cap they stay in memory for as long as the room is loaded.
 *
 * Each transaction from a connection that leaves more pending than before is remembered with
 * what was pending just before it. When a connection's update takes the room past the cap,
 * that connection is closed and the room's pending state goes back to what it was before the
 * connection's first update still pending: what it left is dropped (and with it anything other
 * connections left after that, which is logged). Once nothing is pending the record restarts.
 *
 * The cap is on bytes and on items (structs plus deleted ranges): Yjs reads every pending
 * deleted range again for each later update to the room, and merges pending structs again with
 * each update that adds to them, so their count, not their size, sets what every later edit
 * costs (a 4 MiB delete set of ranges over clocks that never come made each edit take 260 ms).
 */

type Store = Y.Doc['store']

interface Snapshot {
  structs: { missing: Map<number, number>; update: Uint8Array } | null
  ds: Uint8Array | null
}

export interface PendingLimitOptions {
  maxBytes: number
  /** Structs plus deleted ranges. */
  maxItems: number
  /** Called once for the connection that crossed the cap, after the room's pending state is restored. */
  onExceeded: (connection: Connection, details: { pendingBytes: number; pendingItems: number | null; keptBytes: number; othersDropped: number }) => void
}

export function pendingBytes(store: Store): number {
  return (store.pendingStructs?.update.byteLength ?? 0) + (store.pendingDs?.byteLength ?? 0)
}

/** Structs plus deleted ranges waiting in `store`; reads every pending update, so only called as pending grows. */
export function pendingItems(store: Store): number {
  let items = 0
  if (store.pendingStructs !== null) items += Y.decodeUpdateV2(store.pendingStructs.update).structs.length
  if (store.pendingDs !== null) for (const ranges of Y.decodeUpdateV2(store.pendingDs).ds.clients.values()) items += ranges.length
  return items
}

function snapshot(store: Store): Snapshot {
  const structs = store.pendingStructs
  return { structs: structs === null ? null : { missing: new Map(structs.missing), update: structs.update }, ds: store.pendingDs }
}

const watched = new WeakSet<Y.Doc>()

/** Starts watching `doc` (once; later calls for the same doc do nothing). */
export function limitPending(doc: Y.Doc, options: PendingLimitOptions): void {
  if (watched.has(doc)) return
  watched.add(doc)
  /** Pending-growing transactions since nothing was pending, oldest first. */
  const growth: Array<{ connection: Connection; before: Snapshot }> = []
  let before: Snapshot | null = null
  let bytesBefore = 0

  doc.on('beforeTransaction', (transaction: Y.Transaction) => {
    if (!(transaction.origin instanceof Connection)) return
    before = snapshot(doc.store)
    bytesBefore = pendingBytes(doc.store)
  })
  doc.on('afterTransaction', (transaction: Y.Transaction) => {
    const origin = transaction.origin
    const bytes = pendingBytes(doc.store)
    if (bytes === 0) growth.length = 0
    if (!(origin instanceof Connection) || before === null) return
    const previous = before
    before = null
    if (bytes <= bytesBefore) return
    growth.push({ connection: origin, before: previous })
    // Past the bytes cap the items are not counted (null): that would read every pending byte.
    const items = bytes <= options.maxBytes ? pendingItems(doc.store) : null
    if (items !== null && items <= options.maxItems) return
    const first = growth.findIndex((entry) => entry.connection === origin)
    const restored = growth[first]!.before
    const dropped = growth.splice(first)
    doc.store.pendingStructs = restored.structs
    doc.store.pendingDs = restored.ds
    const others = new Set(dropped.map((entry) => entry.connection))
    others.delete(origin)
    options.onExceeded(origin, { pendingBytes: bytes, pendingItems: items, keptBytes: pendingBytes(doc.store), othersDropped: others.size })
  })
}
