/**
 * Replays real editing traces (../shared/traces, never copied into the project) three ways: on a bare
 * Y.Text, through a TextBuffer (line index kept current), and through a TextEditor (a cursor placed and
 * text typed or deleted for every patch, with history and events), each transaction its own Yjs
 * transaction. Prints each against the bare Y.Text; skips with a note when the traces are absent.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import * as Y from 'yjs'
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { TextEditor } from '../core/editor/text-editor.ts'
import { fmt, ratio } from './measure.ts'

interface Trace {
  startContent: string
  endContent: string
  txns: { patches: [number, number, string][] }[]
}

const folder = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'traces')
const names = (process.env.TRACES ?? 'automerge-paper,seph-blog1,rustcode,sveltecomponent').split(',')

if (!existsSync(folder)) {
  console.log(`trace replay: skipped, ${folder} is absent`)
  process.exit(0)
}

function load(name: string): Trace {
  return JSON.parse(gunzipSync(readFileSync(join(folder, `${name}.json.gz`))).toString('utf8')) as Trace
}

function bare(trace: Trace): string {
  const doc = new Y.Doc()
  const text = doc.getText('text')
  text.insert(0, trace.startContent)
  for (const { patches } of trace.txns) {
    doc.transact(() => {
      for (const [pos, del, ins] of patches) {
        if (del > 0) text.delete(pos, del)
        if (ins) text.insert(pos, ins)
      }
    })
  }
  return text.toString()
}

function buffer(trace: Trace): string {
  const buf = new TextBuffer({ text: trace.startContent })
  for (const { patches } of trace.txns) {
    buf.transact(() => {
      for (const [pos, del, ins] of patches) {
        buf.setTextInRange([buf.positionForCharacterIndex(pos), buf.positionForCharacterIndex(pos + del)], ins, { normalizeLineEndings: false })
      }
    })
  }
  return buf.getText()
}

function editor(trace: Trace): string {
  const ed = new TextEditor({ text: trace.startContent })
  const buf = ed.getBuffer()
  for (const { patches } of trace.txns) {
    ed.transact(() => {
      for (const [pos, del, ins] of patches) {
        const start = buf.positionForCharacterIndex(pos)
        if (del > 0) ed.setSelectedBufferRange([start, buf.positionForCharacterIndex(pos + del)])
        else ed.setCursorBufferPosition(start)
        if (ins) ed.insertText(ins, { normalizeLineEndings: false, autoIndentNewline: false, autoDecreaseIndent: false })
        else ed.delete()
      }
    })
  }
  return ed.getText()
}

function timed(fn: () => string): { ms: number; text: string } {
  const start = performance.now()
  const text = fn()
  return { ms: performance.now() - start, text }
}

for (const name of names) {
  const trace = load(name)
  const ops = trace.txns.reduce((n, t) => n + t.patches.length, 0)
  const base = timed(() => bare(trace))
  const buf = timed(() => buffer(trace))
  const ed = timed(() => editor(trace))
  for (const [label, result] of [['bare', base], ['buffer', buf], ['editor', ed]] as const) {
    if (result.text !== trace.endContent) throw new Error(`${name}: the ${label} replay did not reach endContent`)
  }
  console.log(
    `trace ${name} (${trace.txns.length.toLocaleString('en')} transactions, ${ops.toLocaleString('en')} patches): ` +
      `TextBuffer ${ratio(buf.ms / base.ms)} bare Y.Text, TextEditor ${ratio(ed.ms / base.ms)} (${fmt(base.ms)} bare, ${fmt(buf.ms)} buffer, ${fmt(ed.ms)} editor)`,
  )
}
