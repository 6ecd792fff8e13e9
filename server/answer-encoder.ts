import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { Logger } from 'pino'
import type { FromAnswerWorker, ToAnswerWorker } from './answer-worker.ts'

/** Documents of this many bytes or more get a mirror in the answer thread by default; see AnswerEncoder. */
export const DEFAULT_ANSWER_WORKER_BYTES = 1024 * 1024

export interface AnswerEncoderOptions {
  /** A room's document of this size or more is mirrored in the answer thread (0: never, every answer is encoded on the event loop). */
  minBytes: number
  logger: Logger
}

type Waiting = { resolve: (answer: Uint8Array) => void; reject: (error: Error) => void }

/**
 * The server's answer thread (answer-worker.ts, a node:worker_threads Worker), started when the first
 * large room opens a mirror in it and stopped when the last one closes. One thread for every room: it
 * takes the seconds of encoding that a join storm on a large document costs off the event loop, and
 * the process's second core can do them. If the thread fails, every mirror fails with it (their rooms
 * encode on the event loop again, as without it) and no new one is opened; the failure is logged.
 */
export class AnswerEncoder {
  private worker: Worker | null = null
  /** Set when the thread failed or the server closes: no thread is started again. */
  private off = false
  private mirrors = 0
  private nextMirror = 1
  private nextJob = 1
  private readonly jobs = new Map<number, Waiting>()

  constructor(private readonly options: AnswerEncoderOptions) {}

  /** Size from which a room's document is mirrored; Infinity when the thread is off or has failed. */
  get minBytes(): number {
    return this.options.minBytes === 0 || this.off ? Number.POSITIVE_INFINITY : this.options.minBytes
  }

  /** A mirror of a document whose state is the merge of `seed` (applied in order), or null when there is no thread. */
  open(seed: readonly Uint8Array[]): AnswerMirror | null {
    const worker = this.start()
    if (worker === null) return null
    const mirror = new AnswerMirror(this, this.nextMirror++)
    this.mirrors += 1
    this.post({ kind: 'open', mirror: mirror.id })
    for (const update of seed) this.post({ kind: 'apply', mirror: mirror.id, update: own(update) })
    return mirror
  }

  /** Stops the thread (the server is closing); answers still being encoded are refused. */
  async close(): Promise<void> {
    const worker = this.worker
    this.worker = null
    this.off = true
    this.refuseAll('the server is closing')
    if (worker !== null) await worker.terminate()
  }

  /** @internal Posts `message` to the thread, if it runs. */
  post(message: ToAnswerWorker): void {
    this.worker?.postMessage(message)
  }

  /** @internal The answer of mirror `id` for `stateVector`, encoded in the thread. */
  encode(id: number, stateVector: Uint8Array): Promise<Uint8Array> {
    if (this.worker === null) return Promise.reject(new Error('the answer thread is not running'))
    const job = this.nextJob++
    return new Promise((resolve, reject) => {
      this.jobs.set(job, { resolve, reject })
      this.post({ kind: 'encode', mirror: id, job, stateVector })
    })
  }

  /** @internal Mirror `id` is closed; the thread stops with the last one (once its answers are out). */
  closed(id: number): void {
    this.post({ kind: 'close', mirror: id })
    this.mirrors -= 1
    this.stopIfIdle()
  }

  private start(): Worker | null {
    if (this.minBytes === Number.POSITIVE_INFINITY) return null
    if (this.worker !== null) return this.worker
    const worker = import.meta.url.endsWith('.ts') ? fromSources() : new Worker(new URL('./answer-worker.js', import.meta.url))
    // It must not keep a server that is otherwise done alive.
    worker.unref()
    worker.on('message', (message: FromAnswerWorker) => {
      const waiting = this.jobs.get(message.job)
      if (waiting === undefined) return
      this.jobs.delete(message.job)
      if ('answer' in message) waiting.resolve(message.answer)
      else waiting.reject(new Error(message.error))
      this.stopIfIdle()
    })
    worker.on('error', (error) => this.fail(worker, error))
    worker.on('exit', (code) => {
      if (this.worker === worker) this.fail(worker, new Error(`the answer thread exited with code ${code}`))
    })
    this.worker = worker
    return worker
  }

  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return
    this.worker = null
    this.off = true
    this.options.logger.error({ err: error }, 'the answer thread failed; large sync answers are encoded on the event loop from now on')
    this.refuseAll(error.message)
    void worker.terminate()
  }

  private refuseAll(reason: string): void {
    for (const waiting of this.jobs.values()) waiting.reject(new Error(reason))
    this.jobs.clear()
  }

  private stopIfIdle(): void {
    if (this.mirrors > 0 || this.jobs.size > 0 || this.worker === null) return
    const worker = this.worker
    this.worker = null
    void worker.terminate()
  }
}

/** A room's document mirrored in the answer thread: fed every update the room applies, asked for answers. */
export class AnswerMirror {
  private open = true

  constructor(
    private readonly encoder: AnswerEncoder,
    readonly id: number,
  ) {}

  /** The room applied `update` (after everything applied before it). */
  apply(update: Uint8Array): void {
    if (this.open) this.encoder.post({ kind: 'apply', mirror: this.id, update: own(update) })
  }

  /** The sync step 2 message answering `stateVector`, as of every update applied so far; rejects if the thread fails. */
  encode(stateVector: Uint8Array): Promise<Uint8Array> {
    if (!this.open) return Promise.reject(new Error('the mirror is closed'))
    return this.encoder.encode(this.id, stateVector)
  }

  close(): void {
    if (!this.open) return
    this.open = false
    this.encoder.closed(this.id)
  }
}

/**
 * The thread run from the sources (under tsx, as the tests and benchmarks run the server): a thread does
 * not inherit tsx's loader, so it registers tsx before it imports answer-worker.ts.
 */
function fromSources(): Worker {
  const tsx = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'))).href
  const entry = new URL('./answer-worker.ts', import.meta.url).href
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}) })`, { eval: true })
}

/** `update` on a buffer of its own: posting a view clones the whole buffer under it (a pooled Buffer's slab, or a larger read). */
function own(update: Uint8Array): Uint8Array {
  return update.byteOffset === 0 && update.byteLength === update.buffer.byteLength ? update : update.slice()
}
