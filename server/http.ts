import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import type { RefusalLog } from './log-once.ts'
import type { Metrics } from './metrics.ts'
import { redactUrl } from './redact.ts'
import type { RoomRegistry } from './rooms.ts'
import type { StaticHandler } from './static.ts'

export interface HttpContext {
  registry: RoomRegistry
  metrics: Metrics
  logger: Logger
  staticSite: StaticHandler
  /** `performance.now()` when the server started. */
  startedAt: number
  /** Whether a request naming this Host is answered (host-check.ts; always, with AUTH_SECRET). */
  hostAllowed: (host: string | undefined) => boolean
  refusals: RefusalLog
  /** The REST API (rest.ts), for paths under /api/. */
  api?: (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<void>
}

/** A Host header that can be written into a policy as it is: a name or address and a port. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/**
 * The page may load only from this server and connect only to it (the WebSocket origin is
 * named as well: older browsers do not count ws: as 'self'); nobody may frame it, and it sends
 * no Referer, which could carry a room name or a token.
 */
export function contentSecurityPolicy(host: string | undefined): string {
  const sockets = host !== undefined && PLAIN_HOST.test(host) ? ` ws://${host} wss://${host}` : ''
  return [
    "default-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${sockets}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** Headers on every response, whatever it is. */
function setSecurityHeaders(request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('X-Content-Type-Options', 'nosniff')
  response.setHeader('Content-Security-Policy', contentSecurityPolicy(request.headers.host))
  response.setHeader('X-Frame-Options', 'DENY')
  response.setHeader('Referrer-Policy', 'no-referrer')
}

/** GET /healthz, GET /metrics, and the web page for everything else. */
export function createRequestHandler(context: HttpContext): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    setSecurityHeaders(request, response)
    if (!context.hostAllowed(request.headers.host)) {
      context.metrics.httpRefusedHost += 1
      const fields = { url: redactUrl(request.url), remote: request.socket.remoteAddress, host: request.headers.host?.slice(0, 200), status: 403 }
      context.refusals.write(context.logger, 'warn', null, 'host', fields, 'refused request: Host names another server; add the name to ALLOWED_HOSTS if it is this one (DNS rebinding guard)')
      const body = 'host not allowed: this server answers only its own names; add this one to ALLOWED_HOSTS if it is one\n'
      response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) })
      response.end(request.method === 'HEAD' ? undefined : body)
      return
    }
    handle(context, request, response).catch((error: unknown) => {
      context.logger.error({ reason: (error as Error).message, url: redactUrl(request.url) }, 'http request failed')
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
      response.end('internal error\n')
    })
  }
}

async function handle(context: HttpContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (context.api !== undefined && request.url?.startsWith('/api/')) return context.api(request, response, new URL(request.url, 'http://localhost'))
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' })
    response.end('method not allowed\n')
    return
  }
  const { pathname } = new URL(request.url ?? '/', 'http://localhost')
  const uptimeSeconds = Math.round((performance.now() - context.startedAt) / 10) / 100
  if (pathname === '/healthz') {
    // 503 while storage is failing: nothing new can be stored, so a balancer should look elsewhere.
    const healthy = context.registry.storageHealthy
    const body = JSON.stringify({
      status: healthy ? 'ok' : 'storage_unavailable',
      rooms: context.registry.size,
      connections: context.registry.connectionCount,
      uptime: uptimeSeconds,
    })
    respond(request, response, 'application/json; charset=utf-8', body, healthy ? 200 : 503)
  } else if (pathname === '/metrics') {
    const body = context.metrics.render({ rooms: context.registry.size, connections: context.registry.connectionCount, uptimeSeconds })
    respond(request, response, 'text/plain; version=0.0.4; charset=utf-8', body)
  } else {
    await context.staticSite(request, response, pathname)
  }
}

function respond(request: IncomingMessage, response: ServerResponse, type: string, body: string, status = 200): void {
  response.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' })
  response.end(request.method === 'HEAD' ? undefined : body)
}

/** The answers Node gives to a request it cannot parse, which a `clientError` listener must give itself. */
const CLIENT_ERROR_STATUS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
}

/**
 * A connection whose request could not be read: malformed, headers too large, or headers or
 * body too slow to arrive (HEADERS_TIMEOUT, REQUEST_TIMEOUT: slowloris). Answered as Node would
 * answer it, and logged once within the line budget; a client that reset the socket is not.
 */
export function handleClientError(error: Error & { code?: string }, socket: Duplex, logger: Logger, refusals: RefusalLog): void {
  const reset = error.code === 'ECONNRESET' || error.code === 'EPIPE'
  if (!reset) {
    const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? '400 Bad Request'
    const remote = (socket as Duplex & { remoteAddress?: string }).remoteAddress
    const slow = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    refusals.write(logger, 'warn', null, slow ? 'slow_request' : 'bad_request', { remote, code: error.code, status: Number(status.slice(0, 3)) }, slow ? 'closing connection: request headers too slow to arrive (slowloris)' : 'closing connection: unreadable HTTP request')
    const writable = socket as Duplex & { bytesWritten?: number }
    if (writable.writable && (writable.bytesWritten ?? 0) === 0) socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
  }
  socket.destroy()
}
