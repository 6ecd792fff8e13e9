/**
 * Sync answers of a room, encoded once and shared. When many clients join a large document at once
 * (a join storm), most ask with the same state vector (an empty one: they have nothing yet), and
 * encoding the whole document for each of them is what blocked the event loop for seconds and
 * multiplied memory. An answer is kept until the document changes, for at most MAX_ANSWERS state
 * vectors, and only when it is large enough for its encoding to matter.
 */

/** Answers smaller than this are encoded each time (cheap, and not worth the memory). */
const MIN_SHARED_BYTES = 64 * 1024
const MAX_ANSWERS = 2

export class SyncAnswers {
  private readonly answers = new Map<string, Uint8Array>()
  /** Answers handed out from the cache rather than encoded again (a diagnostic for tests and metrics). */
  shared = 0

  /** The answer for `stateVector`: the cached one while the document is unchanged, else `encode()`. */
  get(stateVector: Uint8Array, encode: () => Uint8Array): Uint8Array {
    const key = keyOf(stateVector)
    const cached = this.answers.get(key)
    if (cached !== undefined) {
      this.shared += 1
      return cached
    }
    const answer = encode()
    if (answer.length >= MIN_SHARED_BYTES) {
      if (this.answers.size >= MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value!)
      this.answers.set(key, answer)
    }
    return answer
  }

  /** The document changed: every kept answer is out of date. */
  invalidate(): void {
    if (this.answers.size > 0) this.answers.clear()
  }
}

/** A state vector as a Map key. */
export function keyOf(stateVector: Uint8Array): string {
  let key = ''
  for (let i = 0; i < stateVector.length; i++) key += String.fromCharCode(stateVector[i]!)
  return key
}
