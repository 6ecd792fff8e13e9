/**
 * What the server benchmarks (server-throughput, server-saturation, cluster) share: starting and
 * stopping server processes, reading their CPU time, and a client that speaks the y-websocket sync
 * protocol directly (no WebsocketProvider: dozens of providers would each apply every update and the
 * benchmark would measure itself). Each client edits only its own Y.Doc, with client id `index + 1`,
 * so an update it sends names its sender and clock.
 */
import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import * as Y from 'yjs'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import * as syncProtocol from 'y-protocols/sync'
import { WebSocket } from 'ws'

export const ROOT = resolve(import.meta.dirname, '..')
/** USER_HZ on Linux: /proc/<pid>/stat counts CPU time in these. */
export const CLOCK_TICKS = 100

export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms))

// Servers this process started, killed if it dies before stopping them.
const children = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

/** Spawns a server and resolves with the port once a line of its stdout says it listens. */
export function spawnServer(args: string[], env: NodeJS.ProcessEnv, listeningPort: (line: string) => number | null): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  child.once('exit', () => children.delete(child))
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolveChild, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 60_000)
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const port = listeningPort(line)
      if (port === null) return
      clearTimeout(timer)
      resolveChild({ child, port })
    })
  })
}

/**
 * How Cotext's server runs: 'built' (the default) as plain JavaScript, server/main.ts bundled by esbuild
 * first (the npm package ships tsc's JavaScript, and the stock server is plain JavaScript too); 'tsx'
 * from the TypeScript source through tsx, whose keepNames gives every closure a call to `__name` and a
 * property dictionary (about 0.3 KB each), which the shipped server does not pay.
 */
const SERVER_RUN = process.env.SERVER_RUN ?? 'built'
if (SERVER_RUN !== 'built' && SERVER_RUN !== 'tsx') throw new Error(`SERVER_RUN must be built or tsx, got ${SERVER_RUN}`)
const bundles = new Map<string, string>()

/** The node arguments that run `root`'s server: its bundle (made once per root, removed at exit) or its source through tsx. */
function cotextEntry(root: string): string[] {
  if (SERVER_RUN === 'tsx') return ['--import', 'tsx', join(root, 'server/main.ts')]
  let entry = bundles.get(root)
  if (entry === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'cotext-bundle-'))
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
    entry = join(dir, 'server/main.js')
    // The answer thread's script too, beside main.js where the server looks for it (refs before it have none).
    const entries = ['server/main.ts', 'server/answer-worker.ts'].map((file) => join(root, file)).filter((file) => existsSync(file))
    execFileSync(join(ROOT, 'node_modules/.bin/esbuild'), [...entries, '--bundle', '--packages=external', '--format=esm', '--platform=node', '--target=es2022', `--outdir=${join(dir, 'server')}`, '--log-level=warning'], { stdio: ['ignore', 'ignore', 'inherit'] })
    // Its packages resolve from beside it.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
    bundles.set(root, entry)
  }
  return [entry]
}

/** Node's flags for the servers the benchmarks start (SERVER_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them). */
const SERVER_NODE_ARGS = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '')

/** Cotext's server from source (this checkout, or `root`: a copy of another ref) on a free port, with `env` added (no AUTH_SECRET: an open server) and node's `nodeArgs`. */
export function startCotext(dataDir: string, env: Record<string, string> = {}, root = ROOT, nodeArgs: string[] = []): Promise<{ child: ChildProcess; port: number }> {
  return spawnServer(
    [...SERVER_NODE_ARGS, ...nodeArgs, ...cotextEntry(root), '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir],
    { ...process.env, AUTH_SECRET: undefined, LOG_LEVEL: 'info', ...env },
    (line) => (line.includes('"msg":"listening"') ? (JSON.parse(line) as { port: number }).port : null),
  )
}

/** A port nobody listens on now (the stock server takes its port from the environment). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolvePort(port))
    })
  })
}

/** The stock server of @y/websocket-server 0.1.1, in memory as it runs by default, on a free port, with node's `nodeArgs`. */
export async function startStock(nodeArgs: string[] = []): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort()
  return spawnServer(
    [...SERVER_NODE_ARGS, ...nodeArgs, join(ROOT, 'node_modules/@y/websocket-server/src/server.js')],
    { ...process.env, HOST: '127.0.0.1', PORT: String(port), YPERSISTENCE: undefined, CALLBACK_URL: undefined },
    (line) => (line.startsWith('running at') ? port : null),
  )
}

