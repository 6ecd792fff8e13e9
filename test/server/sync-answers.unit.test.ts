import * as Y from 'yjs'
import { describe, expect, it } from 'vitest'
import { SyncAnswers } from '../../server/sync-answers.ts'
import * as decoding from 'lib0/decoding'
import { encodeSyncStep2 } from '../../server/protocol.ts'

/** The text of the document a sync step 2 message carries. */
function textOfAnswer(message: Uint8Array): string {
  const decoder = decoding.createDecoder(message)
  decoding.readVarUint(decoder)
  decoding.readVarUint(decoder)
  const doc = new Y.Doc()
  Y.applyUpdate(doc, decoding.readVarUint8Array(decoder))
  return doc.getText('text').toString()
}

describe('SyncAnswers', () => {
  const bigDoc = (): Y.Doc => {
    const doc = new Y.Doc()
    doc.getText('text').insert(0, 'x'.repeat(100_000))
    return doc
  }

  it('encodes a large answer once per state vector while the document is unchanged', () => {
    const doc = bigDoc()
    const answers = new SyncAnswers()
    let encodings = 0
    const empty = Y.encodeStateVector(new Y.Doc())
    const ask = (sv: Uint8Array): Uint8Array => answers.get(sv, () => (encodings++, encodeSyncStep2(doc, sv)))
    const first = ask(empty)
    expect(ask(Uint8Array.from(empty))).toBe(first)
    expect([encodings, answers.shared]).toEqual([1, 1])
    doc.getText('text').insert(0, 'y')
    answers.invalidate()
    const after = ask(empty)
    expect([encodings, after === first, textOfAnswer(after).slice(0, 3), textOfAnswer(first).slice(0, 3)]).toEqual([2, false, 'yxx', 'xxx'])
  })

  it('keeps no small answers and at most two state vectors', () => {
    const small = new Y.Doc()
    small.getText('text').insert(0, 'tiny')
    const answers = new SyncAnswers()
    let encodings = 0
    const sv = Y.encodeStateVector(new Y.Doc())
    answers.get(sv, () => (encodings++, encodeSyncStep2(small, sv)))
    answers.get(sv, () => (encodings++, encodeSyncStep2(small, sv)))
    expect(encodings).toBe(2)
    const doc = bigDoc()
    const vectors = [new Uint8Array([0]), new Uint8Array([1, 5, 3]), new Uint8Array([1, 6, 3])]
    for (const vector of vectors) answers.get(vector, () => (encodings++, new Uint8Array(70_000)))
    answers.get(vectors[0]!, () => (encodings++, encodeSyncStep2(doc, vectors[0]!)))
    expect(encodings).toBe(6)
    answers.get(vectors[2]!, () => (encodings++, new Uint8Array(0)))
    expect(encodings).toBe(6)
  })
})
