import type { Logger } from 'pino'
import { JournaledStore } from '../journal.ts'
import type { Store } from '../persistence.ts'
import { LevelStore } from '../persistence.ts'
import type { RecordStore } from '../records.ts'
import { ClusterStore } from './cluster-store.ts'
import type { RoomFollower } from './cluster-store.ts'
import { PgLogStore, PgStore } from './pg-store.ts'

export interface OpenedStore {
  store: Store
  /** Where the rooms' versions and change logs are kept, beside them. */
  records: RecordStore
  /** Cluster mode only: what makes rooms follow their streams. */
  follower?: RoomFollower
  /** Extra /metrics text (cluster mode). */
  metrics?: () => string
  /** What the "listening" line says about where rooms live. */
  description: Record<string, string>
  /** Cluster mode compacts rooms itself (see ClusterStore); the rooms must not. */
  roomsCompact: boolean
}

export interface StoreSettings {
  redisUrl: string | null
  databaseUrl: string | null
  /** Absolute. */
  dataDir: string
  compactAfter: number
  /** FSYNC: every write on disk before it is acknowledged. */
  fsync: boolean
}

/**
 * The store the settings ask for: Redis streams with PostgreSQL (REDIS_URL and DATABASE_URL),
 * PostgreSQL alone (DATABASE_URL), or LevelDB with its journal in DATA_DIR (neither). The
 * settings check that REDIS_URL never comes without DATABASE_URL.
 */
export async function openStore(settings: StoreSettings, logger: Logger): Promise<OpenedStore> {
  const { redisUrl, databaseUrl, dataDir, fsync } = settings
  if (redisUrl !== null && databaseUrl !== null) {
    const cluster = await ClusterStore.open({ redisUrl, databaseUrl, logger, compactAfter: settings.compactAfter, fsync })
    return { store: cluster, records: cluster.records(), follower: cluster, metrics: () => cluster.metrics.render(), description: { store: 'cluster', processId: cluster.processId }, roomsCompact: false }
  }
  if (databaseUrl !== null) {
    const pg = await PgStore.open(databaseUrl, (error) => logger.warn({ err: error }, 'PostgreSQL connection error'), { fsync })
    await pg.checkDurability(logger)
    return { store: new PgLogStore(pg), records: pg.records(), description: { store: 'postgresql' }, roomsCompact: true }
  }
  const level = await LevelStore.open(dataDir, { fsync })
  return { store: await JournaledStore.open(level, dataDir, { fsync }), records: level.records(), description: { store: 'leveldb', dataDir }, roomsCompact: true }
}
