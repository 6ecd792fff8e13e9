#!/usr/bin/env node
/**
 * `npm start` and the `cotext-server` bin: Cotext's server. Every room is a y-websocket endpoint,
 * `ws://HOST:PORT/<room>`, stored in LevelDB under DATA_DIR (PostgreSQL with DATABASE_URL; several
 * processes on Redis streams with REDIS_URL too: README, "Running several servers"); GET / serves the web page, /healthz
 * and /metrics report. The server itself is startServer (start.ts); this file is the command line.
 *
 * Settings: `--help` (see config.ts). Close codes: close-codes.ts. Tokens: token.ts.
 *
 * Logs are JSON lines on stdout. Once the server listens it logs a line with
 * `"msg":"listening"` and its `url` and `port`, which scripts can wait for (with `--port 0`
 * the OS picks the port). SIGINT or SIGTERM stops accepting, closes every connection with
 * 1001, stores every room, closes the store and exits 0; a second signal exits at once.
 *
 * Exit status: 0 after a clean stop or --help, 1 when the server cannot start (port in use,
 * DATA_DIR held by another process, PostgreSQL or Redis unreachable) or a shutdown stalls, 2 for a
 * bad setting.
 */
import { ConfigError, helpText, parseConfig } from './config.ts'
import type { Config } from './config.ts'
import { createLogger } from './log.ts'
import { startServer } from './start.ts'

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
  let server: Awaited<ReturnType<typeof startServer>>
  try {
    server = await startServer({ ...config, logger })
  } catch (error) {
    logger.fatal({ err: (error as Error).cause ?? error }, (error as Error).message)
    process.exit(1)
  }

  let stopping = false
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting')
      process.exit(1)
    }
    stopping = true
    logger.info({ signal }, 'signal received: stopping')
    setTimeout(() => {
      logger.error('shutdown timed out: some rooms may not be stored')
      process.exit(1)
    }, SHUTDOWN_TIMEOUT_MS).unref()
    await server.close()
    process.exit(0)
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, (received) => void stop(received))
}

await main()
