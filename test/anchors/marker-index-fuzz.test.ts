import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextEditor } from '../../core/editor/text-editor.ts'
import type { DisplayMarker, InvalidationStrategy } from '../../core/anchors/display-marker.ts'
import type { BufferChangeEvent } from '../../core/buffer/text-change.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

const STRATEGIES: readonly InvalidationStrategy[] = ['never', 'surround', 'overlap', 'inside', 'touch']
const ALPHABET = ['a', 'b', ' ', '\n', 'xy']

/** A marker as the naive reference keeps it: plain offsets, mapped through every change one by one. */
interface Naive {
  marker: DisplayMarker
  head: number
  tail: number
  tailed: boolean
  /** As given; by default a marker is exclusive while it has no tail. */
  exclusive: boolean | undefined
  remote: boolean
  invalidate: InvalidationStrategy
  valid: boolean
}

/** Atom's rule for one end: before the change it stays, inside or at its end it goes to the end of the new text. */
function mapEnd(offset: number, start: number, oldLength: number, newLength: number, moveAtStart: boolean): number {
  if (offset < start) return offset
  if (offset === start) return moveAtStart ? start + newLength : start
  if (offset <= start + oldLength) return start + newLength
  return offset - oldLength + newLength
}

function invalidatedBy(strategy: InvalidationStrategy, lo: number, hi: number, start: number, end: number): boolean {
  if (strategy === 'surround') return start < lo && end > hi
  if (strategy === 'overlap') return (start < lo && end > lo) || (start < hi && end > hi) || (start < lo && end > hi) || (start > lo && end < hi && start !== end)
  if (strategy === 'inside') return start > lo && end < hi
  if (strategy === 'touch') return start <= hi && end >= lo
  return false
}

/** Every marker through every change of the event, as Atom's marker index would (the layer's former loop). */
function mapNaive(markers: Naive[], event: BufferChangeEvent): void {
  for (const { startOffset: start, oldLength, newLength } of event.changes) {
    for (const m of markers) {
      const lo = Math.min(m.head, m.tail)
      const hi = Math.max(m.head, m.tail)
      const insertion = oldLength === 0
      const leftBound = m.remote || !event.local
      const exclusive = m.exclusive ?? !m.tailed
      const moveStart = !leftBound && exclusive && (insertion || lo !== hi)
      const moveEnd = !leftBound && insertion && (!exclusive || (moveStart && lo === start))
      const newLo = mapEnd(lo, start, oldLength, newLength, moveStart)
      const newHi = Math.max(newLo, mapEnd(hi, start, oldLength, newLength, moveEnd))
      if (m.valid && invalidatedBy(m.invalidate, lo, hi, start, start + oldLength)) m.valid = false
      if (!m.tailed) m.head = m.tail = newHi
      else if (m.head < m.tail) [m.head, m.tail] = [newLo, newHi]
      else [m.head, m.tail] = [newHi, newLo]
    }
  }
}

describe('markers on the anchor index, against every marker mapped through every change', () => {
  for (const seed of fuzzSeeds(8, 3)) {
    it(`agree with the naive mapping, local and remote edits (seed ${seed})`, () => {
      try {
        const random = new Random(seed)
        const editor = new TextEditor({ text: random.string(60, ALPHABET) + 'end' })
        const buffer = editor.getBuffer()
        const layer = editor.markerLayer
        const peer = new Y.Doc()
        const naive: Naive[] = []
        let lastChanges = ''
        buffer.onDidChange((event) => {
          mapNaive(naive, event)
          lastChanges += JSON.stringify({ local: event.local, changes: event.changes.map((c) => [c.startOffset, c.oldLength, c.newLength]), now: naive.map((m) => [m.marker.id, m.marker.headOffset, m.head]).filter((x) => x[1] !== x[2]) })
        })
        const randomOffset = () => random.int(buffer.getLength() + 1)
        for (let step = 0; step < 250; step++) {
          lastChanges = ''
          const roll = random.next()
          if (roll < 0.25) {
            const a = randomOffset()
            const b = random.bool(0.3) ? a : randomOffset()
            const remote = random.bool(0.3)
            const tailed = remote || random.bool(0.7)
            const invalidate = remote ? 'never' : random.pick(STRATEGIES)
            const exclusive = random.bool(0.3) ? random.bool() : undefined
            const marker = remote
              ? layer.markOffsets(a, b, { remote: true, invalidate: 'never' })
              : layer.markOffsets(a, b, { tailed, invalidate, ...(exclusive === undefined ? {} : { exclusive }) })
            naive.push({ marker, head: a, tail: tailed ? b : a, tailed, exclusive, remote, invalidate, valid: true })
            if (!tailed) marker.setHeadBufferPosition(buffer.positionForCharacterIndex(a))
          } else if (roll < 0.3 && naive.length > 0) {
            const i = random.int(naive.length)
            naive[i]!.marker.destroy()
            naive.splice(i, 1)
          } else if (roll < 0.35 && naive.length > 0) {
            const m = random.pick(naive)
            if (m.remote) continue
            const a = randomOffset()
            const b = randomOffset()
            m.marker.setOffsets(a, b)
            Object.assign(m, { head: a, tail: b, tailed: true })
          } else if (roll < 0.7) {
            // Local: one or several replacements in one transaction.
            buffer.transact(() => {
              for (let k = random.bool(0.3) ? 3 : 1; k > 0; k--) {
                const start = randomOffset()
                const end = Math.min(buffer.getLength(), start + (random.bool(0.5) ? 0 : random.int(6)))
                buffer.setTextInRange([buffer.positionForCharacterIndex(start), buffer.positionForCharacterIndex(end)], random.string(4, ALPHABET))
              }
            })
          } else {
            // Remote: a peer's edit arrives.
            Y.applyUpdate(peer, Y.encodeStateAsUpdate(editor.doc, Y.encodeStateVector(peer)))
            const text = peer.getText('text')
            const start = random.int(text.length + 1)
            const length = Math.min(text.length - start, random.bool(0.5) ? 0 : random.int(6))
            peer.transact(() => {
              if (length > 0) text.delete(start, length)
              const insert = random.string(4, ALPHABET)
              if (insert !== '') text.insert(start, insert)
            })
            Y.applyUpdate(editor.doc, Y.encodeStateAsUpdate(peer, Y.encodeStateVector(editor.doc)))
          }
          for (const m of naive) {
            const got = [m.marker.headOffset, m.marker.tailOffset, m.marker.isValid()]
            if (got[0] !== m.head || got[1] !== m.tail || got[2] !== m.valid) {
              throw new Error(`step ${step}: marker ${m.marker.id} is ${JSON.stringify(got)}, expected ${JSON.stringify([m.head, m.tail, m.valid])} (${JSON.stringify({ ...m, marker: undefined })}; last change ${lastChanges})`)
            }
          }
        }
        expect(layer.anchors.count).toBe(2 * naive.length + 2 * editor.getSelections().length)
      } catch (error) {
        throw new Error(`marker fuzz failed for seed ${seed} (rerun with FUZZ_SEED=${seed}): ${(error as Error).message}`, { cause: error })
      }
    })
  }
})
