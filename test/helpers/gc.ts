import * as v8 from 'node:v8'
import { runInNewContext } from 'node:vm'

v8.setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/**
 * Collects garbage, WeakRef targets included: a WeakRef's target can be collected only after the job
 * that made it, so wait a turn, then collect (twice: the first pass may only clear weak references).
 */
export async function collect(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
  gc()
  gc()
}
