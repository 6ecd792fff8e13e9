/**
 * Counters for GET /metrics, rendered in the Prometheus text exposition format (version 0.0.4).
 * Plain fields rather than a metrics library: the hot path adds to a number and nothing else.
 */

export type RefusalReason = 'unauthorized' | 'forbidden' | 'invalid_room' | 'shutting_down' | 'origin' | 'too_many_connections' | 'host'
export type DropReason = 'read_only' | 'foreign_awareness' | 'awareness_too_large' | 'rate_limited' | 'token_expired' | 'awareness_coalesced'
export type CloseReason = 'malformed' | 'too_large' | 'dead' | 'load_failed' | 'slow_reader' | 'pending_limit' | 'token_expired' | 'storage_unavailable' | 'unfinished_connection' | 'unfinished_process' | 'update_too_large' | 'apply_budget'

export interface Gauges {
  rooms: number
  connections: number
  uptimeSeconds: number
}

/** Upper bounds (ms) of the buckets of the time an update waits for its write before it is relayed. */
export const COMMIT_BUCKETS_MS = [0.25, 0.5, 1, 2, 5, 10, 25, 50, 100, 250, 1000] as const

export class Metrics {
  /** Per bucket of COMMIT_BUCKETS_MS (and one past the last): updates whose write took that long. */
  readonly commitWaits: number[] = new Array<number>(COMMIT_BUCKETS_MS.length + 1).fill(0)
  commitWaitSumMs = 0

  messagesIn = 0
  messagesOut = 0
  bytesIn = 0
  bytesOut = 0
  /** Client updates that have reached the store (several can share one write under load). */
  storedUpdates = 0
  storageWrites = 0
  storageErrors = 0
  /** 1 while writes succeed; 0 from a failed write until the store is reopened and every room written again. */
  storageHealthy = 1
  storageRecoveries = 0
  /** Stored updates that failed to apply at load and were set aside. */
  badStoredUpdates = 0
  compactions = 0
  /** Batches of document updates relayed (fanout.ts), and the updates they held. */
  relayBatches = 0
  relayBatchedUpdates = 0
  /** Batches of awareness entries relayed. */
  presenceBatches = 0
  /** Large messages (sync answers) sent in slices (sliced-send.ts); connections with one in progress; the most bytes of slices one socket held unwritten. */
  slicedAnswers = 0
  answerSendsActive = 0
  answerUnwrittenPeakBytes = 0
  roomsLoaded = 0
  roomsUnloaded = 0
  connectionsAccepted = 0
  /** Bytes held in WebSocket messages that have begun to arrive but are not finished (memory-budget.ts), now and at most. */
  unfinishedBytes = 0
  unfinishedBytesPeak = 0
  /** HTTP requests (not upgrades) refused for naming a host that is not this server's (host-check.ts). */
  httpRefusedHost = 0
  readonly refused: Record<RefusalReason, number> = { unauthorized: 0, forbidden: 0, invalid_room: 0, shutting_down: 0, origin: 0, too_many_connections: 0, host: 0 }
  readonly dropped: Record<DropReason, number> = { read_only: 0, foreign_awareness: 0, awareness_too_large: 0, rate_limited: 0, token_expired: 0, awareness_coalesced: 0 }
  readonly closedByServer: Record<CloseReason, number> = { malformed: 0, too_large: 0, dead: 0, load_failed: 0, slow_reader: 0, pending_limit: 0, token_expired: 0, storage_unavailable: 0, unfinished_connection: 0, unfinished_process: 0, update_too_large: 0, apply_budget: 0 }

  /** More samples in the same format, appended as they are (cluster mode's). */
  readonly sections: Array<() => string> = []

  /** Counts one update that waited `ms` from being applied to being stored (and so relayable). */
  observeCommitWait(ms: number): void {
    let bucket = 0
    while (bucket < COMMIT_BUCKETS_MS.length && ms > COMMIT_BUCKETS_MS[bucket]!) bucket += 1
    this.commitWaits[bucket]! += 1
    this.commitWaitSumMs += ms
  }

