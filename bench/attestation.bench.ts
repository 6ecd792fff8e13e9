/**
 * What attested authorship costs the server (issue 21's target: <= 10% of its throughput at 50
 * clients). Two Cotext servers (`server/main.ts`, LevelDB storage), both with AUTH_SECRET and
 * every client holding a token for its own subject: one with HISTORY=on (each update decoded and
 * checked before it is applied, client ids bound in the authors map, the change log recording it,
 * the version timer armed), one with HISTORY=off (none of it).
 *
 * 50 clients in one room, in a closed loop: each sends its next one-character update as soon as
 * its previous one has reached the next client, so the server runs as fast as it can and what it
 * delivers per second is its throughput. The load alternates between the two servers in slices of
 * a second, so a shared machine whose load drifts weighs on both alike. Reports updates applied
 * per second and server CPU per 1000 updates, per round, with the ratio on/off.
 *
 *   npx tsx bench/attestation.bench.ts        BENCH_SECONDS=3 for a quick run (default 10 per server)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signToken } from '../server/auth.ts'
import { median } from './measure.ts'
import { CLOCK_TICKS, SyncClient, cpuTicks, sleep, startCotext, stopServer, updateRuns } from './server-clients.ts'

const CLIENTS = 50
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const SLICE_MS = 1000
const SECRET = 'attestation-bench-secret-long-enough-for-hs256'

if (!Number.isFinite(SECONDS) || SECONDS <= 0) throw new Error(`BENCH_SECONDS must be a positive number, got ${process.env.BENCH_SECONDS}`)

class Typist extends SyncClient {
  waiting = false

  constructor(url: string, index: number, private readonly load: Load) {
    super(url, index, 'attestation client')
  }

  next(): void {
    if (this.waiting || !this.load.running) return
    this.waiting = true
    this.load.sent += 1
    this.text.insert(this.text.length, 'x')
  }

  protected onUpdate(update: Uint8Array): void {
    // A relay may be a batch of several senders' updates (the server merges them).
    for (const from of updateRuns(update)) {
      if (from.sender < 0 || from.sender >= CLIENTS) continue
      // The next client of the ring acknowledges its predecessor's update.
      if (this.index === (from.sender + 1) % CLIENTS) {
        const sender = this.load.clients[from.sender]!
        sender.waiting = false
        this.load.delivered += 1
        sender.next()
      }
    }
  }
}

class Load {
  clients: Typist[] = []
  running = false
  sent = 0
  delivered = 0
  readonly rounds: Array<{ perSecond: number; ticksPer1000: number }> = []

  constructor(readonly name: string, readonly pid: number) {}

  async connect(port: number): Promise<void> {
    const tokens = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => signToken(SECRET, { room: 'bench', mode: 'rw', ttlSeconds: 3600, sub: `user-${i}` })))
    this.clients = tokens.map((token, i) => new Typist(`ws://127.0.0.1:${port}/bench?token=${token}`, i, this))
    await Promise.all(this.clients.map((client) => client.synced))
  }

  /** Runs the loop for one slice and records it; `record` false for the warm-up. */
  async slice(record: boolean): Promise<void> {
    const ticks = cpuTicks(this.pid)
    const delivered = this.delivered
    const started = performance.now()
    this.running = true
    for (const client of this.clients) client.next()
    await sleep(SLICE_MS)
    this.running = false
    const ms = performance.now() - started
    const count = this.delivered - delivered
    // Let the updates in flight land before the other server's slice.
    while (this.clients.some((client) => client.waiting)) await sleep(5)
    if (record) this.rounds.push({ perSecond: (count * 1000) / ms, ticksPer1000: ((cpuTicks(this.pid) - ticks) * 1000) / Math.max(1, count) })
  }
}

async function main(): Promise<void> {
  const dirs = [mkdtempSync(join(tmpdir(), 'cotext-attest-on-')), mkdtempSync(join(tmpdir(), 'cotext-attest-off-'))]
  const env = { AUTH_SECRET: SECRET }
  const on = await startCotext(dirs[0]!, { ...env, HISTORY: 'on' })
  const off = await startCotext(dirs[1]!, { ...env, HISTORY: 'off' })
  const loads = [new Load('history on', on.child.pid!), new Load('history off', off.child.pid!)]
  try {
    await loads[0]!.connect(on.port)
    await loads[1]!.connect(off.port)
    // Warm-up: binds every client id, and lets both processes JIT.
    for (const load of loads) await load.slice(false)
    for (let round = 0; round < SECONDS; round++) for (const load of round % 2 === 0 ? loads : [...loads].reverse()) await load.slice(true)
  } finally {
    for (const load of loads) for (const client of load.clients) client.close()
    await Promise.all([stopServer(on.child), stopServer(off.child)])
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
  const [withIt, without] = loads as [Load, Load]
  console.log(`attestation: ${CLIENTS} clients in one room, closed loop, ${SECONDS} slices of ${SLICE_MS} ms per server, alternating (CLOCK_TICKS ${CLOCK_TICKS}/s)`)
  console.log('round  on upd/s  off upd/s  ratio   on ticks/1000  off ticks/1000')
  withIt.rounds.forEach((round, i) => {
    const other = without.rounds[i]!
    console.log(`${String(i + 1).padStart(5)}  ${round.perSecond.toFixed(0).padStart(8)}  ${other.perSecond.toFixed(0).padStart(9)}  ${(round.perSecond / other.perSecond).toFixed(2).padStart(5)}   ${round.ticksPer1000.toFixed(1).padStart(13)}  ${other.ticksPer1000.toFixed(1).padStart(14)}`)
  })
  const onRate = median(withIt.rounds.map((round) => round.perSecond))
  const offRate = median(without.rounds.map((round) => round.perSecond))
  const onCpu = median(withIt.rounds.map((round) => round.ticksPer1000))
  const offCpu = median(without.rounds.map((round) => round.ticksPer1000))
  console.log(`median: history on ${onRate.toFixed(0)} updates/s, off ${offRate.toFixed(0)} updates/s: ratio ${(onRate / offRate).toFixed(3)} (target >= 0.90)`)
  console.log(`median CPU per 1000 updates: on ${onCpu.toFixed(1)} ticks, off ${offCpu.toFixed(1)} ticks: ratio ${(onCpu / offCpu).toFixed(3)}`)
}

await main()
