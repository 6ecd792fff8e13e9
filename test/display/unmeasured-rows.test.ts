import { describe, expect, it } from 'vitest'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { DisplayLayer, type ScreenChange } from '../../core/display/display-layer.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { sampledSnapshot } from './helpers.ts'

/**
 * Many rows laid out at once without soft wrap or folds (a big paste, a big document arriving) are left
 * unmeasured: one screen row each, their width and tab bit measured when a query or a setting needs them.
 * Nothing observable may differ from a layer that measured every row.
 */

const ALPHABET = ['a', 'b', ' ', '  ', '\t', 'word ', '日本', '😀', 'x\ty', 'e\u0301']

function randomLines(random: Random, count: number): string {
  const lines: string[] = []
  for (let i = 0; i < count; i++) lines.push(random.string(12, ALPHABET))
  return lines.join(random.bool(0.2) ? '\r\n' : '\n')
}

/** A layer over the same buffer that measures every row: soft wrap on at a width nothing reaches. */
function measuredCopy(layer: DisplayLayer, buffer: TextBuffer): DisplayLayer {
  return new DisplayLayer(buffer, {
    tabLength: layer.getTabLength(),
    softWrapped: true,
    editorWidthInChars: layer.isSoftWrapped() ? layer.getEditorWidthInChars() : 1_000_000,
    softWrapHangingIndentLength: layer.getSoftWrapHangingIndentLength(),
    atomicSoftTabs: layer.getAtomicSoftTabs(),
    folds: layer.getFolds().map((fold) => fold.range),
  })
}

/** Screen lines, row mappings and sampled translations and clips (the same samples for both layers). */
function observe(layer: DisplayLayer, buffer: TextBuffer, seed: number): unknown {
  return sampledSnapshot(layer, buffer, new Random(seed), 300, true)
}

describe('unmeasured rows', () => {
  it('are laid out for a paste of many rows without reading them, and answer as measured ones', () => {
    const buffer = new TextBuffer({ text: 'top' })
    const layer = new DisplayLayer(buffer, { tabLength: 4 })
    const events: ScreenChange[][] = []
    layer.onDidChange((changes) => events.push(changes))
    const pasted = Array.from({ length: 2000 }, (_, i) => (i === 1500 ? '\tx' : `row ${i}`)).join('\n')
    buffer.insert([0, 3], pasted)
    expect(events).toEqual([[{ start: 0, oldCount: 1, newCount: 2000 }]])
    expect(layer.getScreenLineCount()).toBe(2000)
    expect(layer.lineTextForScreenRow(1500)).toBe('    x')
    expect(layer.screenPositionForBufferPosition([1500, 1]).toArray()).toEqual([1500, 4])
    expect(layer.bufferPositionForScreenPosition([1500, 2], { clipDirection: 'forward' }).toArray()).toEqual([1500, 1])
    // A tab length change shows again only the row that holds a tab.
    events.length = 0
    layer.setTabLength(2)
    expect(events).toEqual([[{ start: 1500, oldCount: 1, newCount: 1 }]])
    expect(layer.lineTextForScreenRow(1500)).toBe('  x')
    // Soft wrap at 5 columns wraps the rows wider than that, as a measured layer does.
    layer.setEditorWidthInChars(5)
    layer.setSoftWrapped(true)
    expect(observe(layer, buffer, 1)).toEqual(observe(measuredCopy(layer, buffer), buffer, 1))
  })

  for (const seed of fuzzSeeds(8)) {
    it(`answer as a layer that measured every row, through edits, pastes, folds and settings (seed ${seed})`, () => {
      console.log(`unmeasured rows fuzz seed ${seed}`)
      const random = new Random(seed)
      const buffer = new TextBuffer({ text: randomLines(random, 1100 + random.int(400)) })
      const layer = new DisplayLayer(buffer, { tabLength: 1 + random.int(4), atomicSoftTabs: random.bool() })
      const log: string[] = []
      for (let step = 0; step < 12; step++) {
        const choice = random.int(9)
        if (choice === 8) {
          // One transaction of several edits, big and small, as a remote update brings them.
          const ytext = buffer.ytext
          const edits: string[] = []
          buffer.doc.transact(() => {
            for (let i = 0; i < 3; i++) {
              const at = random.int(ytext.length + 1)
              const length = Math.min(random.int(40), ytext.length - at)
              if (length > 0) ytext.delete(at, length)
              const text = random.bool() ? randomLines(random, 1024 + random.int(200)) : random.string(3, ALPHABET)
              ytext.insert(at, text)
              edits.push(`${at}-${length}+${text.length}`)
            }
          })
          log.push(`transaction ${edits.join(' ')}`)
        } else if (choice < 3) {
          const row = random.int(buffer.getLineCount())
          const column = random.int(buffer.lineLengthForRow(row) + 1)
          const text = random.string(3, ALPHABET)
          buffer.insert([row, column], text)
          log.push(`type ${JSON.stringify(text)} at ${row},${column}`)
        } else if (choice < 5) {
          const row = random.int(buffer.getLineCount())
          const end = Math.min(buffer.getLastRow(), row + random.int(3))
          buffer.setTextInRange([[row, 1], [end, 2]], randomLines(random, 1024 + random.int(300)))
          log.push(`paste over rows ${row}-${end}`)
        } else if (choice === 5) {
          const row = random.int(buffer.getLineCount())
          layer.foldBufferRange([[row, 1], [row + 1 + random.int(5), 1]])
          log.push(`fold from row ${row}`)
        } else if (choice === 6) {
          const n = 1 + random.int(5)
          layer.setTabLength(n)
          log.push(`setTabLength ${n}`)
        } else {
          if (random.bool()) layer.setEditorWidthInChars(4 + random.int(20))
          layer.setSoftWrapped(!layer.isSoftWrapped())
          log.push(`setSoftWrapped ${layer.isSoftWrapped()} at ${layer.getEditorWidthInChars()}`)
        }
        if (random.bool(0.3)) layer.unfoldAll()
        const sample = random.int(1000)
        expect(observe(layer, buffer, sample), `seed ${seed}: ${log.join('; ')}`).toEqual(observe(measuredCopy(layer, buffer), buffer, sample))
      }
    })
  }
})
