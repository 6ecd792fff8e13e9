import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import type { Logger } from 'pino'
import type { Config } from './config.ts'
import { createLogger } from './log.ts'
import { Metrics } from './metrics.ts'
import { openStore } from './cluster/open-store.ts'
import type { OpenedStore } from './cluster/open-store.ts'
import { RoomRegistry } from './rooms.ts'
import { createServer } from './server.ts'
import { settingsFromOptions } from './options.ts'
import { StoreWriter } from './store-writer.ts'
import type { HistorySettings } from './room-history.ts'
import type { RecordStore } from './records.ts'

/**
 * The server as a function: what `npm start` runs, for an app that runs Cotext's server inside its
 * own process (`import { startServer } from 'cotext/server'`).
 */

/**
 * Every server setting (the same names and checks as the command line's, see `--help`), each
 * optional: a missing one takes the command line's default, never an environment variable.
 */
export type ServerOptions = { [Key in keyof Config]?: Config[Key] } & {
  /** Where the server logs; by default JSON lines on stdout at `logLevel`. */
  logger?: Logger
}

export interface CotextServer {
  /** `http://host:port`; each room is a y-websocket endpoint at `ws://host:port/<room>`. */
  url: string
  /** The port it listens on (the one the OS picked when `port` was 0). */
  port: number
  /**
   * Stops accepting, closes every connection with 1001, stores every room, closes the storage and
   * frees the port. Calling it again returns the same promise.
   */
  close(): Promise<void>
}

/** The server could not start: the data directory is held or unusable, Redis or PostgreSQL cannot be reached, or the port is taken. */
export class ServerStartError extends Error {
  override name = 'ServerStartError'
}

/**
 * Opens the storage, listens, and resolves once clients can connect. Rejects with a ConfigError
 * for a bad setting and a ServerStartError (with the underlying error as `cause`) when it cannot
 * start; either way nothing is left open.
 */
export async function startServer(options: ServerOptions = {}): Promise<CotextServer> {
  const config = settingsFromOptions(options)
  const logger = options.logger ?? createLogger(config.logLevel)
  const dataDir = resolve(config.dataDir)
  const metrics = new Metrics()

  let opened: OpenedStore
  try {
    opened = await openStore({ ...config, dataDir }, logger)
  } catch (error) {
    const where = config.databaseUrl === null ? `cannot open the data directory ${dataDir}` : config.redisUrl === null ? 'cannot reach PostgreSQL' : 'cannot reach Redis or PostgreSQL'
    throw new ServerStartError(`${where}: ${(error as Error).message}`, { cause: error })
  }
  const persistence = opened.store
  if (opened.metrics !== undefined) metrics.sections.push(opened.metrics)
  const writer = new StoreWriter(persistence, { metrics, logger, batchMs: config.storeBatchMs })
  const registry = new RoomRegistry({
    writer,
    metrics,
    logger,
    // Cluster mode compacts into PostgreSQL under a lease (ClusterStore), after COMPACT_AFTER appends.
    compactAfter: opened.roomsCompact ? config.compactAfter : Number.POSITIVE_INFINITY,
    storeBeforeRelay: config.storeBeforeRelay,
    fanoutWindowMs: config.fanoutWindowMs,
    answerSliceBytes: config.answerSliceBytes,
    answerWorkerBytes: config.answerWorkerBytes,
    maxBufferedBytes: config.maxBufferedBytes,
    follower: opened.follower,
    history: config.history ? historySettings(config, opened.records) : undefined,
  })

  let server: Awaited<ReturnType<typeof createServer>>
  try {
    server = await createServer(config, { registry, metrics, logger })
  } catch (error) {
    await persistence.close()
    throw new ServerStartError(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`, { cause: error })
  }

  const auth = config.authSecret !== null
  if (!auth) logger.warn('AUTH_SECRET is not set: the server is OPEN, anyone who can reach it can read and write every room')
  // Last of the start-up lines, so that whoever waits for it has seen the others.
  logger.info({ url: server.url, port: server.port, host: config.host, ...opened.description, auth, webDir: config.webDir }, 'listening')

  let closing: Promise<void> | null = null
  const shutDown = async (): Promise<void> => {
    logger.info({ rooms: registry.size, connections: registry.connectionCount }, 'shutting down')
    await server.close()
    await writer.idle()
    await persistence.close()
    logger.info('stopped')
  }
  return {
    url: server.url,
    port: server.port,
    close: () => (closing ??= shutDown()),
  }
}

/** Every room's history settings (room-history.ts) from the server's. */
function historySettings(config: Config, records: RecordStore): HistorySettings {
  return {
    records,
    attest: config.authSecret !== null,
    textName: 'text',
    versions: { idleMs: config.versionIdleMs, maxEditingMs: config.versionEveryMs, retentionMs: config.versionRetentionDays * 86_400_000 },
    maxRevertRanges: config.maxRevertRanges,
    revertWindowMs: config.revertWindowDays * 86_400_000,
    processTag: randomBytes(4).toString('hex'),
  }
}
