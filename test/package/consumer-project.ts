import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { consumerLock, type Lockfile } from './consumer-lock.ts'

/**
 * What pack.test.ts needs around it: `npm pack` of this repository, a fresh project in a temporary
 * directory that installs the tarball with yjs, y-protocols, y-websocket (and ws, @types/node), and
 * ways to run things there as an app would: plain `node`, the `cotext-server` bin, tsc and Vite.
 */

export const ROOT = resolve(import.meta.dirname, '../..')
const FIXTURES = join(ROOT, 'test', 'package', 'consumer')

/** Packages the consumer installs beside cotext, at the versions this repository has installed. */
const CONSUMER_DEPENDENCIES = ['yjs', 'y-protocols', 'y-websocket', 'ws', '@types/node']

export interface PackResult {
  tarball: string
  files: string[]
  /** Bytes of the .tgz, and of its files unpacked. */
  size: number
  unpackedSize: number
}

export interface RunResult {
  status: number | null
  stdout: string
  stderr: string
}

/**
 * The environment for npm, node and tools run in the consumer project: without what vitest and a
 * surrounding `npm test` set (NODE_ENV=test, loaders, npm's per-script variables), keeping the npm
 * cache and registry settings.
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(NODE_ENV|NODE_OPTIONS|VITEST.*|TEST|npm_(?!config_(cache|registry|userconfig)$).*)$/i.test(key)) continue
    env[key] = value
  }
  return env
}

/** Runs a command to its end (killing it after `timeoutMs`), without blocking the test's event loop. */
export function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<RunResult> {
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      rejectRun(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`))
    }, timeoutMs)
    child.once('error', (error) => {
      clearTimeout(timer)
      rejectRun(error)
    })
    child.once('close', (status) => {
      clearTimeout(timer)
      resolveRun({ status, stdout, stderr })
    })
  })
}

async function runOrThrow(command: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  const result = await run(command, args, cwd, timeoutMs)
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

export class ConsumerProject {
  readonly root: string
  /** The project that installed the tarball. */
  readonly app: string
  pack: PackResult | null = null

  constructor() {
    this.root = mkdtempSync(join(tmpdir(), 'cotext-pack-'))
    this.app = join(this.root, 'app')
  }

  /** `npm pack` here (its prepack builds dist/), into the temporary directory. */
  async packRepository(): Promise<PackResult> {
    const stdout = await runOrThrow('npm', ['pack', '--json', '--pack-destination', this.root], ROOT, 10 * 60_000)
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }>; size: number; unpackedSize: number }>
    this.pack = { tarball: join(this.root, packed!.filename), files: packed!.files.map((file) => file.path), size: packed!.size, unpackedSize: packed!.unpackedSize }
    return this.pack
  }

  /**
   * Installs the tarball and the consumer's other packages. The lock file is cut from this
   * repository's, so `npm ci` can take everything from the npm cache; when something is missing
   * there it asks the registry.
   */
  async install(): Promise<void> {
    const pack = this.pack ?? (await this.packRepository())
    mkdirSync(this.app)
    const repoLock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lockfile
    const dependencies: Record<string, string> = { cotext: `file:../${pack.tarball.slice(this.root.length + 1)}` }
    for (const name of CONSUMER_DEPENDENCIES) dependencies[name] = repoLock.packages[`node_modules/${name}`]!.version!
    const manifest = { name: 'cotext-consumer', version: '1.0.0', private: true, type: 'module', dependencies }
    writeFileSync(join(this.app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)

    const cotext = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Parameters<typeof consumerLock>[2]
    const registry = (await runOrThrow('npm', ['config', 'get', 'registry'], this.app, 60_000)).trim()
    const lock = consumerLock(repoLock, manifest, cotext, dependencies.cotext!, registry)
    writeFileSync(join(this.app, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`)

    const quiet = ['--no-audit', '--no-fund', '--loglevel=error']
    const offline = await run('npm', ['ci', '--offline', ...quiet], this.app, 5 * 60_000)
    if (offline.status === 0) return
    process.stderr.write(`pack test: npm ci --offline could not install from the cache, asking the registry:\n${offline.stderr}\n`)
    await runOrThrow('npm', ['ci', '--prefer-offline', '--fetch-retries=4', ...quiet], this.app, 10 * 60_000)
  }

  /** Copies the test's consumer files (test/package/consumer) into the project. */
  addFixtures(): void {
    cpSync(FIXTURES, this.app, { recursive: true })
  }

  write(path: string, text: string): void {
    writeFileSync(join(this.app, path), text)
  }

  /** `node script args…` in the project: no loader, the project's node_modules. */
  node(script: string, args: string[] = [], timeoutMs = 120_000): Promise<RunResult> {
    return run(process.execPath, [script, ...args], this.app, timeoutMs)
  }

  /** This repository's tsc, checking the project with the project's tsconfig.json. */
  typecheck(): Promise<RunResult> {
    return run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], this.app, 5 * 60_000)
  }

  /** Bundles `dir` (page/: index.html and its script) into `dir`/dist with this repository's Vite. */
  async bundlePage(dir = 'page'): Promise<string> {
    await runOrThrow(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], join(this.app, dir), 5 * 60_000)
    return join(this.app, dir, 'dist')
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true })
  }
}

export interface BinProcess {
  child: ChildProcess
  port: number
  logs: Array<Record<string, unknown>>
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>
}

/** Runs the installed `cotext-server` bin with `args` and resolves once it logs "listening". */
export function startBin(project: ConsumerProject, args: string[]): Promise<BinProcess> {
  const child = spawn(join(project.app, 'node_modules', '.bin', 'cotext-server'), args, { cwd: project.app, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  const logs: Array<Record<string, unknown>> = []
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)))
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    return exited
  }
  return new Promise((resolveStart, rejectStart) => {
    void exited.then((code) => rejectStart(new Error(`cotext-server exited with ${code} before listening\n${stderr}\n${JSON.stringify(logs)}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: Record<string, unknown>
      try {
        entry = JSON.parse(line) as Record<string, unknown>
      } catch {
        return
      }
      logs.push(entry)
      if (entry.msg === 'listening') resolveStart({ child, port: entry.port as number, logs, stop })
    })
  })
}
