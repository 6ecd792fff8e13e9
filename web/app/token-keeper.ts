/**
 * The access token of a link (`/?room=NAME&token=…`) is read once, kept for this tab's session
 * (sessionStorage: a reload keeps access, a new tab or a closed browser does not) and removed from
 * the address bar at once, so it does not stay in the history or leak through a Referer header.
 */

interface KeyValueStore {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

const keyFor = (room: string): string => `cotext.token:${room}`

/**
 * The token for `room`: from `params` (which loses it) when the link carries one, else the one kept
 * earlier in this session; null when there is none. The caller rewrites the address from `params`.
 */
export function takeToken(room: string, params: URLSearchParams, storage: KeyValueStore | null): string | null {
  const fromLink = params.get('token')
  params.delete('token')
  if (fromLink !== null && fromLink !== '') {
    try {
      storage?.setItem(keyFor(room), fromLink)
    } catch {
      // Without session storage a reload needs the link again.
    }
    return fromLink
  }
  try {
    return storage?.getItem(keyFor(room)) ?? null
  } catch {
    return null
  }
}
