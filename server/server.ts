import { createServer as createHttpServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { AddressInfo } from 'node:net'
import { WebSocket, WebSocketServer } from 'ws'
import type { RawData } from 'ws'
import type { Logger } from 'pino'
import { AccessControl } from './auth.ts'
import type { AccessDecision } from './auth.ts'
import { CloseCode } from './close-codes.ts'
import { defaultConfig } from './config.ts'
import type { Config } from './config.ts'
import { Connection } from './connection.ts'
import type { ConnectionContext } from './connection.ts'
import { ConnectionCaps } from './connection-caps.ts'
import { ApplyBudgets, SLOW_APPLY_MS } from './apply-budget.ts'
import { reclaimOnWrite } from './awareness-guard.ts'
import { admitFrame, awarenessOwnersOf, closeExpired, refuseMalformed, releaseConnection } from './frame-guard.ts'
import type { FrameGuardContext } from './frame-guard.ts'
import { hostPolicy, isHostAllowed } from './host-check.ts'
import { createRequestHandler, handleClientError } from './http.ts'
import { RefusalLog } from './log-once.ts'
import { UnfinishedBudget } from './memory-budget.ts'
import type { Metrics, RefusalReason } from './metrics.ts'
import { isOriginAllowed } from './origin.ts'
import { limitPending } from './pending-limit.ts'
import type { PendingLimitOptions } from './pending-limit.ts'
import { redactUrl } from './redact.ts'
import { handleRest } from './rest.ts'
import { roomNameFromPath } from './room-name.ts'
import type { Room } from './room.ts'
import type { RoomRegistry } from './rooms.ts'
import { createStaticHandler } from './static.ts'
import { WriteBatcher } from './write-batcher.ts'

/** The limits of issue 10; each defaults to its setting's default (config.ts). */
type Limits = Pick<
  Config,
  | 'maxBufferedBytes'
  | 'maxAwarenessBytes'
  | 'maxPendingBytes'
  | 'maxConnectionsPerRoom'
  | 'maxConnectionsPerAddress'
  | 'allowedOrigins'
  | 'serveSourceMaps'
  | 'allowedHosts'
  | 'maxUnfinishedBytes'
  | 'maxConnectionUnfinishedBytes'
  | 'maxUpdateItems'
  | 'maxPendingItems'
  | 'maxApplyMs'
>

export interface ServerConfig extends Partial<Limits> {
  host: string
  port: number
  authSecret: string | null
  maxMessageBytes: number
  pingIntervalMs: number
  webDir: string
}

export interface ServerDeps {
  registry: RoomRegistry
  metrics: Metrics
  logger: Logger
}

export interface RunningServer {
  /** `http://host:port`; WebSocket rooms live at `ws://host:port/<room>`. */
  url: string
  port: number
  /** Stops accepting, closes every connection with 1001 and resolves once every room is stored. */
  close(): Promise<void>
}

/** How long closed sockets get to finish the closing handshake before they are cut. */
const CLOSE_GRACE_MS = 1000

/** How long a connection closed for the unfinished-message budget may take to answer the close frame (it is read and discarded meanwhile). */
const BUDGET_CLOSE_GRACE_MS = 5000

/** setTimeout's longest delay; a later expiry is re-armed when it runs out. */
const MAX_TIMER_MS = 2 ** 31 - 1

type Refusal =
  | Extract<AccessDecision, { ok: false }>
  | { ok: false; code: typeof CloseCode.malformed | typeof CloseCode.tooManyConnections; reason: string }

const REFUSAL_REASONS: Record<Refusal['code'], RefusalReason> = {
  [CloseCode.malformed]: 'invalid_room',
  [CloseCode.unauthorized]: 'unauthorized',
  [CloseCode.forbidden]: 'forbidden',
  [CloseCode.tooManyConnections]: 'too_many_connections',
}

/**
 * The server's WebSocket (ws makes it, `WebSocket` option): it knows its connection and room, so the shared
 * handlers find them without a lookup table holding two entries per connection. Null on a refused socket.
 */
class ConnectionSocket extends WebSocket {
  connection: Connection | null = null
  room: Room | null = null
}

function destroySocket(this: Duplex): void {
  this.destroy()
}

function ignore(): void {}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data)
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data
}

