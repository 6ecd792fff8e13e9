/**
 * The server at scale, against the stock server of @y/websocket-server 0.1.1 under the same load, in
 * one run, printing Cotext ÷ stock and each target of the server-at-scale issue:
 *
 * 1. A hot room: WRITERS clients in one room, each sending a one-character update once a second.
 *    Frames each client receives per second, everything delivered, server CPU, relay latency p99.
 * 2. A presence storm: MOVERS clients in one room each moving a cursor 5 times a second (an awareness
 *    update). Awareness frames per client per second, latency p99 (send → a peer has the state),
 *    whether every client stayed connected.
 * 3. Idle connections: IDLE clients in IDLE / 10 rooms doing nothing for a while: server CPU per
 *    connection-second and memory per connection.
 * 4. A join storm: JOINERS clients join a room holding a JOIN_MB document at once: time until all are
 *    synced, peak RSS, and the longest round trip a bystander in another room waited meanwhile.
 * 5. The hot room in cluster mode: the WRITERS spread over three Cotext processes on one Redis and one
 *    PostgreSQL (CLUSTER=0 skips it). The stock server has no cluster mode: its figures are set beside
 *    the stock server's single process.
 *
 *   npx tsx bench/server-scale.bench.ts      BENCH_SECONDS (default 10), WRITERS (200), MOVERS (200),
 *                                             IDLE (1500), JOINERS (150), JOIN_MB (20); smaller for a quick run;
 *                                             WORKLOADS=hot,idle (of hot, presence, idle, join) runs only those
 *                                             and prints only their targets; SERVER_NODE_ARGS adds node flags
 *                                             to the servers (`--cpu-prof --cpu-prof-dir=DIR` profiles Cotext's);
 *                                             SCALE_BEFORE=<git ref> runs that ref's server too (before and
 *                                             after, in the same run); ROUNDS (1) repeats each workload, the
 *                                             servers alternating, and the targets use the rounds' means
 *
 * Clients speak the y-websocket protocol directly (see server-clients.ts); everything runs on 127.0.0.1.
 * Each server is measured alone, one after the other, with the same workload.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as Y from 'yjs'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import * as syncProtocol from 'y-protocols/sync'
import { WebSocket } from 'ws'
import { startPostgres, startRedis } from '../test/server/helpers/services.ts'
import { CLOCK_TICKS, cpuTicks, rssMb, sleep, startCotext, startStock, stopServer, updateRuns } from './server-clients.ts'
import { LOOP_PROBE_ARGS, checkoutOf, joinStorm as joinStormOf, runJoinStorms } from './server-join.ts'
import type { JoinResult } from './server-join.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const WRITERS = Number(process.env.WRITERS ?? 200)
const MOVERS = Number(process.env.MOVERS ?? 200)
const IDLE = Number(process.env.IDLE ?? 1500)
const JOINERS = Number(process.env.JOINERS ?? 150)
const JOIN_MB = Number(process.env.JOIN_MB ?? 20)
const CLUSTER = process.env.CLUSTER !== '0'
const WORKLOADS = new Set((process.env.WORKLOADS ?? 'hot,presence,idle,join').split(','))
const BEFORE = process.env.SCALE_BEFORE === undefined || process.env.SCALE_BEFORE === '' ? null : process.env.SCALE_BEFORE
const ROUNDS = Number(process.env.ROUNDS ?? 1)
const CLUSTER_PROCESSES = 3
for (const [name, value] of Object.entries({ BENCH_SECONDS: SECONDS, ROUNDS, WRITERS, MOVERS, IDLE, JOINERS, JOIN_MB })) {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${value}`)
}

type Server = { name: string; pid: number; port: number; stop(): Promise<void> }

function frame(type: number, write: (encoder: encoding.Encoder) => void): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, type)
  write(encoder)
  return encoding.toUint8Array(encoder)
}

/** A raw client: answers the server's sync step 1, counts the frames it gets, hands on updates and awareness. */
class Client {
  readonly doc = new Y.Doc()
  readonly ws: WebSocket
  readonly synced: Promise<void>
  updateFrames = 0
  awarenessFrames = 0
  closed = false
  onUpdate: (update: Uint8Array, now: number) => void = () => {}
  onAwareness: (payload: Uint8Array, now: number) => void = () => {}

