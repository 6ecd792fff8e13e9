import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { connectClient, destroyAllClients, insertUpdate, openRaw, roundTrip, textOf, updateMessage } from './helpers/clients.ts'
import { getJson, makeTempDir, startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { sleep, waitFor } from './helpers/wait-for.ts'

// Each test starts real server processes; a busy machine can make that slow.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 })

afterEach(destroyAllClients)
afterAll(stopAllServers)

/** Waits until every room has been stored and unloaded, then reads each room back after a SIGKILL and a restart. */
async function textsAfterRestart(server: ServerProcess, rooms: string[]): Promise<string[]> {
  await waitFor(async () => (await getJson<{ rooms: number }>(server, '/healthz')).rooms === 0, 'every room to be stored and unloaded', 20_000)
  await server.stop('SIGKILL')
  const restarted = await startServer({ dataDir: server.dataDir })
  const texts: string[] = []
  for (const room of rooms) {
    const raw = await openRaw(`${restarted.wsUrl}/${room}`)
    texts.push(textOf(await roundTrip(raw.ws)))
    raw.ws.close()
  }
  return texts
}

describe('updates sent while a room loads', () => {
  it.each(fuzzSeeds(1, 101))('are stored when 200 senders each open a new room, send one update and leave ~20 ms later (seed %i)', async (seed) => {
    console.log(`load-race seed ${seed}`)
    const random = new Random(seed)
    const server = await startServer({ dataDir: makeTempDir() })
    const rooms = Array.from({ length: 200 }, (_, i) => `race-${i}`)
    await Promise.all(
      rooms.map(async (room, i) => {
        await sleep(random.int(30))
        const closeAfter = 10 + random.int(21)
        const ws = new WebSocket(`${server.wsUrl}/${room}`)
        ws.on('error', () => {})
        await new Promise<void>((resolve) => ws.once('open', () => resolve()))
        ws.send(updateMessage(insertUpdate(`text of room ${i}`, i + 1)))
        await sleep(closeAfter)
        const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()))
        ws.close()
        await closed
      }),
    )
    expect(await textsAfterRestart(server, rooms)).toEqual(rooms.map((_, i) => `text of room ${i}`))
    expect(server.logs.filter((line) => line.level >= 50)).toEqual([])
  })

  it.each(fuzzSeeds(1, 202))('are stored when the stock client edits right after `connected` and is destroyed 50 ms later (seed %i)', async (seed) => {
    console.log(`load-race stock-client seed ${seed}`)
    const random = new Random(seed)
    const server = await startServer({ dataDir: makeTempDir() })
    const rooms = Array.from({ length: 40 }, (_, i) => `stock-${i}`)
    await Promise.all(
      rooms.map(async (room, i) => {
        await sleep(random.int(50))
        const client = connectClient(server.wsUrl, room)
        await new Promise<void>((resolve) => {
          client.provider.on('status', ({ status }: { status: string }) => {
            if (status === 'connected') resolve()
          })
        })
        client.text.insert(0, `edit ${i}`)
        await sleep(50)
        client.destroy()
      }),
    )
    expect(await textsAfterRestart(server, rooms)).toEqual(rooms.map((_, i) => `edit ${i}`))
    expect(server.logs.filter((line) => line.level >= 50)).toEqual([])
  })
})