/** Resident memory of a process, in MB. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match === null ? 0 : Number(match[1]) / 1024
}

/** SIGTERM, then SIGKILL if the server has not exited within 5 s. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(timer)
}

/** CPU time (user + system) a process has used, in clock ticks. */
export function cpuTicks(pid: number): number {
  // The fields after the command name, which is in parentheses and may contain spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(fields[11]) + Number(fields[12]) // utime + stime
}

/**
 * Has each client type `perSecond` times a second on its own beat, the beats spread evenly over the
 * period. Returns the timers, which gain the intervals as they start: clearTimeout each to stop.
 */
export function typeSteadily(clients: ReadonlyArray<{ type(): void }>, perSecond: number): NodeJS.Timeout[] {
  const period = 1000 / perSecond
  const timers: NodeJS.Timeout[] = []
  clients.forEach((client, i) => {
    timers.push(
      setTimeout(() => {
        client.type()
        timers.push(setInterval(() => client.type(), period))
      }, (i * period) / clients.length),
    )
  })
  return timers
}

/** A sync-protocol message (type 0) written by `write`. */
function syncFrame(write: (encoder: encoding.Encoder) => void): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, 0)
  write(encoder)
  return encoding.toUint8Array(encoder)
}

/**
 * A client that syncs with the room (answering the server's step 1 as y-websocket does), sends
 * every change of its own document as an update, and hands each update it receives to `onUpdate`.
 * Awareness messages are ignored: the benchmarks publish none.
 */
export abstract class SyncClient {
  readonly doc = new Y.Doc()
  readonly text = this.doc.getText('text')
  readonly ws: WebSocket
  readonly synced: Promise<void>

  constructor(url: string, readonly index: number, label: string) {
    this.doc.clientID = index + 1 // small distinct ids that map straight back to the sender
    this.ws = new WebSocket(url, { perMessageDeflate: false })
    let markSynced!: () => void
    this.synced = new Promise((done) => (markSynced = done))
    this.ws.on('open', () => this.ws.send(syncFrame((encoder) => syncProtocol.writeSyncStep1(encoder, this.doc))))
    this.ws.on('message', (data: Buffer) => this.receive(data, markSynced))
    this.ws.on('error', (error) => {
      console.error(`${label} ${index}: ${error.message}`)
      process.exit(1)
    })
    this.doc.on('update', (update: Uint8Array) => this.ws.send(syncFrame((encoder) => syncProtocol.writeUpdate(encoder, update))))
  }

  close(): void {
    this.ws.close()
    this.doc.destroy()
  }

  /** An update from the room, received at `now` (performance.now()). */
  protected abstract onUpdate(update: Uint8Array, now: number): void

  private receive(data: Buffer, markSynced: () => void): void {
    const decoder = decoding.createDecoder(data)
    if (decoding.readVarUint(decoder) !== 0) return
    const step = decoding.readVarUint(decoder)
    if (step === syncProtocol.messageYjsSyncStep1) {
      const stateVector = decoding.readVarUint8Array(decoder)
      this.ws.send(syncFrame((encoder) => syncProtocol.writeSyncStep2(encoder, this.doc, stateVector)))
      return
    }
    if (step === syncProtocol.messageYjsSyncStep2) return markSynced()
    this.onUpdate(decoding.readVarUint8Array(decoder), performance.now())
  }
}

/**
 * The runs of structs an update holds, as (sender client index, first clock, length): one for an
 * update a client sent, several for a batch the server merged from several clients' updates.
 */
export function updateRuns(update: Uint8Array): Array<{ sender: number; clock: number; length: number }> {
  // parseUpdateMeta reads only the structs' IDs and lengths: the clients must not measure themselves.
  const { from, to } = Y.parseUpdateMeta(update)
  const runs: Array<{ sender: number; clock: number; length: number }> = []
  for (const [client, clock] of from) runs.push({ sender: client - 1, clock, length: to.get(client)! - clock })
  return runs
}
