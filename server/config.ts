import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'

/**
 * Every server setting, read from a command-line flag or else an environment variable or else a
 * default. One table drives parsing and `--help`, so the two cannot drift apart.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface Config {
  host: string
  /** 0 asks the OS for a free port; the "listening" log line says which one it gave. */
  port: number
  dataDir: string
  /** null: the server is open to anyone who can reach it. */
  authSecret: string | null
  maxMessageBytes: number
  pingIntervalMs: number
  /** Stored updates per room after which the room's updates are merged into one. */
  compactAfter: number
  /** Extra wait before each write to gather more updates into it (0: only those that arrive during the previous write). */
  storeBatchMs: number
  /** false relays updates before they are stored; only for measuring what storing first costs. */
  storeBeforeRelay: boolean
  webDir: string
  logLevel: LogLevel
  /** A connection whose unsent data passes this many bytes is dropped (a client that does not read). */
  maxBufferedBytes: number
  /** Larger awareness states are dropped. */
  maxAwarenessBytes: number
  /** Bytes of updates a room may hold waiting for dependencies that never came. */
  maxPendingBytes: number
  maxConnectionsPerRoom: number
  maxConnectionsPerAddress: number
  /** Origins (`https://host:port`) besides the server's own that may open WebSockets. */
  allowedOrigins: string[]
  /** Without AUTH_SECRET: host names (`.example.com`: and every name under it; `*`: any) besides the server's own that requests may name in `Host`. */
  allowedHosts: string[]
  /** Bytes held in unfinished WebSocket messages across every connection; past it the sender is closed with 1013. */
  maxUnfinishedBytes: number
  /** Bytes one connection may hold in an unfinished message; past it it is closed with 1009. */
  maxConnectionUnfinishedBytes: number
  /** Structs plus deleted ranges in one update; a larger update is refused and its sender closed with 4413. */
  maxUpdateItems: number
  /** Structs plus deleted ranges a room may hold waiting for dependencies that never came. */
  maxPendingItems: number
  /** Milliseconds of applying one client address's frames may take at once (it earns back 100 each second). */
  maxApplyMs: number
  /** Whether `.map` files under the web folder are served. */
  serveSourceMaps: boolean
  /** The longest a relay waits to be batched with others in a busy room (ms; 0: every relay at once). */
  fanoutWindowMs: number
  /** A sync answer larger than this goes out in slices of this size (0: whole). */
  answerSliceBytes: number
  /** A document of this size or more has its large sync answers encoded off the event loop (0: never). */
  answerWorkerBytes: number
  /** Cluster mode: rooms on this Redis's streams (requires databaseUrl). */
  redisUrl: string | null
  /** Rooms stored in this PostgreSQL instead of LevelDB. */
  databaseUrl: string | null
  /** Every write is on disk (fdatasync, a synchronous PostgreSQL commit) before anything it holds is relayed or answered. */
  fsync: boolean
  /** Attested authorship, the change log, versions and the REST API's history routes (docs/authorship-server.md). */
  history: boolean
  /** A version is taken after this long without edits… */
  versionIdleMs: number
  /** …and at least this often while edits go on. */
  versionEveryMs: number
  /** Automatic versions older than this many days are dropped; 0 keeps them. */
  versionRetentionDays: number
  /** A revert whose window holds more changed ranges is refused with 413. */
  maxRevertRanges: number
  /** Deleted text stays revertable this many days; older deletions lose their content when the room loads. */
  revertWindowDays: number
}

export type ParseResult = { help: true } | { help: false; config: Config }

/** A setting a user got wrong: main prints the message and exits with status 2. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

type Key = keyof Config

interface Setting {
  key: Key
  flag: string
  env: string
  /** The default as a user would type it; null means unset. */
  fallback: string | null
  help: string
  parse: (raw: string, source: string) => Config[Key]
}

export const MIN_SECRET_BYTES = 32
const defaultWebDir = fileURLToPath(new URL('../web/dist', import.meta.url))

function integer(min: number, max: number) {
  return (raw: string, source: string): number => {
    const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new ConfigError(`${source} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`)
    }
    return value
  }
}

function text(raw: string, source: string): string {
  if (raw.trim() === '') throw new ConfigError(`${source} must not be empty`)
  return raw
}

function secret(raw: string, source: string): string {
  // RFC 7518 §3.2: an HS256 key must be at least as long as the hash output (256 bits).
  if (Buffer.byteLength(raw, 'utf8') < MIN_SECRET_BYTES) {
    throw new ConfigError(`${source} must be at least ${MIN_SECRET_BYTES} bytes long (HS256 needs a 256-bit key)`)
  }
  return raw
}

