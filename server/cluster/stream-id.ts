/**
 * Redis stream entry ids, `<milliseconds>-<sequence>`. They order a room's entries; PostgreSQL
 * stores the id of the last entry a snapshot includes, and readers resume after an id.
 */

/** The id before every entry: a room with no stored position reads its stream from here. */
export const STREAM_START = '0-0'

function parts(id: string): [bigint, bigint] {
  const match = /^(\d+)-(\d+)$/.exec(id)
  if (match === null) throw new Error(`not a stream entry id: ${JSON.stringify(id)}`)
  return [BigInt(match[1]!), BigInt(match[2]!)]
}

/** Negative, zero or positive as `a` comes before, equals or follows `b`. */
export function compareStreamIds(a: string, b: string): number {
  const [aMs, aSeq] = parts(a)
  const [bMs, bSeq] = parts(b)
  if (aMs !== bMs) return aMs < bMs ? -1 : 1
  return aSeq === bSeq ? 0 : aSeq < bSeq ? -1 : 1
}

/** When the entry was added, by the Redis server's clock. */
export function streamIdTime(id: string): number {
  return Number(parts(id)[0])
}

/** The smallest id `marginMs` older than `id` (for trimming with a margin), never below the start. */
export function streamIdBefore(id: string, marginMs: number): string {
  const ms = parts(id)[0] - BigInt(marginMs)
  return ms > 0n ? `${ms}-0` : STREAM_START
}
