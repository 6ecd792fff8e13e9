/**
 * `npm start`: Cotext's server. Every room is a y-websocket endpoint, `ws://HOST:PORT/<room>`,
 * stored in LevelDB under DATA_DIR; GET / serves the web page, /healthz and /metrics report.
 *
 * Settings: `--help` (see config.ts). Close codes: close-codes.ts. Tokens: token.ts.
 *
 * Logs are JSON lines on stdout. Once the server listens it logs a line with
 * `"msg":"listening"` and its `url` and `port`, which scripts can wait for (with `--port 0`
 * the OS picks the port). SIGINT or SIGTERM stops accepting, closes every connection with
 * 1001, stores every room, closes LevelDB and exits 0; a second signal exits at once.
 *
 * Exit status: 0 after a clean stop or --help, 1 when the server cannot start (port in use,
 * DATA_DIR held by another process) or a shutdown stalls, 2 for a bad setting.
 */
import { resolve } from 'node:path'
import { ConfigError, helpText, parseConfig } from './config.ts'
import type { Config } from './config.ts'
import { createLogger } from './log.ts'
import { Metrics } from './metrics.ts'
import { JournaledStore } from './journal.ts'
import { LevelStore } from './persistence.ts'
import { RoomRegistry } from './rooms.ts'
import { createServer } from './server.ts'
import { StoreWriter } from './store-writer.ts'

const SHUTDOWN_TIMEOUT_MS = 10_000

function readConfig(): Config {
  try {
    const result = parseConfig(process.argv.slice(2), process.env)
    if (!result.help) return result.config
    process.stdout.write(helpText())
    process.exit(0)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`cotext server: ${error.message}\n`)
    process.exit(2)
  }
}

async function main(): Promise<void> {
  const config = readConfig()
  const logger = createLogger(config.logLevel)
  const dataDir = resolve(config.dataDir)
  const metrics = new Metrics()

  let persistence: JournaledStore
  try {
    persistence = await JournaledStore.open(await LevelStore.open(dataDir), dataDir)
  } catch (error) {
    logger.fatal({ err: error, dataDir }, 'cannot open the data directory')
    process.exit(1)
  }
  const writer = new StoreWriter(persistence, { metrics, logger, batchMs: config.storeBatchMs })
  const registry = new RoomRegistry({ writer, metrics, logger, compactAfter: config.compactAfter, storeBeforeRelay: config.storeBeforeRelay })

  let server: Awaited<ReturnType<typeof createServer>>
  try {
    server = await createServer(config, { registry, metrics, logger })
  } catch (error) {
    logger.fatal({ err: error, host: config.host, port: config.port }, 'cannot listen')
    await persistence.close()
    process.exit(1)
  }

  const auth = config.authSecret !== null
  if (!auth) logger.warn('AUTH_SECRET is not set: the server is OPEN, anyone who can reach it can read and write every room')
  // Last of the start-up lines, so that whoever waits for it has seen the others.
  logger.info({ url: server.url, port: server.port, host: config.host, dataDir, auth, webDir: config.webDir }, 'listening')

  let stopping = false
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting')
      process.exit(1)
    }
    stopping = true
    logger.info({ signal, rooms: registry.size, connections: registry.connectionCount }, 'shutting down')
    setTimeout(() => {
      logger.error('shutdown timed out: some rooms may not be stored')
      process.exit(1)
    }, SHUTDOWN_TIMEOUT_MS).unref()
    await server.close()
    await writer.idle()
    await persistence.close()
    logger.info('stopped')
    process.exit(0)
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, (received) => void stop(received))
}

await main()
