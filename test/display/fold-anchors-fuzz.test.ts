import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import type { TextChange } from '../../core/buffer/text-change.ts'
import { DisplayLayer } from '../../core/display/display-layer.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { screenLines } from './helpers.ts'

/** A fold as the reference keeps it: rows and columns, mapped through every change one by one. */
interface RefFold {
  id: number
  sr: number
  sc: number
  er: number
  ec: number
}

const cmp = (r1: number, c1: number, r2: number, c2: number) => (r1 === r2 ? c1 - c2 : r1 - r2)

/**
 * The folds' rule before they were entries of the anchor index (FoldSet#applyChange at 9d2c925): every
 * fold through every change, in rows and columns. Returns the folds that survive.
 */
function mapThrough(folds: RefFold[], change: TextChange): RefFold[] {
  const [ar, ac] = [change.startRow, change.startColumn]
  const [or, oc] = [change.oldEndRow, change.oldEndColumn]
  const [nr, nc] = [change.newEndRow, change.newEndColumn]
  const insertion = ar === or && ac === oc
  const shift = (row: number, column: number): [number, number] => [row + nr - or, row === or ? column + nc - oc : column]
  return folds.filter((fold) => {
    const empty = fold.sr === fold.er && fold.sc === fold.ec
    const startVsA = cmp(fold.sr, fold.sc, ar, ac)
    const endVsA = cmp(fold.er, fold.ec, ar, ac)
    const startVsEnd = cmp(fold.sr, fold.sc, or, oc)
    const endVsEnd = cmp(fold.er, fold.ec, or, oc)
    const overlaps = empty ? startVsA > 0 && startVsEnd < 0 : (startVsA >= 0 && startVsEnd < 0) || (endVsA > 0 && endVsEnd <= 0)
    if (!insertion && overlaps) return false
    if (startVsEnd >= 0) [fold.sr, fold.sc] = shift(fold.sr, fold.sc)
    if (endVsEnd > 0 || (empty && startVsEnd >= 0)) [fold.er, fold.ec] = shift(fold.er, fold.ec)
    return true
  })
}

const ALPHABET = ['a', 'b', ' ', 'cd', '\n', '\n', 'ef\ng']

function randomRange(random: Random, buffer: TextBuffer): [[number, number], [number, number]] {
  const a = random.int(buffer.getLength() + 1)
  const b = Math.min(buffer.getLength(), a + random.int(12))
  const start = buffer.positionForCharacterIndex(a)
  const end = buffer.positionForCharacterIndex(random.bool(0.2) ? a : b)
  return [
    [start.row, start.column],
    [end.row, end.column],
  ]
}

function randomEdit(random: Random, length: number): { offset: number; remove: number; text: string } {
  const offset = random.int(length + 1)
  return { offset, remove: random.bool(0.6) ? Math.min(length - offset, random.int(6)) : 0, text: random.bool(0.7) ? random.string(5, ALPHABET) : '' }
}

