/**
 * `cotext/server`: Cotext's collaboration server inside an app's own Node process. Rooms are
 * y-websocket endpoints at `ws://host:port/<room>`, stored in LevelDB or PostgreSQL; see the README's
 * "Server".
 */
export { startServer, ServerStartError, type ServerOptions, type CotextServer } from './start.ts'
export { ConfigError, LOG_LEVELS, type Config, type LogLevel } from './config.ts'
/** Access tokens for a server started with `authSecret`. */
export { signToken, type TokenRequest, type TokenClaims, type AccessMode } from './auth.ts'
/** The WebSocket close codes the server uses. */
export { CloseCode } from './close-codes.ts'
