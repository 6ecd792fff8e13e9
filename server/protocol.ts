import * as Y from 'yjs'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import * as syncProtocol from 'y-protocols/sync'
import * as awarenessProtocol from 'y-protocols/awareness'

/**
 * The y-websocket wire format: one message per binary frame, a varUint message type, then
 * the payload. Messages are encoded with y-protocols. Incoming sync messages are decoded here
 * rather than with `syncProtocol.readSyncMessage`, because that applies updates itself and
 * swallows their errors, and the server must refuse a bad frame and drop a read-only
 * connection's writes before anything is applied.
 */

export const MESSAGE_SYNC = 0
export const MESSAGE_AWARENESS = 1
export const MESSAGE_AUTH = 2
export const MESSAGE_QUERY_AWARENESS = 3

export type ClientMessage =
  | { type: 'sync-step-1'; stateVector: Uint8Array }
  | { type: 'sync-step-2'; update: Uint8Array }
  | { type: 'update'; update: Uint8Array }
  | { type: 'awareness'; update: Uint8Array }
  | { type: 'query-awareness' }

/** A frame that is not a well-formed y-websocket message. */
export class ProtocolError extends Error {
  override name = 'ProtocolError'
}

function readPayload(decoder: decoding.Decoder): Uint8Array {
  const length = decoding.readVarUint(decoder)
  if (length > decoder.arr.length - decoder.pos) throw new ProtocolError('payload length runs past the end of the frame')
  return decoding.readUint8Array(decoder, length)
}

export type ClientMessageType = ClientMessage['type']

/**
 * The type of the message in `frame`, read from its first bytes without decoding the payload;
 * null when those bytes are not a known type (decodeClientMessage then says why).
 */
export function peekMessageType(frame: Uint8Array): ClientMessageType | null {
  const type = frame[0]
  if (type === MESSAGE_AWARENESS) return 'awareness'
  if (type === MESSAGE_QUERY_AWARENESS) return 'query-awareness'
  if (type !== MESSAGE_SYNC) return null
  const step = frame[1]
  if (step === syncProtocol.messageYjsSyncStep1) return 'sync-step-1'
  if (step === syncProtocol.messageYjsSyncStep2) return 'sync-step-2'
  if (step === syncProtocol.messageYjsUpdate) return 'update'
  return null
}

/** Decodes one frame; throws ProtocolError for truncated frames, unknown types and trailing bytes. */
export function decodeClientMessage(frame: Uint8Array): ClientMessage {
  const decoder = decoding.createDecoder(frame)
  let message: ClientMessage
  try {
    const type = decoding.readVarUint(decoder)
    if (type === MESSAGE_SYNC) {
      const step = decoding.readVarUint(decoder)
      const payload = readPayload(decoder)
      if (step === syncProtocol.messageYjsSyncStep1) message = { type: 'sync-step-1', stateVector: payload }
      else if (step === syncProtocol.messageYjsSyncStep2) message = { type: 'sync-step-2', update: payload }
      else if (step === syncProtocol.messageYjsUpdate) message = { type: 'update', update: payload }
      else throw new ProtocolError(`unknown sync message type ${step}`)
    } else if (type === MESSAGE_AWARENESS) {
      message = { type: 'awareness', update: readPayload(decoder) }
    } else if (type === MESSAGE_QUERY_AWARENESS) {
      message = { type: 'query-awareness' }
    } else {
      throw new ProtocolError(`unknown message type ${type}`)
    }
  } catch (error) {
    if (error instanceof ProtocolError) throw error
    throw new ProtocolError(`truncated frame (${(error as Error).message})`)
  }
  if (decoding.hasContent(decoder)) throw new ProtocolError(`${frame.length - decoder.pos} trailing bytes after the message`)
  return message
}

export function encodeSyncStep1(doc: Y.Doc): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MESSAGE_SYNC)
  syncProtocol.writeSyncStep1(encoder, doc)
  return encoding.toUint8Array(encoder)
}

/** The answer to a peer's sync step 1: everything `doc` has that `stateVector` lacks. */
export function encodeSyncStep2(doc: Y.Doc, stateVector: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MESSAGE_SYNC)
  syncProtocol.writeSyncStep2(encoder, doc, stateVector)
  return encoding.toUint8Array(encoder)
}

export function encodeUpdate(update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MESSAGE_SYNC)
  syncProtocol.writeUpdate(encoder, update)
  return encoding.toUint8Array(encoder)
}

export function encodeAwareness(awareness: awarenessProtocol.Awareness, clients: readonly number[]): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MESSAGE_AWARENESS)
  encoding.writeVarUint8Array(encoder, awarenessProtocol.encodeAwarenessUpdate(awareness, [...clients]))
  return encoding.toUint8Array(encoder)
}

/** One entry of an awareness update: `state` is the JSON text, `"null"` when the client left. */
export interface AwarenessEntry {
  clientId: number
  clock: number
  state: string
}

/** Splits an awareness update into its entries; throws ProtocolError when it is malformed. */
export function decodeAwarenessEntries(update: Uint8Array): AwarenessEntry[] {
  const decoder = decoding.createDecoder(update)
  const entries: AwarenessEntry[] = []
  try {
    const count = decoding.readVarUint(decoder)
    // Each entry takes at least 3 bytes, so a larger count cannot be honest.
    if (count > update.length) throw new ProtocolError(`awareness update claims ${count} entries`)
    for (let i = 0; i < count; i++) {
      const clientId = decoding.readVarUint(decoder)
      const clock = decoding.readVarUint(decoder)
      const state = decoding.readVarString(decoder)
      JSON.parse(state)
      entries.push({ clientId, clock, state })
    }
  } catch (error) {
    if (error instanceof ProtocolError) throw error
    throw new ProtocolError(`malformed awareness update (${(error as Error).message})`)
  }
  if (decoding.hasContent(decoder)) throw new ProtocolError('trailing bytes after the awareness update')
  return entries
}

export function encodeAwarenessEntries(entries: readonly AwarenessEntry[]): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, entries.length)
  for (const entry of entries) {
    encoding.writeVarUint(encoder, entry.clientId)
    encoding.writeVarUint(encoder, entry.clock)
    encoding.writeVarString(encoder, entry.state)
  }
  return encoding.toUint8Array(encoder)
}

/** An awareness message (type and payload) carrying `entries`. */
export function encodeAwarenessMessage(entries: readonly AwarenessEntry[]): Uint8Array {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MESSAGE_AWARENESS)
  encoding.writeVarUint8Array(encoder, encodeAwarenessEntries(entries))
  return encoding.toUint8Array(encoder)
}
