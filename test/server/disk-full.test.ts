import { execFileSync } from 'node:child_process'
import { closeSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { Random, fuzzSeeds } from '../helpers/random.ts'
import { connectSynced, destroyAllClients, textIn } from './helpers/clients.ts'
import { makeTempDir, metric, startServer, stopAllServers } from './helpers/server-process.ts'
import { sleep, waitFor } from './helpers/wait-for.ts'

vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 })

const mounts: string[] = []

/** Mounts a tmpfs of `size` on a new temporary directory; null where mounting is not allowed. */
function mountTmpfs(size: string): string | null {
  const dir = makeTempDir('cotext-tmpfs-')
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' })
  } catch (error) {
    console.log(`disk-full test skipped: cannot mount a tmpfs here (${(error as Error).message.split('\n')[0]})`)
    return null
  }
  mounts.push(dir)
  return dir
}

/** Writes zeros to `path` until the file system says it is full. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w')
  const chunk = Buffer.alloc(4096)
  try {
    for (;;) writeSync(fd, chunk)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  } finally {
    closeSync(fd)
  }
}

const health = async (url: string): Promise<{ status: number; body: { status: string } }> => {
  const response = await fetch(`${url}/healthz`)
  return { status: response.status, body: (await response.json()) as { status: string } }
}

afterEach(destroyAllClients)
afterAll(async () => {
  // Lazily, so that a server a failed test left running does not hold the mount; then the
  // servers are killed and the (now plain) directories removed.
  for (const dir of mounts.splice(0)) execFileSync('umount', ['-l', dir])
  await stopAllServers()
})

describe('a full disk', () => {
  it.each(fuzzSeeds(1, 404))('stops serving until every room is written again, then has lost nothing (seed %i)', async (seed) => {
    console.log(`disk-full seed ${seed}`)
    const random = new Random(seed)
    const mount = mountTmpfs('8m')
    if (mount === null) return
    const dataDir = join(mount, 'data')
    const server = await startServer({ dataDir })
    const writer = await connectSynced(server.wsUrl, 'full')
    const reader = await connectSynced(server.wsUrl, 'full')
    writer.text.insert(0, 'before|')
    await waitFor(() => reader.text.toString() === 'before|', 'the first edit to reach the reader')
    const storedBefore = await metric(server, 'cotext_stored_updates_total')

    fillDisk(join(mount, 'filler'))
    // A write that still fits in a page the log already holds succeeds; type until one does not.
    let typed = 0
    while ((await health(server.url)).status === 200) {
      writer.text.insert(writer.text.length, String.fromCharCode(97 + (typed++ % 26)))
      await sleep(random.int(5))
      if (typed > 5000) throw new Error('5000 edits were stored on a full disk')
    }
    expect((await health(server.url)).body.status).toBe('storage_unavailable')
    await waitFor(() => reader.closes.some((close) => close.code === 1013), 'the reader to be closed with 1013')
    const storedWhileFull = await metric(server, 'cotext_stored_updates_total')
    expect(await metric(server, 'cotext_storage_healthy')).toBe(0)
    // Counted stored: at most the edits typed before the failing one.
    expect(storedWhileFull - storedBefore).toBeLessThan(typed)
    // The writer keeps editing while it is away; its client re-sends all of it on reconnect.
    for (let i = 0; i < 20; i++) writer.text.insert(writer.text.length, String(i % 10))
    await sleep(300 + random.int(300))
    expect((await health(server.url)).status).toBe(503)

    rmSync(join(mount, 'filler'))
    await waitFor(async () => (await health(server.url)).status === 200, 'the store to be reopened and written again', 20_000)
    const expected = writer.text.toString()
    await waitFor(() => reader.text.toString() === expected, 'the reader to get every edit back', 20_000)
    expect(await metric(server, 'cotext_storage_recoveries_total')).toBeGreaterThanOrEqual(1)
    expect(await metric(server, 'cotext_connections_closed_total{reason="storage_unavailable"}')).toBeGreaterThanOrEqual(1)
    const errors = server.logs.filter((line) => line.level >= 50).map((line) => line.msg)
    console.log(`failed after ${typed} edits; ${errors.length} error lines: ${[...new Set(errors)].join(' / ')}`)
    expect(errors[0]).toMatch(/^storage write failed/)

    // What the reader got was stored first, so even a SIGKILL keeps it.
    writer.destroy()
    reader.destroy()
    await server.stop('SIGKILL')
    const restarted = await startServer({ dataDir })
    expect(await textIn(restarted, 'full')).toBe(expected)
    await restarted.stop('SIGTERM')
  })
})
