import * as Y from 'yjs'
import pino from 'pino'
import * as decoding from 'lib0/decoding'
import { afterEach, describe, expect, it } from 'vitest'
import { AnswerEncoder } from '../../server/answer-encoder.ts'
import { AnswerSource } from '../../server/answer-source.ts'
import { Random } from '../helpers/random.ts'

/**
 * AnswerSource with the real answer thread (answer-worker.ts): a large document's answers come from
 * its mirror there and hold exactly the document's state as of the request; small ones are encoded
 * at once; a thread that stops mid-answer leaves the answer to the event loop.
 */

/** What the sources and encoders log, as parsed lines. */
const logged: Array<{ msg: string }> = []
const logger = pino({ level: 'debug' }, { write: (line: string) => void logged.push(JSON.parse(line) as { msg: string }) })
const encoders: AnswerEncoder[] = []
afterEach(async () => {
  for (const encoder of encoders.splice(0)) await encoder.close()
})

function encoderOf(minBytes: number): AnswerEncoder {
  const encoder = new AnswerEncoder({ minBytes, logger })
  encoders.push(encoder)
  return encoder
}

/** The update a sync step 2 message carries. */
function updateOf(message: Uint8Array): Uint8Array {
  const decoder = decoding.createDecoder(message)
  expect([decoding.readVarUint(decoder), decoding.readVarUint(decoder)]).toEqual([0, 1])
  return decoding.readVarUint8Array(decoder)
}

/** A new document from `base` (or empty) with the answer applied. */
function applied(message: Uint8Array, base?: Uint8Array): Y.Doc {
  const doc = new Y.Doc()
  if (base !== undefined) Y.applyUpdate(doc, base)
  Y.applyUpdate(doc, updateOf(message))
  return doc
}

/** A room's document as AnswerSource sees it: every update after the load handed to `updated`. */
function room(minBytes: number, stored: Uint8Array[] = []): { doc: Y.Doc; source: AnswerSource } {
  const doc = new Y.Doc()
  const source = new AnswerSource(doc, encoderOf(minBytes), () => logger)
  // As RoomStore.load: handed the stored updates before it applies them, then each as it applied, then all that applied.
  source.loading(stored)
  for (const update of stored) {
    Y.applyUpdate(doc, update)
    source.loadedUpdate(update)
  }
  source.loaded(stored)
  doc.on('update', (update: Uint8Array) => source.updated(update))
  return { doc, source }
}

const emptyVector = (): Uint8Array => Y.encodeStateVector(new Y.Doc())

function randomEdits(doc: Y.Doc, random: Random, count: number): void {
  const text = doc.getText('text')
  for (let i = 0; i < count; i++) {
    if (text.length > 0 && random.bool(0.3)) text.delete(random.int(text.length), Math.min(text.length, 1 + random.int(40)))
    else text.insert(random.int(text.length + 1), random.next().toString(36).repeat(1 + random.int(4)))
  }
}

