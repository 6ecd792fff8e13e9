import { describe, expect, it } from 'vitest'
import { signToken } from '../../server/auth.ts'
import { readTokenHint } from '../../web/app/token.ts'
import { takeToken } from '../../web/app/token-keeper.ts'

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

describe('takeToken', () => {
  it('takes the token out of the link and keeps it for the session, per room', () => {
    const store = new Map<string, string>()
    const storage = { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) }
    const params = new URLSearchParams('room=a&token=T1&name=Ada')
    expect(takeToken('a', params, storage)).toBe('T1')
    expect(params.toString()).toBe('room=a&name=Ada')
    expect(takeToken('a', new URLSearchParams('room=a'), storage)).toBe('T1')
    expect(takeToken('b', new URLSearchParams('room=b'), storage)).toBeNull()
    expect(takeToken('a', new URLSearchParams('room=a&token=T2'), storage)).toBe('T2')
    expect(takeToken('a', new URLSearchParams('room=a'), null)).toBeNull()
  })
})
