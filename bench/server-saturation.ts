/**
 * The saturation part of server-throughput.bench.ts: 500 clients in 50 rooms of 10, each sending
 * its next one-character update as soon as its previous one has reached the next client of its
 * room. With 500 updates always in flight the server never waits for the clients, so what it
 * delivers per second is its capacity (or the benchmark process's, which is reported too).
 */
import { CLOCK_TICKS, SyncClient, cpuTicks, sleep, updateRuns } from './server-clients.ts'

const ROOMS = 50
const PER_ROOM = 10
const CLIENTS = ROOMS * PER_ROOM
const SLICE_MS = 1000

class SaturationClient extends SyncClient {
  /** Whether this client's last update has not yet reached the next client of its room. */
  private waiting = false

  constructor(url: string, index: number, private readonly load: SaturationLoad) {
    super(`${url}/saturation-${Math.floor(index / PER_ROOM)}`, index, 'saturation client')
  }

  /** Sends the next update unless one is still on its way or the load is paused. */
  next(): void {
    if (this.waiting || !this.load.running) return
    this.waiting = true
    this.load.sent += 1
    this.text.insert(this.text.length, 'x')
  }

  acknowledged(): void {
    this.waiting = false
    this.next()
  }

  get idle(): boolean {
    return !this.waiting
  }

  protected onUpdate(update: Uint8Array): void {
    // A batch a server merged holds several senders' updates (one character each).
    for (const from of updateRuns(update)) {
      if (from.sender === this.index || from.sender < 0 || from.sender >= CLIENTS) continue
      this.load.delivered += from.length
      // The next client of the sender's room acknowledges it.
      const room = Math.floor(from.sender / PER_ROOM)
      if (this.index === room * PER_ROOM + ((from.sender + 1) % PER_ROOM)) this.load.clients[from.sender]!.acknowledged()
    }
  }
}

class SaturationLoad {
  readonly clients: SaturationClient[]
  running = false
  sent = 0
  delivered = 0
  measuredMs = 0
  measuredSent = 0
  measuredDelivered = 0
  measuredTicks = 0

  constructor(readonly name: string, readonly pid: number, port: number) {
    this.clients = Array.from({ length: CLIENTS }, (_, i) => new SaturationClient(`ws://127.0.0.1:${port}`, i, this))
  }

  async slice(ms: number, measure: boolean): Promise<void> {
    const sent = this.sent
    const delivered = this.delivered
    const ticks = cpuTicks(this.pid)
    const started = performance.now()
    this.running = true
    for (const client of this.clients) client.next()
    await sleep(ms)
    this.running = false
    if (measure) {
      this.measuredMs += performance.now() - started
      this.measuredSent += this.sent - sent
      this.measuredDelivered += this.delivered - delivered
      this.measuredTicks += cpuTicks(this.pid) - ticks
    }
    // Let every update in flight arrive, so the next slice (of either server) starts from quiet.
    const deadline = performance.now() + 5000
    while (this.clients.some((client) => !client.idle) && performance.now() < deadline) await sleep(5)
  }

  close(): void {
    for (const client of this.clients) client.close()
  }
}

/** Runs the saturation load against both servers, alternating one-second slices, and prints the results. */
export async function runSaturation(ports: { stock: number; cotext: number }, pids: { stock: number; cotext: number }, seconds: number): Promise<void> {
  const stock = new SaturationLoad('stock', pids.stock, ports.stock)
  const ours = new SaturationLoad('cotext', pids.cotext, ports.cotext)
  await Promise.all([...stock.clients, ...ours.clients].map((client) => client.synced))
  console.log(`saturation: ${CLIENTS} clients in ${ROOMS} rooms of ${PER_ROOM}, each sending its next update once the previous one reached the next client of its room; ${seconds} s per server in 1 s slices`)
  const benchCpu = process.cpuUsage()
  const started = performance.now()
  for (const load of [stock, ours]) await load.slice(SLICE_MS, false)
  for (let round = 0; round < seconds; round++) {
    for (const load of round % 2 === 0 ? [stock, ours] : [ours, stock]) await load.slice(SLICE_MS, true)
  }
  const used = process.cpuUsage(benchCpu)
  const benchPercent = ((used.user + used.system) / 1e3 / (performance.now() - started)) * 100
  stock.close()
  ours.close()
  const rate = (load: SaturationLoad, count: number): number => count / (load.measuredMs / 1000)
  const cpu = (load: SaturationLoad): number => (load.measuredTicks / CLOCK_TICKS / (load.measuredMs / 1000)) * 100
  for (const load of [stock, ours]) {
    console.log(`  ${load.name}: ${rate(load, load.measuredSent).toFixed(0)} updates/s, ${rate(load, load.measuredDelivered).toFixed(0)} msg/s delivered, server cpu ${cpu(load).toFixed(0)}% of a core`)
  }
  console.log(`  benchmark clients used ${benchPercent.toFixed(0)}% of a core (a client-bound run shows both servers below 100%)`)
  const ratio = rate(ours, ours.measuredDelivered) / rate(stock, stock.measuredDelivered)
  console.log(`server saturation throughput (500 clients): ${ratio.toFixed(2)}x stock (${rate(ours, ours.measuredDelivered).toFixed(0)} vs ${rate(stock, stock.measuredDelivered).toFixed(0)} msg/s)`)
}