  constructor(url: string, index: number) {
    this.doc.clientID = index + 1
    this.ws = new WebSocket(url, { perMessageDeflate: false })
    let markSynced!: () => void
    this.synced = new Promise((done) => (markSynced = done))
    this.ws.on('open', () => this.ws.send(frame(0, (e) => syncProtocol.writeSyncStep1(e, this.doc))))
    this.ws.on('close', () => (this.closed = true))
    this.ws.on('error', () => (this.closed = true))
    this.ws.on('message', (data: Buffer) => {
      const now = performance.now()
      const decoder = decoding.createDecoder(data)
      const type = decoding.readVarUint(decoder)
      if (type === 1) {
        this.awarenessFrames += 1
        this.onAwareness(decoding.readVarUint8Array(decoder), now)
        return
      }
      if (type !== 0) return
      const step = decoding.readVarUint(decoder)
      if (step === syncProtocol.messageYjsSyncStep1) this.ws.send(frame(0, (e) => syncProtocol.writeSyncStep2(e, this.doc, decoding.readVarUint8Array(decoder))))
      else if (step === syncProtocol.messageYjsSyncStep2) markSynced()
      else {
        this.updateFrames += 1
        this.onUpdate(decoding.readVarUint8Array(decoder), now)
      }
    })
    this.doc.on('update', (update: Uint8Array) => this.ws.send(frame(0, (e) => syncProtocol.writeUpdate(e, update))))
  }

  close(): void {
    this.ws.terminate()
    this.doc.destroy()
  }
}

