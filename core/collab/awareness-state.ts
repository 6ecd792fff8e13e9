import * as Y from 'yjs'

/*
 * The awareness fields this editor publishes, and the validation of what peers publish.
 *
 *   { user: { name, color },
 *     cursor: { anchor, head } | null,      // the last selection: what y-codemirror.next and y-quill read
 *     selections: [{ anchor, head }, ...] } // every selection, in the order they were added
 *
 * Positions are Yjs relative positions written as plain JSON with every field present. Never
 * `Y.relativePositionToJSON`: it drops `item` at the end of the text, and y-codemirror.next 0.3.6
 * then throws and turns its remote cursors off for good.
 */

/** A Yjs ID as JSON. */
export interface IdJSON {
  client: number
  clock: number
}

/** A relative position as `JSON.parse(JSON.stringify(relPos))` writes it: every field, null when empty. */
export interface RelativePositionJSON {
  type: IdJSON | null
  tname: string | null
  item: IdJSON | null
  assoc: number
}

/** One selection: `anchor` is the end that stays (Atom's tail), `head` the end that moves (the cursor). */
export interface SelectionJSON {
  anchor: RelativePositionJSON
  head: RelativePositionJSON
}

/** Who a user is, as shown next to their cursors. */
export interface UserInfo {
  readonly name: string
  readonly color: string
}

/** The cursor fields of the published state (the `user` field is written once, see Collaboration). */
export interface CursorFields {
  cursor: SelectionJSON | null
  selections: SelectionJSON[]
}

/** A peer's selection, decoded: positions to resolve, and its JSON to tell whether it changed. */
export interface DecodedSelection {
  readonly anchor: Y.RelativePosition
  readonly head: Y.RelativePosition
  readonly key: string
  /** The selection as the awareness state holds it: kept (instead of `key`) to tell a later state's from it. */
  readonly source: unknown
  /** Anchor and head are the same position (a cursor): resolve it once. */
  readonly collapsed: boolean
}

/** A peer's state, decoded. `user` is null when the peer publishes none. */
export interface DecodedState {
  readonly user: UserInfo | null
  readonly selections: readonly DecodedSelection[]
}

export type DecodeResult = { ok: true; state: DecodedState } | { ok: false; reason: string }

/** More selections than anyone makes by hand: a state with more is treated as malformed. */
export const MAX_PEER_SELECTIONS = 10_000

/** The JSON form of a relative position, field for field what `JSON.stringify` writes. */
export function relativePositionJSON(position: Y.RelativePosition): RelativePositionJSON {
  return { type: idJSON(position.type), tname: position.tname, item: idJSON(position.item), assoc: position.assoc }
}

function idJSON(id: Y.ID | null): IdJSON | null {
  return id === null ? null : { client: id.client, clock: id.clock }
}

/**
 * Validates and decodes a peer's awareness state. A state with only `cursor` (y-codemirror.next,
 * y-quill) has that one selection; with `selections`, those (and `cursor` must still be well formed).
 * Accepts positions with or without their empty fields (`Y.relativePositionToJSON`'s form).
 */
export function decodePeerState(state: unknown): DecodeResult {
  try {
    if (!isObject(state)) return fail('the state is not an object')
    const user = decodeUser(state.user)
    const cursor = state.cursor == null ? null : decodeSelection(state.cursor, 'cursor')
    let selections: DecodedSelection[]
    if (state.selections == null) {
      selections = cursor === null ? [] : [cursor]
    } else {
      if (!Array.isArray(state.selections)) throw new Malformed('selections is not an array')
      if (state.selections.length > MAX_PEER_SELECTIONS) throw new Malformed(`more than ${MAX_PEER_SELECTIONS} selections`)
      selections = state.selections.map((selection: unknown, i: number) => decodeSelection(selection, `selections[${i}]`))
    }
    return { ok: true, state: { user, selections } }
  } catch (error) {
    if (error instanceof Malformed) return fail(error.message)
    throw error
  }
}

class Malformed extends Error {}

function fail(reason: string): DecodeResult {
  return { ok: false, reason }
}

function decodeUser(user: unknown): UserInfo | null {
  if (user == null) return null
  if (!isObject(user)) throw new Malformed('user is not an object')
  const { name, color } = user
  if (name != null && typeof name !== 'string') throw new Malformed('user.name is not a string')
  if (color != null && typeof color !== 'string') throw new Malformed('user.color is not a string')
  return { name: name ?? '', color: color ?? '' }
}

function decodeSelection(selection: unknown, where: string): DecodedSelection {
  if (!isObject(selection)) throw new Malformed(`${where} is not an {anchor, head} object`)
  const anchor = decodePosition(selection.anchor, `${where}.anchor`)
  const head = decodePosition(selection.head, `${where}.head`)
  const anchorJSON = JSON.stringify(relativePositionJSON(anchor))
  const headJSON = JSON.stringify(relativePositionJSON(head))
  return { anchor, head, key: `[${anchorJSON},${headJSON}]`, source: selection, collapsed: anchorJSON === headJSON }
}

/**
 * Whether a decoded selection is the one published as `source` (a selection of an earlier state,
 * already validated): the same positions, field for field, empty fields and missing ones alike.
 */
export function isPublishedAs(selection: DecodedSelection, source: unknown): boolean {
  if (!isObject(source)) return false
  return samePosition(selection.anchor, source.anchor) && samePosition(selection.head, source.head)
}

function samePosition(position: Y.RelativePosition, json: unknown): boolean {
  if (!isObject(json)) return false
  return (
    sameId(position.type, json.type) &&
    position.tname === (json.tname ?? null) &&
    sameId(position.item, json.item) &&
    position.assoc === (json.assoc ?? 0)
  )
}

function sameId(id: Y.ID | null, json: unknown): boolean {
  if (id === null || json == null) return id === null && json == null
  return isObject(json) && json.client === id.client && json.clock === id.clock
}

function decodePosition(json: unknown, where: string): Y.RelativePosition {
  if (!isObject(json)) throw new Malformed(`${where} is not a relative position`)
  const { type, tname, item, assoc } = json
  if (type != null) checkId(type, `${where}.type`)
  if (tname != null && typeof tname !== 'string') throw new Malformed(`${where}.tname is not a string`)
  if (item != null) checkId(item, `${where}.item`)
  if (assoc != null && !Number.isSafeInteger(assoc)) throw new Malformed(`${where}.assoc is not an integer`)
  // Yjs cannot tell which text a position without either belongs to (it throws on resolving it).
  if (type == null && tname == null) throw new Malformed(`${where} names no type (neither type nor tname)`)
  return Y.createRelativePositionFromJSON(json)
}

function checkId(id: unknown, where: string): void {
  if (!isObject(id) || !isUint(id.client) || !isUint(id.clock)) throw new Malformed(`${where} is not a {client, clock} id`)
}

function isUint(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
