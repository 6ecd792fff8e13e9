/**
 * Resolves once `condition` holds (checked now, then every `intervalMs`); rejects with `what`
 * after `timeoutMs`. Tests wait on facts, not on fixed sleeps.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 8000, intervalMs = 10): Promise<void> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    if (await condition()) return
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/** Waits `ms`; only for proving that something did NOT happen after its cause was processed. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
