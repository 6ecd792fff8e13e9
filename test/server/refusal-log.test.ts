import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { connect } from 'node:net'
import { openRaw } from './helpers/clients.ts'
import { startServer, stopAllServers } from './helpers/server-process.ts'
import type { ServerProcess } from './helpers/server-process.ts'
import { sleep, waitFor } from './helpers/wait-for.ts'

/**
 * Issue 19 items 7 and 8: every refusal and close is logged, once per connection and reason,
 * within a line budget for the whole process; lines left out are counted into the next one.
 * Before, each malformed frame wrote a line with no limit, and HTTP requests that were broken or
 * too slow (slowloris) wrote none.
 */

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 })

let server: ServerProcess

beforeAll(async () => {
  server = await startServer()
})
afterAll(stopAllServers)

const MALFORMED = 'closing connection: malformed message'

describe('the refusal log', () => {
  it('accounts for every malformed frame of a flood of connections, in lines written plus lines counted as suppressed', async () => {
    const flood = 160
    const sockets = await Promise.all(Array.from({ length: flood }, () => openRaw(`${server.wsUrl}/flood`)))
    const lines = server.logs.length
    for (const raw of sockets) raw.ws.send(new Uint8Array([9]))
    const closes = await Promise.all(sockets.map((raw) => raw.closed))
    expect(new Set(closes.map((close) => close.code))).toEqual(new Set([4400]))
    // One more refusal after the budget has had time to earn a line: it carries the count left out.
    await sleep(200)
    const last = await openRaw(`${server.wsUrl}/flood`)
    last.ws.send(new Uint8Array([9]))
    await last.closed
    const count = (): { malformed: Array<Record<string, unknown>>; suppressed: number } => {
      const written = server.logs.slice(lines).filter((line) => line.kind !== undefined)
      return {
        malformed: written.filter((line) => line.msg === MALFORMED),
        suppressed: written.reduce((sum, line) => sum + ((line.suppressed as number | undefined) ?? 0), 0),
      }
    }
    await waitFor(() => count().malformed.length + count().suppressed === flood + 1, 'every refusal to be accounted for')
    const { malformed, suppressed } = count()
    console.log(`refusal log: ${flood + 1} malformed frames on as many connections, ${malformed.length} lines written, ${suppressed} counted as suppressed`)
    expect(malformed.length + suppressed).toBe(flood + 1)
    expect(malformed.length).toBeGreaterThanOrEqual(100)
    expect(malformed.every((line) => line.kind === 'malformed' && line.code === 4400)).toBe(true)
  })

  it('logs an HTTP request it cannot read, and answers it as Node would', async () => {
    const lines = server.logs.length
    const answer = await new Promise<string>((resolve) => {
      let text = ''
      const socket = connect(server.port, '127.0.0.1', () => socket.write('NOT A REQUEST\r\n\r\n'))
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()))
      socket.on('close', () => resolve(text))
    })
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request')
    await waitFor(() => server.logs.slice(lines).some((line) => line.msg === 'closing connection: unreadable HTTP request'), 'the log line')
    const line = server.logs.slice(lines).find((entry) => entry.msg === 'closing connection: unreadable HTTP request')!
    expect([line.kind, line.status, line.remote]).toEqual(['bad_request', 400, '127.0.0.1'])
  })
})
