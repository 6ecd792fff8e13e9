/**
 * The thread that encodes large sync answers (answer-encoder.ts starts it). It holds a mirror of each
 * large room's document, fed the same updates in the same order as the room's own, and encodes an
 * answer from it when asked, so that the event loop of the server never spends the second a 20 MB
 * document takes to encode. Messages are handled in the order they were posted: an answer holds every
 * update posted before it was asked for.
 */
import { parentPort } from 'node:worker_threads'
import * as Y from 'yjs'
import * as encoding from 'lib0/encoding'

/** What the server posts: a mirror opened, fed, asked for an answer, closed. */
export type ToAnswerWorker =
  | { kind: 'open'; mirror: number }
  | { kind: 'apply'; mirror: number; update: Uint8Array }
  | { kind: 'encode'; mirror: number; job: number; stateVector: Uint8Array }
  | { kind: 'close'; mirror: number }

/** What it posts back for each `encode`: the sync step 2 message, or why there is none. */
export type FromAnswerWorker = { job: number; answer: Uint8Array } | { job: number; error: string }

/** y-websocket's message type of a sync message and y-protocols' type of a sync step 2. */
const MESSAGE_SYNC = 0
const SYNC_STEP_2 = 1

/** A document that failed to take an update: its answers would be wrong, so it gives none. */
type Mirror = { doc: Y.Doc; failure: string | null }

const mirrors = new Map<number, Mirror>()

function handle(message: ToAnswerWorker): void {
  switch (message.kind) {
    case 'open':
      // Deleted text is kept: the room keeps what its history needs (revert, versions), and a joiner
      // answered from here must be able to restore it as one answered by the room itself can.
      mirrors.set(message.mirror, { doc: new Y.Doc({ gc: false }), failure: null })
      break
    case 'apply': {
      const mirror = mirrors.get(message.mirror)
      if (mirror === undefined || mirror.failure !== null) break
      try {
        Y.applyUpdate(mirror.doc, message.update)
      } catch (error) {
        mirror.failure = `${(error as Error).name}: ${(error as Error).message}`
        mirror.doc.destroy()
      }
      break
    }
    case 'encode': {
      const mirror = mirrors.get(message.mirror)
      if (mirror === undefined || mirror.failure !== null) {
        parentPort!.postMessage({ job: message.job, error: mirror?.failure ?? 'no such mirror' } satisfies FromAnswerWorker)
        break
      }
      let answer: Uint8Array
      try {
        const encoder = encoding.createEncoder()
        encoding.writeVarUint(encoder, MESSAGE_SYNC)
        encoding.writeVarUint(encoder, SYNC_STEP_2)
        encoding.writeVarUint8Array(encoder, Y.encodeStateAsUpdate(mirror.doc, message.stateVector))
        answer = encoding.toUint8Array(encoder)
      } catch (error) {
        parentPort!.postMessage({ job: message.job, error: `${(error as Error).name}: ${(error as Error).message}` } satisfies FromAnswerWorker)
        break
      }
      // Handed over, not copied: the answer is a buffer of its own.
      parentPort!.postMessage({ job: message.job, answer } satisfies FromAnswerWorker, [answer.buffer as ArrayBuffer])
      break
    }
    case 'close':
      mirrors.get(message.mirror)?.doc.destroy()
      mirrors.delete(message.mirror)
      break
  }
}

parentPort?.on('message', handle)
