import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { signToken } from '../../server/auth.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SECRET = 'a-token-link-test-secret-of-enough-bytes'

/** `npm run token` as the README shows it, with only the given environment's AUTH_SECRET. */
function runToken(args: string[], secret: string | undefined = SECRET) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'server/token.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, AUTH_SECRET: secret } as NodeJS.ProcessEnv,
    encoding: 'utf8',
  })
}

const firstLine = (text: string) => text.split('\n')[0]!.replace(/^token: /, '')

describe('signToken checks its secret as npm run token does', { timeout: 60_000 }, () => {
  it('refuses a missing secret with the message the command prints, signing nothing', async () => {
    const cli = runToken(['--room', 'a'], '')
    expect(cli.status).toBe(2)
    const message = firstLine(cli.stderr)
    expect(message).toMatch(/^AUTH_SECRET is not set\./)
    for (const secret of [undefined, '', null, 42]) {
      await expect(signToken(secret as unknown as string, { room: 'a', mode: 'rw', ttlSeconds: 60 })).rejects.toThrow(new TypeError(message))
    }
  })

  it('refuses a secret shorter than the server requires with the same message as the command', async () => {
    const cli = runToken(['--room', 'a'], 'short')
    expect([cli.status, firstLine(cli.stderr)]).toEqual([2, 'the secret must be at least 32 bytes, as the server requires'])
    await expect(signToken('short', { room: 'a', mode: 'rw', ttlSeconds: 60 })).rejects.toThrow(new TypeError('the secret must be at least 32 bytes, as the server requires'))
    // 31 bytes of UTF-8 in fewer characters is still short; 32 bytes is enough.
    await expect(signToken('é'.repeat(15) + 'x', { room: 'a', mode: 'rw', ttlSeconds: 60 })).rejects.toThrow(TypeError)
    expect(decodeJwt(await signToken('é'.repeat(16), { room: 'a', mode: 'rw', ttlSeconds: 60 })).room).toBe('a')
  })
})

describe('npm run token --url', { timeout: 60_000 }, () => {
  it("prints the room's link on that server, carrying a token for the room", () => {
    const result = runToken(['--room', 'team/notes.md', '--mode', 'ro', '--url', 'http://192.0.2.10:1234'])
    expect([result.status, result.stderr]).toEqual([0, ''])
    const link = new URL(result.stdout.trim())
    expect(result.stdout).toBe(`${link.href}\n`)
    expect(`${link.origin}${link.pathname}`).toBe('http://192.0.2.10:1234/')
    expect([...link.searchParams.keys()]).toEqual(['room', 'token'])
    expect(link.searchParams.get('room')).toBe('team/notes.md')
    const claims = decodeJwt(link.searchParams.get('token')!)
    expect({ room: claims.room, mode: claims.mode, lifetime: claims.exp! - claims.iat! }).toEqual({ room: 'team/notes.md', mode: 'ro', lifetime: 3600 })
  })

  it("keeps the path of a server behind a proxy, and the page's own spelling of the room", () => {
    const result = runToken(['--room', 'Ünïcode/é.md', '--url', 'https://example.com/cotext'])
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^https:\/\/example\.com\/cotext\/\?room=%C3%9Cn%C3%AFcode%2F%C3%A9\.md&token=[\w-]+\.[\w-]+\.[\w-]+\n$/)
  })

  it('explains why there is no link for a prefix or an address that is not a server', () => {
    const prefix = runToken(['--room', 'team/*', '--url', 'http://127.0.0.1:1234'])
    expect([prefix.status, prefix.stdout, firstLine(prefix.stderr)]).toEqual([2, '', '--url needs one room: "team/*" is a prefix; the page opens one room at a time'])
    const notUrl = runToken(['--room', 'a', '--url', 'ws://127.0.0.1:1234'])
    expect([notUrl.status, firstLine(notUrl.stderr)]).toEqual([2, '--url must start with http:// or https://, got "ws://127.0.0.1:1234"'])
    const garbage = runToken(['--room', 'a', '--url', 'not a url'])
    expect([garbage.status, firstLine(garbage.stderr)]).toEqual([2, '--url must be the server\'s address, such as http://127.0.0.1:1234, got "not a url"'])
  })
})
