/**
 * Prints an access token for the server started with the same AUTH_SECRET:
 *
 *   AUTH_SECRET=... npm run token -- --room NAME --mode ro --ttl 1h
 *
 * Only the token goes to stdout, so `TOKEN=$(npm run -s token -- --room notes)` works. Given the
 * server's address (`--url http://host:1234`), it prints the room's link with the token instead.
 */
import { parseArgs } from 'node:util'
import { isValidRoomName } from './room-name.ts'
import { parseDuration, signToken } from './auth.ts'
import type { AccessMode } from './auth.ts'

const HELP = `Usage: npm run token -- --room NAME [--mode rw|ro] [--ttl 1h] [--user NAME] [--secret S]
       npm run token -- --room NAME --url URL [...]     prints the room's link with the token

  --room    room name, or a prefix ending in /* (quote it: 'team/*'); '*' alone = every room
  --mode    rw (default) or ro: read, and publish only one's own awareness
  --ttl     lifetime: 90, 90s, 15m, 1h (default), 7d; the connection is closed when it ends
  --user    the user's subject (sub): awareness ids this user uses first in a room stay theirs
  --secret  HS256 secret; defaults to the AUTH_SECRET environment variable
  --url     the server's address as people open it (http://host:1234): prints the room's link,
            URL/?room=NAME&token=..., instead of the token alone
`

/**
 * The page's link to `room` on the server at `serverUrl`, carrying `token`, or a message saying
 * why there is none: the page opens one room, so a prefix or `*` has no link.
 */
function roomLink(serverUrl: string, room: string, token: string): { link: string } | { problem: string } {
  let url: URL
  try {
    url = new URL(serverUrl)
  } catch {
    return { problem: `--url must be the server's address, such as http://127.0.0.1:1234, got ${JSON.stringify(serverUrl)}` }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `--url must start with http:// or https://, got ${JSON.stringify(serverUrl)}` }
  if (!isValidRoomName(room)) return { problem: `--url needs one room: ${JSON.stringify(room)} is a prefix; the page opens one room at a time` }
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`
  return { link: `${url.origin}${path}?room=${encodeURIComponent(room)}&token=${encodeURIComponent(token)}` }
}

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
        url: { type: 'string' },
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
  let token: string
  try {
    // signToken checks the secret (present, as long as the server requires) and the claims.
    const sub = typeof values.user === 'string' ? values.user : undefined
    token = await signToken(secret ?? '', { room, mode: mode as AccessMode, ttlSeconds: ttl, ...(sub === undefined ? {} : { sub }) })
  } catch (error) {
    fail((error as Error).message)
  }
  if (typeof values.url !== 'string') {
    process.stdout.write(`${token}\n`)
    return
  }
  const link = roomLink(values.url, room, token)
  if ('problem' in link) fail(link.problem)
  process.stdout.write(`${link.link}\n`)
}

await main()
