import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import type { AccessControl } from './auth.ts'
import type { Author } from './authors-map.ts'
import { publicAuthor } from './authors-map.ts'
import type { ChangeEntry, ChangeQuery } from './change-journal.ts'
import { CloseCode } from './close-codes.ts'
import { RevertTooLarge } from './room-history.ts'
import type { RoomHistory } from './room-history.ts'
import { roomNameFromPath } from './room-name.ts'
import type { RoomRegistry } from './rooms.ts'
import type { Room } from './room.ts'
import { textOfState } from './versions.ts'

/**
 * The REST API under /api/rooms/{room}/…, JSON in and out (README: "History, authorship and the
 * REST API"). The token is `Authorization: Bearer …` or `?token=`, checked as the WebSocket
 * checks it: 401 and 403 where the WebSocket closes with 4401 and 4403; a read-only token may
 * GET, a read-write one may also POST. A room that was never written is 404.
 */

export interface RestContext {
  registry: RoomRegistry
  access: AccessControl
  logger: Logger
}

/** Largest request body (a version's name). */
const MAX_BODY_BYTES = 16 * 1024
const MAX_NAME_LENGTH = 200
/** A version id: its time key (records.ts timeKey). */
const VERSION_ID = /^\d{14}-[A-Za-z0-9-]{1,64}$/

type Route =
  | { route: 'text' | 'authorship' | 'changes' | 'versions' | 'revert'; room: string }
  | { route: 'version' | 'restore'; room: string; id: string }

class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 413,
    message: string,
  ) {
    super(message)
  }
}

/** Which route `pathname` (under /api/) names; null for none. Room names may hold `/`, version ids never. */
function routeOf(pathname: string): Route | null {
  const rest = /^\/api\/rooms\/(.+)$/.exec(pathname)?.[1]
  if (rest === undefined) return null
  const parts = rest.split('/')
  const last = parts[parts.length - 1]!
  const room = (count: number): string | null => (parts.length > count ? roomNameFromPath(`/${parts.slice(0, parts.length - count).join('/')}`) : null)
  if (last === 'restore' && parts.length >= 4 && parts[parts.length - 3] === 'versions' && VERSION_ID.test(parts[parts.length - 2]!)) {
    const name = room(3)
    return name === null ? null : { route: 'restore', room: name, id: parts[parts.length - 2]! }
  }
  if (parts.length >= 3 && parts[parts.length - 2] === 'versions' && VERSION_ID.test(last)) {
    const name = room(2)
    return name === null ? null : { route: 'version', room: name, id: last }
  }
  if (last === 'text' || last === 'authorship' || last === 'changes' || last === 'versions' || last === 'revert') {
    const name = room(1)
    return name === null ? null : { route: last, room: name }
  }
  return null
}

const POST_ROUTES = new Set<Route['route']>(['versions', 'restore', 'revert'])
const GET_ROUTES = new Set<Route['route']>(['text', 'authorship', 'changes', 'versions', 'version'])

/** Handles a request whose path starts with /api/. */
export async function handleRest(context: RestContext, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  try {
    const route = routeOf(url.pathname)
    if (route === null) throw new HttpError(404, 'no such route: see the README for /api/rooms/{room}/…')
    const method = request.method ?? 'GET'
    const allowed = method === 'POST' ? POST_ROUTES.has(route.route) : method === 'GET' && GET_ROUTES.has(route.route)
    if (!allowed) {
      const methods = [GET_ROUTES.has(route.route) ? 'GET' : null, POST_ROUTES.has(route.route) ? 'POST' : null].filter((m) => m !== null).join(', ')
      response.setHeader('Allow', methods)
      throw new HttpError(405, `${method} is not allowed here; use ${methods}`)
    }
    const requester = await authorize(context, request, url, route.room, method === 'POST')
    const body = method === 'POST' ? await readJson(request) : null
    const held = await context.registry.hold(route.room)
    if (held === null) throw new Error('the room could not be loaded')
    try {
      if (held.room.history === null) throw new HttpError(404, 'this server keeps no history (HISTORY=off)')
      if (isUnknown(held.room)) throw new HttpError(404, `no room ${JSON.stringify(route.room)}`)
      const result = await answer(route, held.room, held.room.history, url.searchParams, body, requester)
      sendJson(response, 200, result)
    } finally {
      held.release()
    }
  } catch (error) {
    if (error instanceof HttpError) {
      sendJson(response, error.status, { error: error.message })
      return
    }
    if (error instanceof RevertTooLarge) {
      sendJson(response, 413, { error: error.message })
      return
    }
    throw error
  }
}