/** Starts the HTTP and WebSocket server and resolves once it listens. */
export async function createServer(serverConfig: ServerConfig, deps: ServerDeps): Promise<RunningServer> {
  const config: ServerConfig & Limits = { ...defaultConfig(), ...serverConfig }
  const { registry, metrics, logger } = deps
  const caps = new ConnectionCaps(config.maxConnectionsPerRoom, config.maxConnectionsPerAddress)
  const refusals = new RefusalLog()
  const guard: FrameGuardContext = { metrics, logger, refusals, maxAwarenessBytes: config.maxAwarenessBytes, maxUpdateItems: config.maxUpdateItems, owners: new WeakMap(), watchWrites }
  const access = new AccessControl(config.authSecret)
  // With AUTH_SECRET a page needs a token anyway; without it, only our own names (DNS rebinding).
  const hosts = access.enabled ? null : hostPolicy(config.host, config.allowedHosts)
  const unfinished = new UnfinishedBudget(config.maxConnectionUnfinishedBytes, config.maxUnfinishedBytes)
  const applyBudgets = new ApplyBudgets(config.maxApplyMs)
  const startedAt = performance.now()
  const sockets = new Set<WebSocket>()
  const batcher = new WriteBatcher()
  let nextConnectionId = 1
  let closing: Promise<void> | null = null

  const staticSite = createStaticHandler({ webDir: config.webDir, authEnabled: access.enabled, serveSourceMaps: config.serveSourceMaps })
  const hostAllowed = (host: string | undefined): boolean => hosts === null || isHostAllowed(host, hosts)
  const api = (request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> => handleRest({ registry, access, logger }, request, response, url)
  const http = createHttpServer(createRequestHandler({ registry, metrics, logger, staticSite, startedAt, hostAllowed, refusals, api }))
  // Broken requests and requests too slow to send their headers (slowloris): logged, within the budget.
  http.on('clientError', (error: Error & { code?: string }, socket: Duplex) => handleClientError(error, socket, logger, refusals))
  // The y-websocket client never negotiates compression, and deflate would cost CPU per frame.
  const wss = new WebSocketServer<typeof ConnectionSocket>({ noServer: true, maxPayload: config.maxMessageBytes, perMessageDeflate: false, clientTracking: false, WebSocket: ConnectionSocket })

  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Until ws owns the socket, a client that resets it must not crash the process.
    socket.on('error', destroySocket)
    upgrade(request, socket, head).catch((error: unknown) => {
      // Only the message: an error can carry the request URL, and with it the token (ERR_INVALID_URL's `input`).
      logger.error({ reason: (error as Error).message, url: redactUrl(request.url) }, 'websocket upgrade failed')
      socket.destroy()
    })
  })

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (closing !== null) return refuseUpgrade(socket, 503, 'Service Unavailable')
    const remote = request.socket.remoteAddress ?? 'unknown'
    const path = redactUrl(request.url)
    if (!hostAllowed(request.headers.host)) {
      metrics.refused.host += 1
      refusals.write(logger, 'warn', null, 'host', { path, remote, host: request.headers.host?.slice(0, 200), status: 403 }, 'refused connection: Host names another server; add the name to ALLOWED_HOSTS if it is this one (DNS rebinding guard)')
      return refuseUpgrade(socket, 403, 'Forbidden', 'host not allowed: add it to ALLOWED_HOSTS\n')
    }
    if (!isOriginAllowed(request.headers.origin, request.headers.host, config.allowedOrigins)) {
      metrics.refused.origin += 1
      refusals.write(logger, 'info', null, 'origin', { path, remote, origin: request.headers.origin?.slice(0, 200), status: 403 }, 'refused connection: foreign origin (see ALLOWED_ORIGINS)')
      return refuseUpgrade(socket, 403, 'Forbidden')
    }
    let url: URL | null = null
    try {
      url = new URL(request.url ?? '/', 'http://localhost')
    } catch {}
    const room = url === null ? null : roomNameFromPath(url.pathname)
    const decision: AccessDecision | Refusal =
      room === null
        ? { ok: false, code: CloseCode.malformed, reason: url === null ? 'invalid URL' : 'invalid room name' }
        : await access.authorize(url!.searchParams.get('token'), room)
    if (closing !== null) return refuseUpgrade(socket, 503, 'Service Unavailable')
    wss.handleUpgrade(request, socket, head, (ws) => {
      // ws owns the socket now, and handles its errors: one listener fewer on every connection's socket.
      socket.off('error', destroySocket)
      sockets.add(ws)
      if (!decision.ok) return refuse(ws, decision, path, remote)
      const over = caps.admit(room!, remote)
      if (over !== null) {
        const reason = over === 'room' ? 'too many connections to this room' : 'too many connections from this address'
        return refuse(ws, { ok: false, code: CloseCode.tooManyConnections, reason }, path, remote)
      }
      accept(ws, socket, room!, decision, remote)
    })
  }

  function refuseUpgrade(socket: Duplex, status: 403 | 503, text: string, body = ''): void {
    if (status === 503) metrics.refused.shutting_down += 1
    const type = body === '' ? '' : 'Content-Type: text/plain; charset=utf-8\r\n'
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  }

  function forgetSocket(this: WebSocket): void {
    sockets.delete(this)
  }

  function refuse(ws: WebSocket, refusal: Refusal, path: string, remote: string): void {
    ws.on('close', forgetSocket)
    ws.on('error', ignore)
    metrics.refused[REFUSAL_REASONS[refusal.code]] += 1
    refusals.write(logger, 'info', null, REFUSAL_REASONS[refusal.code], { path, remote, code: refusal.code, reason: refusal.reason }, 'refused connection')
    ws.close(refusal.code, refusal.reason)
  }

  // Every connection's event handlers are these functions, shared, not closures of each connection
  // (an idle connection then holds little more than its sockets): `this` is the socket, which knows its
  // connection (ConnectionSocket); the TCP socket's is looked up here.
  const connectionOf = new WeakMap<Duplex, Connection>()
  const connectionContext: ConnectionContext = {
    maxBufferedBytes: config.maxBufferedBytes,
    metrics,
    batcher,
    logger,
    onSlowReader: (connection, buffered) =>
      refusals.write(connection.log, 'warn', connection, 'slow_reader', { buffered, max: config.maxBufferedBytes }, 'dropping a connection that does not read what it is sent (MAX_BUFFERED_BYTES)'),
  }

  // One for every room (limitPending watches a room's document once): nothing of it is made per connection or per room.
  const pendingLimit: PendingLimitOptions = {
    maxBytes: config.maxPendingBytes,
    maxItems: config.maxPendingItems,
    onExceeded: (sender, details) => {
      metrics.closedByServer.pending_limit += 1
      refusals.write(
        logger,
        'warn',
        sender,
        'pending_limit',
        { conn: sender.id, room: sender.roomName, code: CloseCode.tooManyPending, max: config.maxPendingBytes, maxItems: config.maxPendingItems, ...details },
        'closing connection: its updates wait for dependencies past MAX_PENDING_BYTES or MAX_PENDING_ITEMS; dropped them',
      )
      sender.close(CloseCode.tooManyPending, 'too many unresolved updates')
    },
  }

  /** A room's writes are watched from the first that holds something (see FrameGuardContext.watchWrites); each is watched once. */
  function watchWrites(room: Room): void {
    limitPending(room.doc, pendingLimit)
    reclaimOnWrite(room, awarenessOwnersOf(room, guard), logger)
  }

  function accept(ws: ConnectionSocket, socket: Duplex, roomName: string, grant: Extract<AccessDecision, { ok: true }>, remote: string): void {
    const { mode, subject, expiresAt, name } = grant
    const id = nextConnectionId++
    const connection = new Connection(id, ws, { mode, subject, name, expiresAt, room: roomName, remote }, connectionContext, socket)
    ws.connection = connection
    connectionOf.set(socket, connection)
    socket.on('data', meterData)
    connection.applyBudget = applyBudgets.join(remote)
    metrics.connectionsAccepted += 1
    const room = registry.join(roomName, connection)
    ws.room = room
    logger.debug({ conn: id, room: roomName, mode, subject, remote }, 'connection opened')
    armExpiry(connection)
    // No 'pong' listener: anything the client sends, a pong included, reaches meterData first, which marks it alive.
    ws.on('message', receiveFrame)
    ws.on('error', logSocketError)
    // One 'close' listener: it forgets the socket too (a refused socket has forgetSocket instead).
    ws.on('close', closeConnection)
  }

  /** Closes `connection` when its token expires (one timer per connection with an expiring token). */
  function armExpiry(connection: Connection): void {
    if (connection.expiresAt === null) return
    connection.expiry = setTimeout(expire, Math.min(MAX_TIMER_MS, Math.max(0, connection.expiresAt - Date.now())), connection)
    connection.expiry.unref()
  }

  function expire(connection: Connection): void {
    if (connection.hasExpired()) closeExpired(connection, guard)
    else armExpiry(connection)
  }

  function meterData(this: Duplex, chunk: Buffer): void {
    const connection = connectionOf.get(this)
    if (connection === undefined) return
    // Whatever the client sends (a pong, a frame or part of one) says it is alive: see the pinger.
    connection.alive = true
    const over = unfinished.meter(connection, chunk)
    metrics.unfinishedBytes = unfinished.total
    metrics.unfinishedBytesPeak = unfinished.peak
    if (over !== null) closeOverBudget(connection, this, over)
  }

  function closeOverBudget(connection: Connection, socket: Duplex, over: 'connection' | 'process'): void {
    // From now on what the client sends is read and thrown away, unparsed: the library holds
    // no more of it, and the socket has no unread data when it is cut, so the cut is a FIN that
    // leaves the close frame readable, not a reset that can discard it.
    socket.removeAllListeners('data')
    socket.on('data', () => {})
    socket.resume()
    const perConnection = over === 'connection'
    const meter = connection.meter!
    metrics.closedByServer[perConnection ? 'unfinished_connection' : 'unfinished_process'] += 1
    refusals.write(
      connection.log,
      'warn',
      connection,
      `unfinished_${over}`,
      { code: perConnection ? CloseCode.messageTooBig : CloseCode.tryAgainLater, held: meter.held, total: unfinished.total, max: perConnection ? unfinished.maxPerConnection : unfinished.maxTotal },
      perConnection
        ? 'closing connection: its unfinished message passed MAX_CONNECTION_UNFINISHED_BYTES'
        : 'closing connection: unfinished messages across all connections passed MAX_UNFINISHED_BYTES',
    )
    connection.close(perConnection ? CloseCode.messageTooBig : CloseCode.tryAgainLater, perConnection ? 'unfinished message too large' : 'server busy, retry')
    // The close frame goes out at once; the socket, and what the library held, go once the client
    // has answered it, or after a grace that gives a busy client time to read it (cut sooner, a
    // client still sending gets a reset that can discard the close frame unread: 1006, not 1013).
    setTimeout(() => connection.terminate(), BUDGET_CLOSE_GRACE_MS).unref()
  }

  function receiveFrame(this: WebSocket, data: RawData, isBinary: boolean): void {
    const { connection, room } = this as ConnectionSocket
    if (connection === null || room === null) return
    connection.alive = true
    const frame = toBytes(data)
    metrics.messagesIn += 1
    metrics.bytesIn += frame.length
    if (!isBinary) return refuseMalformed(connection, room, 'text frame (y-websocket messages are binary)', guard)
    const admitted = admitFrame(connection, room, frame, guard)
    if (admitted === null) return
    const started = performance.now()
    room.receive(connection, admitted)
    const ms = performance.now() - started
    if (ms > SLOW_APPLY_MS) refusals.write(connection.log, 'warn', connection, 'slow_apply', { ms: Math.round(ms), bytes: frame.length }, 'a message took long to handle: every room waited (logged once per connection)')
    if (connection.applyBudget!.charge(ms) || !connection.isOpen) return
    metrics.closedByServer.apply_budget += 1
    refusals.write(connection.log, 'warn', connection, 'apply_budget', { code: CloseCode.tooManyPending, max: config.maxApplyMs, remote: connection.remote }, 'closing connection: its address\'s messages took more than MAX_APPLY_MS to handle')
    connection.close(CloseCode.tooManyPending, 'updates too costly')
  }

  function logSocketError(this: WebSocket, error: Error & { code?: string }): void {
    const connection = (this as ConnectionSocket).connection
    if (connection === null) return
    // ws has already started closing the socket (1009 for size, 1002/1007 for broken frames).
    const tooLarge = error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
    if (tooLarge) metrics.closedByServer.too_large += 1
    else metrics.closedByServer.malformed += 1
    refusals.write(connection.log, 'warn', connection, tooLarge ? 'too_large' : 'broken_frame', { code: tooLarge ? CloseCode.messageTooBig : undefined, reason: error.message, wsError: error.code }, tooLarge ? 'closing connection: message too large' : 'closing connection: broken websocket frame')
  }

  function closeConnection(this: WebSocket, code: number): void {
    sockets.delete(this)
    const { connection, room } = this as ConnectionSocket
    if (connection === null || room === null) return
    caps.release(connection.roomName, connection.remote)
    clearTimeout(connection.expiry)
    connection.tcp?.off('data', meterData)
    if (connection.meter !== null) unfinished.release(connection.meter)
    metrics.unfinishedBytes = unfinished.total
    releaseConnection(connection)
    applyBudgets.leave(connection.remote)
    awarenessOwnersOf(room, guard).release(connection, room.getConnections())
    registry.leave(room, connection)
    logger.debug({ conn: connection.id, room: room.name, code }, 'connection closed')
  }

  const pinger = setInterval(() => {
    for (const connection of [...registry.getConnections()]) {
      if (!connection.alive) {
        metrics.closedByServer.dead += 1
        refusals.write(logger, 'info', connection, 'dead', { conn: connection.id }, 'dropping a connection that stopped answering pings')
        connection.terminate()
        continue
      }
      connection.alive = false
      connection.socket.ping()
    }
  }, config.pingIntervalMs)
  pinger.unref()

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(config.port, config.host, () => {
      http.off('error', reject)
      resolve()
    })
  })
  const port = (http.address() as AddressInfo).port
  const host = config.host.includes(':') ? `[${config.host}]` : config.host

  async function shutDown(): Promise<void> {
    clearInterval(pinger)
    http.close()
    http.closeIdleConnections()
    await registry.closeAll()
    const open = [...sockets].map((ws) => new Promise<void>((resolve) => ws.once('close', () => resolve())))
    const grace = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())
    await Promise.race([Promise.all(open), grace])
    for (const ws of sockets) ws.terminate()
    wss.close()
  }

  return {
    url: `http://${host}:${port}`,
    port,
    close: () => (closing ??= shutDown()),
  }
}
