/**
 * Counters for GET /metrics, rendered in the Prometheus text exposition format (version 0.0.4).
 * Plain fields rather than a metrics library: the hot path adds to a number and nothing else.
 */

export type RefusalReason = 'unauthorized' | 'forbidden' | 'invalid_room' | 'shutting_down'
export type DropReason = 'read_only' | 'foreign_awareness'
export type CloseReason = 'malformed' | 'too_large' | 'dead' | 'load_failed' | 'storage_unavailable'

export interface Gauges {
  rooms: number
  connections: number
  uptimeSeconds: number
}

export class Metrics {
  messagesIn = 0
  messagesOut = 0
  bytesIn = 0
  bytesOut = 0
  /** Client updates that have reached LevelDB (several can share one write under load). */
  storedUpdates = 0
  storageWrites = 0
  storageErrors = 0
  /** 1 while writes succeed; 0 from a failed write until the store is reopened and every room written again. */
  storageHealthy = 1
  storageRecoveries = 0
  /** Stored updates that failed to apply at load and were set aside. */
  badStoredUpdates = 0
  compactions = 0
  roomsLoaded = 0
  roomsUnloaded = 0
  connectionsAccepted = 0
  readonly refused: Record<RefusalReason, number> = { unauthorized: 0, forbidden: 0, invalid_room: 0, shutting_down: 0 }
  readonly dropped: Record<DropReason, number> = { read_only: 0, foreign_awareness: 0 }
  readonly closedByServer: Record<CloseReason, number> = { malformed: 0, too_large: 0, dead: 0, load_failed: 0, storage_unavailable: 0 }

  render(gauges: Gauges): string {
    const out: string[] = []
    const metric = (name: string, type: 'counter' | 'gauge', help: string, samples: Array<[labels: string, value: number]>): void => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)
      for (const [labels, value] of samples) out.push(`${name}${labels} ${value}`)
    }
    const labelled = (label: string, counts: Record<string, number>): Array<[string, number]> =>
      Object.entries(counts).map(([key, value]) => [`{${label}="${key}"}`, value])

    metric('cotext_connections', 'gauge', 'Open WebSocket connections.', [['', gauges.connections]])
    metric('cotext_rooms', 'gauge', 'Rooms loaded in memory.', [['', gauges.rooms]])
    metric('cotext_uptime_seconds', 'gauge', 'Seconds since the server started.', [['', gauges.uptimeSeconds]])
    metric('cotext_connections_accepted_total', 'counter', 'Connections admitted to a room.', [['', this.connectionsAccepted]])
    metric('cotext_connections_refused_total', 'counter', 'Connections refused before joining a room.', labelled('reason', this.refused))
    metric('cotext_connections_closed_total', 'counter', 'Connections the server closed because of the client or the room.', labelled('reason', this.closedByServer))
    metric('cotext_messages_in_total', 'counter', 'WebSocket messages received.', [['', this.messagesIn]])
    metric('cotext_messages_out_total', 'counter', 'WebSocket messages sent.', [['', this.messagesOut]])
    metric('cotext_bytes_in_total', 'counter', 'WebSocket payload bytes received.', [['', this.bytesIn]])
    metric('cotext_bytes_out_total', 'counter', 'WebSocket payload bytes sent.', [['', this.bytesOut]])
    metric('cotext_messages_dropped_total', 'counter', 'Messages received but neither applied nor relayed.', labelled('reason', this.dropped))
    metric('cotext_stored_updates_total', 'counter', 'Document updates written to LevelDB.', [['', this.storedUpdates]])
    metric('cotext_storage_writes_total', 'counter', 'LevelDB writes of document updates.', [['', this.storageWrites]])
    metric('cotext_storage_errors_total', 'counter', 'Failed LevelDB reads and writes.', [['', this.storageErrors]])
    metric('cotext_storage_healthy', 'gauge', '1 while storage works; 0 from a failed write until every loaded room is written again.', [['', this.storageHealthy]])
    metric('cotext_storage_recoveries_total', 'counter', 'Times the store was reopened and every loaded room written again after a failed write.', [['', this.storageRecoveries]])
    metric('cotext_bad_stored_updates_total', 'counter', 'Stored updates that failed to apply when their room loaded (set aside, not deleted).', [['', this.badStoredUpdates]])
    metric('cotext_compactions_total', 'counter', 'Rooms whose stored updates were merged into one.', [['', this.compactions]])
    metric('cotext_rooms_loaded_total', 'counter', 'Rooms loaded from storage.', [['', this.roomsLoaded]])
    metric('cotext_rooms_unloaded_total', 'counter', 'Rooms stored and dropped from memory after their last client left.', [['', this.roomsUnloaded]])
    const memory = process.memoryUsage()
    const cpu = process.cpuUsage()
    metric('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', [['', memory.rss]])
    metric('process_cpu_seconds_total', 'counter', 'User and system CPU time spent in seconds.', [['', (cpu.user + cpu.system) / 1e6]])
    return `${out.join('\n')}\n`
  }
}
