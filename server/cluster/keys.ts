/** Every Redis key cluster mode uses, in one place, under the `cotext:` prefix. */

/** The stream of a room's accepted updates and awareness changes. */
export function roomStreamKey(room: string): string {
  return `cotext:room:${room}`
}

/** Held by the process compacting a room, with an expiry so that a dead holder frees it. */
export function compactionLeaseKey(room: string): string {
  return `cotext:lease:${room}`
}

/** Exists while the process is alive; it refreshes it well before it expires. */
export function heartbeatKey(processId: string): string {
  return `cotext:alive:${processId}`
}

/** A stream only its own process reads, written to wake that process's blocking read. */
export function wakeStreamKey(processId: string): string {
  return `cotext:wake:${processId}`
}

/** A random value the first process sets; gone when Redis lost its data (see RedisEpoch). */
export function epochKey(): string {
  return 'cotext:epoch'
}
