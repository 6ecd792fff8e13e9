import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import * as encoding from 'lib0/encoding'
import { bindClients, checkUpdate, registerServerClient } from '../../server/attestation.ts'
import type { Author } from '../../server/authors-map.ts'
import { SERVER_AUTHOR, authorsMap } from '../../server/authors-map.ts'

const alice: Author = { id: 'alice', name: 'Alice', attested: true }
const mallory: Author = { id: 'mallory', name: 'mallory', attested: true }
const anonymous: Author = { id: 'connection:x-1', name: 'connection 1', attested: false }

/** The server's document after alice (client 1) typed `text` and was bound. */
function serverWithAlice(text = 'hello'): { server: Y.Doc; aliceDoc: Y.Doc } {
  const server = new Y.Doc()
  const aliceDoc = new Y.Doc()
  aliceDoc.clientID = 1
  aliceDoc.getText('text').insert(0, text)
  const update = Y.encodeStateAsUpdate(aliceDoc)
  expect(checkUpdate(server, update, alice)).toEqual({ ok: true, bind: [1] })
  server.transact(() => {
    registerServerClient(server, SERVER_AUTHOR)
    bindClients(server, [1], alice, 'binding')
  }, 'binding')
  Y.applyUpdate(server, update)
  return { server, aliceDoc }
}

/** What `doc` (a copy of the server's state, under client id `clientID`) sends after `edit`. */
function editAs(server: Y.Doc, clientID: number, edit: (doc: Y.Doc) => void): Uint8Array {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(server))
  doc.clientID = clientID
  const before = Y.encodeStateVector(doc)
  edit(doc)
  return Y.encodeStateAsUpdate(doc, before)
}

describe('checkUpdate', () => {
  it('binds unbound client ids and lets their owner go on writing', () => {
    const { server, aliceDoc } = serverWithAlice()
    expect(authorsMap(server).get('1')).toEqual(alice)
    expect(authorsMap(server).get(String(server.clientID))).toEqual(SERVER_AUTHOR)
    const before = Y.encodeStateVector(aliceDoc)
    aliceDoc.getText('text').insert(5, '!')
    expect(checkUpdate(server, Y.encodeStateAsUpdate(aliceDoc, before), alice)).toEqual({ ok: true, bind: [] })
  })

  it('refuses structs under a client id bound to another author, attested or not', () => {
    const { server } = serverWithAlice()
    const forged = editAs(server, 1, (doc) => doc.getText('text').insert(0, 'EVIL'))
    expect(checkUpdate(server, forged, mallory)).toEqual({ ok: false, reason: 'inserts under client id 1, which belongs to another user' })
    expect(checkUpdate(server, forged, anonymous)).toEqual({ ok: false, reason: 'inserts under client id 1, which belongs to another user' })
  })

  it('lets anyone resend structs the document already has, and delete anyone\'s text', () => {
    const { server, aliceDoc } = serverWithAlice()
    expect(checkUpdate(server, Y.encodeStateAsUpdate(aliceDoc), mallory)).toEqual({ ok: true, bind: [] })
    const deletion = editAs(server, 7, (doc) => doc.getText('text').delete(0, 2))
    expect(checkUpdate(server, deletion, mallory)).toEqual({ ok: true, bind: [] })
  })

  it('refuses writes under the server\'s client id and to the authors map, directly or by reference', () => {
    const { server } = serverWithAlice()
    const serverID = server.clientID
    expect(checkUpdate(server, editAs(server, serverID, (doc) => doc.getText('text').insert(0, 'x')), mallory)).toEqual({ ok: false, reason: `inserts under the server's client id ${serverID}` })
    expect(checkUpdate(server, editAs(server, 9, (doc) => doc.getMap('cotext:authors').set('9', mallory)), mallory)).toEqual({ ok: false, reason: 'writes to the authors map' })
    // A new value for an existing key refers to the entry it replaces.
    expect(checkUpdate(server, editAs(server, 9, (doc) => doc.getMap('cotext:authors').set('1', mallory)), mallory)).toEqual({ ok: false, reason: 'writes next to an entry of the authors map' })
    expect(checkUpdate(server, editAs(server, 9, (doc) => doc.getMap('cotext:authors').delete('1')), mallory)).toEqual({ ok: false, reason: 'deletes an entry of the authors map' })
  })

  it('refuses a struct that refers to a server struct that does not exist yet', () => {
    const { server } = serverWithAlice()
    // An item of client 9 whose origin is the server's next clock: it would join whatever the server writes there.
    const future = new Y.Item(Y.createID(9, 0), null, Y.createID(server.clientID, Y.getState(server.store, server.clientID) + 5), null, null, null, null, new Y.ContentString('x'))
    expect(checkUpdate(server, encodeItem(future), mallory)).toEqual({ ok: false, reason: 'writes next to an entry of the authors map' })
  })
})

/** A one-item update, written with Yjs's own encoder. */
function encodeItem(item: Y.Item): Uint8Array {
  const encoder = new Y.UpdateEncoderV1()
  // One client, one struct, then the empty delete set.
  encoding.writeVarUint(encoder.restEncoder, 1)
  encoding.writeVarUint(encoder.restEncoder, 1)
  encoder.writeClient(item.id.client)
  encoding.writeVarUint(encoder.restEncoder, item.id.clock)
  item.write(encoder, 0)
  encoding.writeVarUint(encoder.restEncoder, 0)
  return encoder.toUint8Array()
}
