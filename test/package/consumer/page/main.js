// The consumer's page: its own Y.Doc and y-websocket provider, Cotext's editor mounted in a div.
import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'
import { mountEditor } from 'cotext/web'
import 'cotext/web/style.css'
import './app.css'

const params = new URLSearchParams(location.search)
const doc = new Y.Doc()
const provider = new WebsocketProvider(`ws://${location.host}`, params.get('room'), doc)
const mounted = mountEditor(document.getElementById('editor'), {
  doc,
  awareness: provider.awareness,
  user: { name: params.get('name'), color: params.get('color') },
  language: 'javascript',
})
window.app = { doc, provider, editor: mounted.editor, destroy: mounted.destroy }