function origins(raw: string, source: string): string[] {
  const list = raw.split(',').map((item) => item.trim()).filter((item) => item !== '')
  return list.map((item) => {
    let url: URL | null = null
    try {
      url = new URL(item)
    } catch {}
    const bare = url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && url.search === '' && url.hash === '' && url.username === ''
    if (!bare) {
      throw new ConfigError(`${source} must list origins like https://example.com:8080, separated by commas; ${JSON.stringify(item)} is not one`)
    }
    return url!.origin
  })
}

function hosts(raw: string, source: string): string[] {
  const list = raw.split(',').map((item) => item.trim().toLowerCase()).filter((item) => item !== '')
  for (const item of list) {
    if (item !== '*' && !/^\.?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?$/.test(item)) {
      throw new ConfigError(`${source} must list host names like editor.example.com or .example.com (and every name under it), or *, separated by commas; ${JSON.stringify(item)} is not one`)
    }
  }
  return list
}

function boolean(raw: string, source: string): boolean {
  const value = raw.trim().toLowerCase()
  if (value === 'on' || value === 'true' || value === '1') return true
  if (value === 'off' || value === 'false' || value === '0') return false
  throw new ConfigError(`${source} must be on or off (true or false), got ${JSON.stringify(raw)}`)
}

function logLevel(raw: string, source: string): LogLevel {
  const level = LOG_LEVELS.find((name) => name === raw.trim().toLowerCase())
  if (level === undefined) throw new ConfigError(`${source} must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`)
  return level
}

