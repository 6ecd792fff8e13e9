import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'

/**
 * The benchmark's baseline (bench/web-render.bench.ts; not part of the served page): the same room
 * over the same y-websocket connection, shown in a plain <textarea> as soon as it has synced. It
 * neither keeps the document in IndexedDB nor shows anyone's cursor.
 */
const params = new URLSearchParams(window.location.search)
const doc = new Y.Doc()
const provider = new WebsocketProvider(`ws://${window.location.host}`, params.get('room') ?? 'baseline', doc)
const textarea = document.querySelector('textarea')!
provider.on('sync', (synced: boolean) => {
  if (synced) textarea.value = doc.getText('text').toString()
})
