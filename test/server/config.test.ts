import { describe, expect, it } from 'vitest'
import { ConfigError, helpText, parseConfig } from '../../server/config.ts'
import type { Config } from '../../server/config.ts'

function config(argv: string[], env: Record<string, string> = {}): Config {
  const result = parseConfig(argv, env)
  if (result.help) throw new Error('unexpected --help')
  return result.config
}

describe('parseConfig', () => {
  it('has the defaults the issue names', () => {
    const defaults = config([])
    expect({ ...defaults, webDir: defaults.webDir.endsWith('/web/dist') }).toEqual({
      host: '127.0.0.1',
      port: 1234,
      dataDir: './data',
      authSecret: null,
      maxMessageBytes: 16 * 1024 * 1024,
      pingIntervalMs: 30000,
      compactAfter: 500,
      storeBatchMs: 0,
      storeBeforeRelay: true,
      webDir: true,
      logLevel: 'info',
      maxBufferedBytes: 4 * 1024 * 1024,
      maxAwarenessBytes: 64 * 1024,
      maxPendingBytes: 4 * 1024 * 1024,
      maxConnectionsPerRoom: 2000,
      maxConnectionsPerAddress: 1000,
      allowedOrigins: [],
      allowedHosts: [],
      maxUnfinishedBytes: 64 * 1024 * 1024,
      maxConnectionUnfinishedBytes: 16 * 1024 * 1024,
      maxUpdateItems: 10000,
      maxPendingItems: 2000,
      fanoutWindowMs: 20,
      answerSliceBytes: 4 * 1024 * 1024,
      answerWorkerBytes: 1024 * 1024,
      maxApplyMs: 2000,
      serveSourceMaps: false,
      redisUrl: null,
      databaseUrl: null,
      fsync: false,
      history: true,
      versionIdleMs: 120_000,
      versionEveryMs: 600_000,
      versionRetentionDays: 30,
      maxRevertRanges: 100_000,
      revertWindowDays: 7,
    })
  })

  it('reads every setting from an environment variable, and a flag wins over it', () => {
    const env = {
      HOST: '0.0.0.0',
      PORT: '8080',
      DATA_DIR: '/var/cotext',
      AUTH_SECRET: 's'.repeat(32),
      MAX_MESSAGE_BYTES: '2048',
      PING_INTERVAL_MS: '5000',
      COMPACT_AFTER: '50',
      STORE_BATCH_MS: '5',
      STORE_FIRST: 'off',
      WEB_DIR: '/srv/web',
      LOG_LEVEL: 'WARN',
      REDIS_URL: 'redis://r:6379',
      DATABASE_URL: 'postgres://p/db',
      FANOUT_WINDOW_MS: '5',
      ANSWER_SLICE_BYTES: '65536',
      ANSWER_WORKER_BYTES: '0',
      FSYNC: 'true',
      HISTORY: 'off',
      VERSION_IDLE_MS: '1000',
      VERSION_EVERY_MS: '5000',
      VERSION_RETENTION_DAYS: '0',
      MAX_REVERT_RANGES: '10',
      REVERT_WINDOW_DAYS: '1',
    }
    expect(config([], env)).toEqual({
      host: '0.0.0.0',
      port: 8080,
      dataDir: '/var/cotext',
      authSecret: 's'.repeat(32),
      maxMessageBytes: 2048,
      pingIntervalMs: 5000,
      compactAfter: 50,
      storeBatchMs: 5,
      storeBeforeRelay: false,
      webDir: '/srv/web',
      logLevel: 'warn',
      maxBufferedBytes: 4 * 1024 * 1024,
      maxAwarenessBytes: 64 * 1024,
      maxPendingBytes: 4 * 1024 * 1024,
      maxConnectionsPerRoom: 2000,
      maxConnectionsPerAddress: 1000,
      allowedOrigins: [],
      allowedHosts: [],
      maxUnfinishedBytes: 64 * 1024 * 1024,
      maxConnectionUnfinishedBytes: 16 * 1024 * 1024,
      maxUpdateItems: 10000,
      maxPendingItems: 2000,
      fanoutWindowMs: 5,
      answerSliceBytes: 65536,
      answerWorkerBytes: 0,
      maxApplyMs: 2000,
      serveSourceMaps: false,
      redisUrl: 'redis://r:6379',
      databaseUrl: 'postgres://p/db',
      fsync: true,
      history: false,
      versionIdleMs: 1000,
      versionEveryMs: 5000,
      versionRetentionDays: 0,
      maxRevertRanges: 10,
      revertWindowDays: 1,
    })
    const flags = [
      '--host', '::1', '--port', '0', '--data-dir', 'd', '--auth-secret', 't'.repeat(40), '--max-message-bytes', '1024',
      '--ping-interval-ms', '10', '--compact-after', '2', '--store-batch-ms', '0', '--store-first', 'on', '--web-dir', 'w', '--log-level', 'silent',
      '--redis-url', 'redis://q:1', '--database-url', 'postgres://q/db', '--fanout-window-ms', '1', '--fsync', 'false',
    ]
    expect(config(flags, env)).toEqual({
      host: '::1',
      port: 0,
      dataDir: 'd',
      authSecret: 't'.repeat(40),
      maxMessageBytes: 1024,
      pingIntervalMs: 10,
      compactAfter: 2,
      storeBatchMs: 0,
      storeBeforeRelay: true,
      webDir: 'w',
      logLevel: 'silent',
      maxBufferedBytes: 4 * 1024 * 1024,
      maxAwarenessBytes: 64 * 1024,
      maxPendingBytes: 4 * 1024 * 1024,
      maxConnectionsPerRoom: 2000,
      maxConnectionsPerAddress: 1000,
      allowedOrigins: [],
      allowedHosts: [],
      maxUnfinishedBytes: 64 * 1024 * 1024,
      maxConnectionUnfinishedBytes: 16 * 1024 * 1024,
      maxUpdateItems: 10000,
      maxPendingItems: 2000,
      fanoutWindowMs: 1,
      answerSliceBytes: 65536,
      answerWorkerBytes: 0,
      maxApplyMs: 2000,
      serveSourceMaps: false,
      redisUrl: 'redis://q:1',
      databaseUrl: 'postgres://q/db',
      fsync: false,
      history: false,
      versionIdleMs: 1000,
      versionEveryMs: 5000,
      versionRetentionDays: 0,
      maxRevertRanges: 10,
      revertWindowDays: 1,
    })
    expect(config(['--port=99'], {}).port).toBe(99)
  })

  it('refuses cluster mode without PostgreSQL', () => {
    expect(() => config([], { REDIS_URL: 'redis://r:6379' })).toThrow(new ConfigError('REDIS_URL (cluster mode) needs DATABASE_URL: PostgreSQL is where the rooms are stored'))
    expect(config([], { DATABASE_URL: 'postgres://p/db' })).toMatchObject({ redisUrl: null, databaseUrl: 'postgres://p/db' })
  })

  it('reads the limits, the allowed origins and the source-map switch', () => {
    const env = {
      MAX_BUFFERED_BYTES: '65536', MAX_AWARENESS_BYTES: '256', MAX_PENDING_BYTES: '1024', MAX_CONNECTIONS_PER_ROOM: '3',
      MAX_CONNECTIONS_PER_ADDRESS: '4', ALLOWED_ORIGINS: 'https://Editor.example.com, http://localhost:5173/', SERVE_SOURCE_MAPS: 'true',
    }
    expect(config([], env)).toMatchObject({
      maxBufferedBytes: 65536, maxAwarenessBytes: 256, maxPendingBytes: 1024, maxConnectionsPerRoom: 3, maxConnectionsPerAddress: 4,
      allowedOrigins: ['https://editor.example.com', 'http://localhost:5173'], serveSourceMaps: true,
    })
    const bad = 'ALLOWED_ORIGINS must list origins like https://example.com:8080, separated by commas;'
    expect(() => parseConfig([], { ALLOWED_ORIGINS: 'https://a.com/path' })).toThrow(new ConfigError(`${bad} "https://a.com/path" is not one`))
    expect(() => parseConfig([], { ALLOWED_ORIGINS: 'a.com' })).toThrow(new ConfigError(`${bad} "a.com" is not one`))
    expect(() => parseConfig([], { SERVE_SOURCE_MAPS: 'yes' })).toThrow(new ConfigError('SERVE_SOURCE_MAPS must be on or off (true or false), got "yes"'))
  })

  it('reads the allowed hosts and the budgets of issue 19', () => {
    const env = {
      ALLOWED_HOSTS: 'Editor.Example.com, .corp.example, *', MAX_UNFINISHED_BYTES: '1048576', MAX_CONNECTION_UNFINISHED_BYTES: '65536',
      MAX_UPDATE_ITEMS: '500', MAX_PENDING_ITEMS: '50',
    }
    expect(config([], env)).toMatchObject({
      allowedHosts: ['editor.example.com', '.corp.example', '*'], maxUnfinishedBytes: 1048576, maxConnectionUnfinishedBytes: 65536, maxUpdateItems: 500, maxPendingItems: 50,
    })
    expect(() => parseConfig([], { ALLOWED_HOSTS: 'http://a.com' })).toThrow(
      new ConfigError('ALLOWED_HOSTS must list host names like editor.example.com or .example.com (and every name under it), or *, separated by commas; "http://a.com" is not one'),
    )
    expect(() => parseConfig([], { MAX_UPDATE_ITEMS: '5' })).toThrow(new ConfigError('MAX_UPDATE_ITEMS must be an integer from 100 to 100000000, got "5"'))
  })

  it('treats an empty environment variable as unset', () => {
    expect(config([], { AUTH_SECRET: '', PORT: '' })).toMatchObject({ authSecret: null, port: 1234 })
  })

  it('names the setting and the value it refuses', () => {
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['--port=-1'], {}, '--port must be an integer from 0 to 65535, got "-1"'],
      [[], { PORT: '12.5' }, 'PORT must be an integer from 0 to 65535, got "12.5"'],
      [[], { MAX_MESSAGE_BYTES: '10' }, 'MAX_MESSAGE_BYTES must be an integer from 1024 to 2147483647, got "10"'],
      [[], { LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
      [['--auth-secret', 'x'.repeat(31)], {}, '--auth-secret must be at least 32 bytes long (HS256 needs a 256-bit key)'],
      [['--host', ' '], {}, '--host must not be empty'],
      [['extra'], {}, 'Unexpected argument \'extra\'. This command does not take positional arguments (see --help)'],
    ]
    for (const [argv, env, message] of cases) {
      expect(() => parseConfig(argv, env)).toThrow(new ConfigError(message))
    }
  })

  it('answers --help and -h with the help flag', () => {
    expect(parseConfig(['--help'], {})).toEqual({ help: true })
    expect(parseConfig(['-h', '--port', 'nonsense'], {})).toEqual({ help: true })
    expect(helpText()).toMatch(/--max-message-bytes <value> +MAX_MESSAGE_BYTES +16777216 /)
  })
})
