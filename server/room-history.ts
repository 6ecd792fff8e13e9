import * as Y from 'yjs'
import type { Logger } from 'pino'
import { bindClients, checkUpdate, registerServerClient } from './attestation.ts'
import type { Author } from './authors-map.ts'
import { SERVER_AUTHOR, authorsMap, boundAuthor } from './authors-map.ts'
import { authorshipRuns } from './authorship.ts'
import type { AuthorshipRun } from './authorship.ts'
import { ChangeJournal } from './change-journal.ts'
import type { ChangeEntry, ChangeQuery } from './change-journal.ts'
import { CloseCode } from './close-codes.ts'
import { Connection } from './connection.ts'
import type { RecordStore } from './records.ts'
import { applyEdits, idSet, overlaps, planRestore, planRevert } from './revert.ts'
import type { IdSet } from './revert.ts'
import { changedClients } from './transaction-update.ts'
import { VersionKeeper, textOfState } from './versions.ts'
import type { VersionMeta, VersionSettings } from './versions.ts'

/** What every room's history needs (one object for the whole server). */
export interface HistorySettings {
  records: RecordStore
  /** AUTH_SECRET is set: a token's `sub` is an attested author, and client ids bind to it. */
  attest: boolean
  /** The Y.Text the REST API reads and writes; the page edits `doc.getText('text')`. */
  textName: string
  versions: VersionSettings
  /** More ranges than this in a revert's window: refused as too large (413). */
  maxRevertRanges: number
  /** Tells this process's record keys and connection authors from other processes'. */
  processTag: string
  /** Deleted text whose deletion is older than this is collected when the room loads: it can no longer be reverted. */
  revertWindowMs: number
}

/** The origin of the server's own edits for a requester (restore, revert): the change log names the requester. */
export class RequestOrigin {
  constructor(readonly author: Author) {}
}

/** The origin of the server's writes to the authors map: not a change of the text. */
const BINDING_ORIGIN = Symbol('cotext-binding')

/** A revert whose window holds more than `maxRevertRanges` ranges. */
export class RevertTooLarge extends Error {
  override name = 'RevertTooLarge'
}

export interface EditResult {
  /** The version taken just before the edit. */
  version: string
  /** UTF-16 code units deleted and inserted. */
  deleted: number
  inserted: number
  /** Deleted characters of the window whose content was collected: not brought back. */
  unrevertable: number
}

/**
 * One room's attested authorship, change log and versions. The room asks `admit` before it
 * applies a client's update (the attestation check and the bindings it makes), and calls
 * `start` once loaded and `close` before it lets go of its document; the REST API reads and
 * edits through the rest.
 */
export class RoomHistory {
  /** Made when first needed (a change recorded, the log read): an idle room keeps none (see journal). */
  private changeLog: ChangeJournal | null = null
  /** Made when first needed (an edit, a version asked for): an idle room keeps none (see versions). */
  private keeper: VersionKeeper | null = null
  /** Updates refused so far, for tests and logs. */
  refused = 0
  // Made by the first write: an idle room holds neither (an empty Map or WeakMap still holds a table).
  private authors: WeakMap<Connection, Author> | null = null
  /**
   * Unattested authors (no AUTH_SECRET, or a token without `sub`) of client ids nobody bound, by
   * the first connection that wrote with them: kept in memory only, so that an open server stores
   * no more than before; the authors map holds attested bindings.
   */
  private unattested: Map<number, Author> | null = null
  private started = false
  /** While loading: the ids the change log saw deleted within the revert window, whose content stays. */
  private keptAtLoad: IdSet | null = null

  constructor(
    private readonly room: string,
    private readonly doc: Y.Doc,
    private readonly settings: HistorySettings,
    /** The room's logger, made when first asked for. */
    private readonly logger: () => Logger,
  ) {}

  /** The room's change log as this process records it (made by the first use). */
  get journal(): ChangeJournal {
    return (this.changeLog ??= new ChangeJournal(this.room, this.settings.records, this.settings.processTag, this.logger()))
  }

  /** The room's versions (made by the first use: a room nobody edits and nobody asks about keeps no keeper). */
  get versions(): VersionKeeper {
    return (this.keeper ??= new VersionKeeper(this.room, this.doc, this.settings.records, this.settings.versions, this.settings.processTag, this.logger()))
  }

  get textName(): string {
    return this.settings.textName
  }

  /** The Y.Text the API works on. */
  get text(): Y.Text {
    return this.doc.getText(this.settings.textName)
  }

  /**
   * Before the stored state is applied: reads which deletions the change log recorded within the
   * revert window, so that loading keeps their content and collects the rest. A change log that
   * cannot be read keeps everything.
   */
  async prepareLoad(now = Date.now()): Promise<void> {
    try {
      const entries = await this.journal.query({ since: now - this.settings.revertWindowMs })
      this.keptAtLoad = idSet(entries.flatMap((entry) => entry.deleted))
    } catch (error) {
      this.logger().warn({ err: error }, 'reading the change log failed; keeping every deleted text of the room')
      this.keptAtLoad = null
    }
  }

  /**
   * Whether the content of `item`, deleted just now, stays (Y.Doc's gcFilter): always for a
   * deletion while the room is loaded; while loading, only for deletions within the revert window.
   */
  keepsDeleted(item: Y.Item): boolean {
    if (this.started || this.keptAtLoad === null) return true
    return overlaps(this.keptAtLoad, item.id.client, item.id.clock, item.length).length > 0
  }