describe("folds as entries of the editor's anchor index", () => {
  it('fold like the former per-fold mapping through edits, multi-edit transactions, peers\' transactions, undo and redo (seeded)', () => {
    for (const seed of fuzzSeeds(12)) {
      const random = new Random(seed)
      const log: string[] = []
      let reference: RefFold[] = []
      const editor = new TextEditor({ text: Array.from({ length: 8 }, () => random.string(10, ['a', 'b', ' ', '  ', 'cd'])).join('\n') })
      const buffer = editor.getBuffer()
      const layer = editor.displayLayer
      const peer = new Y.Doc()
      Y.applyUpdate(peer, Y.encodeStateAsUpdate(editor.doc))
      const peerText = peer.getText('text')
      buffer.onDidChange(({ changes }) => {
        for (const change of changes) reference = mapThrough(reference, change)
      })
      const foldsOf = () => layer.getFolds().map(({ id, range }) => [id, ...range.serialize()])
      const referenceFolds = () =>
        [...reference].sort((a, b) => cmp(a.sr, a.sc, b.sr, b.sc) || cmp(b.er, b.ec, a.er, a.ec) || a.id - b.id).map((f) => [f.id, [f.sr, f.sc], [f.er, f.ec]])
      try {
        for (let step = 0; step < 60; step++) {
          const what = random.int(10)
          if (what <= 1) {
            const range = randomRange(random, buffer)
            const id = layer.foldBufferRange(range)
            const clipped = layer.bufferRangeForFold(id)!
            reference.push({ id, sr: clipped.start.row, sc: clipped.start.column, er: clipped.end.row, ec: clipped.end.column })
            log.push(`fold ${JSON.stringify(range)} -> ${id}`)
          } else if (what === 2 && reference.length > 0) {
            const id = random.pick(reference).id
            layer.destroyFold(id)
            reference = reference.filter((fold) => fold.id !== id)
            log.push(`unfold ${id}`)
          } else if (what <= 5) {
            // One or several edits in one transaction (each mirrored on its own), made by the editor.
            const edits = Array.from({ length: 1 + random.int(3) }, () => randomEdit(random, buffer.getLength()))
            editor.transact(() => {
              for (const { offset, remove, text } of edits) {
                const o = Math.min(offset, buffer.getLength())
                buffer.setTextInRange([buffer.positionForCharacterIndex(o), buffer.positionForCharacterIndex(Math.min(buffer.getLength(), o + remove))], text)
              }
            })
            log.push(`edit ${JSON.stringify(edits)}`)
          } else if (what <= 7) {
            // A peer's transaction of several edits arrives as one change event with several changes.
            Y.applyUpdate(peer, Y.encodeStateAsUpdate(editor.doc, Y.encodeStateVector(peer)))
            const edits = Array.from({ length: 1 + random.int(3) }, () => randomEdit(random, peerText.length))
            peer.transact(() => {
              for (const { offset, remove, text } of edits) {
                const o = Math.min(offset, peerText.length)
                peerText.delete(o, Math.min(peerText.length - o, remove))
                peerText.insert(o, text)
              }
            })
            Y.applyUpdate(editor.doc, Y.encodeStateAsUpdate(peer, Y.encodeStateVector(editor.doc)))
            log.push(`peer ${JSON.stringify(edits)}`)
          } else {
            const kind = random.bool() ? 'undo' : 'redo'
            if (kind === 'undo') editor.undo()
            else editor.redo()
            // Restoring selections may destroy the folds holding their ends (Atom's setBufferRange): the
            // reference lets go of those only.
            const kept = new Set(layer.getFolds().map((fold) => fold.id))
            const ends = editor.getSelectedBufferRanges().flatMap((range) => [range.start, range.end])
            for (const fold of reference.filter((f) => !kept.has(f.id))) {
              const holds = ends.some((p) => cmp(p.row, p.column, fold.sr, fold.sc) > 0 && cmp(p.row, p.column, fold.er, fold.ec) < 0)
              if (!holds) throw new Error(`${kind} dropped fold ${fold.id}, which holds no selection's end`)
            }
            reference = reference.filter((fold) => kept.has(fold.id))
            log.push(kind)
          }
          expect(foldsOf()).toEqual(referenceFolds())
          const fresh = new DisplayLayer(new TextBuffer({ text: buffer.getText() }), {
            folds: reference.map((f) => [
              [f.sr, f.sc],
              [f.er, f.ec],
            ]),
          })
          expect(screenLines(layer)).toEqual(screenLines(fresh))
        }
      } catch (error) {
        throw new Error(`fold anchors fuzz failed with seed ${seed} (replay: FUZZ_SEED=${seed}) after:\n${log.join('\n')}\ntext: ${JSON.stringify(buffer.getText())}\n${String(error)}`)
      }
    }
  })
})