function percentile(values: number[], q: number): number {
  if (values.length === 0) return NaN
  const sorted = Float64Array.from(values).sort()
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

async function connect(server: Server, room: (i: number) => string, count: number, offset = 0): Promise<Client[]> {
  const clients: Client[] = []
  for (let i = 0; i < count; i++) clients.push(new Client(`ws://127.0.0.1:${server.port}/${room(i)}`, offset + i))
  await Promise.all(clients.map((client) => client.synced))
  return clients
}

/** Workload 1: WRITERS clients each typing once a second into one room. */
function hotRoom(server: Server) {
  return typeInHotRoom([server])
}

/** WRITERS clients each typing once a second into one room, spread over `servers` (one room over several processes in cluster mode); CPU summed over them. */
async function typeInHotRoom(servers: Server[]) {
  const clients: Client[] = []
  for (let i = 0; i < WRITERS; i++) clients.push(new Client(`ws://127.0.0.1:${servers[i % servers.length]!.port}/hot`, i))
  await Promise.all(clients.map((client) => client.synced))
  const sendTimes = clients.map(() => new Map<number, number>())
  const latencies: number[] = []
  let delivered = 0
  let sent = 0
  clients.forEach((client, index) => {
    client.onUpdate = (update, now) => {
      for (const run of updateRuns(update)) {
        if (run.sender === index || run.sender < 0 || run.sender >= WRITERS) continue
        for (let clock = run.clock; clock < run.clock + run.length; clock++) {
          delivered += 1
          const at = sendTimes[run.sender]!.get(clock)
          if (at !== undefined) latencies.push(now - at)
        }
      }
    }
  })
  for (const client of clients) client.updateFrames = 0
  const serverTicks = (): number => servers.reduce((sum, server) => sum + cpuTicks(server.pid), 0)
  const ticks = serverTicks()
  const start = performance.now()
  const timers = clients.map((client, i) =>
    setTimeout(() => {
      const type = (): void => {
        const text = client.doc.getText('text')
        sendTimes[i]!.set(text.length, performance.now())
        sent += 1
        text.insert(text.length, 'x')
      }
      type()
      timers[i] = setInterval(type, 1000)
    }, (i * 1000) / WRITERS),
  )
  await sleep(SECONDS * 1000)
  for (const timer of timers) clearTimeout(timer)
  const seconds = (performance.now() - start) / 1000
  const deadline = performance.now() + 10_000
  while (delivered < sent * (WRITERS - 1) && performance.now() < deadline) await sleep(20)
  // The CPU of the whole work, backlog included, per second of typing: a server that falls behind on a loaded
  // machine relays the rest after the typing stops, and counting only the typing seconds would leave that out.
  const cpu = (serverTicks() - ticks) / CLOCK_TICKS / seconds
  const frames = clients.reduce((n, c) => n + c.updateFrames, 0) / WRITERS / seconds
  for (const client of clients) client.close()
  return { frames, cpu, p99: percentile(latencies, 0.99), deliveredFraction: delivered / (sent * (WRITERS - 1)) }
}

/** Workload 2: MOVERS clients each publishing a cursor 5 times a second. */
async function presenceStorm(server: Server) {
  const clients = await connect(server, () => 'storm', MOVERS)
  const latencies: number[] = []
  clients.forEach((client) => {
    client.onAwareness = (payload, now) => {
      const decoder = decoding.createDecoder(payload)
      for (let n = decoding.readVarUint(decoder); n > 0; n--) {
        decoding.readVarUint(decoder)
        decoding.readVarUint(decoder)
        const state = JSON.parse(decoding.readVarString(decoder)) as { at?: number } | null
        if (state?.at !== undefined) latencies.push(now - state.at)
      }
    }
    client.awarenessFrames = 0
  })
  const ticks = cpuTicks(server.pid)
  const start = performance.now()
  const clocks = clients.map(() => 0)
  const timers = clients.map((client, i) =>
    setTimeout(() => {
      const move = (): void => {
        const state = JSON.stringify({ user: { name: `mover ${i}` }, cursor: { anchor: clocks[i], head: clocks[i] }, at: performance.now() })
        const entry = frame(1, (e) => {
          const inner = encoding.createEncoder()
          encoding.writeVarUint(inner, 1)
          encoding.writeVarUint(inner, client.doc.clientID)
          encoding.writeVarUint(inner, ++clocks[i]!)
          encoding.writeVarString(inner, state)
          encoding.writeVarUint8Array(e, encoding.toUint8Array(inner))
        })
        if (!client.closed) client.ws.send(entry)
      }
      move()
      timers[i] = setInterval(move, 200)
    }, (i * 200) / MOVERS),
  )
  await sleep(SECONDS * 1000)
  for (const timer of timers) clearTimeout(timer)
  const seconds = (performance.now() - start) / 1000
  const cpu = (cpuTicks(server.pid) - ticks) / CLOCK_TICKS / seconds
  await sleep(500)
  const frames = clients.reduce((n, c) => n + c.awarenessFrames, 0) / MOVERS / seconds
  const connected = clients.filter((c) => !c.closed).length
  for (const client of clients) client.close()
  return { frames, cpu, p99: percentile(latencies, 0.99), connected }
}

/** Where server-gc-probe.mjs writes each server's memory after full collections. */
const GC_PROBE_DIR = mkdtempSync(join(tmpdir(), 'cotext-gc-probe-'))
process.env.GC_PROBE_DIR = GC_PROBE_DIR
process.on('exit', () => rmSync(GC_PROBE_DIR, { recursive: true, force: true }))
/** Node's flags for the servers of the idle workload: full collections on SIGUSR2 (server-gc-probe.mjs). */
const GC_PROBE_ARGS = ['--expose-gc', '--import', pathToFileURL(join(import.meta.dirname, 'server-gc-probe.mjs')).href]

type GcReading = { rss: number; heapUsed: number; anonymous: number }

/** Has `server` (started with GC_PROBE_ARGS) collect all its garbage and resolves with its memory then. */
async function afterFullGc(server: Server): Promise<GcReading> {
  const file = join(GC_PROBE_DIR, `${server.pid}.jsonl`)
  // Whole lines only: the probe may be halfway through writing the next one.
  const lines = (): string[] => {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
    return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter((line) => line !== '')
  }
  const before = lines().length
  process.kill(server.pid, 'SIGUSR2')
  const deadline = performance.now() + 30_000
  while (lines().length === before) {
    if (performance.now() > deadline) throw new Error(`server ${server.name} wrote no memory figures after full collections`)
    await sleep(50)
  }
  return JSON.parse(lines().at(-1)!) as GcReading
}

/**
 * Workload 3: IDLE connections in IDLE / 10 rooms, doing nothing. Memory per connection is resident
 * memory's growth 1 s after they connected (the target's figure), and besides, the growth between full
 * collections before and after (server-gc-probe.mjs): resident, anonymous (the process's own pages: heap,
 * sockets, buffers) and the JavaScript heap's live bytes, without the steps of V8's young generation.
 */
async function idleConnections(server: Server) {
  const collected = await afterFullGc(server)
  await sleep(200)
  const rssBefore = rssMb(server.pid)
  const clients: Client[] = []
  for (let batch = 0; batch < IDLE; batch += 100) clients.push(...(await connect(server, (i) => `idle-${(batch + i) % Math.max(1, Math.floor(IDLE / 10))}`, Math.min(100, IDLE - batch), batch)))
  await sleep(1000)
  const rssAfter = rssMb(server.pid)
  const ticks = cpuTicks(server.pid)
  const start = performance.now()
  await sleep(SECONDS * 1000)
  const seconds = (performance.now() - start) / 1000
  const cpuMicros = (((cpuTicks(server.pid) - ticks) / CLOCK_TICKS) * 1e6) / (IDLE * seconds)
  const after = await afterFullGc(server)
  for (const client of clients) client.close()
  const kb = (bytes: number): number => bytes / 1024 / IDLE
  return {
    cpuMicros,
    kbPerConnection: ((rssAfter - rssBefore) * 1024) / IDLE,
    gcRssKb: kb(after.rss - collected.rss),
    gcAnonymousKb: kb(after.anonymous - collected.anonymous),
    gcHeapKb: kb(after.heapUsed - collected.heapUsed),
  }
}

/**
 * Workload 4: JOINERS clients joining a room with a JOIN_MB document at once, a bystander room relaying
 * meanwhile, warm (server-join.ts; at the end it runs the storm cold too, and with JOIN_BEFORE=<git ref>
 * that ref's server beside this one).
 */
async function joinStorm(server: Server) {
  const { bystanderServerCpu, serverLoop, ...figures } = await joinStormOf(server, false)
  const { longest, busiest } = serverLoop
  return {
    ...figures,
    bystanderServerCpuMs: bystanderServerCpu.ms,
    bystanderSpanMs: bystanderServerCpu.spanMs,
    ...{ loopLongestAt: longest.at, loopLongestMs: longest.ms, loopLongestCpuMs: longest.cpuMs, loopBusiestAt: busiest.at, loopBusiestMs: busiest.ms, loopBusiestCpuMs: busiest.cpuMs },
  }
}

async function cotext(root?: string, name = 'cotext', nodeArgs: string[] = []): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'cotext-scale-'))
  const { child, port } = await startCotext(dir, { MAX_CONNECTIONS_PER_ADDRESS: '100000', MAX_CONNECTIONS_PER_ROOM: '100000', MAX_APPLY_MS: '3600000' }, root, nodeArgs)
  return { name, pid: child.pid!, port, stop: async () => { await stopServer(child); rmSync(dir, { recursive: true, force: true }) } }
}

