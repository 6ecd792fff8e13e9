import type * as Y from 'yjs'
import { clientsChangedBy, encodeTransactionUpdate as encodeFor } from '../core/index.ts'

/**
 * A transaction's update as Yjs would hand it to 'update' listeners, written for the clients it
 * changed only (the engine's `encodeTransactionUpdate`, which says why); null when it changed nothing.
 */
export function encodeTransactionUpdate(transaction: Y.Transaction): Uint8Array | null {
  return encodeFor(transaction, changedClients(transaction))
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
    changed = clientsChangedBy(transaction)
    changedOf.set(transaction, changed)
  }
  return changed
}
