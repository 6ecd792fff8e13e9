import { createServer as createHttpServer } from 'node:http'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { AddressInfo } from 'node:net'
import { WebSocketServer } from 'ws'
import type { RawData, WebSocket } from 'ws'
import type { Logger } from 'pino'
import { AccessControl } from './auth.ts'
import type { AccessDecision } from './auth.ts'
import { CloseCode } from './close-codes.ts'
import { Connection } from './connection.ts'
import { createRequestHandler } from './http.ts'
import type { Metrics, RefusalReason } from './metrics.ts'
import { roomNameFromPath } from './room-name.ts'
import type { RoomRegistry } from './rooms.ts'
import { createStaticHandler } from './static.ts'
import { WriteBatcher } from './write-batcher.ts'

export interface ServerConfig {
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

type Refusal = Extract<AccessDecision, { ok: false }> | { ok: false; code: typeof CloseCode.malformed; reason: string }

const REFUSAL_REASONS: Record<Refusal['code'], RefusalReason> = {
  [CloseCode.malformed]: 'invalid_room',
  [CloseCode.unauthorized]: 'unauthorized',
  [CloseCode.forbidden]: 'forbidden',
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data)
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data
}

/** Starts the HTTP and WebSocket server and resolves once it listens. */
export async function createServer(config: ServerConfig, deps: ServerDeps): Promise<RunningServer> {
  const { registry, metrics, logger } = deps
  const access = new AccessControl(config.authSecret)
  const startedAt = performance.now()
  const sockets = new Set<WebSocket>()
  const batcher = new WriteBatcher()
  let nextConnectionId = 1
  let closing: Promise<void> | null = null

  const staticSite = createStaticHandler({ webDir: config.webDir, authEnabled: access.enabled })
  const http = createHttpServer(createRequestHandler({ registry, metrics, logger, staticSite, startedAt }))
  // The y-websocket client never negotiates compression, and deflate would cost CPU per frame.
  const wss = new WebSocketServer({ noServer: true, maxPayload: config.maxMessageBytes, perMessageDeflate: false, clientTracking: false })

  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Until ws owns the socket, a client that resets it must not crash the process.
    socket.on('error', () => socket.destroy())
    upgrade(request, socket, head).catch((error: unknown) => {
      logger.error({ err: error }, 'websocket upgrade failed')
      socket.destroy()
    })
  })

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (closing !== null) return refuseUpgrade(socket)
    const url = new URL(request.url ?? '/', 'http://localhost')
    const room = roomNameFromPath(url.pathname)
    const decision: AccessDecision | Refusal =
      room === null
        ? { ok: false, code: CloseCode.malformed, reason: 'invalid room name' }
        : await access.authorize(url.searchParams.get('token'), room)
    if (closing !== null) return refuseUpgrade(socket)
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws)
      ws.on('close', () => sockets.delete(ws))
      const remote = request.socket.remoteAddress
      if (!decision.ok) refuse(ws, decision, url.pathname, remote)
      else accept(ws, socket, room!, decision.mode, remote)
    })
  }

  function refuseUpgrade(socket: Duplex): void {
    metrics.refused.shutting_down += 1
    socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
  }

  function refuse(ws: WebSocket, refusal: Refusal, path: string, remote: string | undefined): void {
    ws.on('error', () => {})
    metrics.refused[REFUSAL_REASONS[refusal.code]] += 1
    logger.info({ path: path.slice(0, 200), remote, code: refusal.code, reason: refusal.reason }, 'refused connection')
    ws.close(refusal.code, refusal.reason)
  }

  function accept(ws: WebSocket, socket: Duplex, roomName: string, mode: 'rw' | 'ro', remote: string | undefined): void {
    const connection = new Connection(nextConnectionId++, ws, mode, metrics, { socket, batcher })
    const log = logger.child({ conn: connection.id, room: roomName })
    metrics.connectionsAccepted += 1
    const room = registry.join(roomName, connection)
    log.debug({ mode, remote }, 'connection opened')

    ws.on('message', (data: RawData, isBinary: boolean) => {
      connection.alive = true
      const frame = toBytes(data)
      metrics.messagesIn += 1
      metrics.bytesIn += frame.length
      if (isBinary) room.receive(connection, frame)
      else room.refuse(connection, 'text frame (y-websocket messages are binary)')
    })
    ws.on('pong', () => {
      connection.alive = true
    })
    ws.on('error', (error: Error & { code?: string }) => {
      // ws has already started closing the socket (1009 for size, 1002/1007 for broken frames).
      const tooLarge = error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
      if (tooLarge) metrics.closedByServer.too_large += 1
      else metrics.closedByServer.malformed += 1
      log.warn({ code: tooLarge ? CloseCode.messageTooBig : undefined, reason: error.message, wsError: error.code }, tooLarge ? 'closing connection: message too large' : 'closing connection: broken websocket frame')
    })
    ws.on('close', (code: number) => {
      registry.leave(room, connection)
      log.debug({ code }, 'connection closed')
    })
  }

  const pinger = setInterval(() => {
    for (const connection of [...registry.getConnections()]) {
      if (!connection.alive) {
        metrics.closedByServer.dead += 1
        logger.info({ conn: connection.id }, 'dropping a connection that stopped answering pings')
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
