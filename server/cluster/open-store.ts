import type { Logger } from 'pino'
import type { Persistence } from '../persistence.ts'
import { LevelPersistence } from '../persistence.ts'
import { ClusterPersistence } from './cluster-persistence.ts'
import type { RoomFollower } from './cluster-persistence.ts'
import { PgPersistence, PgStore } from './pg-store.ts'

export interface OpenedStore {
  persistence: Persistence
  /** Cluster mode only: what makes rooms follow their streams. */
  follower?: RoomFollower
  /** Extra /metrics text (cluster mode). */
  metrics?: () => string
  /** What the "listening" line says about where rooms live. */
  description: Record<string, string>
}

/**
 * The store the settings ask for: Redis streams with PostgreSQL (REDIS_URL and DATABASE_URL),
 * PostgreSQL alone (DATABASE_URL), or LevelDB in DATA_DIR (neither). The settings check that
 * REDIS_URL never comes without DATABASE_URL.
 */
export async function openStore(settings: { redisUrl: string | null; databaseUrl: string | null; dataDir: string }, logger: Logger): Promise<OpenedStore> {
  const { redisUrl, databaseUrl, dataDir } = settings
  if (redisUrl !== null && databaseUrl !== null) {
    const cluster = await ClusterPersistence.open({ redisUrl, databaseUrl, logger })
    return { persistence: cluster, follower: cluster, metrics: () => cluster.metrics.render(), description: { store: 'cluster', processId: cluster.processId } }
  }
  if (databaseUrl !== null) {
    const pg = await PgStore.open(databaseUrl, (error) => logger.warn({ err: error }, 'PostgreSQL connection error'))
    return { persistence: new PgPersistence(pg), description: { store: 'postgresql' } }
  }
  return { persistence: await LevelPersistence.open(dataDir), description: { store: 'leveldb', dataDir } }
}
