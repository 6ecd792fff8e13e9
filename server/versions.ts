import * as Y from 'yjs'
import type { Logger } from 'pino'
import type { Author } from './authors-map.ts'
import { publicAuthor } from './authors-map.ts'
import type { RecordStore } from './records.ts'
import { timeKey } from './records.ts'

export type VersionReason = 'auto' | 'request' | 'before-restore' | 'before-revert'

/** What the REST API lists of a version. */
export interface VersionMeta {
  id: string
  time: number
  name: string
  reason: VersionReason
  /** Who edited the room between the previous version this process took and this one. */
  authors: Array<{ id: string; name: string; attested: boolean }>
  /** Bytes of the stored state. */
  bytes: number
}

export interface VersionSettings {
  /** A version is taken after this long without edits… */
  idleMs: number
  /** …and at least this often while edits go on. */
  maxEditingMs: number
  /** Automatic versions older than this are dropped (0: kept for ever); requested ones stay. */
  retentionMs: number
}

/**
 * The versions the server keeps of one room: the whole document state (Y.encodeStateAsUpdate,
 * so a version takes its encoded size plus a small JSON header) in the room's records, kind
 * `version-state`, with its metadata apart (kind `version`) so that listing reads no states.
 * Taken automatically (VersionSettings), on request, and before every restore and revert.
 */
export class VersionKeeper {
  private idleTimer: NodeJS.Timeout | null = null
  private editingSince: number | null = null
  private lastEdit = 0
  private readonly authors = new Map<string, Author>()
  private nextSeq = 0
  private closed = false

  constructor(
    private readonly room: string,
    private readonly doc: Y.Doc,
    private readonly records: RecordStore,
    private readonly settings: VersionSettings,
    private readonly processTag: string,
    private readonly logger: Logger,
  ) {}

  /** An edit by `author` was applied: arms the idle timer, and takes a version when edits have gone on for maxEditingMs. */
  noteEdit(author: Author, now = Date.now()): void {
    if (this.closed) return
    this.authors.set(author.id, author)
    this.editingSince ??= now
    if (now - this.editingSince >= this.settings.maxEditingMs) {
      void this.takeLogged('auto')
      return
    }
    this.lastEdit = now
    // One timer for a burst of edits: when it fires early it waits out the rest of the pause.
    if (this.idleTimer === null) this.armIdle(this.settings.idleMs)
  }

  private armIdle(ms: number): void {
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null
      const idle = Date.now() - this.lastEdit
      if (idle >= this.settings.idleMs) void this.takeLogged('auto')
      else this.armIdle(this.settings.idleMs - idle)
    }, ms)
    this.idleTimer.unref()
  }

  /** Stores the document's state now as a version; resolves with its metadata once stored. */
  async take(reason: VersionReason, name?: string, now = Date.now()): Promise<VersionMeta> {
    const state = collectedState(this.doc)
    const meta: VersionMeta = {
      id: timeKey(now, `${this.processTag}-${this.nextSeq++}`),
      time: now,
      name: name ?? defaultName(reason, now),
      reason,
      authors: [...this.authors.values()].map(publicAuthor),
      bytes: state.length,
    }
    this.authors.clear()
    this.editingSince = null
    if (this.idleTimer !== null) clearTimeout(this.idleTimer)
    this.idleTimer = null
    await this.records.put(this.room, 'version-state', [{ key: meta.id, value: state }])
    await this.records.put(this.room, 'version', [{ key: meta.id, value: new TextEncoder().encode(JSON.stringify(meta)) }])
    if (reason === 'auto') await this.prune(now)
    return meta
  }

  /** Every version of the room (every process's), oldest first. */
  async list(): Promise<VersionMeta[]> {
    const stored = await this.records.list(this.room, 'version')
    return stored.flatMap(({ value }) => {
      const meta = decodeMeta(value)
      return meta === null ? [] : [meta]
    })
  }

  /** A version's metadata and stored state, or null. */
  async get(id: string): Promise<{ meta: VersionMeta; state: Uint8Array } | null> {
    const [metaBytes, state] = await Promise.all([this.records.get(this.room, 'version', id), this.records.get(this.room, 'version-state', id)])
    const meta = metaBytes === null ? null : decodeMeta(metaBytes)
    return meta === null || state === null ? null : { meta, state }
  }

  /** Stops the timers; takes the version an edit is waiting for (the room is unloading). */
  async close(): Promise<void> {
    if (this.closed) return
    const pending = this.editingSince !== null
    if (this.idleTimer !== null) clearTimeout(this.idleTimer)
    this.idleTimer = null
    const taking = pending ? this.takeLogged('auto') : Promise.resolve()
    this.closed = true
    await taking
  }

  private async takeLogged(reason: VersionReason): Promise<void> {
    try {
      const meta = await this.take(reason)
      this.logger.debug({ version: meta.id, bytes: meta.bytes }, 'version taken')
    } catch (error) {
      this.logger.error({ err: error }, 'taking a version failed')
    }
  }

  private async prune(now: number): Promise<void> {
    if (this.settings.retentionMs === 0) return
    const old = (await this.list()).filter((meta) => meta.reason === 'auto' && meta.time < now - this.settings.retentionMs).map((meta) => meta.id)
    if (old.length === 0) return
    await this.records.delete(this.room, 'version-state', old)
    await this.records.delete(this.room, 'version', old)
  }
}

function defaultName(reason: VersionReason, now: number): string {
  const when = new Date(now).toISOString()
  return reason === 'auto' ? when : `${reason} ${when}`
}

function decodeMeta(value: Uint8Array): VersionMeta | null {
  try {
    const meta = JSON.parse(new TextDecoder().decode(value)) as VersionMeta
    return typeof meta.id === 'string' && typeof meta.time === 'number' ? meta : null
  } catch {
    return null
  }
}

/**
 * The document's state without the content of deleted items: the room's document keeps it for
 * reverts, a version need not (its ids stay, so a diff against it still finds what changed).
 */
function collectedState(doc: Y.Doc): Uint8Array {
  const copy = new Y.Doc()
  try {
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc))
    return Y.encodeStateAsUpdate(copy)
  } finally {
    copy.destroy()
  }
}

/** The text of `textName` in a stored state. */
export function textOfState(state: Uint8Array, textName: string): string {
  const doc = new Y.Doc()
  try {
    Y.applyUpdate(doc, state)
    return doc.getText(textName).toString()
  } finally {
    doc.destroy()
  }
}
