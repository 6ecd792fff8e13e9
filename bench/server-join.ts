/**
 * The join storm of the server-at-scale benchmark (server-scale.bench.ts): JOINERS clients join a room
 * holding a JOIN_MB document at once; time until every one has its sync answer, the server's peak RSS,
 * and the longest round trip a bystander in another room waited meanwhile.
 *
 * - warm: the room is loaded (its writer stays connected while the others join) and has just been edited,
 *   as a live room would be, so the answer the joiners need is encoded during the storm, not before it;
 * - cold: the writer leaves, the server unloads the room, and the joiners find it on disk (the stock
 *   server keeps nothing on disk, so its cold run would be a warm one: cold is measured for Cotext only
 *   and set against the stock server's warm time).
 *
 * The document is JOIN_MB of code written in 256 KiB inserts, then edited in JOIN_EDITS places (none by
 * default, as in earlier figures): what encoding and loading it cost depends on its pieces, not its bytes
 * (20 MB in 80 pieces encodes in 30-120 ms; the same edited in 20,000 places in 500-900 ms, and each update of
 * 2,000 such edits takes 30-1,100 ms to apply, as Yjs splits 256 KiB strings).
 *
 * Runs alone too: `npx tsx bench/server-join.ts` (JOINERS, JOIN_MB, JOIN_EDITS; JOIN_BEFORE=main also runs the
 * server of that git ref, copied to a temporary directory, in the same run: before and after).
 */
import { execSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as Y from 'yjs'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import * as syncProtocol from 'y-protocols/sync'
import { WebSocket } from 'ws'
import { CLOCK_TICKS, ROOT, cpuTicks, rssMb, sleep, startCotext, startStock, stopServer } from './server-clients.ts'

export const JOINERS = Number(process.env.JOINERS ?? 150)
export const JOIN_MB = Number(process.env.JOIN_MB ?? 20)
export const JOIN_EDITS = Number(process.env.JOIN_EDITS ?? 0)
for (const [name, value] of Object.entries({ JOINERS, JOIN_MB, JOIN_EDITS })) {
  if (!Number.isFinite(value) || value < (name === 'JOIN_EDITS' ? 0 : 1)) throw new Error(`${name} must be a positive number, got ${value}`)
}

export interface JoinServer {
  name: string
  pid: number
  port: number
  stop(): Promise<void>
}

export interface JoinResult {
  seconds: number
  peakMb: number
  bystanderMs: number
  /**
   * CPU time the server's event loop (its main thread) used around the bystander's longest wait, and the
   * span measured (the wait, widened to the samples around it): far less than the wait means the server
   * was not working but waiting for a core (a loaded machine), not stalled by its own work.
   */
  bystanderServerCpu: { ms: number; spanMs: number }
  /** When the bystander's longest wait began (Date.now() of the bystander's process), and how long after the storm began (s). */
  bystanderAt: number
  bystanderAfterS: number
  /**
   * The server's event loop during the storm (server-loop-probe.mjs): its longest gap, and the gap in which its
   * main thread ran longest, each with the main thread's CPU time in it (clock ticks of 10 ms).
   */
  serverLoop: { longest: LoopGap; busiest: LoopGap }
  /** Joiners the server cut before they had their answer (they connected again). */
  reconnects: number
  /** CPU seconds the server (all its threads) and the joiners' processes used from the start of the storm until all were synced. */
  serverCpuS: number
  clientCpuS: number
}

/** A gap of the server's event loop: when it began (Date.now()), how long, and the main thread's CPU time in it. */
export interface LoopGap {
  at: number
  ms: number
  cpuMs: number
}

/** Where server-loop-probe.mjs writes each server's event-loop gaps. */
const LOOP_PROBE_DIR = mkdtempSync(join(tmpdir(), 'cotext-loop-probe-'))
process.env.LOOP_PROBE_DIR = LOOP_PROBE_DIR
process.on('exit', () => rmSync(LOOP_PROBE_DIR, { recursive: true, force: true }))
/** Node's flags for the servers of the storm: the event-loop probe preloaded. */
export const LOOP_PROBE_ARGS = ['--import', pathToFileURL(join(import.meta.dirname, 'server-loop-probe.mjs')).href]

/** The longest gap and the busiest one of server `pid`'s event loop from `from` to `to` (Date.now()); gaps under 50 ms are not recorded (0). */
function loopGaps(pid: number, from: number, to: number): { longest: LoopGap; busiest: LoopGap } {
  const file = join(LOOP_PROBE_DIR, `${pid}.jsonl`)
  const gaps = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as LoopGap) : []
  const none: LoopGap = { at: from, ms: 0, cpuMs: 0 }
  const during = gaps.filter((gap) => gap.at + gap.ms >= from && gap.at <= to)
  return {
    longest: during.reduce((worst, gap) => (gap.ms > worst.ms ? gap : worst), none),
    busiest: during.reduce((worst, gap) => (gap.cpuMs > worst.cpuMs || (gap.cpuMs === worst.cpuMs && gap.ms > worst.ms) ? gap : worst), none),
  }
}

