/**
 * Preloaded into the servers of the idle workload (server-scale.bench.ts; node --expose-gc --import):
 * on SIGUSR2 it runs two full garbage collections and appends the process's memory figures, as a JSON
 * line, to `$GC_PROBE_DIR/<pid>.jsonl`. Resident memory right after a burst of connections counts V8's
 * young generation, which grows in steps with what survives its collections (a step of 8-16 MB at some
 * count of connections): after full collections, what remains is what the connections hold.
 */
import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const dir = process.env.GC_PROBE_DIR
if (dir !== undefined && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc()
    globalThis.gc()
    const { rss, heapUsed, external } = process.memoryUsage()
    const anonymous = Number(/^Anonymous:\s+(\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))?.[1] ?? NaN) * 1024
    appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify({ rss, heapUsed, external, anonymous })}\n`)
  })
}
