import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'

/** The repository root: the server runs from there, as `npm start` would. */
export const ROOT = resolve(import.meta.dirname, '../../..')

// Generous: tsx compiles the server at each start, and CI machines are shared.
const START_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 10_000

export interface LogLine {
  level: number
  msg: string
  [field: string]: unknown
}

export interface ServerProcess {
  /** `http://127.0.0.1:PORT` */
  url: string
  /** `ws://127.0.0.1:PORT`, what WebsocketProvider takes */
  wsUrl: string
  port: number
  dataDir: string
  child: ChildProcess
  /** Every JSON log line so far. */
  logs: LogLine[]
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Sends `signal` and resolves with the exit once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const running = new Set<ChildProcess>()
const tempDirs = new Set<string>()

// A test runner that dies must not leave servers behind.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

export function makeTempDir(prefix = 'cotext-server-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  tempDirs.add(dir)
  return dir
}

export interface StartOptions {
  dataDir?: string
  env?: Record<string, string>
  args?: string[]
  /** A command the server runs under (e.g. strace and its flags); `child` is then that command's process. */
  wrapper?: string[]
}

/** Runs `server/main.ts` in its own process on a free port and resolves once it listens. */
export function startServer(options: StartOptions = {}): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? makeTempDir()
  const env: Record<string, string | undefined> = { ...process.env, AUTH_SECRET: undefined, PORT: undefined, HOST: undefined, ...options.env }
  const command = [...(options.wrapper ?? []), process.execPath, '--import', 'tsx', 'server/main.ts', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, '--log-level', 'debug', ...(options.args ?? [])]
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  const logs: LogLine[] = []
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => {
      running.delete(child)
      resolveExit({ code, signal })
    })
  })
  return new Promise((resolveStart, rejectStart) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      rejectStart(new Error(`server did not listen within ${START_TIMEOUT_MS} ms\n${stderr}`))
    }, START_TIMEOUT_MS)
    void exited.then(({ code }) => {
      clearTimeout(timer)
      rejectStart(new Error(`server exited with ${code} before listening\n${stderr}\n${logs.map((line) => JSON.stringify(line)).join('\n')}`))
    })
    createInterface({ input: child.stdout! }).on('line', (text) => {
      let line: LogLine
      try {
        line = JSON.parse(text) as LogLine
      } catch {
        return
      }
      logs.push(line)
      if (line.msg !== 'listening') return
      clearTimeout(timer)
      const port = line.port as number
      resolveStart({
        url: `http://127.0.0.1:${port}`,
        wsUrl: `ws://127.0.0.1:${port}`,
        port,
        dataDir,
        child,
        logs,
        exited,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal)
          const timeout = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
          const result = await exited
          clearTimeout(timeout)
          return result
        },
      })
    })
  })
}

/** Kills every server still running and removes the temporary directories; for afterAll. */
export async function stopAllServers(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolveStop) => {
          child.once('exit', () => resolveStop())
          child.kill('SIGKILL')
        }),
    ),
  )
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
  tempDirs.clear()
}

/** GET `path` and parse the body as JSON. */
export async function getJson<T>(server: ServerProcess, path: string): Promise<T> {
  const response = await fetch(server.url + path)
  return (await response.json()) as T
}

/** The value of an unlabelled sample (or `name{labels}`) in the server's /metrics. */
export async function metric(server: ServerProcess, sample: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text()
  const line = text.split('\n').find((row) => row.startsWith(`${sample} `))
  if (line === undefined) throw new Error(`no metric ${sample} in\n${text}`)
  return Number(line.slice(sample.length + 1))
}

/** How many updates the server has stored so far (its Prometheus counter). */
export function storedUpdates(server: ServerProcess): Promise<number> {
  return metric(server, 'cotext_stored_updates_total')
}