function syncFrame(write: (encoder: encoding.Encoder) => void): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, 0)
  write(encoder)
  return encoding.toUint8Array(encoder)
}

/**
 * A raw client: answers the server's sync step 1, resolves `synced` at its sync step 2 (not applied: the
 * clients must not measure themselves). Cut before then, it connects again as y-websocket would, and counts it.
 */
class Joiner {
  readonly doc = new Y.Doc()
  ws!: WebSocket
  readonly synced: Promise<void>
  reconnects = 0
  /** Called with each update relayed to this client. */
  onUpdate: () => void = () => {}
  private isSynced = false
  private closed = false

  constructor(private readonly url: string, index: number) {
    this.doc.clientID = index + 1
    let markSynced!: () => void
    this.synced = new Promise((done) => (markSynced = () => ((this.isSynced = true), done())))
    this.open(markSynced)
    this.doc.on('update', (update: Uint8Array) => this.ws.send(syncFrame((e) => syncProtocol.writeUpdate(e, update))))
  }

  private open(markSynced: () => void): void {
    this.ws = new WebSocket(this.url, { perMessageDeflate: false, maxPayload: 1024 * 1024 * 1024 })
    this.ws.on('open', () => this.ws.send(syncFrame((e) => syncProtocol.writeSyncStep1(e, this.doc))))
    this.ws.on('error', () => {})
    this.ws.on('close', () => {
      if (this.isSynced || this.closed) return
      this.reconnects += 1
      setTimeout(() => this.open(markSynced), 100)
    })
    this.ws.on('message', (data: Buffer) => {
      const decoder = decoding.createDecoder(data)
      if (decoding.readVarUint(decoder) !== 0) return
      const step = decoding.readVarUint(decoder)
      if (step === syncProtocol.messageYjsSyncStep1) this.ws.send(syncFrame((e) => syncProtocol.writeSyncStep2(e, this.doc, decoding.readVarUint8Array(decoder))))
      else if (step === syncProtocol.messageYjsSyncStep2) markSynced()
      else this.onUpdate()
    })
  }

  close(): void {
    this.closed = true
    this.ws.terminate()
    this.doc.destroy()
  }
}

async function connect(port: number, room: string, count: number, offset: number): Promise<Joiner[]> {
  const joiners: Joiner[] = []
  for (let i = 0; i < count; i++) joiners.push(new Joiner(`ws://127.0.0.1:${port}/${room}`, offset + i))
  await Promise.all(joiners.map((joiner) => joiner.synced))
  return joiners
}

/**
 * The bystander's round trip: `from` types a character, resolves with the milliseconds until `to` has
 * it. (Not a sync step 1: the server answers those 8 at a time and then one a second per connection.)
 */
function relayTime(from: Joiner, to: Joiner): Promise<number> {
  return new Promise((resolveTime) => {
    const start = performance.now()
    to.onUpdate = () => {
      to.onUpdate = () => {}
      resolveTime(performance.now() - start)
    }
    from.doc.getText('text').insert(0, 'x')
  })
}

/** Sends a sync step 1 (for `has`: an empty document unless given) and resolves with the milliseconds until the server's answer. */
function roundTripOf(joiner: Joiner, has: Y.Doc = new Y.Doc()): Promise<number> {
  return new Promise((resolveTime) => {
    const start = performance.now()
    const onMessage = (data: Buffer): void => {
      const decoder = decoding.createDecoder(data)
      if (decoding.readVarUint(decoder) !== 0 || decoding.readVarUint(decoder) !== syncProtocol.messageYjsSyncStep2) return
      joiner.ws.off('message', onMessage)
      resolveTime(performance.now() - start)
    }
    joiner.ws.on('message', onMessage)
    joiner.ws.send(syncFrame((e) => syncProtocol.writeSyncStep1(e, has)))
  })
}

