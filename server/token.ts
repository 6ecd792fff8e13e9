/**
 * Prints an access token for the server started with the same AUTH_SECRET:
 *
 *   AUTH_SECRET=... npm run token -- --room NAME --mode ro --ttl 1h
 *
 * Only the token goes to stdout, so `TOKEN=$(npm run -s token -- --room notes)` works.
 */
import { parseArgs } from 'node:util'
import { parseDuration, signToken } from './auth.ts'
import type { AccessMode } from './auth.ts'
import { MIN_SECRET_BYTES } from './config.ts'

const HELP = `Usage: npm run token -- --room NAME [--mode rw|ro] [--ttl 1h] [--user NAME] [--secret S]

  --room    room name, or a prefix ending in /* (quote it: 'team/*'); '*' alone = every room
  --mode    rw (default) or ro: read, and publish only one's own awareness
  --ttl     lifetime: 90, 90s, 15m, 1h (default), 7d; the connection is closed when it ends
  --user    the user's subject (sub): awareness ids this user uses first in a room stay theirs
  --secret  HS256 secret; defaults to the AUTH_SECRET environment variable
`

/** The error on a line of its own, a blank line, then the usage: readable even when npm adds its own lines. */
function fail(message: string): never {
  process.stderr.write(`token: ${message.trim()}\n\n${HELP}`)
  process.exit(2)
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>
  try {
    ;({ values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        room: { type: 'string' },
        mode: { type: 'string', default: 'rw' },
        ttl: { type: 'string', default: '1h' },
        user: { type: 'string' },
        secret: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }))
  } catch (error) {
    fail((error as Error).message)
  }
  if (values.help === true) {
    process.stdout.write(HELP)
    return
  }
  const room = values.room
  const mode = values.mode
  const ttl = parseDuration(String(values.ttl))
  const secret = typeof values.secret === 'string' ? values.secret : process.env.AUTH_SECRET
  if (typeof room !== 'string') fail('--room is required')
  if (mode !== 'rw' && mode !== 'ro') fail(`--mode must be rw or ro, got ${JSON.stringify(mode)}`)
  if (ttl === null) fail(`--ttl must look like 90, 90s, 15m, 1h or 7d, got ${JSON.stringify(values.ttl)}`)
  if (secret === undefined || secret === '') {
    fail('AUTH_SECRET is not set. Tokens are signed with the server\'s secret: run this with the AUTH_SECRET the server runs with (or pass --secret). A server without AUTH_SECRET is open and needs no token.')
  }
  if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) fail(`the secret must be at least ${MIN_SECRET_BYTES} bytes, as the server requires`)
  try {
    const sub = typeof values.user === 'string' ? values.user : undefined
    process.stdout.write(`${await signToken(secret, { room, mode: mode as AccessMode, ttlSeconds: ttl, ...(sub === undefined ? {} : { sub }) })}\n`)
  } catch (error) {
    fail((error as Error).message)
  }
}

await main()
