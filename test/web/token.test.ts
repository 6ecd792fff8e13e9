import { describe, expect, it } from 'vitest'
import { signToken } from '../../server/auth.ts'
import { readTokenHint } from '../../web/app/token.ts'

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256!'

describe('readTokenHint', () => {
  it('reads the mode, room and expiry of a token the server signs', async () => {
    const token = await signToken(SECRET, { room: 'team/*', mode: 'ro', ttlSeconds: 60, now: 1_000 })
    expect(readTokenHint(token)).toEqual({ mode: 'ro', room: 'team/*', expiresAt: 1_060_000 })
    const rw = await signToken(SECRET, { room: 'x', mode: 'rw', ttlSeconds: 60, now: 1_000 })
    expect(readTokenHint(rw)?.mode).toBe('rw')
  })

  it('returns null for what is not a JWT', () => {
    expect(readTokenHint('')).toBeNull()
    expect(readTokenHint('abc')).toBeNull()
    expect(readTokenHint('a.%%%.c')).toBeNull()
    expect(readTokenHint(`a.${Buffer.from('"text"').toString('base64url')}.c`)).toBeNull()
  })
})