async function roomsLoaded(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
  return Number(/^cotext_rooms (\d+)$/m.exec(text)?.[1] ?? NaN)
}

/** Processes the joiners are spread over (the bystander has one of its own), so that neither measures the other. */
const JOINER_PROCESSES = 3

/**
 * A child process of this script: `joiners PORT COUNT OFFSET` connects COUNT joiners to room "big" when
 * told "go" on stdin and prints "synced"; `bystander PORT` has two clients of room "bystander" pass a
 * character back and forth (every 50 ms) until stdin closes, then prints the longest wait.
 */
function spawnPart(args: string[]): { child: ChildProcess; lines: AsyncIterator<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  return { child, lines }
}

async function expectLine(part: { lines: AsyncIterator<string> }, prefix: string): Promise<string> {
  const { value, done } = await part.lines.next()
  if (done === true || !(value as string).startsWith(prefix)) throw new Error(`a client process said ${JSON.stringify(value)}, not ${prefix}`)
  return value as string
}

/** JOINERS clients join a room of JOIN_MB at once (warm: its writer stays; cold: it is unloaded first). */
export async function joinStorm(server: JoinServer, cold: boolean): Promise<JoinResult> {
  const seeder = (await connect(server.port, 'big', 1, 10_000))[0]!
  const line = 'const value = someFunction(argument, another) + 42; // a line of code\n'
  const text = seeder.doc.getText('text')
  for (let written = 0; written < JOIN_MB * 1024 * 1024; written += 256 * 1024) text.insert(text.length, line.repeat(Math.ceil((256 * 1024) / line.length)))
  // Edits at places of a fixed pseudo-random sequence, 2,000 per update (the server's MAX_UPDATE_ITEMS is 10,000).
  let place = 1
  for (let edited = 0; edited < JOIN_EDITS; edited += 2000) {
    seeder.doc.transact(() => {
      for (let i = edited; i < Math.min(JOIN_EDITS, edited + 2000); i++) text.insert((place = (place * 48271) % 2147483647) % (text.length + 1), 'x')
    })
  }
  // The seeder's round trip: once answered, the server holds the document.
  await roundTripOf(seeder)
  // An edit after it, so that the whole document's answer the round trip left with the server is out of
  // date; the second round trip (asking for what the seeder lacks: nothing) says it is applied.
  text.insert(0, '// edited\n')
  await roundTripOf(seeder, seeder.doc)
  if (cold) {
    seeder.close()
    const deadline = performance.now() + 60_000
    while ((await roomsLoaded(server.port)) > 0) {
      if (performance.now() > deadline) throw new Error('the room was not unloaded within 60 s')
      await sleep(50)
    }
  }
  const parts = Array.from({ length: JOINER_PROCESSES }, (_, i) => {
    const count = Math.floor(JOINERS / JOINER_PROCESSES) + (i < JOINERS % JOINER_PROCESSES ? 1 : 0)
    return spawnPart(['joiners', String(server.port), String(count), String(30_000 + i * 10_000)])
  })
  const bystander = spawnPart(['bystander', String(server.port)])
  try {
    for (const part of [...parts, bystander]) await expectLine(part, 'ready')
    let peak = rssMb(server.pid)
    const cpuSamples: Array<{ at: number; ms: number }> = []
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid))
      cpuSamples.push({ at: Date.now(), ms: mainThreadCpuMs(server.pid) })
    }, 50)
    // Whether the storm's time is the server's or the clients' (on the same cores): the CPU each used.
    const clientTicks = (): number => parts.reduce((sum, part) => sum + cpuTicks(part.child.pid!), 0)
    const ticks = { server: cpuTicks(server.pid), clients: clientTicks() }
    const startedAt = Date.now()
    const start = performance.now()
    for (const part of parts) part.child.stdin!.write('go\n')
    const synced = await Promise.all(parts.map((part) => expectLine(part, 'synced')))
    const seconds = (performance.now() - start) / 1000
    const serverCpuS = (cpuTicks(server.pid) - ticks.server) / CLOCK_TICKS
    const clientCpuS = (clientTicks() - ticks.clients) / CLOCK_TICKS
    const reconnects = synced.reduce((n, line) => n + Number(line.split(' ')[1]), 0)
    clearInterval(sampler)
    bystander.child.stdin!.end()
    const [, worst, worstAt] = (await expectLine(bystander, 'worst')).split(' ').map(Number)
    const serverLoop = loopGaps(server.pid, startedAt, Date.now())
    return { seconds, peakMb: peak, bystanderMs: worst!, bystanderServerCpu: cpuAround(cpuSamples, worstAt!, worst!), bystanderAt: worstAt!, bystanderAfterS: (worstAt! - startedAt) / 1000, serverLoop, reconnects, serverCpuS, clientCpuS }
  } finally {
    for (const part of [...parts, bystander]) part.child.kill()
    if (!cold) seeder.close()
  }
}

