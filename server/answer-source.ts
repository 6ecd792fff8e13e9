import * as Y from 'yjs'
import type { Logger } from 'pino'
import type { AnswerEncoder, AnswerMirror } from './answer-encoder.ts'
import { encodeSyncStep2 } from './protocol.ts'
import { SyncAnswers, keyOf } from './sync-answers.ts'

/** An answer missing fewer clock ticks (characters, about bytes) than this is encoded on the event loop: it is quick. */
const INLINE_CLOCKS = 64 * 1024
/** Answers from the thread kept while the document is unchanged, as SyncAnswers keeps its own. */
const KEPT_ANSWERS = 2

/** An answer being encoded in the thread (answer null) or encoded, for one state vector, as of `version`. */
interface Job {
  version: number
  /** When it was asked for (performance.now()). */
  since: number
  answer: Uint8Array | null
  waiting: Array<(answer: Uint8Array) => void>
}

/**
 * Where a room's sync answers come from. A small document's answers are encoded on the event loop
 * and shared while it is unchanged (SyncAnswers). A large one (AnswerEncoder's `minBytes`) is
 * mirrored in the answer thread, and an answer that holds much of it is encoded there: its joiners
 * wait for it, other rooms do not.
 *
 * The mirror starts from bytes at hand, never from one large encoding on the event loop: a room
 * loaded from the store feeds it the stored updates as it applies them; a room that grows past the
 * size is measured (one encoding of a document of about that size) and starts it from that
 * encoding. Afterwards the room hands it every update it applies, in order, so an answer encoded
 * after a request holds everything the room held at the request. Answers from the thread are
 * shared among the joiners asking with the same state vector while the document is unchanged.
 */
export class AnswerSource {
  /** Answers encoded here, made by the first (an idle room is never asked). */
  private inline: SyncAnswers | null = null
  private mirror: AnswerMirror | null = null
  /** About the size of the document's encoding, or more: its size when last measured plus every update since. */
  private estimate = 0
  /** Counts the updates applied: an answer encoded at one version holds everything up to it. */
  private version = 0
  /** By state vector; made by the first answer from the thread (most rooms never have one). */
  private jobs: Map<string, Job> | null = null
  private disposed = false

  constructor(
    private readonly doc: Y.Doc,
    private readonly encoder: AnswerEncoder,
    /** The room's logger, made when first asked for. */
    private readonly logger: () => Logger,
  ) {}

  /**
   * The room is about to apply `stored`, its stored updates in order: a large document's mirror opens now, and is
   * given each of them as the room applies it (`loadedUpdate`), so that the thread applies them while the room
   * does (a cold room's joiners wait for both), a slice at a time.
   */
  loading(stored: readonly Uint8Array[]): void {
    for (const update of stored) this.estimate += update.length
    if (this.estimate >= this.encoder.minBytes) this.mirror = this.encoder.open([])
  }

  /** The room applied `update`, a stored update, after the ones before it (one that failed to apply is never given). */
  loadedUpdate(update: Uint8Array): void {
    this.mirror?.apply(update)
  }

  /** The room was loaded from `applied`: the stored updates that applied, in order, before any other. */
  loaded(applied: readonly Uint8Array[]): void {
    // The mirror holds exactly these; some may have been set aside (they failed to apply), so the size is theirs.
    this.estimate = 0
    for (const update of applied) this.estimate += update.length
  }

  /** The room applied `update` (any change but the load). */
  updated(update: Uint8Array): void {
    this.version += 1
    this.inline?.invalidate()
    if (this.jobs !== null) for (const [key, job] of this.jobs) if (job.answer !== null) this.jobs.delete(key)
    if (this.mirror !== null) return this.mirror.apply(update)
    this.estimate += update.length
    if (this.estimate < this.encoder.minBytes) return
    // Past the size by the updates since the last measure: measure. The encoding is of a document of
    // about that size (and never of more than the update just applied, which took as long to apply).
    const state = Y.encodeStateAsUpdate(this.doc)
    this.estimate = state.length
    if (state.length >= this.encoder.minBytes / 2) {
      this.mirror = this.encoder.open([state])
      if (this.mirror !== null) this.logger().debug({ bytes: state.length }, 'large document: its sync answers are encoded in the answer thread')
    }
  }

  /**
   * The sync step 2 message answering `stateVector`: at once when it is quick to encode, else once the
   * thread has encoded it (the promise never rejects: if the thread fails, it is encoded here).
   */
  answer(stateVector: Uint8Array): Uint8Array | Promise<Uint8Array> {
    const mirror = this.mirror
    if (mirror === null || missingClocks(this.doc, stateVector) < INLINE_CLOCKS) {
      return (this.inline ??= new SyncAnswers()).get(stateVector, () => encodeSyncStep2(this.doc, stateVector))
    }
    const key = keyOf(stateVector)
    const jobs = (this.jobs ??= new Map())
    const job = jobs.get(key)
    if (job !== undefined && job.version === this.version) {
      if (job.answer !== null) return job.answer
      return new Promise((resolve) => job.waiting.push(resolve))
    }
    const started: Job = { version: this.version, since: performance.now(), answer: null, waiting: [] }
    jobs.set(key, started)
    const answer = new Promise<Uint8Array>((resolve) => started.waiting.push(resolve))
    mirror.encode(stateVector).then(
      (encoded) => {
        this.logger().debug({ bytes: encoded.length, joiners: started.waiting.length, ms: Math.round(performance.now() - started.since) }, 'sync answer encoded in the answer thread')
        this.settle(key, started, encoded)
      },
      (error: Error) => {
        if (this.disposed) return
        this.logger().warn({ err: error }, 'the answer thread gave no answer; encoding it on the event loop')
        if (this.mirror === mirror) this.mirror = null
        mirror.close()
        this.settle(key, started, encodeSyncStep2(this.doc, stateVector))
      },
    )
    return answer
  }

  /** The room is unloaded: the mirror closes; joiners still waiting are gone with it. */
  dispose(): void {
    this.disposed = true
    this.mirror?.close()
    this.mirror = null
    this.jobs = null
  }

  private settle(key: string, job: Job, answer: Uint8Array): void {
    const jobs = this.jobs
    if (this.disposed || jobs === null) return
    // Kept for later joiners only while nothing has changed since it was asked for.
    if (jobs.get(key) === job) {
      if (job.version === this.version) job.answer = answer
      else jobs.delete(key)
    }
    let kept = 0
    for (const [other, { answer }] of [...jobs].reverse()) if (answer !== null && ++kept > KEPT_ANSWERS) jobs.delete(other)
    for (const resolve of job.waiting.splice(0)) resolve(answer)
  }
}

/** Clock ticks of the document that `stateVector` lacks (for an empty one: every character ever written). */
function missingClocks(doc: Y.Doc, stateVector: Uint8Array): number {
  const has = Y.decodeStateVector(stateVector)
  let missing = 0
  for (const client of doc.store.clients.keys()) missing += Math.max(0, Y.getState(doc.store, client) - (has.get(client) ?? 0))
  return missing
}
