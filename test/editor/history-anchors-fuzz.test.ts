import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { mapOffset } from '../../core/anchors/offset-mapping.ts'
import type { History, SelectionOffsets } from '../../core/editor/history.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

const ALPHABET = ['a', 'b', ' ', 'cd', '\n']

/** The editor's selections as offsets (tail, head), as the history reads them. */
function selectionOffsets(editor: TextEditor): SelectionOffsets[] {
  const buffer = editor.getBuffer()
  return editor.getSelections().map((selection) => {
    const range = selection.getBufferRange()
    const [tail, head] = selection.isReversed() ? [range.end, range.start] : [range.start, range.end]
    return { anchor: buffer.characterIndexForPosition(tail), head: buffer.characterIndexForPosition(head) }
  })
}

describe("the history's pending selections as entries of the anchor index", () => {
  it('stay where every change maps them one by one (the former mapOffset loop), through steps, raw and peers\' edits, undo and redo (seeded)', () => {
    for (const seed of fuzzSeeds(10)) {
      const random = new Random(seed)
      const log: string[] = []
      const editor = new TextEditor({ text: random.string(40, ALPHABET) })
      const buffer = editor.getBuffer()
      const history = (editor as unknown as { history: History }).history
      const peer = new Y.Doc()
      Y.applyUpdate(peer, Y.encodeStateAsUpdate(editor.doc))
      const peerText = peer.getText('text')
      // The reference: the selections right after the latest step, mapped through every change since.
      let reference: SelectionOffsets[] | null = null
      let changed = false
      buffer.onDidChange(({ changes }) => {
        changed = true
        if (reference === null) return
        for (const { startOffset, oldLength, newLength } of changes) {
          for (const s of reference) {
            s.anchor = mapOffset(s.anchor, startOffset, oldLength, newLength, false)
            s.head = mapOffset(s.head, startOffset, oldLength, newLength, false)
          }
        }
      })
      const randomOffset = () => random.int(buffer.getLength() + 1)
      try {
        for (let step = 0; step < 80; step++) {
          const what = random.int(10)
          changed = false
          if (what <= 3) {
            // A command: one undo step, after which the history holds the selections.
            const ranges = Array.from({ length: 1 + random.int(3) }, () => {
              const a = randomOffset()
              const b = random.bool(0.6) ? a : randomOffset()
              return [buffer.positionForCharacterIndex(a), buffer.positionForCharacterIndex(b)] as const
            })
            editor.setSelectedBufferRanges(ranges.map(([a, b]) => [a, b]))
            const command = random.pick(['insert', 'backspace', 'delete'] as const)
            if (command === 'insert') editor.insertText(random.string(3, ALPHABET) || 'x')
            else if (command === 'backspace') editor.backspace()
            else editor.delete()
            // The history takes them before the command merges selections that met: start from its copy,
            // which is the editor's selections unless some merged.
            const held = history.pendingAfterSelections()
            expect(held === null).toBe(!changed)
            if (held !== null && held.length === editor.getSelections().length) expect(held).toEqual(selectionOffsets(editor))
            reference = held && held.map((s) => ({ ...s }))
            log.push(`${command} at ${JSON.stringify(ranges)}`)
          } else if (what <= 5) {
            Y.applyUpdate(peer, Y.encodeStateAsUpdate(editor.doc, Y.encodeStateVector(peer)))
            peer.transact(() => {
              for (let i = random.int(3); i >= 0; i--) {
                const o = random.int(peerText.length + 1)
                peerText.delete(o, Math.min(peerText.length - o, random.int(4)))
                peerText.insert(o, random.string(3, ALPHABET))
              }
            })
            Y.applyUpdate(editor.doc, Y.encodeStateAsUpdate(peer, Y.encodeStateVector(editor.doc)))
            log.push('peer edits')
          } else if (what <= 7) {
            // The buffer edited directly (no command): the pending selections follow it too.
            const a = randomOffset()
            const b = Math.min(buffer.getLength(), a + random.int(4))
            buffer.setTextInRange([buffer.positionForCharacterIndex(a), buffer.positionForCharacterIndex(b)], random.string(3, ALPHABET))
            log.push(`buffer edit ${a}..${b}`)
          } else {
            // A step anchors the pending selections; with nothing to undo or redo, they stay pending.
            const undo = random.bool()
            if (undo ? history.canUndo() : history.canRedo()) reference = null
            if (undo) editor.undo()
            else editor.redo()
            log.push('undo/redo')
          }
          expect(history.pendingAfterSelections()).toEqual(reference)
        }
      } catch (error) {
        throw new Error(`history anchors fuzz failed with seed ${seed} (replay: FUZZ_SEED=${seed}) after:\n${log.join('\n')}\n${String(error)}`)
      }
    }
  })
})