/** CPU time (user + system) the main thread of process `pid` has used, in ms (clock ticks of 10 ms). */
function mainThreadCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** The CPU used between the last sample at or before `from` and the first at or after `from + ms`. */
function cpuAround(samples: ReadonlyArray<{ at: number; ms: number }>, from: number, ms: number): { ms: number; spanMs: number } {
  const before = samples.filter((sample) => sample.at <= from).at(-1) ?? samples[0]
  const after = samples.find((sample) => sample.at >= from + ms) ?? samples.at(-1)
  if (before === undefined || after === undefined) return { ms: NaN, spanMs: NaN }
  return { ms: after.ms - before.ms, spanMs: after.at - before.at }
}

async function joinersPart(port: number, count: number, offset: number): Promise<void> {
  const input = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
  console.log('ready')
  await input.next()
  const joiners = await connect(port, 'big', count, offset)
  console.log(`synced ${joiners.reduce((n, joiner) => n + joiner.reconnects, 0)}`)
  await input.next()
  for (const joiner of joiners) joiner.close()
}

async function bystanderPart(port: number): Promise<void> {
  const [from, to] = await connect(port, 'bystander', 2, 20_000)
  let worst = 0
  let worstAt = 0
  let pinging = true
  process.stdin.resume()
  process.stdin.on('end', () => (pinging = false))
  console.log('ready')
  while (pinging) {
    const at = Date.now()
    const waited = await relayTime(from!, to!)
    if (waited > worst) [worst, worstAt] = [waited, at]
    await sleep(50)
  }
  console.log(`worst ${worst} ${worstAt}`)
  from!.close()
  to!.close()
}

/** Cotext's server from `root` (this checkout, or a copy of another ref) on a free port, run as the other server benchmarks run it (server-clients.ts). */
async function startCotextAt(root: string, name: string): Promise<JoinServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cotext-join-'))
  const { child, port } = await startCotext(dataDir, { MAX_CONNECTIONS_PER_ADDRESS: '100000', MAX_CONNECTIONS_PER_ROOM: '100000', MAX_APPLY_MS: '3600000' }, root, LOOP_PROBE_ARGS)
  return { name, pid: child.pid!, port, stop: async () => { await stopServer(child); rmSync(dataDir, { recursive: true, force: true }) } }
}

export const startCotextJoin = (): Promise<JoinServer> => startCotextAt(ROOT, 'cotext')

export async function startStockJoin(): Promise<JoinServer> {
  const { child, port } = await startStock(LOOP_PROBE_ARGS)
  return { name: 'stock', pid: child.pid!, port, stop: () => stopServer(child) }
}

/** The server of git ref `ref`, copied (git archive) to a temporary directory that uses this checkout's node_modules. */
export function checkoutOf(ref: string): { root: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'cotext-before-'))
  execSync(`git archive ${ref} | tar -x -C ${JSON.stringify(root)}`, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'))
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) }
}

const figures = (r: JoinResult): string =>
  `${r.seconds.toFixed(2)} s, peak ${r.peakMb.toFixed(0)} MB, bystander ${r.bystanderMs.toFixed(0)} ms ${r.bystanderAfterS.toFixed(1)} s into the storm (server event loop on a core ${r.bystanderServerCpu.ms} ms of the ${r.bystanderServerCpu.spanMs} ms around it); server event loop: longest gap ${r.serverLoop.longest.ms} ms (${r.serverLoop.longest.cpuMs} ms on a core), busiest ${r.serverLoop.busiest.cpuMs} ms on a core in ${r.serverLoop.busiest.ms} ms; ${r.reconnects} joiners cut and reconnected; CPU: server ${r.serverCpuS.toFixed(1)} s, joiners' processes ${r.clientCpuS.toFixed(1)} s`
