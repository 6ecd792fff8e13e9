/**
 * What FSYNC costs: Cotext's server (`server/main.ts`, LevelDB with its journal) with FSYNC=false
 * (the baseline: a write is in the page cache before it is relayed) and FSYNC=true (the journal
 * record is fdatasync'd before it is relayed, LevelDB writes are sync writes), under the same load:
 *
 * 1. Steady load: 50 clients in one room, each sending a one-character update 10 times a second.
 *    Reports messages delivered per second and end-to-end relay latency p50/p99, per 1 s slice and
 *    overall, and the median of the per-round p99 differences (the target: <= 5 ms added at p99).
 * 2. Bursts: each of the 50 clients sends 20 updates at once; the time until all 1,000 have reached
 *    the 49 other clients gives the updates per second each server sustains when writes queue up
 *    (group commit: one fdatasync covers every update that arrived during the previous one).
 *
 *   npx tsx bench/durability.bench.ts        BENCH_SECONDS=3 for a quick run (default 10)
 *
 * The data directories are under the OS temp directory, on whatever disk that is (printed): on
 * tmpfs fdatasync costs nothing and the comparison says nothing. Both servers run for the whole
 * benchmark and the load alternates between them in 1 s slices, so drifting machine load weighs
 * on both alike.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { median } from './measure.ts'
import { SyncClient, sleep, startCotext, stopServer, typeSteadily, updateRuns } from './server-clients.ts'

const CLIENTS = 50
const UPDATES_PER_SECOND = 10
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const BURST = 20
const BURST_ROUNDS = 5
const DRAIN_TIMEOUT_MS = 10_000

if (!Number.isFinite(SECONDS) || SECONDS <= 0) throw new Error(`BENCH_SECONDS must be a positive number, got ${process.env.BENCH_SECONDS}`)

class Typist extends SyncClient {
  constructor(url: string, index: number, private readonly load: Load) {
    super(url, index, 'durability bench client')
  }

  type(): void {
    const clock = this.text.length
    this.load.sent.set(`${this.index}:${clock}`, performance.now())
    this.text.insert(clock, 'x')
  }

  protected onUpdate(update: Uint8Array, now: number): void {
    // A relay may be a batch of several senders' updates (the server merges them).
    for (const from of updateRuns(update)) {
      if (from.sender === this.index) continue
      for (let clock = from.clock; clock < from.clock + from.length; clock++) this.load.record(from.sender, clock, now)
    }
  }
}

/** One server with its 50 clients. */
class Load {
  readonly clients: Typist[]
  readonly sent = new Map<string, number>()
  delivered = 0
  private expected = 0
  private slice: number[] = []
  private measuring = false
  readonly sliceP99s: number[] = []
  readonly all: number[] = []
  private measuredMs = 0
  private deliveredMeasured = 0
  readonly burstRates: number[] = []

  constructor(readonly name: string, port: number) {
    this.clients = Array.from({ length: CLIENTS }, (_, index) => new Typist(`ws://127.0.0.1:${port}/durability`, index, this))
  }

  record(sender: number, clock: number, now: number): void {
    this.delivered += 1
    if (!this.measuring) return
    this.deliveredMeasured += 1
    this.slice.push(now - this.sent.get(`${sender}:${clock}`)!)
  }

  async steadySlice(ms: number, measure: boolean): Promise<void> {
    this.measuring = measure
    const before = this.sentCount()
    const started = performance.now()
    const timers = typeSteadily(this.clients, UPDATES_PER_SECOND)
    await sleep(ms)
    for (const timer of timers) clearTimeout(timer)
    if (measure) this.measuredMs += performance.now() - started
    this.expected += (this.sentCount() - before) * (CLIENTS - 1)
    await this.drain()
    if (measure) {
      const sorted = this.slice.sort((a, b) => a - b)
      this.sliceP99s.push(percentile(sorted, 0.99))
      this.all.push(...sorted)
    }
    this.slice = []
    this.measuring = false
  }

  /** Every client sends BURST updates at once; resolves with updates per second until all arrived everywhere. */
  async burst(): Promise<void> {
    const started = performance.now()
    for (let round = 0; round < BURST; round++) for (const client of this.clients) client.type()
    this.expected += BURST * CLIENTS * (CLIENTS - 1)
    await this.drain()
    this.burstRates.push((BURST * CLIENTS) / ((performance.now() - started) / 1000))
  }