  render(gauges: Gauges): string {
    const out: string[] = []
    const metric = (name: string, type: 'counter' | 'gauge' | 'histogram', help: string, samples: Array<[labels: string, value: number]>): void => {
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
    metric('cotext_unfinished_bytes', 'gauge', 'Bytes held in WebSocket messages begun but not finished (MAX_UNFINISHED_BYTES).', [['', this.unfinishedBytes]])
    metric('cotext_unfinished_bytes_peak', 'gauge', 'The most cotext_unfinished_bytes has been since the server started.', [['', this.unfinishedBytesPeak]])
    metric('cotext_http_refused_host_total', 'counter', 'HTTP requests refused for a Host that does not name this server (ALLOWED_HOSTS).', [['', this.httpRefusedHost]])
    metric('cotext_messages_in_total', 'counter', 'WebSocket messages received.', [['', this.messagesIn]])
    metric('cotext_messages_out_total', 'counter', 'WebSocket messages sent.', [['', this.messagesOut]])
    metric('cotext_bytes_in_total', 'counter', 'WebSocket payload bytes received.', [['', this.bytesIn]])
    metric('cotext_bytes_out_total', 'counter', 'WebSocket payload bytes sent.', [['', this.bytesOut]])
    metric('cotext_messages_dropped_total', 'counter', 'Messages received but neither applied nor relayed.', labelled('reason', this.dropped))
    metric('cotext_stored_updates_total', 'counter', 'Document updates written to the store.', [['', this.storedUpdates]])
    metric('cotext_storage_writes_total', 'counter', 'Store writes of document updates.', [['', this.storageWrites]])
    metric('cotext_storage_errors_total', 'counter', 'Failed store reads and writes.', [['', this.storageErrors]])
    metric('cotext_storage_healthy', 'gauge', '1 while storage works; 0 from a failed write until every loaded room is written again.', [['', this.storageHealthy]])
    metric('cotext_storage_recoveries_total', 'counter', 'Times the store was reopened and every loaded room written again after a failed write.', [['', this.storageRecoveries]])
    metric('cotext_bad_stored_updates_total', 'counter', 'Stored updates that failed to apply when their room loaded (set aside, not deleted).', [['', this.badStoredUpdates]])
    let cumulative = 0
    const buckets: Array<[string, number]> = [...COMMIT_BUCKETS_MS, Number.POSITIVE_INFINITY].map((bound, index) => {
      cumulative += this.commitWaits[index]!
      return [`_bucket{le="${bound === Number.POSITIVE_INFINITY ? '+Inf' : bound / 1000}"}`, cumulative]
    })
    metric('cotext_commit_wait_seconds', 'histogram', 'Time from an update being applied to it being stored, which its relay waits for.', [
      ...buckets,
      ['_sum', this.commitWaitSumMs / 1000],
      ['_count', cumulative],
    ])
    metric('cotext_relay_batches_total', 'counter', 'Batches of document updates relayed to a room (each one frame per client).', [['', this.relayBatches]])
    metric('cotext_relay_batched_updates_total', 'counter', 'Document updates relayed in those batches.', [['', this.relayBatchedUpdates]])
    metric('cotext_presence_batches_total', 'counter', 'Batches of awareness states relayed to a room (each one frame per client).', [['', this.presenceBatches]])
    metric('cotext_sliced_answers_total', 'counter', 'Large messages (sync answers) sent in slices, a few at a time per connection.', [['', this.slicedAnswers]])
    metric('cotext_sliced_answers_active', 'gauge', 'Connections with a large message going out in slices now.', [['', this.answerSendsActive]])
    metric('cotext_sliced_answer_unwritten_bytes_peak', 'gauge', 'The most bytes of slices one socket has held unwritten (bounded by two slices; a slow reader waits for its socket to drain).', [['', this.answerUnwrittenPeakBytes]])
    metric('cotext_compactions_total', 'counter', 'Rooms whose stored updates were merged into one.', [['', this.compactions]])
    metric('cotext_rooms_loaded_total', 'counter', 'Rooms loaded from storage.', [['', this.roomsLoaded]])
    metric('cotext_rooms_unloaded_total', 'counter', 'Rooms stored and dropped from memory after their last client left.', [['', this.roomsUnloaded]])
    const memory = process.memoryUsage()
    const cpu = process.cpuUsage()
    metric('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', [['', memory.rss]])
    metric('process_cpu_seconds_total', 'counter', 'User and system CPU time spent in seconds.', [['', (cpu.user + cpu.system) / 1e6]])
    return `${out.join('\n')}\n${this.sections.map((section) => section()).join('')}`
  }
}
