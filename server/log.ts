import { pino } from 'pino'
import type { Logger } from 'pino'
import type { LogLevel } from './config.ts'

/**
 * JSON lines on stdout, one object per event (pino's format). Synchronous writes: the server
 * logs per connection and per fault, never per message, and a line written just before a crash
 * or `process.exit` must not be lost.
 */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: 1, sync: true }))
}