const verdict = (ok: boolean): string => (ok ? 'reached' : 'NOT reached')

/**
 * Runs the join storm warm against the stock server and Cotext (and, with `before`, the server of that
 * git ref), and cold against each Cotext; prints every run and the targets. `rounds` runs of each.
 */
export async function runJoinStorms(options: { before?: string; rounds?: number; measured?: { stock: JoinResult; cotext: JoinResult } } = {}): Promise<void> {
  const rounds = options.rounds ?? 1
  const measured = options.measured
  const before = options.before === undefined || options.before === '' || options.before === 'none' ? null : checkoutOf(options.before)
  const servers: Array<{ name: string; start: () => Promise<JoinServer> }> = [{ name: 'stock', start: startStockJoin }]
  if (before !== null) servers.push({ name: `cotext ${options.before}`, start: () => startCotextAt(before.root, `cotext ${options.before}`) })
  servers.push({ name: 'cotext', start: startCotextJoin })
  const results = new Map<string, JoinResult[]>()
  // Warm runs another workload loop has made already (server-scale.bench.ts): not run again.
  if (measured !== undefined) results.set('stock, warm', [measured.stock]).set('cotext, warm', [measured.cotext])
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const { name, start } of servers) {
        for (const cold of [false, true]) {
          if (measured !== undefined && (name === 'stock' || name === 'cotext') && !cold) continue
          if (cold && name === 'stock') continue
          const server = await start()
          try {
            const result = await joinStorm(server, cold)
            const key = `${name}, ${cold ? 'cold' : 'warm'}`
            results.set(key, [...(results.get(key) ?? []), result])
            console.log(`  join storm round ${round}, ${key}: ${figures(result)}`)
          } finally {
            await server.stop()
          }
        }
      }
    }
  } finally {
    before?.remove()
  }
  const median = (key: string, pick: (r: JoinResult) => number): number => {
    const values = (results.get(key) ?? []).map(pick).sort((a, b) => a - b)
    return values[Math.floor(values.length / 2)] ?? NaN
  }
  const stockSeconds = median('stock, warm', (r) => r.seconds)
  console.log(`join storm targets (${JOINERS} joiners of ${JOIN_MB} MB edited in ${JOIN_EDITS} places; medians of ${rounds}; time ÷ the stock server's warm time ${stockSeconds.toFixed(2)} s):`)
  for (const { name } of servers.slice(1)) {
    for (const temperature of ['warm', 'cold']) {
      const key = `${name}, ${temperature}`
      const seconds = median(key, (r) => r.seconds)
      const peak = median(key, (r) => r.peakMb)
      const bystander = Math.max(...(results.get(key) ?? []).map((r) => r.bystanderMs))
      // The stock server's own time moves by up to 2x between rounds: each round against the stock run of that round too.
      const stockRounds = results.get('stock, warm') ?? []
      const perRound = (results.get(key) ?? []).map((r, i) => (stockRounds[i] ? `${(r.seconds / stockRounds[i]!.seconds).toFixed(2)}x` : '?')).join(', ')
      console.log(
        `  ${key}: ${(seconds / stockSeconds).toFixed(2)}x (target <= 0.5x: ${verdict(seconds <= 0.5 * stockSeconds)}; round by round ${perRound}), peak ${peak.toFixed(0)} MB (target <= 2048: ${verdict(peak <= 2048)}), worst bystander ${bystander.toFixed(0)} ms (target <= 250: ${verdict(bystander <= 250)})`,
      )
    }
  }
}

const [role, ...roleArgs] = process.argv.slice(2)
if (role === 'joiners') {
  await joinersPart(Number(roleArgs[0]), Number(roleArgs[1]), Number(roleArgs[2]))
  process.exit(0)
} else if (role === 'bystander') {
  await bystanderPart(Number(roleArgs[0]))
  process.exit(0)
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(`join storm: ${JOINERS} joiners of ${JOIN_MB} MB edited in ${JOIN_EDITS} places`)
  await runJoinStorms({ before: process.env.JOIN_BEFORE, rounds: Number(process.env.ROUNDS ?? 1) })
  process.exit(0)
}
