import { createServer as createNetServer } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { pino } from 'pino'
import { Writable } from 'node:stream'
import { ConfigError, parseConfig } from '../../server/config.ts'
import { settingsFromOptions } from '../../server/options.ts'
import { ServerStartError, startServer, type CotextServer } from '../../server/start.ts'
import { connectSynced, destroyAllClients } from './helpers/clients.ts'
import { makeTempDir, stopAllServers } from './helpers/server-process.ts'
import { waitFor } from './helpers/wait-for.ts'

/** startServer (cotext/server) in this process: options, start-up failures, close(). */

vi.setConfig({ testTimeout: 20_000 })

const started: CotextServer[] = []

afterEach(async () => {
  destroyAllClients()
  await Promise.all(started.splice(0).map((server) => server.close()))
  await stopAllServers()
})

/** A pino logger whose lines land in `lines`. */
function capturingLogger(lines: Array<Record<string, unknown>>) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>)
      done()
    },
  })
  return pino({ level: 'debug' }, sink)
}

async function start(options: Parameters<typeof startServer>[0]): Promise<CotextServer> {
  const server = await startServer(options)
  started.push(server)
  return server
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createNetServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

describe('settingsFromOptions', () => {
  it('takes the command line defaults for missing options, never the environment', () => {
    vi.stubEnv('PORT', '9999')
    try {
      const defaults = parseConfig([], {})
      if (defaults.help) throw new Error('unexpected --help')
      expect(settingsFromOptions({})).toEqual(defaults.config)
      expect(settingsFromOptions({ port: 0, authSecret: 's'.repeat(32), compactAfter: 7 })).toEqual({ ...defaults.config, port: 0, authSecret: 's'.repeat(32), compactAfter: 7 })
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('checks every option as the command line checks its flag, naming the option', () => {
    expect(() => settingsFromOptions({ port: 70000 })).toThrow(new ConfigError('option port must be an integer from 0 to 65535, got "70000"'))
    expect(() => settingsFromOptions({ authSecret: 'short' })).toThrow(new ConfigError('option authSecret must be at least 32 bytes long (HS256 needs a 256-bit key)'))
    expect(() => settingsFromOptions({ logLevel: 'loud' })).toThrow(/^option logLevel must be one of fatal, error/)
    expect(() => settingsFromOptions({ port: null })).toThrow(new ConfigError('option port must be a string, a number, a boolean or a list of strings, got null'))
    expect(() => settingsFromOptions({ port: '-1' })).toThrow(new ConfigError('option port must be an integer from 0 to 65535, got "-1"'))
    expect(() => settingsFromOptions({ prot: 1234 })).toThrow(/^unknown option "prot"; the options are host, port, dataDir/)
    expect(settingsFromOptions({ authSecret: null }).authSecret).toBe(null)
  })

  it('passes booleans and lists as the command line spells them (lists comma-separated)', () => {
    expect(settingsFromOptions({ host: ['a', 'b'] }).host).toBe('a,b')
    expect(settingsFromOptions({ host: true }).host).toBe('true')
    expect(settingsFromOptions({ port: '8080' }).port).toBe(8080)
  })
})

describe('startServer', () => {
  it('listens on a free port, syncs clients, and close() stores every room and frees the port', async () => {
    const dataDir = makeTempDir()
    const lines: Array<Record<string, unknown>> = []
    const server = await start({ port: 0, dataDir, logger: capturingLogger(lines) })
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`)
    expect(lines.map((line) => line.msg)).toEqual(['AUTH_SECRET is not set: the server is OPEN, anyone who can reach it can read and write every room', 'listening'])

    const wsUrl = server.url.replace('http', 'ws')
    const a = await connectSynced(wsUrl, 'notes')
    const b = await connectSynced(wsUrl, 'notes')
    a.text.insert(0, 'stored')
    await waitFor(() => b.text.toString() === 'stored', 'the edit at b')
    const closing = server.close()
    expect(server.close()).toBe(closing)
    await closing
    expect(lines.at(-1)!.msg).toBe('stopped')
    expect(await portIsFree(server.port)).toBe(true)

    const again = await start({ port: 0, dataDir, logLevel: 'silent' })
    const c = await connectSynced(again.url.replace('http', 'ws'), 'notes')
    expect(c.text.toString()).toBe('stored')
  })

  it('rejects with ServerStartError when the data directory is held, leaving nothing open', async () => {
    const dataDir = makeTempDir()
    const first = await start({ port: 0, dataDir, logLevel: 'silent' })
    const attempt = startServer({ port: 0, dataDir, logLevel: 'silent' })
    await expect(attempt).rejects.toThrow(ServerStartError)
    await expect(attempt).rejects.toThrow(`cannot open the data directory ${dataDir}: `)
    await first.close()
  })

  it('rejects with ServerStartError when the port is taken, and releases the data directory', async () => {
    const dataDir = makeTempDir()
    const first = await start({ port: 0, dataDir: makeTempDir(), logLevel: 'silent' })
    await expect(startServer({ port: first.port, dataDir, logLevel: 'silent' })).rejects.toThrow(new RegExp(`^cannot listen on 127\\.0\\.0\\.1:${first.port}: .*EADDRINUSE`))
    // The failed start closed its LevelDB: another server can open the same directory.
    await start({ port: 0, dataDir, logLevel: 'silent' })
  })

  it('rejects a bad option with ConfigError before opening anything', async () => {
    await expect(startServer({ port: -1 })).rejects.toThrow(new ConfigError('option port must be an integer from 0 to 65535, got "-1"'))
  })
})
