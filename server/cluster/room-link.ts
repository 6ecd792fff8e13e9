import * as Y from 'yjs'
import * as awarenessProtocol from 'y-protocols/awareness'
import { decodeAwarenessEntries } from '../protocol.ts'
import { REMOTE_ORIGIN } from './origin.ts'
import type { StreamEntry } from './stream.ts'

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

  apply(entry: StreamEntry): void {
    if (entry.kind === 'update') {
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
