import { SignJWT, jwtVerify, errors } from 'jose'
import { CloseCode } from './close-codes.ts'
import { MIN_SECRET_BYTES } from './config.ts'
import { isValidRoomName, MAX_ROOM_NAME_LENGTH } from './room-name.ts'

/**
 * Access tokens are HS256 JWTs with these claims besides `iat`:
 *   room  the room name, or a prefix of whole path segments ending in `/*` (`team/*` opens
 *         `team/a` and `team/a/b`, not `teammate`); `*` alone opens every room
 *   mode  `rw` (read and write) or `ro` (read, and publish one's own awareness)
 *   exp   expiry, required: a token that never expires is refused, and a connection is closed
 *         with 4401 when its token expires
 *   sub   optional user subject: the awareness client ids a subject uses first in a room stay
 *         its own (see awareness-guard.ts), and so do the Yjs client ids it writes with first
 *         (attestation.ts)
 *   name  optional display name of the subject, shown as the author of its text
 */

export type AccessMode = 'rw' | 'ro'

export interface TokenClaims {
  room: string
  mode: AccessMode
  /** The user the token was issued to; absent in tokens issued without `--user`. */
  sub?: string
  /** The subject's display name; absent: the subject is its name. */
  name?: string
}

export type AccessDecision =
  /** `subject` null: no subject (or no AUTH_SECRET); `expiresAt` ms since the epoch, null: never. */
  | { ok: true; mode: AccessMode; subject: string | null; expiresAt: number | null; name: string | null }
  | { ok: false; code: typeof CloseCode.unauthorized | typeof CloseCode.forbidden; reason: string }

const ALGORITHM = 'HS256'
const MAX_SUBJECT_LENGTH = 256

/** A room name, `*`, or a room name followed by `/*`: a prefix always ends at a segment boundary. */
export function isValidRoomClaim(room: string): boolean {
  if (room === '*' || isValidRoomName(room)) return true
  return room.endsWith('/*') && room.length <= MAX_ROOM_NAME_LENGTH + 2 && isValidRoomName(room.slice(0, -2))
}

export function roomClaimMatches(claim: string, room: string): boolean {
  if (claim === '*') return true
  // The prefix keeps its `/`, so `team/*` cannot open `teammate`.
  return claim.endsWith('/*') ? room.startsWith(claim.slice(0, -1)) : claim === room
}

function isValidSubject(sub: string): boolean {
  return sub.length > 0 && sub.length <= MAX_SUBJECT_LENGTH
}

function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret)
}

export class AccessControl {
  private readonly key: Uint8Array | null

  /** `secret` null: every connection gets read-write access. */
  constructor(secret: string | null) {
    this.key = secret === null ? null : keyOf(secret)
  }

  get enabled(): boolean {
    return this.key !== null
  }

  async authorize(token: string | null, room: string): Promise<AccessDecision> {
    if (this.key === null) return { ok: true, mode: 'rw', subject: null, expiresAt: null, name: null }
    if (token === null || token === '') return { ok: false, code: CloseCode.unauthorized, reason: 'missing token' }
    let payload: Record<string, unknown>
    try {
      ;({ payload } = await jwtVerify(token, this.key, { algorithms: [ALGORITHM], requiredClaims: ['exp'] }))
    } catch (error) {
      const reason = error instanceof errors.JWTExpired ? 'token expired' : 'invalid token'
      return { ok: false, code: CloseCode.unauthorized, reason }
    }
    const claims = readClaims(payload)
    if (claims === null) return { ok: false, code: CloseCode.unauthorized, reason: 'invalid token claims' }
    if (!roomClaimMatches(claims.room, room)) return { ok: false, code: CloseCode.forbidden, reason: 'token is for another room' }
    return { ok: true, mode: claims.mode, subject: claims.sub ?? null, expiresAt: (payload.exp as number) * 1000, name: claims.sub === undefined ? null : (claims.name ?? null) }
  }
}

function readClaims(payload: Record<string, unknown>): TokenClaims | null {
  const { room, mode, sub, name } = payload
  if (typeof room !== 'string' || !isValidRoomClaim(room)) return null
  if (mode !== 'rw' && mode !== 'ro') return null
  if (name !== undefined && (typeof name !== 'string' || !isValidSubject(name))) return null
  if (sub === undefined) return { room, mode }
  if (typeof sub !== 'string' || !isValidSubject(sub)) return null
  return name === undefined ? { room, mode, sub } : { room, mode, sub, name }
}

export interface TokenRequest extends TokenClaims {
  /** Lifetime in seconds. */
  ttlSeconds: number
  /** Issue time in seconds since the epoch; defaults to now. */
  now?: number
}

/**
 * What is wrong with `secret` as the key tokens are signed with, or null when the server would take it:
 * the server refuses an AUTH_SECRET shorter than 32 bytes, so a shorter one would only sign tokens it
 * refuses. `signToken` and `npm run token` report the same message.
 */
export function secretProblem(secret: unknown): string | null {
  if (typeof secret !== 'string' || secret === '') {
    return "AUTH_SECRET is not set. Tokens are signed with the server's secret: run this with the AUTH_SECRET the server runs with (or pass --secret). A server without AUTH_SECRET is open and needs no token."
  }
  if (new TextEncoder().encode(secret).length < MIN_SECRET_BYTES) return `the secret must be at least ${MIN_SECRET_BYTES} bytes, as the server requires`
  return null
}

/**
 * Signs an access token for a server that runs with the same `secret`. Throws a TypeError, signing
 * nothing, when the secret is missing or shorter than the server accepts, or a claim is invalid.
 */
export async function signToken(secret: string, request: TokenRequest): Promise<string> {
  const problem = secretProblem(secret)
  if (problem !== null) throw new TypeError(problem)
  if (!isValidRoomClaim(request.room)) throw new TypeError(`room: ${JSON.stringify(request.room)} is neither a room name, * nor a prefix ending in /*`)
  if (request.mode !== 'rw' && request.mode !== 'ro') throw new TypeError(`mode: must be rw or ro, got ${JSON.stringify(request.mode)}`)
  if (!Number.isSafeInteger(request.ttlSeconds) || request.ttlSeconds <= 0) throw new TypeError(`ttlSeconds: must be a positive integer, got ${request.ttlSeconds}`)
  if (request.sub !== undefined && !isValidSubject(request.sub)) throw new TypeError(`sub: must be 1-${MAX_SUBJECT_LENGTH} characters, got ${JSON.stringify(request.sub)}`)
  if (request.name !== undefined && !isValidSubject(request.name)) throw new TypeError(`name: must be 1-${MAX_SUBJECT_LENGTH} characters, got ${JSON.stringify(request.name)}`)
  const now = request.now ?? Math.floor(Date.now() / 1000)
  const jwt = new SignJWT(request.name === undefined ? { room: request.room, mode: request.mode } : { room: request.room, mode: request.mode, name: request.name })
  if (request.sub !== undefined) jwt.setSubject(request.sub)
  return jwt
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + request.ttlSeconds)
    .sign(keyOf(secret))
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 }

/** `90`, `90s`, `15m`, `1h`, `7d` → seconds; null for anything else. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)\s*([smhd]?)$/.exec(text.trim())
  if (match === null) return null
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] || 's']!
  return Number.isSafeInteger(seconds) && seconds > 0 ? seconds : null
}
