/**
 * Cluster mode's figures for GET /metrics, appended to the server's own in the same
 * Prometheus text format.
 */
export class ClusterMetrics {
  /** Entries this process appended to room streams. */
  entriesWritten = 0
  /** Entries of other processes this process read and applied. */
  entriesRead = 0
  /** How old (by the entry id's clock) the last entry read from another process was on arrival. */
  streamLagSeconds = 0
  /** Compactions this process wrote to PostgreSQL. */
  compactions = 0
  /** Stream entries not yet in PostgreSQL, summed over this process's open rooms, as far as it knows. */
  uncompactedEntries = 0
  /** Seconds since the oldest entry this process knows is not yet in PostgreSQL was added (0: none). */
  compactionLagSeconds = 0
  /** Failed PostgreSQL queries (read by render from the store). */
  postgresErrors = (): number => 0
  /** Failed Redis commands (the blocking read, appends, heartbeats, leases). */
  redisErrors = 0
  /** Awareness states removed because the process that served them stopped its heartbeat. */
  presenceExpired = 0
  /** Times Redis was found restarted or emptied (and the rooms held here appended again). */
  redisResets = 0

  render(): string {
    const out: string[] = []
    const metric = (name: string, type: 'counter' | 'gauge', help: string, value: number): void => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${value}`)
    }
    metric('cotext_cluster_entries_written_total', 'counter', 'Entries this process appended to room streams.', this.entriesWritten)
    metric('cotext_cluster_entries_read_total', 'counter', "Other processes' stream entries read and applied.", this.entriesRead)
    metric('cotext_cluster_stream_lag_seconds', 'gauge', 'Age of the last entry read from another process when it arrived.', this.streamLagSeconds)
    metric('cotext_cluster_compactions_total', 'counter', 'Room compactions this process wrote to PostgreSQL.', this.compactions)
    metric('cotext_cluster_uncompacted_entries', 'gauge', 'Stream entries of open rooms not yet in PostgreSQL, as far as this process knows.', this.uncompactedEntries)
    metric('cotext_cluster_compaction_lag_seconds', 'gauge', 'Age of the oldest entry of an open room not yet in PostgreSQL, as far as this process knows.', this.compactionLagSeconds)
    metric('cotext_cluster_postgres_errors_total', 'counter', 'Failed PostgreSQL queries.', this.postgresErrors())
    metric('cotext_cluster_redis_errors_total', 'counter', 'Failed Redis commands.', this.redisErrors)
    metric('cotext_cluster_presence_expired_total', 'counter', 'Awareness states removed because their process stopped its heartbeat.', this.presenceExpired)
    metric('cotext_cluster_redis_resets_total', 'counter', 'Times Redis was found restarted or emptied and the rooms held here were appended again.', this.redisResets)
    return `${out.join('\n')}\n`
  }
}
