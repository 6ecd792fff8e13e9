import * as Y from 'yjs'
import type { Awareness } from 'y-protocols/awareness'
import type { ChangeSet } from '../buffer/change-set.ts'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import { Emitter } from '../events/emitter.ts'
import type { Disposable } from '../events/disposable.ts'
import { Range } from '../point/range.ts'
import { AuthorshipIndex } from './authorship-index.ts'
import { Authors, type ChangeAuthor } from './authors.ts'
import { ChangeLog, DEFAULT_REVERT_WINDOW, type ChangeEntry, type ChangeQuery, type RevertWindow } from './change-log.ts'
import { Reverts } from './revert.ts'
import { type ClientRun, clientRunsFrom, diffSince, visibleClientRuns } from '../buffer/yjs-internals.ts'

/**
 * A stretch of the text written by one author: `from`/`to` are UTF-16 offsets; `range` (buffer
 * coordinates) is computed when first read, so a query over the whole text costs no conversions.
 */
export class AuthorshipRun {
  private cachedRange: Range | null = null

  constructor(
    private readonly buffer: TextBuffer,
    readonly from: number,
    readonly to: number,
    readonly author: ChangeAuthor,
  ) {}

  /** The run in buffer coordinates. */
  get range(): Range {
    this.cachedRange ??= new Range(this.buffer.positionForCharacterIndex(this.from), this.buffer.positionForCharacterIndex(this.to))
    return this.cachedRange
  }

  toJSON(): { from: number; to: number; author: ChangeAuthor } {
    return { from: this.from, to: this.to, author: this.author }
  }
}

/** What changed since an earlier state: inserted text as ranges of the current text, deleted text where it was. */
export interface TextDiff {
  readonly inserted: { range: Range; from: number; to: number; author: ChangeAuthor }[]
  readonly deleted: { position: Range['start']; at: number; text: string; author: ChangeAuthor }[]
}

export interface AuthorshipHost {
  readonly buffer: TextBuffer
  readonly awareness: Awareness | null
  /** Runs `fn` as one editor operation. */
  run<T>(fn: () => T): T
  restoreSelections(selections: { anchor: number; head: number }[]): void
  revertWindow?: Partial<RevertWindow>
}

/**
 * Who wrote what and undo by choice, for one editor: the change log, the authorship index (mapped
 * through every change set), selective revert and undo/redo of everyone's changes, and diffs against an
 * earlier state. Made by the editor when first asked for; it then follows every transaction.
 */
export class Authorship {
  readonly log: ChangeLog
  private readonly authors: Authors
  private readonly index: AuthorshipIndex
  private readonly reverts: Reverts
  private readonly source: Disposable
  private readonly emitter = new Emitter<{ 'did-change-authors': undefined }>()
  private readonly authorsHook: Disposable

  constructor(private readonly host: AuthorshipHost) {
    const { buffer } = host
    this.authors = new Authors(buffer.doc, host.awareness)
    this.log = new ChangeLog(buffer.ytext, this.authors, { ...DEFAULT_REVERT_WINDOW, ...host.revertWindow })
    this.index = new AuthorshipIndex(visibleClientRuns(buffer.ytext))
    this.reverts = new Reverts({
      ytext: buffer.ytext,
      log: this.log,
      run: (fn) => host.run(fn),
      restoreSelections: (selections) => host.restoreSelections(selections),
    })
    this.authorsHook = this.authors.onDidChange(() => this.emitter.emit('did-change-authors', undefined))
    this.source = buffer.onDidChangeText((change) => this.follow(change))
  }