/** CLUSTER_PROCESSES Cotext processes in cluster mode, on a Redis and a PostgreSQL of their own. */
async function cotextCluster(): Promise<{ servers: Server[]; stop(): Promise<void> }> {
  const [redis, postgres] = await Promise.all([startRedis(), startPostgres()])
  const env = { REDIS_URL: redis.url, DATABASE_URL: postgres.url, MAX_CONNECTIONS_PER_ADDRESS: '100000', MAX_CONNECTIONS_PER_ROOM: '100000' }
  const dirs = Array.from({ length: CLUSTER_PROCESSES }, () => mkdtempSync(join(tmpdir(), 'cotext-scale-cluster-')))
  // One after the other: three processes compiling at once on a loaded machine outlast the start timeout.
  const started: Array<Awaited<ReturnType<typeof startCotext>>> = []
  const servers = (): Server[] => started.map(({ child, port }) => ({ name: 'cotext cluster', pid: child.pid!, port, stop: () => stopServer(child) }))
  const stop = async (): Promise<void> => {
    await Promise.all(servers().map((server) => server.stop()))
    await Promise.all([redis.remove(), postgres.remove()])
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
  try {
    for (const dir of dirs) started.push(await startCotext(dir, env))
  } catch (error) {
    // Redis and PostgreSQL must not outlive a failed start.
    await stop()
    throw error
  }
  return { servers: servers(), stop }
}

async function stock(nodeArgs: string[] = []): Promise<Server> {
  const { child, port } = await startStock(nodeArgs)
  return { name: 'stock', pid: child.pid!, port, stop: () => stopServer(child) }
}

/** Each figure's mean over the rounds. */
function meanOf(rounds: ReadonlyArray<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.keys(rounds[0]!).map((key) => [key, rounds.reduce((sum, round) => sum + round[key]!, 0) / rounds.length]))
}

