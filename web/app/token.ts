/**
 * What the page can tell from an access token without the server's secret: its claims. This is only
 * a hint for the interface (open a read-only token as a read-only editor); the server enforces access.
 */

export type AccessMode = 'rw' | 'ro'

export interface TokenHint {
  mode: AccessMode
  room: string | null
  /** Expiry in milliseconds since the epoch, or null when the token does not say. */
  expiresAt: number | null
}

/** The claims of a JWT (`header.payload.signature`), or null when `token` is not one. */
export function readTokenHint(token: string): TokenHint | null {
  const parts = token.split('.')
  if (parts.length !== 3) return null
  let payload: unknown
  try {
    payload = JSON.parse(decodeBase64Url(parts[1]!))
  } catch {
    return null
  }
  if (payload === null || typeof payload !== 'object') return null
  const claims = payload as Record<string, unknown>
  return {
    mode: claims.mode === 'ro' ? 'ro' : 'rw',
    room: typeof claims.room === 'string' ? claims.room : null,
    expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : null,
  }
}

function decodeBase64Url(text: string): string {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=')
  const binary = atob(base64)
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0))
  return new TextDecoder().decode(bytes)
}
