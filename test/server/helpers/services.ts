import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { waitFor } from './wait-for.ts'

/**
 * Real Redis and PostgreSQL for the cluster tests, from Debian's packages (`redis-server`,
 * `postgresql`), each on a free loopback port in a temporary directory, stopped by process id.
 * When a package is missing and we run as root on Debian, it is installed with apt-get (as CI does).
 */

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
const children = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

function aptInstall(packages: string[]): void {
  if (!isRoot || !existsSync('/usr/bin/apt-get')) throw new Error(`missing ${packages.join(', ')}: install them (Debian: sudo apt-get install -y ${packages.join(' ')})`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env })
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed with status ${String(result.status)}`)
  }
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function track(child: ChildProcess): Promise<number | null> {
  children.add(child)
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      children.delete(child)
      resolve(code)
    })
  })
}

export interface Redis {
  url: string
  port: number
  /** Stops redis-server with SIGTERM (it saves its data first) and waits for it to exit. */
  stop(): Promise<void>
  /** Stops it for good and removes its directory. */
  remove(): Promise<void>
  /** Starts it again on the same port and directory. */
  start(): Promise<void>
  /** Kills redis-server with SIGKILL (no save) and waits for it to exit. */
  kill(): Promise<void>
  /** While stopped: deletes its data files, so that the next start begins empty (a Redis that lost its data). */
  wipe(): void
  /** Runs a redis-cli command against it and returns its output. */
  cli(...args: string[]): string
}

export interface RedisOptions {
  /** Append-only file (default true, as a production Redis should run); false keeps nothing across a crash. */
  appendonly?: boolean
  /** AOF fsync policy (Redis's default: everysec). */
  appendfsync?: 'always' | 'everysec' | 'no'
}

export async function startRedis(options: RedisOptions = {}): Promise<Redis> {
  if (!existsSync('/usr/bin/redis-server')) aptInstall(['redis-server'])
  const dir = mkdtempSync(join(tmpdir(), 'cotext-redis-'))
  const port = await freePort()
  let child: ChildProcess | null = null
  let exited: Promise<number | null> = Promise.resolve(null)
  const cli = (...args: string[]): string => {
    const result = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' })
    return result.stdout.trim()
  }
  const start = async (): Promise<void> => {
    // Append-only file: a stop and start keeps every entry, as a production Redis would.
    const persistence = ['--appendonly', options.appendonly === false ? 'no' : 'yes', '--appendfsync', options.appendfsync ?? 'everysec']
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...persistence, '--save', '', '--protected-mode', 'no'], { stdio: 'ignore' })
    exited = track(child)
    await waitFor(() => cli('PING') === 'PONG', 'redis-server to answer', 10_000, 50)
  }
  const stop = async (): Promise<void> => {
    child?.kill('SIGTERM')
    await exited
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    async kill() {
      child?.kill('SIGKILL')
      await exited
    },
    wipe() {
      for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true })
    },
    async remove() {
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
    cli,
  }
}

export interface Postgres {
  url: string
  /** Stops PostgreSQL (fast shutdown) and removes its directory. */
  remove(): Promise<void>
}

function postgresBin(): string {
  const root = '/usr/lib/postgresql'
  const find = (): string | undefined => (existsSync(root) ? readdirSync(root).sort().reverse().map((version) => join(root, version, 'bin')).find((bin) => existsSync(join(bin, 'initdb'))) : undefined)
  let bin = find()
  if (bin === undefined) {
    aptInstall(['postgresql'])
    bin = find()
  }
  if (bin === undefined) throw new Error('postgresql is installed but no initdb under /usr/lib/postgresql')
  return bin
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]
}

export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBin()
  const dir = mkdtempSync(join(tmpdir(), 'cotext-pg-'))
  const data = join(dir, 'data')
  if (isRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim())
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim())
    chownSync(dir, uid, gid)
  }
  const [initCommand, initArgs] = asPostgres(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
  const init = spawnSync(initCommand, initArgs, { encoding: 'utf8' })
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`)
  const port = await freePort()
  const [command, args] = asPostgres(join(bin, 'postgres'), ['-D', data, '-k', dir, '-p', String(port), '-h', '127.0.0.1', '-F', '-c', 'max_connections=60'])
  const child = spawn(command, args, { stdio: 'ignore' })
  const exited = track(child)
  const ready = (): boolean => spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]).status === 0
  await waitFor(ready, 'PostgreSQL to accept connections', 20_000, 100)
  // The postmaster's own pid: as root, runuser stands between us and it.
  const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async remove() {
      process.kill(pid, 'SIGINT') // fast shutdown
      await exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