/** A join storm's figures as this script records them (flat numbers), as server-join.ts reports them. */
function joinResultOf(figures: Record<string, number>): JoinResult {
  const { bystanderServerCpuMs, bystanderSpanMs, loopLongestAt, loopLongestMs, loopLongestCpuMs, loopBusiestAt, loopBusiestMs, loopBusiestCpuMs, ...rest } = figures as Record<string, number>
  return {
    ...(rest as Omit<JoinResult, 'bystanderServerCpu' | 'serverLoop'>),
    bystanderServerCpu: { ms: bystanderServerCpuMs!, spanMs: bystanderSpanMs! },
    serverLoop: { longest: { at: loopLongestAt!, ms: loopLongestMs!, cpuMs: loopLongestCpuMs! }, busiest: { at: loopBusiestAt!, ms: loopBusiestMs!, cpuMs: loopBusiestCpuMs! } },
  }
}

const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a')
const verdict = (ok: boolean): string => (ok ? 'reached' : 'NOT reached')

console.log(`server at scale: ${SECONDS} s per workload, ${WRITERS} writers, ${MOVERS} movers, ${IDLE} idle connections, ${JOINERS} joiners of ${JOIN_MB} MB${CLUSTER ? `, the hot room over ${CLUSTER_PROCESSES} cluster processes` : ''}`)
const workloads = (
  [
    ['hot room', hotRoom, 'hot'],
    ['presence storm', presenceStorm, 'presence'],
    ['idle connections', idleConnections, 'idle'],
    ['join storm', joinStorm, 'join'],
  ] as const
).filter(([, , key]) => WORKLOADS.has(key))
const before = BEFORE === null ? null : checkoutOf(BEFORE)
const starts: Array<(nodeArgs: string[]) => Promise<Server>> = [(args) => cotext(undefined, 'cotext', args), ...(before === null ? [] : [(args: string[]) => cotext(before.root, `cotext ${BEFORE}`, args)]), stock]
const results: Record<string, { cotext: Record<string, number>; stock: Record<string, number> }> = {}
for (const [name, run] of workloads) {
  const rounds: Record<string, Array<Record<string, number>>> = {}
  for (let round = 1; round <= ROUNDS; round++) {
    for (const start of starts) {
      const server = await start(name === 'idle connections' ? GC_PROBE_ARGS : name === 'join storm' ? LOOP_PROBE_ARGS : [])
      let figures: Record<string, number>
      try {
        figures = await (run as (server: Server) => Promise<Record<string, number>>)(server)
      } finally {
        await server.stop()
      }
      ;(rounds[server.name] ??= []).push(figures)
      console.log(`  ${name}, ${server.name}${ROUNDS > 1 ? ` (round ${round})` : ''}: ${Object.entries(figures).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`)
    }
  }
  const means = Object.fromEntries(Object.entries(rounds).map(([server, all]) => [server, meanOf(all)]))
  if (ROUNDS > 1) for (const [server, mean] of Object.entries(means)) console.log(`  ${name}, ${server}, mean of ${ROUNDS}: ${Object.entries(mean).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`)
  if (BEFORE !== null) {
    const after = means.cotext!
    const earlier = means[`cotext ${BEFORE}`]!
    console.log(`  ${name}, cotext ÷ cotext ${BEFORE}: ${Object.keys(after).map((k) => `${k} ${ratio(after[k]!, earlier[k]!)}`).join(', ')}`)
  }
  results[name] = means as { cotext: Record<string, number>; stock: Record<string, number> }
}
before?.remove()

let clustered: Record<string, number> | null = null
if (CLUSTER && WORKLOADS.has('hot')) {
  const cluster = await cotextCluster()
  try {
    clustered = await typeInHotRoom(cluster.servers)
  } finally {
    await cluster.stop()
  }
  console.log(`  hot room, cotext over ${CLUSTER_PROCESSES} cluster processes: ${Object.entries(clustered).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`)
}

