import { isIP } from 'node:net'

/**
 * Which `Host` headers a server without AUTH_SECRET answers (DNS rebinding). A page on
 * evil.example can make its own name resolve to 127.0.0.1 after loading; the browser then
 * sends `Host: evil.example` and `Origin: http://evil.example`, which agree, so the Origin check
 * passes and the page could read and write every room of an open server on the user's machine.
 * The browser always sends the name of the page's address, never ours, so a server that answers
 * only the names it is known by cannot be reached that way. As Vite's `server.allowedHosts`:
 *
 * - any IP address (rebinding needs a name: a page at an IP address is that address's own);
 * - `localhost` and names under `.localhost` (browsers resolve them to loopback themselves);
 * - the name the server is configured to listen on (HOST), when it is a name;
 * - each name in ALLOWED_HOSTS; one starting with a dot also covers every name under it
 *   (`.example.com`: example.com, editor.example.com); `*` allows every name.
 *
 * With AUTH_SECRET set, a page still needs a token, so every Host is accepted.
 */

export interface HostPolicy {
  /** Lower-case names allowed as they are. */
  readonly names: ReadonlySet<string>
  /** Lower-case suffixes (`.example.com`) whose names, and the name after the dot, are allowed. */
  readonly suffixes: readonly string[]
  readonly any: boolean
}

/** The policy of a server listening on `bindHost` with ALLOWED_HOSTS = `allowed`. */
export function hostPolicy(bindHost: string, allowed: readonly string[]): HostPolicy {
  const names = new Set<string>()
  const suffixes: string[] = []
  let any = false
  for (const entry of [bindHost, ...allowed]) {
    const name = normalise(entry)
    if (name === '*') any = true
    else if (name.startsWith('.')) suffixes.push(name)
    else if (name !== '') names.add(name)
  }
  return { names, suffixes, any }
}

/** The host name of a Host header (`Example.COM.:8080` -> `example.com`), or null when it has none. */
export function hostName(header: string | undefined): string | null {
  if (header === undefined) return null
  const value = header.trim()
  if (value.startsWith('[')) {
    const end = value.indexOf(']')
    if (end < 0) return null
    const rest = value.slice(end + 1)
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null
    return value.slice(1, end).toLowerCase()
  }
  const match = /^([^:]*)(?::\d{1,5})?$/.exec(value)
  if (match === null || match[1] === '') return null
  return normalise(match[1]!)
}

/** Whether a request with this Host header names this server under `policy`. */
export function isHostAllowed(header: string | undefined, policy: HostPolicy): boolean {
  if (policy.any) return true
  const name = hostName(header)
  if (name === null) return false
  if (isIP(name) !== 0) return true
  if (name === 'localhost' || name.endsWith('.localhost')) return true
  if (policy.names.has(name)) return true
  return policy.suffixes.some((suffix) => name.endsWith(suffix) || name === suffix.slice(1))
}

function normalise(name: string): string {
  const lower = name.trim().toLowerCase()
  // A trailing dot names the same host (`example.com.`), and would otherwise slip past a list.
  return lower.endsWith('.') && lower.length > 1 ? lower.slice(0, -1) : lower
}
