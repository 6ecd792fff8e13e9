import { afterEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { Random } from '../helpers/random.ts'
import { connectClient, connectSynced, destroyAllClients, openRaw, roundTrip, textOf, updateMessage } from './helpers/clients.ts'
import type { RawSocket } from './helpers/clients.ts'
import { startInProcessServer, type InProcessServer } from './helpers/in-process.ts'
import { waitFor } from './helpers/wait-for.ts'

/**
 * Issue 24 item 3, from cold: a room loaded from disk while joiners and writers wait for it leaves the event loop
 * to other rooms, both while it applies its stored updates and while it handles the frames that waited for it,
 * and loses, reorders or duplicates none of them. Shown by the order of events in one process (the server runs
 * in the test's process), not by timing: another room's frame, sent when the cold room starts a step, is handled
 * before the cold room's last step.
 */

vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 })

const cleanups: Array<() => Promise<void>> = []

afterEach(async () => {
  destroyAllClients()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function inProcess(): Promise<InProcessServer> {
  const running = await startInProcessServer()
  cleanups.push(running.stop)
  return running
}

function words(random: Random, length: number): string {
  let text = ''
  while (text.length < length) text += random.next().toString(36).slice(2, 8) + (random.bool(0.1) ? '\n' : ' ')
  return text.slice(0, length)
}

/** Where in the process's order of events each kind happened: the server's handling of frames, in one log. */
type Event = 'stored' | 'waited' | 'other room'

describe('a room loaded from disk while joiners and writers wait for it', () => {
  it('lets another room through between its load steps and between the frames that waited, and every client converges on all the writes', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 61)
    console.log(`cold load: seed ${seed}`)
    const random = new Random(seed)
    const { registry, persistence, wsUrl } = await inProcess()

    // A much-edited stored log: a long text, then updates of scattered edits (each applied in parts while loading).
    const seeder = await openRaw(`${wsUrl}/cold`)
    const source = new Y.Doc()
    source.clientID = 1
    const text = source.getText('text')
    source.on('update', (update: Uint8Array) => seeder.ws.send(updateMessage(update)))
    text.insert(0, words(random, 400_000))
    for (let i = 0; i < 12; i++) {
      source.transact(() => {
        for (let k = 0; k < 300; k++) text.insert(random.int(text.length + 1), words(random, 1 + random.int(8)))
      })
    }
    // Answered once everything before it is stored.
    expect(textOf(await roundTrip(seeder.ws))).toBe(text.toString())
    seeder.ws.close()
    await seeder.closed
    await waitFor(() => registry.size === 0, 'the room to be stored and unloaded')
    const stored = Y.encodeStateAsUpdate(source)

    const [sender, receiver] = [await connectSynced(wsUrl, 'other'), await connectSynced(wsUrl, 'other')]
    const events: Event[] = []
    let sent = 0
    /** The other room's client types one character: the server handles its frame when it next reads its socket. */
    const typeInOtherRoom = (): void => {
      sent += 1
      sender.text.insert(0, 'o')
    }
    registry.get('other')!.doc.on('update', () => events.push('other room'))

    // The load is held while the joiners and writers arrive, so that all their frames wait for it.
    const release = persistence.hold('load', 'cold')
    const joiners = Array.from({ length: 12 }, () => connectClient(wsUrl, 'cold'))
    const writers: RawSocket[] = []
    const written: string[] = []
    for (let w = 0; w < 30; w++) {
      const raw = await openRaw(`${wsUrl}/cold`)
      // A client that had the document (it came back, or another process served it) and edits it in scattered places.
      const doc = new Y.Doc()
      doc.clientID = 100 + w
      Y.applyUpdate(doc, stored)
      const own = doc.getText('text')
      doc.on('update', (update: Uint8Array) => raw.ws.send(updateMessage(update)))
      for (let k = 0; k < 12; k++) {
        const mark = `<${w}.${k}>`
        written.push(mark)
        doc.transact(() => {
          own.insert(random.int(own.length + 1), mark)
          for (let n = 0; n < 20; n++) own.insert(random.int(own.length + 1), words(random, 1 + random.int(5)))
        })
      }
      writers.push(raw)
    }
    // A third of the writers leave before the room is loaded: what they wrote is applied and stored all the same.
    for (const raw of writers.slice(0, 10)) {
      raw.ws.close()
      await raw.closed
    }
    await waitFor(() => registry.get('cold')?.connectionCount === 12 + 20, 'the joiners and writers to join')
    const room = registry.get('cold')!
    room.doc.on('update', (_update: Uint8Array, origin: unknown) => {
      // Stored updates are applied with the room's load origin (a symbol); the rest came from the writers.
      const event: Event = typeof origin === 'symbol' ? 'stored' : 'waited'
      // The other room's client types when the room applies its first stored update, and again at the first frame that waited.
      if (!events.includes(event)) typeInOtherRoom()
      events.push(event)
    })
    release()
    expect(await room.loaded).toBe(true)

    // The other room's frames were handled between the cold room's steps: after its first stored update and before
    // its last, and after the first frame that waited for it and before the last.
    const between = (kind: Event): boolean => {
      const first = events.indexOf(kind)
      const last = events.lastIndexOf(kind)
      return first >= 0 && events.slice(first, last).includes('other room')
    }
    // s: a stored update applied, w: a frame that waited, o: the other room's, with run lengths.
    console.log(`cold load: ${events.map((event) => event[0]).join('').replace(/(.)\1+/g, (run, kind: string) => `${kind}${run.length} `)}`)
    expect(events.filter((event) => event === 'waited').length).toBe(30 * 12)
    expect([between('stored'), between('waited')]).toEqual([true, true])
    await waitFor(() => receiver.text.toString() === 'o'.repeat(sent), 'the other room to relay every edit')

    // Every joiner, the writers still connected and a newcomer hold the same text, with every write in it once.
    await waitFor(() => joiners.every((joiner) => joiner.provider.synced), 'the joiners to sync')
    const expected = room.doc.getText('text').toString()
    const newcomer = await openRaw(`${wsUrl}/cold`)
    expect(textOf(await roundTrip(newcomer.ws))).toBe(expected)
    await waitFor(() => joiners.every((joiner) => joiner.text.toString() === expected), 'the joiners to converge')
    for (const mark of written) expect(expected.split(mark).length).toBe(2)
    for (const raw of [...writers.slice(10), newcomer]) raw.ws.close()
  })
})