describe('AnswerSource', () => {
  it("answers from the thread with deleted text kept, so a joiner can restore an earlier version", async () => {
    const doc = new Y.Doc({ gc: false })
    const source = new AnswerSource(doc, encoderOf(1024), () => logger)
    source.loaded([])
    doc.on('update', (update: Uint8Array) => source.updated(update))
    const text = doc.getText('text')
    // Past 64 Ki clock ticks: the answer comes from the thread, not from the room's own document.
    text.insert(0, 'kept '.repeat(20_000))
    const before = Y.snapshot(doc)
    // The mirror exists before the deletion reaches it.
    await source.answer(emptyVector())
    text.delete(0, 1000)
    text.insert(0, 'new')
    const pending = source.answer(emptyVector())
    expect(pending).toBeInstanceOf(Promise)
    const answer = await pending
    const joiner = new Y.Doc({ gc: false })
    Y.applyUpdate(joiner, updateOf(answer))
    expect(joiner.getText('text').toString()).toBe('new' + 'kept '.repeat(19_800))
    const restored = Y.createDocFromSnapshot(joiner, before)
    expect(restored.getText('text').toString()).toBe('kept '.repeat(20_000))
  })

  it('answers a small document at once, and a large one from the thread with exactly the document as of the request', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 31)
    console.log(`answer source: seed ${seed}`)
    const random = new Random(seed)
    const { doc, source } = room(64 * 1024)
    randomEdits(doc, random, 50)
    const small = source.answer(emptyVector())
    expect(small).toBeInstanceOf(Uint8Array)
    expect(applied(small as Uint8Array).getText('text').toString()).toBe(doc.getText('text').toString())

    // Past the size: measured once, then mirrored; every later edit reaches the mirror.
    doc.getText('text').insert(0, 'x'.repeat(200_000))
    randomEdits(doc, random, 300)
    const expected = doc.getText('text').toString()
    const vector = Y.encodeStateVector(doc)
    const pending = source.answer(emptyVector())
    expect(pending).toBeInstanceOf(Promise)
    // Edits after the request are not in its answer (they are relayed to the joiner).
    doc.getText('text').insert(0, 'after')
    const joined = applied(await pending)
    expect(joined.getText('text').toString()).toBe(expected)
    expect(Y.encodeStateVector(joined)).toEqual(vector)

    // A later request holds the later edit.
    const later = applied(await source.answer(emptyVector()))
    expect(later.getText('text').toString()).toBe(doc.getText('text').toString())
    source.dispose()
  })

  it('starts the mirror from the stored updates of a loaded room, and answers a client that has part of the document with the rest', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 32)
    console.log(`loaded room: seed ${seed}`)
    const random = new Random(seed)
    const writer = new Y.Doc()
    const stored: Uint8Array[] = []
    writer.on('update', (update: Uint8Array) => stored.push(update))
    writer.getText('text').insert(0, 'y'.repeat(150_000))
    randomEdits(writer, random, 200)
    const { doc, source } = room(100_000, stored)

    // A client with the first half of the stored updates, then 100,000 more characters written.
    const half = Y.mergeUpdates(stored.slice(0, Math.floor(stored.length / 2)))
    doc.getText('text').insert(0, 'z'.repeat(100_000))
    randomEdits(doc, random, 100)
    const halfVector = Y.encodeStateVectorFromUpdate(half)
    const answer = source.answer(halfVector)
    expect(answer).toBeInstanceOf(Promise)
    const client = applied(await answer, half)
    expect(client.getText('text').toString()).toBe(doc.getText('text').toString())
    expect(Y.encodeStateVector(client)).toEqual(Y.encodeStateVector(doc))

    // Missing little: encoded at once.
    const near = new Y.Doc()
    Y.applyUpdate(near, Y.encodeStateAsUpdate(doc))
    doc.getText('text').insert(5, 'small')
    const quick = source.answer(Y.encodeStateVector(near))
    expect(quick).toBeInstanceOf(Uint8Array)
    expect(applied(quick as Uint8Array, Y.encodeStateAsUpdate(near)).getText('text').toString()).toBe(doc.getText('text').toString())
    source.dispose()
  })

  it('feeds the mirror only the stored updates that applied when one was set aside while the room loaded', async () => {
    const writer = new Y.Doc()
    const stored: Uint8Array[] = []
    writer.on('update', (update: Uint8Array) => stored.push(update))
    writer.getText('text').insert(0, 'a'.repeat(100_000))
    writer.getText('text').insert(0, 'b'.repeat(100_000))
    writer.getText('text').insert(0, 'c'.repeat(100_000))
    const doc = new Y.Doc()
    const source = new AnswerSource(doc, encoderOf(64 * 1024), () => logger)
    source.loading(stored)
    // The second failed to apply in the room (set aside): the third waits for it, as in the room.
    const kept = [stored[0]!, stored[2]!]
    for (const update of kept) {
      Y.applyUpdate(doc, update)
      source.loadedUpdate(update)
    }
    source.loaded(kept)
    const answer = source.answer(emptyVector())
    expect(answer).toBeInstanceOf(Promise)
    const joiner = applied(await answer)
    expect(joiner.getText('text').toString()).toBe('a'.repeat(100_000))
    expect(Y.encodeStateVector(joiner)).toEqual(Y.encodeStateVector(doc))
    source.dispose()
  })

  it('encodes one answer for every joiner asking with the same state vector while the document is unchanged', async () => {
    const { doc, source } = room(64 * 1024)
    doc.getText('text').insert(0, 'w'.repeat(300_000))
    const asked = [source.answer(emptyVector()), source.answer(emptyVector()), source.answer(emptyVector())]
    const answers = await Promise.all(asked)
    expect(answers[1]).toBe(answers[0])
    expect(answers[2]).toBe(answers[0])
    // Asked for after it was encoded: the same one, at once.
    expect(source.answer(emptyVector())).toBe(answers[0])
    doc.getText('text').insert(0, 'v')
    const after = await source.answer(emptyVector())
    expect(after).not.toBe(answers[0])
    expect(applied(after).getText('text').toString()).toBe(doc.getText('text').toString())
    source.dispose()
  })

  it('encodes on the event loop an answer the thread cannot give (it stopped), and on the event loop only once it is off', async () => {
    const { doc, source } = room(64 * 1024)
    doc.getText('text').insert(0, 'u'.repeat(300_000))
    const pending = source.answer(emptyVector())
    await encoders[0]!.close()
    const answer = await pending
    expect(applied(answer).getText('text').toString()).toBe(doc.getText('text').toString())
    expect(logged.some((line) => line.msg === 'the answer thread gave no answer; encoding it on the event loop')).toBe(true)
    // The mirror is gone: later answers are encoded at once.
    expect(source.answer(emptyVector())).toBeInstanceOf(Uint8Array)

    const off = room(0)
    off.doc.getText('text').insert(0, 't'.repeat(300_000))
    const inline = off.source.answer(emptyVector())
    expect(inline).toBeInstanceOf(Uint8Array)
    expect(applied(inline as Uint8Array).getText('text').length).toBe(300_000)
    source.dispose()
    off.source.dispose()
  })
})
