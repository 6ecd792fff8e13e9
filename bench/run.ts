/**
 * Runs every `bench/*.bench.ts` in its own process, one after another (the machines have 2 cores;
 * parallel runs would measure each other). `npm run bench -- core` runs only files matching "core".
 */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const filters = process.argv.slice(2)
const files = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort()

let failed = 0
for (const file of files) {
  console.log(`\n# ${file}`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit', env: process.env })
  if (result.status !== 0) {
    failed++
    console.log(`# ${file} failed with exit code ${result.status}`)
  }
}
if (files.length === 0) console.log('no benchmark matched')
process.exit(failed > 0 ? 1 : 0)