  /** Starts recording changes: after the stored state is loaded, which is no change. */
  start(): void {
    if (this.started) return
    this.started = true
    this.keptAtLoad = null
    this.doc.on('afterTransaction', this.onTransaction)
  }

  /**
   * Whether the room may apply `update` from `connection`. Refused (false): the connection is
   * closed with 4403 and the refusal logged; nothing of the update is applied, stored or relayed.
   * Admitted: the client ids it first inserts under are bound to the connection's author. Throws
   * (as applying would) on a malformed update.
   */
  admit(connection: Connection, update: Uint8Array): boolean {
    // Nothing to check in an update that holds nothing: what a client with an empty document answers
    // the server's sync step 1 with (checking it would make the room's authors map for no write).
    if (isEmptyUpdate(update)) return true
    const author = this.authorOf(connection)
    const verdict = checkUpdate(this.doc, update, author)
    if (!verdict.ok) {
      this.refused += 1
      this.logger().warn({ conn: connection.id, code: CloseCode.forbidden, author: author.id, attested: author.attested, reason: verdict.reason }, 'closing connection: refused an update (attested authorship)')
      connection.close(CloseCode.forbidden, 'update refused: not your client id')
      return false
    }
    if (verdict.bind.length > 0 && !author.attested) {
      this.unattested ??= new Map()
      for (const client of verdict.bind) if (!this.unattested.has(client)) this.unattested.set(client, author)
    } else if (verdict.bind.length > 0) {
      this.doc.transact(() => {
        registerServerClient(this.doc, SERVER_AUTHOR)
        bindClients(this.doc, verdict.bind, author, BINDING_ORIGIN)
      }, BINDING_ORIGIN)
    }
    return true
  }

  /** Who `connection` writes as: its token's subject when attested, else the connection itself. */
  authorOf(connection: Connection): Author {
    this.authors ??= new WeakMap()
    let author = this.authors.get(connection)
    if (author === undefined) {
      author =
        this.settings.attest && connection.subject !== null
          ? { id: connection.subject, name: connection.name ?? connection.subject, attested: true }
          : { id: `connection:${this.settings.processTag}-${connection.id}`, name: `connection ${connection.id}`, attested: false }
      this.authors.set(connection, author)
    }
    return author
  }

  authorship(): AuthorshipRun[] {
    const map = authorsMap(this.doc)
    return authorshipRuns(this.text, (client) => boundAuthor(map, client) ?? this.unattested?.get(client))
  }

  changes(query: ChangeQuery): Promise<ChangeEntry[]> {
    return this.journal.query(query)
  }

  takeVersion(name: string | undefined): Promise<VersionMeta> {
    return this.versions.take('request', name)
  }

  /** Makes the text the version's, as one change by `requester`; null for an unknown version. */
  async restore(id: string, requester: Author): Promise<EditResult | null> {
    const version = await this.versions.get(id)
    if (version === null) return null
    const before = await this.versions.take('before-restore')
    // Computed after the awaits: the text may have changed meanwhile.
    const edits = planRestore(this.text.toString(), textOfState(version.state, this.settings.textName))
    this.edit(edits, requester)
    return { version: before.id, deleted: sum(edits.deletes.map((d) => d.length)), inserted: sum(edits.inserts.map((i) => i.text.length)), unrevertable: 0 }
  }

  /** Reverts the changes of `query.by` in the window, as one change by `requester`. */
  async revert(query: ChangeQuery, requester: Author): Promise<EditResult> {
    const entries = await this.journal.query(query)
    const ranges = sum(entries.map((entry) => entry.inserted.length + entry.deleted.length))
    if (ranges > this.settings.maxRevertRanges) throw new RevertTooLarge(`the window holds ${ranges} changed ranges; at most ${this.settings.maxRevertRanges} can be reverted at once: narrow it with since and until`)
    const before = await this.versions.take('before-revert')
    const edits = planRevert(
      this.text,
      entries.flatMap((entry) => entry.inserted),
      entries.flatMap((entry) => entry.deleted),
    )
    this.edit(edits, requester)
    return { version: before.id, deleted: sum(edits.deletes.map((d) => d.length)), inserted: sum(edits.inserts.map((i) => i.text.length)), unrevertable: edits.unrevertable }
  }

  /** Stops recording; stores the change log and the version an edit is waiting for. Before the room lets go of its document. */
  async close(): Promise<void> {
    this.doc.off('afterTransaction', this.onTransaction)
    await Promise.all([this.changeLog?.close(), this.keeper?.close()])
  }

  private edit(edits: Parameters<typeof applyEdits>[1], requester: Author): void {
    if (edits.deletes.length === 0 && edits.inserts.length === 0) return
    applyEdits(this.text, edits, new RequestOrigin(requester), () => registerServerClient(this.doc, SERVER_AUTHOR))
  }

  private readonly onTransaction = (transaction: Y.Transaction): void => {
    const origin = transaction.origin
    // A transaction that changed nothing (a new client's empty sync step 2) makes no author for its connection.
    if (transaction.deleteSet.clients.size === 0 && changedClients(transaction).length === 0) return
    const author = origin instanceof Connection ? this.authorOf(origin) : origin instanceof RequestOrigin ? origin.author : null
    if (author === null) return
    if (this.journal.record(author, transaction) !== null && origin instanceof Connection) this.versions.noteEdit(author)
  }
}

/** Whether `update` (v1) is the empty update: no structs, no deletions. */
function isEmptyUpdate(update: Uint8Array): boolean {
  return update.length === 2 && update[0] === 0 && update[1] === 0
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0)
}
