import * as Y from 'yjs'
import * as encoding from 'lib0/encoding'

/**
 * A transaction's change as a v1 update, the same bytes Yjs hands to 'update' listeners, written
 * for the clients the transaction changed only. Yjs writes that update by building the state
 * vector of every client the document has ever seen and looking each one up in the store, so in a
 * room of hundreds of typists every one-character insert paid for hundreds of clients (a tenth of
 * a profiled hot room's CPU). Here the transaction's own after-state is walked once, without
 * building anything, and only the changed clients' structs are written, in Yjs's order (higher
 * client ids first), followed by the transaction's delete set. Call it once the transaction is
 * cleaned up ('afterTransactionCleanup'), when Yjs itself would write the update: its structs are
 * merged then. Null when the transaction changed nothing (Yjs emits no update then).
 */
export function encodeTransactionUpdate(transaction: Y.Transaction): Uint8Array | null {
  const { deleteSet } = transaction
  const changed = changedClients(transaction)
  if (changed.length === 0 && deleteSet.clients.size === 0) return null
  const store = transaction.doc.store
  const encoder = new Y.UpdateEncoderV1()
  encoding.writeVarUint(encoder.restEncoder, changed.length)
  for (const [client, clock] of [...changed].sort((a, b) => b[0] - a[0])) writeStructs(encoder, store.clients.get(client)!, client, clock)
  // The delete set is sorted and merged by Yjs before the transaction's observers run.
  const deletes = [...deleteSet.clients].sort((a, b) => b[0] - a[0])
  encoding.writeVarUint(encoder.restEncoder, deletes.length)
  for (const [client, items] of deletes) {
    encoder.resetDsCurVal()
    encoding.writeVarUint(encoder.restEncoder, client)
    encoding.writeVarUint(encoder.restEncoder, items.length)
    for (const item of items) {
      encoder.writeDsClock(item.clock)
      encoder.writeDsLen(item.len)
    }
  }
  return encoder.toUint8Array()
}

const changedOf = new WeakMap<Y.Transaction, ReadonlyArray<readonly [number, number]>>()

/**
 * The clients `transaction` inserted under, each with its clock before the transaction. Found once
 * per transaction (its after-state holds every client the document has seen, hundreds in a busy
 * room) and shared by whoever asks after its observers start: the change log's author check, the
 * awareness reclaim, the room's update.
 */
export function changedClients(transaction: Y.Transaction): ReadonlyArray<readonly [number, number]> {
  let changed = changedOf.get(transaction)
  if (changed === undefined) {
    const found: Array<readonly [number, number]> = []
    for (const [client, clock] of transaction.afterState) {
      const before = transaction.beforeState.get(client) ?? 0
      if (clock > before) found.push([client, before])
    }
    changed = found
    changedOf.set(transaction, changed)
  }
  return changed
}

/** `client`'s structs from `clock` on, the first one cut at `clock` (Yjs's writeStructs). */
function writeStructs(encoder: Y.UpdateEncoderV1, structs: ReadonlyArray<Y.Item | Y.GC>, client: number, clock: number): void {
  const from = Math.max(clock, structs[0]!.id.clock)
  const start = Y.findIndexSS(structs as Array<Y.Item | Y.GC>, from)
  encoding.writeVarUint(encoder.restEncoder, structs.length - start)
  encoder.writeClient(client)
  encoding.writeVarUint(encoder.restEncoder, from)
  const first = structs[start]!
  first.write(encoder, from - first.id.clock)
  for (let i = start + 1; i < structs.length; i++) structs[i]!.write(encoder, 0)
}
