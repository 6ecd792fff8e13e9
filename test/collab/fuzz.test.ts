import { afterEach, describe, expect, it } from 'vitest'
import type { TextEditor } from '../../core/editor/text-editor.ts'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'
import type { Selection } from '../../core/selection/selection.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { Network, type Client } from './network.ts'

/*
 * Random edits, moves, undos, disconnects and out-of-order delivery on four peers; at the end, once
 * everything is delivered: every text is equal, every cursor lies in its buffer, and every peer's
 * view of every other client's selections is exactly what that client has.
 */

const CLIENTS = 4
const STEPS = 250
const ALPHABET = ['a', 'b', 'c', ' ', ' ', '\n', 'é', '😀']

let network: Network
afterEach(() => network?.destroy())

function randomPoint(random: Random, editor: TextEditor): Point {
  const buffer = editor.getBuffer()
  return buffer.positionForCharacterIndex(random.int(buffer.getLength() + 1))
}

function randomRange(random: Random, editor: TextEditor): Range {
  return new Range(randomPoint(random, editor), randomPoint(random, editor))
}

function describeSelections(selections: Selection[]): string[] {
  return selections.map((s) => `${s.getBufferRange().toString()}${s.isReversed() ? ' reversed' : ''}`)
}

function step(random: Random, clients: Client[]): void {
  const client = random.pick(clients)
  const editor = client.editor!
  switch (random.int(18)) {
    case 0:
    case 1:
    case 2:
      editor.insertText(random.string(3, ALPHABET))
      break
    case 3:
      editor.backspace()
      break
    case 4:
      editor.delete()
      break
    case 5:
      editor.setTextInBufferRange(randomRange(random, editor), random.string(4, ALPHABET))
      break
    case 6: {
      // An edit made on the Y.Text itself, not through the editor ('\r\n' lets offsets fall inside one).
      const ytext = editor.getBuffer().ytext
      const at = random.int(ytext.length + 1)
      ytext.doc!.transact(() => {
        ytext.delete(at, Math.min(random.int(4), ytext.length - at))
        ytext.insert(at, random.pick(['\r\n', 'z', 'yy', '\r']))
      })
      break
    }
    case 7:
      editor.setCursorBufferPosition(randomPoint(random, editor))
      break
    case 8:
      editor.addCursorAtBufferPosition(randomPoint(random, editor))
      break
    case 9:
      editor.setSelectedBufferRanges([randomRange(random, editor), randomRange(random, editor)], { reversed: random.bool() })
      break
    case 10: {
      // Go where someone else is, and type there: edits at another user's cursor are the tricky ones.
      const cursors = editor.getPeers().flatMap((peer) => peer.getCursors())
      if (cursors.length > 0) editor.setCursorBufferPosition(random.pick(cursors).getBufferPosition())
      editor.insertText(random.string(2, ALPHABET))
      break
    }
    case 14:
      random.pick([() => editor.moveLeft(), () => editor.moveDown(), () => editor.selectRight(2), () => editor.selectWord(), () => editor.selectUp()])()
      break
    case 11:
      if (random.bool()) editor.undo()
      else editor.redo()
      break
    case 12: {
      const online = clients.filter((c) => c.online)
      if (client.online && online.length > 1) network.disconnect(client, { timeout: random.bool(0.7) })
      else if (!client.online) network.reconnect(client)
      break
    }
    case 13:
      // A quiet moment: whoever is online must agree already.
      network.deliverAll()
      check(clients.filter((c) => c.online))
      break
    default:
      network.deliverSome(random, 1 + random.int(12))
  }
}

function run(seed: number): void {
  const random = new Random(seed)
  network = new Network({ queued: true })
  const clients = Array.from({ length: CLIENTS }, (_, i) => network.addClient(`client${i}`, i === 0 ? { text: random.string(30, ALPHABET) } : {}))
  network.deliverAll()
  for (let i = 0; i < STEPS; i++) step(random, clients)
  for (const client of clients) if (!client.online) network.reconnect(client)
  network.deliverAll()
  check(clients)
}

/** Every text equal, every cursor in its buffer, every view of a peer equal to the peer's own selections. */
function check(clients: Client[]): void {
  for (const client of clients) expect(client.editor!.getText(), `${client.name}'s buffer`).toBe(client.doc.getText('text').toString())
  const text = clients[0]!.editor!.getText()
  for (const client of clients) expect(client.editor!.getText(), `${client.name}'s text`).toBe(text)
  for (const viewer of clients) {
    const editor = viewer.editor!
    const end = editor.getEofBufferPosition()
    const remote = editor.getPeers().flatMap((peer) => peer.getCursors())
    for (const cursor of [...editor.getCursors(), ...remote]) {
      const position = cursor.getBufferPosition()
      expect(position.isLessThanOrEqual(end) && editor.clipBufferPosition(position).isEqual(position), `${viewer.name}: ${position.toString()}`).toBe(true)
      expect(cursor.getMarker().headOffset).toBeLessThanOrEqual(editor.getBuffer().getLength())
    }
    for (const owner of clients) {
      if (owner === viewer) continue
      const peer = editor.getPeers().find((p) => p.clientId === owner.doc.clientID)
      expect(peer, `${viewer.name} sees ${owner.name}`).toBeDefined()
      expect(describeSelections(peer!.getSelections()), `${viewer.name}'s view of ${owner.name}`).toEqual(describeSelections(owner.editor!.getSelections()))
      // Same offsets, not only the same clipped positions: later edits move both alike.
      expect(peer!.getSelections().map((s) => [s.marker.headOffset, s.marker.tailOffset])).toEqual(
        owner.editor!.getSelections().map((s) => [s.marker.headOffset, s.marker.tailOffset]),
      )
    }
    expect(viewer.warnings).toEqual([])
  }
}

describe('collaboration fuzz', () => {
  for (const seed of fuzzSeeds(16)) {
    it(`converges texts and every view of every cursor (seed ${seed})`, () => {
      try {
        run(seed)
      } catch (error) {
        throw new Error(`collaboration fuzz failed for seed ${seed} (rerun with FUZZ_SEED=${seed}): ${(error as Error).message}`, { cause: error })
      }
    })
  }
})