export const SETTINGS: readonly Setting[] = [
  { key: 'host', flag: 'host', env: 'HOST', fallback: '127.0.0.1', help: 'interface to listen on (0.0.0.0 for every interface)', parse: text },
  { key: 'port', flag: 'port', env: 'PORT', fallback: '1234', help: 'TCP port; 0 picks a free one', parse: integer(0, 65535) },
  { key: 'dataDir', flag: 'data-dir', env: 'DATA_DIR', fallback: './data', help: 'LevelDB directory (and its write journal) where every room is stored, unless DATABASE_URL is set', parse: text },
  {
    key: 'authSecret', flag: 'auth-secret', env: 'AUTH_SECRET', fallback: null,
    help: `HS256 secret (>= ${MIN_SECRET_BYTES} bytes) that signs access tokens; unset = open server. Prefer the env var: flags show in ps`,
    parse: secret,
  },
  { key: 'maxMessageBytes', flag: 'max-message-bytes', env: 'MAX_MESSAGE_BYTES', fallback: String(16 * 1024 * 1024), help: 'largest accepted WebSocket message; larger ones close the connection with 1009', parse: integer(1024, 2 ** 31 - 1) },
  { key: 'pingIntervalMs', flag: 'ping-interval-ms', env: 'PING_INTERVAL_MS', fallback: '30000', help: 'ping every connection this often; one that misses a pong by the next ping is dropped', parse: integer(10, 3_600_000) },
  { key: 'storeBatchMs', flag: 'store-batch-ms', env: 'STORE_BATCH_MS', fallback: '0', help: 'wait this many ms before each write to gather more updates into it (every update is stored before it is relayed, so this adds to latency); 0 = one write per event-loop turn, plus whatever arrives during a write', parse: integer(0, 1000) },
  { key: 'storeBeforeRelay', flag: 'store-first', env: 'STORE_FIRST', fallback: 'on', help: 'off relays updates before they are stored (a crash then loses edits others saw); only for measuring', parse: boolean },
  { key: 'compactAfter', flag: 'compact-after', env: 'COMPACT_AFTER', fallback: '500', help: 'merge a room\'s stored updates after this many more are stored (into parts of <= 256 KiB)', parse: integer(2, 1_000_000) },
  { key: 'webDir', flag: 'web-dir', env: 'WEB_DIR', fallback: defaultWebDir, help: 'built web page served at / (a plain status page while it does not exist)', parse: text },
  { key: 'logLevel', flag: 'log-level', env: 'LOG_LEVEL', fallback: 'info', help: LOG_LEVELS.join(' | '), parse: logLevel },
  { key: 'maxBufferedBytes', flag: 'max-buffered-bytes', env: 'MAX_BUFFERED_BYTES', fallback: String(4 * 1024 * 1024), help: 'drop a connection whose unsent data passes this (a client that stopped reading)', parse: integer(65536, 2 ** 31 - 1) },
  { key: 'maxAwarenessBytes', flag: 'max-awareness-bytes', env: 'MAX_AWARENESS_BYTES', fallback: String(64 * 1024), help: 'larger awareness states are dropped, not relayed', parse: integer(256, 2 ** 31 - 1) },
  { key: 'maxPendingBytes', flag: 'max-pending-bytes', env: 'MAX_PENDING_BYTES', fallback: String(4 * 1024 * 1024), help: 'bytes of updates a room holds waiting for missing dependencies; past it the sender is closed with 4413', parse: integer(1024, 2 ** 31 - 1) },
  { key: 'maxConnectionsPerRoom', flag: 'max-connections-per-room', env: 'MAX_CONNECTIONS_PER_ROOM', fallback: '2000', help: 'more connections to one room are closed with 4429', parse: integer(1, 1_000_000) },
  { key: 'maxConnectionsPerAddress', flag: 'max-connections-per-address', env: 'MAX_CONNECTIONS_PER_ADDRESS', fallback: '1000', help: 'more connections from one client address are closed with 4429', parse: integer(1, 1_000_000) },
  { key: 'allowedOrigins', flag: 'allowed-origins', env: 'ALLOWED_ORIGINS', fallback: '', help: 'comma-separated origins besides the server\'s own whose pages may connect (others get 403)', parse: origins },
  { key: 'allowedHosts', flag: 'allowed-hosts', env: 'ALLOWED_HOSTS', fallback: '', help: 'without AUTH_SECRET: comma-separated host names besides HOST, localhost and IP addresses that requests may name in Host (.example.com: and every name under it; *: any); others get 403 (DNS rebinding)', parse: hosts },
  { key: 'maxUnfinishedBytes', flag: 'max-unfinished-bytes', env: 'MAX_UNFINISHED_BYTES', fallback: String(64 * 1024 * 1024), help: 'bytes held in unfinished WebSocket messages across all connections; the connection that passes it is closed with 1013', parse: integer(65536, 2 ** 40) },
  { key: 'maxConnectionUnfinishedBytes', flag: 'max-connection-unfinished-bytes', env: 'MAX_CONNECTION_UNFINISHED_BYTES', fallback: String(16 * 1024 * 1024), help: 'bytes one connection may hold in an unfinished WebSocket message; past it it is closed with 1009', parse: integer(1024, 2 ** 31 - 1) },
  { key: 'maxUpdateItems', flag: 'max-update-items', env: 'MAX_UPDATE_ITEMS', fallback: '10000', help: 'structs plus deleted ranges in one update, counted before it is applied; a larger one is refused and its sender closed with 4413', parse: integer(100, 100_000_000) },
  { key: 'maxPendingItems', flag: 'max-pending-items', env: 'MAX_PENDING_ITEMS', fallback: '2000', help: 'structs plus deleted ranges a room holds waiting for missing dependencies; past it the sender is closed with 4413', parse: integer(10, 100_000_000) },
  { key: 'fanoutWindowMs', flag: 'fanout-window-ms', env: 'FANOUT_WINDOW_MS', fallback: '20', help: 'in a busy room, relays (updates, cursor moves) that follow one another within this many ms go to each client as one frame; the window grows with the room up to this, a calm room waits for nothing; 0 = every relay at once', parse: integer(0, 1000) },
  { key: 'answerSliceBytes', flag: 'answer-slice-bytes', env: 'ANSWER_SLICE_BYTES', fallback: String(4 * 1024 * 1024), help: 'a sync answer larger than this (a big document for a new client) goes out in slices of this size, a few at a time per connection and round-robin among joiners, so a join storm leaves the server free for other rooms; 0 = whole', parse: integer(0, 2 ** 31 - 1) },
  { key: 'answerWorkerBytes', flag: 'answer-worker-bytes', env: 'ANSWER_WORKER_BYTES', fallback: String(1024 * 1024), help: 'a room whose document reaches this size has its large sync answers encoded in a thread of their own, so that joiners of a big document never hold other rooms up; 0 = on the event loop', parse: integer(0, 2 ** 31 - 1) },
  { key: 'maxApplyMs', flag: 'max-apply-ms', env: 'MAX_APPLY_MS', fallback: '2000', help: 'ms of applying one client address\'s messages may take at once (100 ms earned back each second); past it the sender is closed with 4413', parse: integer(1, 3_600_000) },
  { key: 'serveSourceMaps', flag: 'serve-source-maps', env: 'SERVE_SOURCE_MAPS', fallback: 'false', help: 'serve the web page\'s .map files (true | false)', parse: boolean },
  { key: 'redisUrl', flag: 'redis-url', env: 'REDIS_URL', fallback: null, help: 'cluster mode: redis://host:port whose streams carry every room between server processes (needs DATABASE_URL)', parse: text },
  { key: 'databaseUrl', flag: 'database-url', env: 'DATABASE_URL', fallback: null, help: 'postgres://… where rooms are stored instead of LevelDB (required in cluster mode)', parse: text },
  { key: 'fsync', flag: 'fsync', env: 'FSYNC', fallback: 'false', help: 'true: every write is on disk before it is relayed (survives a machine crash, not only a process kill; cluster mode also needs Redis appendfsync always)', parse: boolean },
  { key: 'history', flag: 'history', env: 'HISTORY', fallback: 'on', help: 'attested authorship, change log, versions and the /api history routes (on | off)', parse: boolean },
  { key: 'versionIdleMs', flag: 'version-idle-ms', env: 'VERSION_IDLE_MS', fallback: '120000', help: 'keep a version of a room after this long without edits', parse: integer(100, 86_400_000) },
  { key: 'versionEveryMs', flag: 'version-every-ms', env: 'VERSION_EVERY_MS', fallback: '600000', help: 'and at least this often while edits go on', parse: integer(100, 86_400_000) },
  { key: 'versionRetentionDays', flag: 'version-retention-days', env: 'VERSION_RETENTION_DAYS', fallback: '30', help: 'drop automatic versions older than this (0 keeps them; named ones stay)', parse: integer(0, 100_000) },
  { key: 'maxRevertRanges', flag: 'max-revert-ranges', env: 'MAX_REVERT_RANGES', fallback: '100000', help: 'a revert over more changed ranges is refused with 413', parse: integer(1, 100_000_000) },
  { key: 'revertWindowDays', flag: 'revert-window-days', env: 'REVERT_WINDOW_DAYS', fallback: '7', help: 'deleted text stays revertable this long; older deleted text is dropped when its room loads', parse: integer(0, 100_000) },
]

