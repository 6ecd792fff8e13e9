import * as Y from 'yjs'

/**
 * Who writes with which Yjs client id, in the room's own document: a `Y.Map` named
 * AUTHORS_MAP_NAME from the client id (as a decimal string) to its Author. Only the server
 * writes it (attestation.ts refuses any client update that touches it), so every client,
 * a stock y-websocket one included, can read the bindings as they are.
 */
export const AUTHORS_MAP_NAME = 'cotext:authors'

/** Who wrote something: a token's subject (attested) or a connection (not). */
export interface Author {
  /** The token's `sub`; without one, `connection:<process>-<n>`; the server's own client id: `server`. */
  id: string
  name: string
  /** True when `id` is a subject the server checked (a signed token's `sub`). */
  attested: boolean
  /** Only on the server's own client ids. */
  server?: true
}

/** The author the server writes as: its restores and reverts, and the bindings themselves. */
export const SERVER_AUTHOR: Author = { id: 'server', name: 'server', attested: true, server: true }

export function authorsMap(doc: Y.Doc): Y.Map<Author> {
  return doc.getMap<Author>(AUTHORS_MAP_NAME)
}

/** The author bound to `client`, or undefined. */
export function boundAuthor(map: Y.Map<Author>, client: number): Author | undefined {
  const value = map.get(String(client))
  return isAuthor(value) ? value : undefined
}

/** The author of text inserted under `client`: its binding or, without one, the client itself, unattested. */
export function authorOfClient(map: Y.Map<Author>, client: number): Author {
  return boundAuthor(map, client) ?? { id: `client:${client}`, name: `client ${client}`, attested: false }
}

/** An Author as the REST API shows it. */
export function publicAuthor(author: Author): { id: string; name: string; attested: boolean } {
  return { id: author.id, name: author.name, attested: author.attested }
}

function isAuthor(value: unknown): value is Author {
  if (typeof value !== 'object' || value === null) return false
  const { id, name, attested } = value as Record<string, unknown>
  return typeof id === 'string' && typeof name === 'string' && typeof attested === 'boolean'
}
