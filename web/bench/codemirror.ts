import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'
import { basicSetup } from 'codemirror'
import { EditorState } from '@codemirror/state'
import { EditorView, keymap } from '@codemirror/view'
import { javascript } from '@codemirror/lang-javascript'
import { yCollab, yUndoManagerKeymap } from 'y-codemirror.next'

/**
 * The editor users would pick instead, for bench/web-vs-codemirror.bench.ts (not part of the served
 * page): CodeMirror 6 set up as y-codemirror.next's README does (basicSetup: line numbers, folding,
 * bracket matching, closing brackets, autocompletion, search, active-line and selection-match
 * highlighting; JavaScript highlighting; yCollab with the room's Y.Text, awareness and a Y.UndoManager),
 * connected to the same server through y-websocket's WebsocketProvider, with `?room=` and an optional
 * `&token=` handled as the Cotext page hands them to the provider. It keeps nothing in IndexedDB.
 *
 * The view is made at once over the (still empty) text, as the README does; the room's text arrives
 * through yCollab's sync like any remote change. y-codemirror.next draws one caret (and selection) per
 * peer: the `cursor` field of its awareness state, which Cotext also publishes (its last selection).
 *
 * Our server's Content-Security-Policy (`default-src 'self'`, no 'unsafe-inline') blocks the <style>
 * element CodeMirror writes its themes into; a site serving CodeMirror under such a policy gives it a
 * nonce (`EditorView.cspNonce`). The server has none to give, so the page hands the same rules to the
 * document as a constructed style sheet, which the policy allows, whenever CodeMirror rewrites them.
 * The policy also drops the `style` attribute y-codemirror.next writes on its caret elements: peers'
 * carets are drawn in its theme's black (their selections keep their colours).
 */
declare global {
  interface Window {
    /** The page's parts, for the benchmark and the browser test. */
    codemirror?: { view: EditorView; doc: Y.Doc; provider: WebsocketProvider }
  }
}

/** Mirrors CodeMirror's <style> elements (blocked by the policy) into one adopted style sheet. */
function adoptCodeMirrorStyles(): void {
  const sheet = new CSSStyleSheet()
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
  const copy = (): void => sheet.replaceSync([...document.head.querySelectorAll('style')].map((style) => style.textContent).join('\n'))
  new MutationObserver(copy).observe(document.head, { childList: true, subtree: true, characterData: true })
  copy()
}

adoptCodeMirrorStyles()
const params = new URLSearchParams(window.location.search)
const token = params.get('token')
const doc = new Y.Doc()
const provider = new WebsocketProvider(`ws://${window.location.host}`, params.get('room') ?? 'baseline', doc, {
  params: token ? { token } : {},
})
const ytext = doc.getText('text')
provider.awareness.setLocalStateField('user', { name: params.get('name') ?? 'CodeMirror', color: '#6a5acd', colorLight: '#6a5acd33' })

const view = new EditorView({
  state: EditorState.create({
    doc: ytext.toString(),
    extensions: [keymap.of(yUndoManagerKeymap), basicSetup, javascript(), yCollab(ytext, provider.awareness, { undoManager: new Y.UndoManager(ytext) })],
  }),
  parent: document.getElementById('editor')!,
})
window.codemirror = { view, doc, provider }
