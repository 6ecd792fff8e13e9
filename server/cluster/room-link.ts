import * as Y from 'yjs'
import * as awarenessProtocol from 'y-protocols/awareness'
import { decodeAwarenessEntries } from '../protocol.ts'
import { REMOTE_ORIGIN } from './origin.ts'
import type { StreamEntry } from './stream.ts'

/** An entry that fails to apply: the rest of its read still applies. */
export type EntryFailure = (entry: StreamEntry, error: unknown) => void

/** What cluster mode needs of a loaded room. */
export interface RoomView {
  readonly name: string
  readonly doc: Y.Doc
  readonly awareness: awarenessProtocol.Awareness
}

type AwarenessChange = { added: number[]; updated: number[]; removed: number[] }

/**
 * One open room's side of the stream: applies other processes' entries to the room (which
 * relays them to its clients) and hands this process's awareness changes to `publish`. It
 * remembers which process last published each client's presence, so that the presence of a
 * dead process's clients can be removed.
 */
export class RoomLink {
  private readonly owners = new Map<number, string>()

  constructor(
    private readonly room: RoomView,
    private readonly publish: (update: Uint8Array) => void,
  ) {
    room.awareness.on('update', this.onAwarenessUpdate)
  }

  /**
   * Applies entries of one read in order. A run of document updates goes in as one transaction:
   * the room relays (and encodes, and its observers see) one update for the run instead of one per
   * entry, and Yjs reads the document's state vector once, not twice per entry.
   */
  applyAll(entries: readonly StreamEntry[], onFailure: EntryFailure): void {
    for (let start = 0; start < entries.length; ) {
      let end = start
      while (end < entries.length && entries[end]!.kind === 'update') end += 1
      if (end - start > 1) {
        const run = entries.slice(start, end)
        Y.transact(this.room.doc, () => {
          for (const entry of run) this.applyOne(entry, onFailure)
        }, REMOTE_ORIGIN)
        start = end
      } else {
        this.applyOne(entries[start]!, onFailure)
        start += 1
      }
    }
  }

  private applyOne(entry: StreamEntry, onFailure: EntryFailure): void {
    try {
      this.apply(entry)
    } catch (error) {
      onFailure(entry, error)
    }
  }

  apply(entry: StreamEntry): void {
    if (entry.kind === 'update') {
      // Within applyAll's transaction, Yjs applies it there.
      Y.applyUpdate(this.room.doc, entry.data, REMOTE_ORIGIN)
      return
    }
    for (const { clientId, state } of decodeAwarenessEntries(entry.data)) {
      if (state === 'null') this.owners.delete(clientId)
      else this.owners.set(clientId, entry.processId)
    }
    awarenessProtocol.applyAwarenessUpdate(this.room.awareness, entry.data, REMOTE_ORIGIN)
  }

  /** The other processes whose clients have presence here. */
  ownerProcesses(): Set<string> {
    return new Set(this.owners.values())
  }

  /** Removes the presence of the clients of processes not in `alive`; returns how many states went. */
  expire(alive: ReadonlySet<string>): number {
    const gone: number[] = []
    for (const [clientId, processId] of this.owners) {
      if (alive.has(processId)) continue
      this.owners.delete(clientId)
      if (this.room.awareness.getStates().has(clientId)) gone.push(clientId)
    }
    if (gone.length > 0) awarenessProtocol.removeAwarenessStates(this.room.awareness, gone, REMOTE_ORIGIN)
    return gone.length
  }

  detach(): void {
    this.room.awareness.off('update', this.onAwarenessUpdate)
  }

  private readonly onAwarenessUpdate = ({ added, updated, removed }: AwarenessChange, origin: unknown): void => {
    // Entries from the stream are the other processes' to publish; a state that timed out here
    // timed out everywhere, each process runs the same 30 s timeout.
    if (origin === REMOTE_ORIGIN || origin === 'timeout') return
    const changed = [...added, ...updated, ...removed]
    for (const clientId of changed) this.owners.delete(clientId)
    this.publish(awarenessProtocol.encodeAwarenessUpdate(this.room.awareness, changed))
  }
}
