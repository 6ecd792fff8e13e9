/**
 * A room's records beside its log of updates: the versions the server keeps of it and its change
 * log. Every store has one (LevelDB: keys outside y-leveldb's ranges; PostgreSQL, cluster mode
 * included: the table `cotext_records`), so they live wherever the room lives.
 *
 * A record is named by its room, its kind and a key; keys order as strings, so a key that starts
 * with a zero-padded time (timeKey) lists in time order.
 */

export type RecordKind = 'version' | 'version-state' | 'change'

export interface StoredRecord {
  key: string
  value: Uint8Array
}

/** Bounds on the keys a listing returns: `gte` <= key < `lt`. */
export interface KeyRange {
  gte?: string
  lt?: string
}

export interface RecordStore {
  /** Writes (or overwrites) every record, all at once. */
  put(room: string, kind: RecordKind, records: readonly StoredRecord[]): Promise<void>
  /** The room's records of `kind` within `range`, by key. */
  list(room: string, kind: RecordKind, range?: KeyRange): Promise<StoredRecord[]>
  /** One record, or null. */
  get(room: string, kind: RecordKind, key: string): Promise<Uint8Array | null>
  delete(room: string, kind: RecordKind, keys: readonly string[]): Promise<void>
}

/** Digits of a millisecond time in a key: enough until the year 5138. */
const TIME_DIGITS = 14

/** `time` zero-padded, so that keys order by time; `suffix` makes the key unique. */
export function timeKey(time: number, suffix: string): string {
  return `${String(Math.max(0, Math.floor(time))).padStart(TIME_DIGITS, '0')}-${suffix}`
}

/** The smallest key of any record made at `time` or later. */
export function timeKeyBound(time: number): string {
  return String(Math.max(0, Math.floor(time))).padStart(TIME_DIGITS, '0')
}
