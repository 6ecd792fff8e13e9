import * as Y from 'yjs'
import type { Author } from './authors-map.ts'
import { AUTHORS_MAP_NAME, authorsMap, boundAuthor } from './authors-map.ts'

/**
 * Attested authorship: the check a client's update passes BEFORE the room applies it. The update
 * is decoded, not applied (Y.decodeUpdate), and every struct it carries that the document does
 * not have yet is looked at:
 *   - a struct under a client id bound to another author (attested) is refused: a connection
 *     may not insert text under somebody else's client id;
 *   - a struct under the server's own client id, one whose parent is the authors map, or one
 *     that refers (origin, right origin, parent) to an item of the authors map is refused: only
 *     the server writes the bindings;
 *   - a deletion of an item of the authors map is refused.
 * Deletions of text are not checked: a delete set names what is deleted, not who deletes, and
 * anyone may delete anyone's text; the change log attributes a deletion to its sender.
 * Structs under unbound client ids are bound to the sender (see bindClients) before the
 * update is applied.
 */

export type Verdict =
  /** `bind`: unbound client ids the update inserts under, to bind to the sender. */
  | { ok: true; bind: number[] }
  | { ok: false; reason: string }

const OK_NOTHING_TO_BIND: Verdict = { ok: true, bind: [] }

export function checkUpdate(doc: Y.Doc, update: Uint8Array, writer: Author): Verdict {
  const { structs, ds } = Y.decodeUpdate(update)
  const map = authorsMap(doc)
  let bind: number[] | null = null
  // An update holds each client's structs in one run: its state and binding are looked up once.
  let lastClient = -1
  let lastState = 0
  let checkedClient = -1
  for (const struct of structs) {
    if (struct instanceof Y.Skip) continue
    const { client, clock } = struct.id
    if (client !== lastClient) {
      lastClient = client
      lastState = Y.getState(doc.store, client)
    }
    // Already in the document: applying it again changes nothing.
    if (clock + struct.length <= lastState) continue
    if (client !== checkedClient) {
      checkedClient = client
      const bound = boundAuthor(map, client)
      if (bound?.server === true) return { ok: false, reason: `inserts under the server's client id ${client}` }
      if (bound === undefined) (bind ??= []).push(client)
      else if (bound.attested && (!writer.attested || bound.id !== writer.id)) return { ok: false, reason: `inserts under client id ${client}, which belongs to another user` }
    }
    if (!(struct instanceof Y.Item)) continue
    // A root type's name, in a decoded (not integrated) struct.
    if ((struct.parent as unknown) === AUTHORS_MAP_NAME) return { ok: false, reason: 'writes to the authors map' }
    const parent = struct.parent instanceof Y.ID ? struct.parent : null
    for (const reference of [struct.origin, struct.rightOrigin, parent]) {
      if (reference !== null && refersToAuthorsMap(doc, map, reference)) return { ok: false, reason: 'writes next to an entry of the authors map' }
    }
  }
  for (const [client, deletions] of ds.clients) {
    if (boundAuthor(map, client)?.server !== true) continue
    for (const { clock, len } of deletions) if (rangeHoldsMapItem(doc, map, client, clock, len)) return { ok: false, reason: 'deletes an entry of the authors map' }
  }
  return bind === null ? OK_NOTHING_TO_BIND : { ok: true, bind }
}

/** Binds each of `clients` to `author`, in one transaction with `origin` that also registers the server's own client id. */
export function bindClients(doc: Y.Doc, clients: readonly number[], author: Author, origin: unknown): void {
  const map = authorsMap(doc)
  doc.transact(() => {
    for (const client of clients) if (!map.has(String(client))) map.set(String(client), { ...author })
  }, origin)
}

/**
 * Registers the server's current client id as the server's, if it is not yet: call it in the
 * transaction where the server first writes (Yjs may give the document a new client id). The
 * entry goes in under that very client id, so it registers itself.
 */
export function registerServerClient(doc: Y.Doc, server: Author): void {
  const map = authorsMap(doc)
  if (boundAuthor(map, doc.clientID)?.server !== true) map.set(String(doc.clientID), { ...server })
}

/** Whether `id` names an item of the authors map, or a struct of a server client id that is not there yet. */
function refersToAuthorsMap(doc: Y.Doc, map: Y.Map<Author>, id: Y.ID): boolean {
  if (boundAuthor(map, id.client)?.server !== true) return false
  if (id.clock >= Y.getState(doc.store, id.client)) return true
  const item = Y.getItem(doc.store, id)
  return item instanceof Y.Item && item.parent === map
}

function rangeHoldsMapItem(doc: Y.Doc, map: Y.Map<Author>, client: number, clock: number, len: number): boolean {
  if (clock + len > Y.getState(doc.store, client)) return true
  const structs = doc.store.clients.get(client)
  if (structs === undefined) return false
  for (let index = Y.findIndexSS(structs, clock); index < structs.length && structs[index]!.id.clock < clock + len; index++) {
    const struct = structs[index]!
    if (struct instanceof Y.Item && struct.parent === map) return true
  }
  return false
}
