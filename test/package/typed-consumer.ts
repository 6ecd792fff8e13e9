/**
 * The strict TypeScript consumer pack.test.ts type-checks inside the consumer project. Kept as text
 * here: as files of this repository they would resolve `cotext` to the repository itself.
 */

/** tsconfig.json: as strict as apps get, checking our .d.ts files too (no skipLibCheck). */
export const TSCONFIG = {
  compilerOptions: {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    lib: ['es2022', 'dom', 'dom.iterable'],
    types: ['node'],
    skipLibCheck: false,
    noEmit: true,
  },
  files: ['engine.ts', 'server.ts', 'wrong.ts'],
}

export const ENGINE = `import * as Y from 'yjs'
import { Awareness } from 'y-protocols/awareness'
import { Point, Range, TextEditor, type TextEditorOptions } from 'cotext'

const doc = new Y.Doc()
const options: TextEditorOptions = { doc, awareness: new Awareness(doc), user: { name: 'Ada', color: '#d81b60' } }
const editor = new TextEditor(options)
editor.insertText('hello')
const text: string = editor.getText()
const ranges: Range[] = editor.getSelectedBufferRanges()
const where: Point = editor.getCursorBufferPosition()
const shared: Y.Text = editor.getBuffer().ytext
editor.onDidChange(({ changes, local }) => console.log(changes.length, local))
console.log(text, ranges, where, shared)
`

export const SERVER = `import { startServer, signToken, ConfigError, type CotextServer, type ServerOptions } from 'cotext/server'

const options: ServerOptions = { port: 0, host: '127.0.0.1', dataDir: './data', authSecret: 'x'.repeat(32), maxMessageBytes: 1 << 20, logLevel: 'warn' }
const server: CotextServer = await startServer(options)
const url: string = server.url
const port: number = server.port
const token: string = await signToken('x'.repeat(32), { room: 'notes', mode: 'ro', ttlSeconds: 60 })
await server.close()
console.log(url, port, token, new ConfigError('bad').name)
`

/** Only once the web component exists (web/index.ts): the app's provider, the engine's types. */
export const WEB = `import * as Y from 'yjs'
import { Awareness } from 'y-protocols/awareness'
import type { TextEditor } from 'cotext'
import { mountEditor } from 'cotext/web'

const doc = new Y.Doc()
const mounted = mountEditor(document.createElement('div'), { doc, awareness: new Awareness(doc), user: { name: 'Ada', color: '#d81b60' }, language: 'javascript' })
const editor: TextEditor = mounted.editor
editor.insertText('x')
mounted.destroy()
`

/** A deliberate mistake that the check must report, and nothing else. */
export const WRONG = `import { TextEditor } from 'cotext'

const length: number = new TextEditor({ text: 'abc' }).getText()
console.log(length)
`
export const WRONG_ERROR = "wrong.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'."