  private destroyed = false

  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.source.dispose()
    this.reverts.destroy()
    this.authorsHook.dispose()
    this.authors.destroy()
    this.log.destroy()
    this.emitter.dispose()
  }

  getChanges(query: ChangeQuery = {}): ChangeEntry[] {
    return this.log.query(query)
  }

  onDidAddChange(callback: (entry: ChangeEntry) => void): Disposable {
    return this.log.onDidAddChange(callback)
  }

  /** Fires when the server's bindings or a client's awareness user changed (authors may read differently). */
  onDidChangeAuthors(callback: () => void): Disposable {
    return this.emitter.on('did-change-authors', callback)
  }

  /** Runs of one author over [from, to); neighbouring runs of one attested user are one run. */
  authorship(from: number, to: number): AuthorshipRun[] {
    const buffer = this.host.buffer
    const authors = this.authors
    const runs: AuthorshipRun[] = []
    let runFrom = 0
    let runTo = 0
    let runAuthor: ChangeAuthor | null = null
    this.index.forEachSpan(from, to, (spanFrom, spanTo, client) => {
      const author = authors.author(client)
      if (runAuthor !== null && sameUser(runAuthor, author)) {
        runTo = spanTo
        return
      }
      if (runAuthor !== null) runs.push(new AuthorshipRun(buffer, runFrom, runTo, runAuthor))
      runFrom = spanFrom
      runTo = spanTo
      runAuthor = author
    })
    if (runAuthor !== null) runs.push(new AuthorshipRun(buffer, runFrom, runTo, runAuthor))
    return runs
  }

  /** The logged change that inserted the character at `offset`, or null (written before this editor's log began). */
  changeThatInserted(offset: number): ChangeEntry | null {
    if (offset < 0 || offset >= this.host.buffer.getLength()) return null
    const id = this.host.buffer.relativePositionForOffset(offset, 0).item
    return id === null ? null : this.log.insertedBy(id.client, id.clock)
  }

  /** Number of runs the index holds (for tests and the benchmark). */
  get runCount(): number {
    return this.index.runCount
  }

  revertChange(idOrChange: string | ChangeEntry): ChangeEntry | null {
    return this.reverts.revertChange(idOrChange)
  }

  revertChanges(query: ChangeQuery & { author: number | string }): ChangeEntry | null {
    return this.reverts.revertChanges(query)
  }

  undoEveryone(): boolean {
    return this.reverts.undoEveryone()
  }

  redoEveryone(): boolean {
    return this.reverts.redoEveryone()
  }

  /** What changed since `state` (a `Y.encodeStateAsUpdate` of this document earlier). */
  diffFrom(state: Uint8Array): TextDiff {
    if (!(state instanceof Uint8Array)) throw new TypeError('diffFrom needs a Uint8Array (Y.encodeStateAsUpdate of an earlier state)')
    const old = new Y.Doc({ gc: false })
    try {
      Y.applyUpdate(old, state)
    } catch (error) {
      throw new TypeError(`diffFrom: state is not a Yjs update (${(error as Error).message})`)
    }
    const buffer = this.host.buffer
    const diff = diffSince(buffer.ytext, old)
    old.destroy()
    return {
      inserted: diff.inserted.map(({ from, to, client }) => ({
        range: new Range(buffer.positionForCharacterIndex(from), buffer.positionForCharacterIndex(to)),
        from,
        to,
        author: this.authors.author(client),
      })),
      deleted: diff.deleted.map(({ at, text, client }) => ({ position: buffer.positionForCharacterIndex(at), at, text, author: this.authors.author(client) })),
    }
  }

  /** Every change set: into the log, through the authorship index, and past the reverts' bookkeeping. */
  private follow(change: ChangeSet): void {
    this.mapIndex(change)
    this.log.add(change, this.reverts.isRevert(change))
    this.reverts.noteChange(change)
  }

  private mapIndex(change: ChangeSet): void {
    const buffer = this.host.buffer
    const index = this.index
    let insertedChars = 0
    change.iterChanges((_fromA, _toA, fromB, toB) => (insertedChars += toB - fromB))
    const ids = change.insertedIds
    // Usually one client inserted all the new text: no need to ask Yjs whose each character is.
    let single: number | null = ids.length > 0 ? ids[0]!.client : null
    let idChars = 0
    for (const range of ids) {
      if (range.client !== single) single = null
      idChars += range.length
    }
    const oneClient = single !== null && idChars === insertedChars
    change.iterChanges((fromA, toA, fromB, toB) => {
      if (toA > fromA) index.delete(fromB, toA - fromA)
      if (toB <= fromB) return
      let runs: ClientRun[]
      if (oneClient) {
        runs = [{ client: single!, length: toB - fromB }]
      } else {
        const id = buffer.relativePositionForOffset(fromB, 0).item
        runs = id === null ? [] : clientRunsFrom(buffer.ytext, id, toB - fromB)
      }
      index.insert(fromB, runs)
    })
    if (index.length !== buffer.getLength()) index.reset(visibleClientRuns(buffer.ytext))
  }
}

function sameUser(a: ChangeAuthor, b: ChangeAuthor): boolean {
  if (a.clientID === b.clientID) return true
  return a.attested && b.attested && a.user !== null && b.user !== null && a.user.id === b.user.id
}