/** A room nobody is in whose stored document is empty was never written. */
function isUnknown(room: Room): boolean {
  return room.connectionCount === 0 && room.doc.store.clients.size === 0
}

async function answer(route: Route, room: Room, history: RoomHistory, params: URLSearchParams, body: Record<string, unknown> | null, requester: Author): Promise<unknown> {
  switch (route.route) {
    case 'text':
      return { text: history.text.toString() }
    case 'authorship':
      return { runs: history.authorship() }
    case 'changes':
      return { changes: (await history.changes(changeQuery(params, false))).map(publicEntry) }
    case 'versions': {
      if (body === null) return { versions: (await history.versions.list()).map(({ id, time, name, authors }) => ({ id, time, name, authors })) }
      const name = body.name
      if (name !== undefined && (typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME_LENGTH)) throw new HttpError(400, `name: must be a string of 1-${MAX_NAME_LENGTH} characters`)
      const meta = await history.takeVersion(name)
      return { id: meta.id }
    }
    case 'version': {
      const version = await history.versions.get(route.id)
      if (version === null) throw new HttpError(404, `no version ${route.id}`)
      return { id: version.meta.id, time: version.meta.time, name: version.meta.name, text: textOfState(version.state, history.textName) }
    }
    case 'restore': {
      const result = await history.restore(route.id, requester)
      if (result === null) throw new HttpError(404, `no version ${route.id}`)
      await room.whenStored()
      return result
    }
    case 'revert': {
      const query = changeQuery(params, true)
      const result = await history.revert(query, requester)
      await room.whenStored()
      return result
    }
  }
}

function publicEntry(entry: ChangeEntry): unknown {
  return { id: entry.id, author: publicAuthor(entry.author), time: entry.time, until: entry.until, inserted: entry.inserted, deleted: entry.deleted }
}

/** `by`, `since` and `until` from the query string; `by` is required for a revert. */
function changeQuery(params: URLSearchParams, needsAuthor: boolean): ChangeQuery {
  const query: ChangeQuery = {}
  const by = params.get('by')
  if (by !== null && by !== '') query.by = by
  else if (needsAuthor) throw new HttpError(400, 'by: required, the author id whose changes to revert')
  for (const key of ['since', 'until'] as const) {
    const raw = params.get(key)
    if (raw === null || raw === '') continue
    const time = /^\d+$/.test(raw) ? Number(raw) : /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN
    if (!Number.isSafeInteger(time)) throw new HttpError(400, `${key}: ${JSON.stringify(raw)} is neither an ISO 8601 time nor epoch milliseconds`)
    query[key] = time
  }
  if (query.since !== undefined && query.until !== undefined && query.since > query.until) throw new HttpError(400, 'since: must not be after until')
  return query
}

/** The requester as an author; throws 401/403 as the WebSocket would close with 4401/4403. */
async function authorize(context: RestContext, request: IncomingMessage, url: URL, room: string, writes: boolean): Promise<Author> {
  const header = request.headers.authorization
  const bearer = header === undefined ? null : (/^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '')
  const token = bearer ?? url.searchParams.get('token')
  const decision = await context.access.authorize(token, room)
  if (!decision.ok) throw new HttpError(decision.code === CloseCode.unauthorized ? 401 : 403, decision.reason)
  if (writes && decision.mode !== 'rw') throw new HttpError(403, 'a read-only token may only GET')
  if (context.access.enabled && decision.subject !== null) return { id: decision.subject, name: decision.name ?? decision.subject, attested: true }
  return { id: 'anonymous', name: 'anonymous', attested: false }
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  let bytes = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    bytes += chunk.length
    if (bytes > MAX_BODY_BYTES) throw new HttpError(413, `the request body is larger than ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk)
  }
  const text = Buffer.concat(chunks).toString('utf8').trim()
  if (text === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new HttpError(400, 'the request body is not JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, 'the request body must be a JSON object')
  return value as Record<string, unknown>
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value)
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' })
  response.end(body)
}
