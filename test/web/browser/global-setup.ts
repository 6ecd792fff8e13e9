import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { ensureChromium } from './chromium.ts'

/**
 * Once per browser-test run: make sure Chromium is there (installing it with apt on Debian CI) and
 * build the page into web/dist, which every test file's server then serves.
 */
export default async function setup(): Promise<void> {
  ensureChromium()
  await build({ configFile: fileURLToPath(new URL('../../../web/vite.config.ts', import.meta.url)), mode: 'production', logLevel: 'warn' })
}