/**
 * Reads the settings from `argv` (flags, without the node and script paths) and `env`.
 * A flag wins over its environment variable; an empty environment variable counts as unset.
 */
export function parseConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ParseResult {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { help: { type: 'boolean', short: 'h' } }
  for (const setting of SETTINGS) options[setting.flag] = { type: 'string' }
  let values: Record<string, string | boolean | undefined>
  try {
    ;({ values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }))
  } catch (error) {
    throw new ConfigError(`${(error as Error).message} (see --help)`)
  }
  if (values.help === true) return { help: true }

  const config: Partial<Record<Key, Config[Key]>> = {}
  for (const setting of SETTINGS) {
    const flagValue = values[setting.flag]
    const envValue = env[setting.env]
    if (typeof flagValue === 'string') config[setting.key] = setting.parse(flagValue, `--${setting.flag}`)
    else if (envValue !== undefined && envValue !== '') config[setting.key] = setting.parse(envValue, setting.env)
    else config[setting.key] = setting.fallback === null ? null : setting.parse(setting.fallback, `default ${setting.env}`)
  }
  if (config.redisUrl != null && config.databaseUrl == null) throw new ConfigError('REDIS_URL (cluster mode) needs DATABASE_URL: PostgreSQL is where the rooms are stored')
  return { help: false, config: config as Config }
}

/** Every setting at its default, as a server started without flags or environment would have it. */
export function defaultConfig(): Config {
  const result = parseConfig([], {})
  if (result.help) throw new Error('unreachable: no flags given')
  return result.config
}

/** The text `--help` prints: every setting with its flag, variable and default. */
export function helpText(): string {
  const rows = SETTINGS.map((setting) => [
    `  --${setting.flag} <value>`,
    setting.env,
    setting.fallback === null ? '(unset)' : setting.fallback === '' ? '(none)' : setting.key === 'webDir' ? 'dist/web/dist' : setting.fallback,
    setting.help,
  ])
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)))
  const lines = rows.map((row) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join('  '))
  return [
    'Cotext server: y-websocket rooms stored in LevelDB (or PostgreSQL, with Redis Streams across processes) and token access control.',
    '',
    'Usage: npm start -- [flags]      (or, installed from npm: cotext-server [flags])',
    '',
    'Every setting can be given as a flag or as an environment variable; the flag wins.',
    '',
    `  ${'flag'.padEnd(widths[0]! - 2)}  ${'env'.padEnd(widths[1]!)}  ${'default'.padEnd(widths[2]!)}  meaning`,
    ...lines,
    '  --help, -h',
    '',
    'Rooms: ws://HOST:PORT/<room>, room names are 1-128 of A-Z a-z 0-9 . _ - and /.',
    'Tokens (when AUTH_SECRET is set): npm run token -- --room NAME --mode rw|ro --ttl 1h [--user NAME]',
    'HTTP: GET / (web page), GET /healthz (JSON), GET /metrics (Prometheus text).',
    '',
  ].join('\n')
}
