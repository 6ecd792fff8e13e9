/**
 * Which web pages may open a WebSocket to this server. A browser always sends `Origin` with a
 * WebSocket upgrade and lets any page connect anywhere, so without this check any site a user
 * visits could read and write the rooms of a server the user can reach (127.0.0.1 included).
 * Accepted: no `Origin` (not a browser: the stock client in Node, curl), an `Origin` whose
 * host is the request's `Host` (the page this server serves), or one listed in ALLOWED_ORIGINS.
 */
export function isOriginAllowed(origin: string | undefined, host: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    // `null` (a sandboxed frame, a file:// page) and garbage.
    return false
  }
  if (allowed.includes(url.origin)) return true
  if (host === undefined || host === '') return false
  try {
    // Read the Host with the origin's scheme, so that `example.com:443` equals `https://example.com`.
    return new URL(`${url.protocol}//${host}`).host === url.host
  } catch {
    return false
  }
}
