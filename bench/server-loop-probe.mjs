/**
 * Preloaded into the servers of the join storm (server-join.ts; node --import): every 5 ms it looks at the clock
 * and at the CPU time its main thread has used (/proc, in clock ticks of 10 ms), and appends each gap between two
 * looks of more than 50 ms, as a JSON line, to `$LOOP_PROBE_DIR/<pid>.jsonl`: when it began (Date.now()), how
 * long the event loop was away, and how much of that the main thread ran. A long gap with as much CPU is the
 * server's own work holding the loop; a long gap without is the process waiting for a core.
 */
import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const dir = process.env.LOOP_PROBE_DIR
if (dir !== undefined) {
  const file = join(dir, `${process.pid}.jsonl`)
  const cpuMs = () => {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  }
  let at = Date.now()
  let looked = performance.now()
  let cpu = cpuMs()
  setInterval(() => {
    const now = performance.now()
    const used = cpuMs()
    if (now - looked > 50) appendFileSync(file, `${JSON.stringify({ at, ms: Math.round(now - looked), cpuMs: used - cpu })}\n`)
    at = Date.now()
    looked = now
    cpu = used
  }, 5).unref()
}
