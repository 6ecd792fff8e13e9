import { afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Network, type Client } from './network.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'

let network: Network
afterEach(() => network?.destroy())

const ALPHABET = ['a', 'b', 'c', ' ', '\n', 'é']

function step(random: Random, clients: Client[]): void {
  const client = random.pick(clients)
  const editor = client.editor!
  const length = editor.getBuffer().getLength()
  const from = random.int(length + 1)
  const to = Math.min(length, from + random.int(4))
  const at = (offset: number) => editor.getBuffer().positionForCharacterIndex(offset)
  switch (random.int(8)) {
    case 0:
    case 1:
    case 2:
      editor.setSelectedBufferRange([at(from), at(to)])
      editor.insertText(random.string(5, ALPHABET) || 'x')
      break
    case 3:
      editor.setSelectedBufferRange([at(from), at(to)])
      editor.delete()
      break
    case 4: {
      const changes = editor.getChanges()
      if (changes.length > 0) editor.revertChange(random.pick(changes))
      break
    }
    case 5:
      editor.undo({ scope: random.bool() ? 'everyone' : 'mine' })
      break
    case 6:
      editor.redo({ scope: random.bool() ? 'everyone' : 'mine' })
      break
    default:
      network.deliverSome(random, 1 + random.int(6))
  }
}

function authorship(client: Client): [number, number, number][] {
  return client.editor!.getAuthorship().map((r) => [r.from, r.to, r.author.clientID])
}

describe('revert fuzz: three peers editing, reverting and undoing in every scope', () => {
  for (const seed of fuzzSeeds(10)) {
    it(`converges text and authorship, and matches a fresh index (seed ${seed})`, () => {
      try {
        const random = new Random(seed)
        network = new Network({ queued: true })
        const clients = ['ada', 'bob', 'cy'].map((name) => network.addClient(name, { user: { name, color: '#000000' } }))
        network.deliverAll()
        for (let i = 0; i < 150; i++) step(random, clients)
        network.deliverAll()
        const text = clients[0]!.editor!.getText()
        for (const client of clients) expect(client.editor!.getText(), client.name).toBe(text)
        for (const client of clients) expect(authorship(client), client.name).toEqual(authorship(clients[0]!))
        // A fresh editor on the same state builds the same authorship from the Yjs items.
        const doc = new Y.Doc()
        Y.applyUpdate(doc, Y.encodeStateAsUpdate(clients[0]!.doc))
        const fresh = new TextEditor({ doc })
        expect(fresh.getAuthorship().map((r) => [r.from, r.to, r.author.clientID])).toEqual(authorship(clients[0]!))
        fresh.destroy()
      } catch (error) {
        throw new Error(`revert fuzz failed for seed ${seed} (rerun with FUZZ_SEED=${seed}): ${(error as Error).message}`, { cause: error })
      }
    })
  }
})
