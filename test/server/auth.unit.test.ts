import { describe, expect, it } from 'vitest'
import { decodeJwt } from 'jose'
import { AccessControl, isValidRoomClaim, parseDuration, roomClaimMatches, signToken } from '../../server/auth.ts'
import { isValidRoomName, roomNameFromPath } from '../../server/room-name.ts'

const SECRET = 'unit-test-secret-long-enough-for-hs256-keys'

describe('room names', () => {
  it('allow 1-128 letters, digits, . _ - in parts separated by single slashes (rules: test/web/room-name.test.ts)', () => {
    expect(['a', 'Notes.v2', 'team/notes', 'a-b_c', 'x'.repeat(128), 'a..b', 'é'].map(isValidRoomName)).toEqual([true, true, true, true, true, true, true])
    expect(['', '/a', 'a/', 'a//b', 'a b', '..', 'a*', 'x'.repeat(129)].map(isValidRoomName)).toEqual([false, false, false, false, false, false, false, false])
  })

  it('come from the request path, percent-decoded', () => {
    expect([roomNameFromPath('/notes'), roomNameFromPath('/team%2Fnotes'), roomNameFromPath('/a%2'), roomNameFromPath('/')]).toEqual(['notes', 'team/notes', null, null])
  })
})

describe('room claims', () => {
  it('name one room or, with a trailing *, every room under a prefix', () => {
    expect([roomClaimMatches('notes', 'notes'), roomClaimMatches('notes', 'notes2'), roomClaimMatches('team/*', 'team/a'), roomClaimMatches('team/*', 'teams'), roomClaimMatches('*', 'x')]).toEqual([true, false, true, false, true])
    expect([isValidRoomClaim('team/*'), isValidRoomClaim('*'), isValidRoomClaim('a*b'), isValidRoomClaim('**')]).toEqual([true, true, false, false])
  })

  it('match whole path segments: a prefix ends in /*', () => {
    expect([roomClaimMatches('team/*', 'team/a'), roomClaimMatches('team/*', 'team/a/b'), roomClaimMatches('team/*', 'teammate'), roomClaimMatches('team/*', 'team')]).toEqual([true, true, false, false])
    expect(['team*', 'team/a*', '/*', 'a//*', 'team/*/*'].map(isValidRoomClaim)).toEqual([false, false, false, false, false])
    expect(['a/b/*', 'x'.repeat(128) + '/*'].map(isValidRoomClaim)).toEqual([true, true])
  })
})

describe('parseDuration', () => {
  it('reads seconds, minutes, hours and days', () => {
    expect(['90', '90s', '15m', '1h', '7d', ' 2 h'].map(parseDuration)).toEqual([90, 90, 900, 3600, 604800, 7200])
    expect(['', '0', '1w', '-5', '1.5h', 'h'].map(parseDuration)).toEqual([null, null, null, null, null, null])
  })
})

describe('AccessControl', () => {
  it('lets everyone write when there is no secret', async () => {
    expect(await new AccessControl(null).authorize(null, 'a')).toEqual({ ok: true, mode: 'rw', subject: null, expiresAt: null, name: null })
  })

  it('grants the mode the token names', async () => {
    const access = new AccessControl(SECRET)
    const now = Math.floor(Date.now() / 1000)
    const ro = await signToken(SECRET, { room: 'a', mode: 'ro', ttlSeconds: 60, now })
    expect(await access.authorize(ro, 'a')).toEqual({ ok: true, mode: 'ro', subject: null, expiresAt: (now + 60) * 1000, name: null })
    const alice = await signToken(SECRET, { room: 'a', mode: 'rw', ttlSeconds: 60, now, sub: 'alice' })
    expect(await access.authorize(alice, 'a')).toEqual({ ok: true, mode: 'rw', subject: 'alice', expiresAt: (now + 60) * 1000, name: null })
    expect(await access.authorize(ro, 'b')).toEqual({ ok: false, code: 4403, reason: 'token is for another room' })
  })
})

describe('signToken', () => {
  it('writes the room, the mode, iat and exp', async () => {
    const token = await signToken(SECRET, { room: 'a', mode: 'rw', ttlSeconds: 60, now: 1_000_000 })
    expect(decodeJwt(token)).toEqual({ room: 'a', mode: 'rw', iat: 1_000_000, exp: 1_000_060 })
    const withUser = await signToken(SECRET, { room: 'a', mode: 'rw', ttlSeconds: 60, now: 1_000_000, sub: 'alice' })
    expect(decodeJwt(withUser)).toEqual({ room: 'a', mode: 'rw', sub: 'alice', iat: 1_000_000, exp: 1_000_060 })
  })

  it('refuses a bad room, mode or lifetime', async () => {
    await expect(signToken(SECRET, { room: 'a b', mode: 'rw', ttlSeconds: 60 })).rejects.toThrow(new TypeError('room: "a b" is neither a room name, * nor a prefix ending in /*'))
    await expect(signToken(SECRET, { room: 'team*', mode: 'rw', ttlSeconds: 60 })).rejects.toThrow(new TypeError('room: "team*" is neither a room name, * nor a prefix ending in /*'))
    await expect(signToken(SECRET, { room: 'a', mode: 'rw', ttlSeconds: 60, sub: '' })).rejects.toThrow(new TypeError('sub: must be 1-256 characters, got ""'))
    await expect(signToken(SECRET, { room: 'a', mode: 'x' as 'rw', ttlSeconds: 60 })).rejects.toThrow(new TypeError('mode: must be rw or ro, got "x"'))
    await expect(signToken(SECRET, { room: 'a', mode: 'rw', ttlSeconds: 0 })).rejects.toThrow(new TypeError('ttlSeconds: must be a positive integer, got 0'))
  })
})