const hot = results['hot room']
const storm = results['presence storm']
const idle = results['idle connections']
const join_ = results['join storm']
console.log('targets (Cotext ÷ stock in this run):')
if (hot !== undefined) console.log(`  hot room: ${hot.cotext.frames!.toFixed(1)} frames/client/s (target <= 60: ${verdict(hot.cotext.frames! <= 60)}), delivered ${(hot.cotext.deliveredFraction! * 100).toFixed(2)}%, CPU ${ratio(hot.cotext.cpu!, hot.stock.cpu!)} stock's (target <= 0.5x: ${verdict(hot.cotext.cpu! <= 0.5 * hot.stock.cpu!)}), p99 ${hot.cotext.p99!.toFixed(1)} ms vs ${hot.stock.p99!.toFixed(1)} ms (target <= stock: ${verdict(hot.cotext.p99! <= hot.stock.p99!)})`)
if (storm !== undefined) console.log(`  presence storm: ${storm.cotext.frames!.toFixed(1)} awareness frames/client/s (target <= 100: ${verdict(storm.cotext.frames! <= 100)}), p99 ${storm.cotext.p99!.toFixed(1)} ms vs ${storm.stock.p99!.toFixed(1)} ms (target <= 250 ms: ${verdict(storm.cotext.p99! <= 250)}), connected ${storm.cotext.connected}/${MOVERS} (stock ${storm.stock.connected}/${MOVERS})`)
if (idle !== undefined) console.log(`  idle: ${idle.cotext.cpuMicros!.toFixed(2)} µs CPU per connection-second (target <= 6: ${verdict(idle.cotext.cpuMicros! <= 6)}; stock ${idle.stock.cpuMicros!.toFixed(2)}), ${idle.cotext.kbPerConnection!.toFixed(1)} KB per connection vs ${idle.stock.kbPerConnection!.toFixed(1)} KB (${ratio(idle.cotext.kbPerConnection!, idle.stock.kbPerConnection!)}; target <= 1x: ${verdict(idle.cotext.kbPerConnection! <= idle.stock.kbPerConnection!)}); between full collections: resident ${idle.cotext.gcRssKb!.toFixed(1)} vs ${idle.stock.gcRssKb!.toFixed(1)} KB (${ratio(idle.cotext.gcRssKb!, idle.stock.gcRssKb!)}), anonymous ${idle.cotext.gcAnonymousKb!.toFixed(1)} vs ${idle.stock.gcAnonymousKb!.toFixed(1)} KB, live JavaScript heap ${idle.cotext.gcHeapKb!.toFixed(1)} vs ${idle.stock.gcHeapKb!.toFixed(1)} KB`)
if (join_ !== undefined) console.log(`  join storm: all synced in ${join_.cotext.seconds!.toFixed(1)} s vs ${join_.stock.seconds!.toFixed(1)} s (${ratio(join_.cotext.seconds!, join_.stock.seconds!)}; target <= 0.5x: ${verdict(join_.cotext.seconds! <= 0.5 * join_.stock.seconds!)}), peak ${join_.cotext.peakMb!.toFixed(0)} MB (target <= 2048: ${verdict(join_.cotext.peakMb! <= 2048)}), bystander ${join_.cotext.bystanderMs!.toFixed(0)} ms (target <= 250: ${verdict(join_.cotext.bystanderMs! <= 250)})`)
if (clustered !== null && hot !== undefined) {
  // The stock server has no cluster mode: the cluster's figures are set beside the stock server's one process (and Cotext's).
  console.log(`  hot room over ${CLUSTER_PROCESSES} cluster processes (stock: one process, it has no cluster mode): ${clustered.frames!.toFixed(1)} frames/client/s (target <= 60: ${verdict(clustered.frames! <= 60)}), delivered ${(clustered.deliveredFraction! * 100).toFixed(2)}% (target 100%: ${verdict(clustered.deliveredFraction! >= 1)}), CPU summed over the processes ${clustered.cpu!.toFixed(2)} cores = ${ratio(clustered.cpu!, hot.stock.cpu!)} the stock server's (target <= 0.5x: ${verdict(clustered.cpu! <= 0.5 * hot.stock.cpu!)}; ${ratio(clustered.cpu!, hot.cotext.cpu!)} Cotext's one process), p99 ${clustered.p99!.toFixed(1)} ms vs stock ${hot.stock.p99!.toFixed(1)} ms (target <= stock: ${verdict(clustered.p99! <= hot.stock.p99!)}; Cotext's one process ${hot.cotext.p99!.toFixed(1)} ms)`)
}
if (join_ !== undefined) await runJoinStorms({ before: process.env.JOIN_BEFORE, measured: { stock: joinResultOf(join_.stock), cotext: joinResultOf(join_.cotext) } })
process.exit(0)
