import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { connectSynced, destroyAllClients, textIn } from './helpers/clients.ts'
import { makeTempDir, startServer, stopAllServers } from './helpers/server-process.ts'
import { sleep, waitFor } from './helpers/wait-for.ts'

// Each of the ten rounds starts two real server processes: about 100 s on a quiet 2-core machine, more
// on a busy one.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 30_000 })

afterEach(destroyAllClients)
afterAll(stopAllServers)

const ROUNDS = 10

describe('a SIGKILL at a random moment', () => {
  it.each(fuzzSeeds(1, 303))('loses no edit that another client had received (seed %i)', async (seed) => {
    console.log(`kill seed ${seed}`)
    const random = new Random(seed)
    const dataDir = makeTempDir()
    let observedTotal = 0
    for (let round = 0; round < ROUNDS; round++) {
      const room = `kill-${round}`
      const server = await startServer({ dataDir })
      const writer = await connectSynced(server.wsUrl, room)
      const observer = await connectSynced(server.wsUrl, room)
      // The writer appends one character at a time, so every text the server ever held or sent
      // is a prefix of the writer's, and what the observer saw must be a prefix of what survives.
      let typing = true
      const typed = (async () => {
        for (let i = 0; typing; i++) {
          writer.text.insert(writer.text.length, String.fromCharCode(97 + (i % 26)))
          await sleep(random.int(4))
        }
      })()
      await sleep(30 + random.int(400))
      await server.stop('SIGKILL')
      // The socket's close comes after every byte the server managed to send.
      await waitFor(() => !observer.provider.wsconnected, 'the observer to see the server gone')
      const observed = observer.text.toString()
      typing = false
      await typed
      const written = writer.text.toString()
      // Neither client may hand its copy to the restarted server.
      writer.destroy()
      observer.destroy()

      const restarted = await startServer({ dataDir })
      const survived = await textIn(restarted, room)
      await restarted.stop('SIGTERM')
      expect({ round, observedIsPrefix: survived.startsWith(observed), survivedIsPrefix: written.startsWith(survived) }).toEqual({
        round,
        observedIsPrefix: true,
        survivedIsPrefix: true,
      })
      observedTotal += observed.length
    }
    // The rounds did relay edits, so the prefix checks above had something to check.
    expect(observedTotal).toBeGreaterThan(0)
  })
})
