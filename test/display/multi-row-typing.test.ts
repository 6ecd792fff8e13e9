import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { DisplayLayer } from '../../core/display/display-layer.ts'
import type { ScreenChange } from '../../core/display/screen-patch.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { layerFor, screenLines } from './helpers.ts'

const WORDS = ['a', 'bb', 'word', ' ', '  ', '\t', '日本', '😀', 'longerword']

/** Replays a layer's events on the screen lines it showed before them. */
function replay(lines: string[], events: ScreenChange[][], now: string[]): string[] {
  const out = [...lines]
  for (const changes of events) {
    for (const { start, oldCount, newCount } of changes) out.splice(start, oldCount, ...now.slice(start, start + newCount))
  }
  return out
}

describe('typing in a row with no fold, and the edit that removes the last fold', () => {
  it('shows each typed row as a layer built afresh does, and the rows a destroyed fold hid', () => {
    const { buffer, layer } = layerFor('one\ntwo\nthree\nfour\nfive')
    const events: ScreenChange[][] = []
    layer.onDidChange((changes) => events.push(changes))
    buffer.insert([1, 3], 'X') // no fold: the row is re-measured alone
    expect(screenLines(layer)).toEqual(['one', 'twoX', 'three', 'four', 'five'])
    layer.foldBufferRange([[1, 2], [3, 2]])
    expect(screenLines(layer)).toEqual(['one', 'tw⋯ur', 'five'])
    events.length = 0
    buffer.delete([[1, 2], [1, 3]]) // one row's edit takes the character after the fold's start: the fold goes
    expect(layer.getFolds()).toEqual([])
    expect(screenLines(layer)).toEqual(['one', 'twX', 'three', 'four', 'five'])
    expect(events).toEqual([[{ start: 1, oldCount: 1, newCount: 3 }]])
    buffer.insert([3, 4], '!') // no fold left: typing in a row the fold hid
    expect(screenLines(layer)).toEqual(screenLines(layerFor(buffer.getText()).layer))
  })
})

describe('typing at several rows in one transaction', () => {
  it('re-measures each edited row and reports the rows in one event, in order', () => {
    const local = new Y.Doc()
    const buffer = new TextBuffer({ ytext: local.getText('text'), text: 'one\nmid\ntwo two two\nmid\nthree' })
    const layer = new DisplayLayer(buffer, { softWrapped: true, editorWidthInChars: 8 })
    const remote = new Y.Doc()
    Y.applyUpdate(remote, Y.encodeStateAsUpdate(local))
    const events: ScreenChange[][] = []
    layer.onDidChange((changes) => events.push(changes))
    remote.transact(() => {
      remote.getText('text').insert(3, 'X')
      remote.getText('text').insert(20, 'Y')
      remote.getText('text').insert(31, 'Z')
    })
    Y.applyUpdate(local, Y.encodeStateAsUpdate(remote, Y.encodeStateVector(local)))
    expect(buffer.getText()).toBe('oneX\nmid\ntwo two twoY\nmid\nthreeZ')
    expect(screenLines(layer)).toEqual(['oneX', 'mid', 'two two ', 'twoY', 'mid', 'threeZ'])
    expect(events).toEqual([
      [
        { start: 0, oldCount: 1, newCount: 1 },
        { start: 2, oldCount: 2, newCount: 2 },
        { start: 5, oldCount: 1, newCount: 1 },
      ],
    ])
  })

  for (const seed of fuzzSeeds(10)) {
    it(`shows what a layer built afresh shows (seed ${seed})`, () => {
      const random = new Random(seed)
      const rows = Array.from({ length: 12 }, () => random.string(random.int(4) === 0 ? 20 : 6, WORDS))
      const local = new Y.Doc()
      const buffer = new TextBuffer({ ytext: local.getText('text'), text: rows.join('\n') })
      const options = { softWrapped: random.int(2) === 0, editorWidthInChars: 10 + random.int(10), tabLength: 1 + random.int(4) }
      const layer = new DisplayLayer(buffer, options)
      const remote = new Y.Doc()
      Y.applyUpdate(remote, Y.encodeStateAsUpdate(local))
      const text = remote.getText('text')
      for (let step = 0; step < 40; step++) {
        const before = screenLines(layer)
        const events: ScreenChange[][] = []
        const subscription = layer.onDidChange((changes) => events.push(changes))
        // Edits within rows, bottom-up so each offset is still where it was computed.
        const lines = text.toString().split('\n')
        const picked = [...new Set(Array.from({ length: 1 + random.int(4) }, () => random.int(lines.length)))].sort((a, b) => b - a)
        remote.transact(() => {
          for (const row of picked) {
            const rowStart = lines.slice(0, row).reduce((sum, line) => sum + line.length + 1, 0)
            const line = lines[row]!
            const column = random.int(line.length + 1)
            const deleteLength = Math.min(line.length - column, random.int(3))
            if (deleteLength > 0) text.delete(rowStart + column, deleteLength)
            text.insert(rowStart + column, random.string(3, WORDS))
          }
        })
        Y.applyUpdate(local, Y.encodeStateAsUpdate(remote, Y.encodeStateVector(local)))
        subscription.dispose()
        const fresh = new DisplayLayer(new TextBuffer({ text: buffer.getText() }), options)
        const what = `seed ${seed}, step ${step}`
        expect(screenLines(layer), what).toEqual(screenLines(fresh))
        expect(replay(before, events, screenLines(layer)), what).toEqual(screenLines(layer))
      }
    })
  }
})
