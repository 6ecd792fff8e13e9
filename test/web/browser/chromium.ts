import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

/**
 * The browser the web tests and the web benchmark drive: Debian's Chromium. Playwright's own browser
 * download is not available where Cotext is built, so when `/usr/bin/chromium` is missing and we run
 * as root on a Debian-like system, it is installed with apt (what CI does); otherwise we say how.
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Flags for a quiet headless Chromium inside containers (no sandbox, no GPU, no background traffic). */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export function ensureChromium(): string {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: install it (Debian: sudo apt-get install -y chromium) or set CHROMIUM_PATH`)
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium', 'fonts-dejavu-core']]) {
    process.stderr.write(`web tests: apt-get ${args.join(' ')}\n`)
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env })
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed with status ${String(result.status)}`)
  }
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get installed chromium but ${CHROMIUM_PATH} is still missing`)
  return CHROMIUM_PATH
}