  result(): { messagesPerSecond: number; p50: number; p99: number } {
    const sorted = [...this.all].sort((a, b) => a - b)
    return { messagesPerSecond: this.deliveredMeasured / (this.measuredMs / 1000), p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) }
  }

  close(): void {
    for (const client of this.clients) client.close()
  }

  private sentCount(): number {
    return this.sent.size
  }

  private async drain(): Promise<void> {
    const deadline = performance.now() + DRAIN_TIMEOUT_MS
    while (this.delivered < this.expected) {
      if (performance.now() > deadline) throw new Error(`${this.name}: ${this.expected - this.delivered} messages not delivered within ${DRAIN_TIMEOUT_MS} ms`)
      await sleep(5)
    }
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN
}

const base = tmpdir()
const filesystem = spawnSync('df', ['--output=source,fstype', base], { encoding: 'utf8' }).stdout.trim().split('\n').pop() ?? 'unknown'
const plainDir = mkdtempSync(join(base, 'cotext-bench-'))
const syncDir = mkdtempSync(join(base, 'cotext-bench-'))
const plainServer = await startCotext(plainDir, { FSYNC: 'false' })
const syncServer = await startCotext(syncDir, { FSYNC: 'true' })
const plain = new Load('FSYNC=false', plainServer.port)
const synced = new Load('FSYNC=true', syncServer.port)
const loads = [plain, synced]
await Promise.all(loads.flatMap((load) => load.clients.map((client) => client.synced)))

console.log(`durability: ${CLIENTS} clients in one room, each sending a one-character update ${UPDATES_PER_SECOND}x/s, ${SECONDS} s per server in 1 s slices alternating; data in ${base} (${filesystem})`)
for (const load of loads) await load.steadySlice(1000, false)
for (let round = 0; round < SECONDS; round++) {
  for (const load of round % 2 === 0 ? loads : [...loads].reverse()) await load.steadySlice(1000, true)
}
for (let round = 0; round < BURST_ROUNDS; round++) for (const load of round % 2 === 0 ? loads : [...loads].reverse()) await load.burst()

const a = plain.result()
const b = synced.result()
const fmt = (value: number): string => value.toFixed(2)
for (const [load, result] of [[plain, a], [synced, b]] as const) {
  console.log(`  ${load.name}: ${result.messagesPerSecond.toFixed(0)} msg/s delivered, relay p50 ${fmt(result.p50)} ms p99 ${fmt(result.p99)} ms; bursts of ${BURST * CLIENTS}: median ${median(load.burstRates).toFixed(0)} updates/s`)
  console.log(`    p99 per round: ${load.sliceP99s.map((value) => value.toFixed(1)).join(' ')}`)
  console.log(`    burst updates/s per round: ${load.burstRates.map((value) => value.toFixed(0)).join(' ')}`)
}
const paired = median(synced.sliceP99s.map((p99, round) => p99 - plain.sliceP99s[round]!))
console.log(`fsync relay p99: ${(b.p99 / a.p99).toFixed(2)}x FSYNC=false (${fmt(b.p99)} vs ${fmt(a.p99)} ms; median of per-round differences ${paired >= 0 ? '+' : ''}${fmt(paired)} ms)`)
console.log(`fsync relay p50: ${(b.p50 / a.p50).toFixed(2)}x FSYNC=false (${fmt(b.p50)} vs ${fmt(a.p50)} ms)`)
console.log(`fsync steady throughput: ${(b.messagesPerSecond / a.messagesPerSecond).toFixed(2)}x FSYNC=false (${b.messagesPerSecond.toFixed(0)} vs ${a.messagesPerSecond.toFixed(0)} msg/s)`)
console.log(`fsync burst throughput: ${(median(synced.burstRates) / median(plain.burstRates)).toFixed(2)}x FSYNC=false (${median(synced.burstRates).toFixed(0)} vs ${median(plain.burstRates).toFixed(0)} updates/s)`)
console.log(`fsync default target (<= 5 ms added at p99, median of per-round differences): ${paired <= 5 ? 'met' : 'NOT met'}`)

for (const load of loads) load.close()
await Promise.all([stopServer(plainServer.child), stopServer(syncServer.child)])
rmSync(plainDir, { recursive: true, force: true })
rmSync(syncDir, { recursive: true, force: true })
