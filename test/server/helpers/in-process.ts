import { pino } from 'pino'
import { Metrics } from '../../../server/metrics.ts'
import { LevelStore } from '../../../server/persistence.ts'
import { RoomRegistry } from '../../../server/rooms.ts'
import { createServer, type RunningServer } from '../../../server/server.ts'
import { StoreWriter } from '../../../server/store-writer.ts'
import { GatedStore } from './gated-store.ts'
import { makeTempDir } from './server-process.ts'

/** A server running in the test's own process, on a LevelDB store whose operations the test can hold. */
export interface InProcessServer {
  server: RunningServer
  registry: RoomRegistry
  metrics: Metrics
  persistence: GatedStore
  wsUrl: string
  /** Releases whatever the test still holds, closes the server, then the store. */
  stop(): Promise<void>
}

/**
 * Starts a server in this process on 127.0.0.1 (a free port, temporary directories), so that a test can read
 * its rooms and hold its store's loads and writes (GatedStore); the caller stops it.
 */
export async function startInProcessServer(fanoutWindowMs = 20): Promise<InProcessServer> {
  const logger = pino({ level: 'silent' })
  const persistence = new GatedStore(await LevelStore.open(makeTempDir()))
  const metrics = new Metrics()
  const writer = new StoreWriter(persistence, { metrics, logger, batchMs: 0 })
  const registry = new RoomRegistry({ writer, metrics, logger, compactAfter: 500, fanoutWindowMs })
  const server = await createServer(
    { host: '127.0.0.1', port: 0, authSecret: null, maxMessageBytes: 1 << 20, pingIntervalMs: 30_000, webDir: makeTempDir() },
    { registry, metrics, logger },
  )
  const stop = async (): Promise<void> => {
    persistence.releaseAll()
    await server.close()
    await persistence.close()
  }
  return { server, registry, metrics, persistence, wsUrl: server.url.replace('http', 'ws'), stop }
}
