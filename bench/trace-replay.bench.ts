/**
 * Replays real editing traces (../shared/traces, never copied into the project) three ways, a tenth of
 * the trace at a time, interleaved: on a bare Y.Text, through a TextBuffer (line index kept current),
 * and through TextEditor#setTextInBufferRange (history, selections' undo snapshot, markers, layout,
 * events), each transaction of the trace its own Yjs transaction and undo step; within a tenth they take
 * turns on eight slices (TRACE_SLICES) so that a shared machine's drifting load hits them alike. Prints, per tenth and
 * overall, each against the bare Y.Text (target for the editor: <= 2x in every tenth) and the bytes
 * allocated per edit; skips with a note when the traces are absent.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import * as Y from 'yjs'
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { TextEditor } from '../core/editor/text-editor.ts'
import { allocation, bytes, fmt, ratio } from './measure.ts'

interface Trace {
  startContent: string
  endContent: string
  txns: { patches: [number, number, string][] }[]
}

type Txn = Trace['txns'][number]

const folder = process.env.TRACES_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'traces')
const names = (process.env.TRACES ?? 'automerge-paper,seph-blog1,rustcode,sveltecomponent').split(',')
const TENTHS = 10
/** Slices of a tenth on which the replayers take turns (TRACE_SLICES). */
const SLICES = Number(process.env.TRACE_SLICES ?? 8)

if (!existsSync(folder)) {
  console.log(`trace replay: skipped, ${folder} is absent`)
  process.exit(0)
}

function load(name: string): Trace {
  return JSON.parse(gunzipSync(readFileSync(join(folder, `${name}.json.gz`))).toString('utf8')) as Trace
}

interface Replayer {
  readonly label: string
  replay(txns: readonly Txn[]): void
  text(): string
}

function bare(trace: Trace): Replayer {
  const doc = new Y.Doc()
  const text = doc.getText('text')
  text.insert(0, trace.startContent)
  return {
    label: 'bare',
    replay(txns) {
      for (const { patches } of txns) {
        doc.transact(() => {
          for (const [pos, del, ins] of patches) {
            if (del > 0) text.delete(pos, del)
            if (ins) text.insert(pos, ins)
          }
        })
      }
    },
    text: () => text.toString(),
  }
}

function buffer(trace: Trace): Replayer {
  const buf = new TextBuffer({ text: trace.startContent })
  return {
    label: 'buffer',
    replay(txns) {
      for (const { patches } of txns) {
        buf.transact(() => {
          for (const [pos, del, ins] of patches) {
            buf.setTextInRange([buf.positionForCharacterIndex(pos), buf.positionForCharacterIndex(pos + del)], ins, { normalizeLineEndings: false })
          }
        })
      }
    },
    text: () => buf.getText(),
  }
}

function editor(trace: Trace): Replayer {
  const ed = new TextEditor({ text: trace.startContent })
  const buf = ed.getBuffer()
  return {
    label: 'editor',
    replay(txns) {
      for (const { patches } of txns) {
        ed.transact(() => {
          for (const [pos, del, ins] of patches) {
            ed.setTextInBufferRange([buf.positionForCharacterIndex(pos), buf.positionForCharacterIndex(pos + del)], ins, { normalizeLineEndings: false })
          }
        })
      }
    },
    text: () => ed.getText(),
  }
}

for (const name of names) {
  const trace = load(name)
  const ops = trace.txns.reduce((n, t) => n + t.patches.length, 0)
  const replayers = [bare(trace), buffer(trace), editor(trace)]
  const totals = replayers.map(() => ({ ms: 0, bytes: 0 }))
  const editorRatios: number[] = []
  const bufferRatios: number[] = []
  console.log(`trace ${name} (${trace.txns.length.toLocaleString('en')} transactions, ${ops.toLocaleString('en')} patches), per tenth:`)
  for (let tenth = 0; tenth < TENTHS; tenth++) {
    const from = Math.floor((tenth * trace.txns.length) / TENTHS)
    const to = Math.floor(((tenth + 1) * trace.txns.length) / TENTHS)
    const txns = trace.txns.slice(from, to)
    const edits = txns.reduce((n, t) => n + t.patches.length, 0)
    // The tenth runs in slices, the replayers taking turns on each in a rotating order, so that drifting
    // load (a shared machine) hits every replayer alike within the tenth.
    const results = replayers.map(() => ({ ms: 0, bytes: 0 }))
    for (let slice = 0; slice < SLICES; slice++) {
      const part = txns.slice(Math.floor((slice * txns.length) / SLICES), Math.floor(((slice + 1) * txns.length) / SLICES))
      for (let i = 0; i < replayers.length; i++) {
        const k = (tenth + slice + i) % replayers.length
        const { ms, bytes } = allocation(() => replayers[k]!.replay(part))
        results[k]!.ms += ms
        results[k]!.bytes += bytes
        totals[k]!.ms += ms
        totals[k]!.bytes += bytes
      }
    }
    const [b, buf, ed] = results as [{ ms: number; bytes: number }, { ms: number; bytes: number }, { ms: number; bytes: number }]
    editorRatios.push(ed.ms / b.ms)
    bufferRatios.push(buf.ms / b.ms)
    console.log(
      `trace   ${name} tenth ${String(tenth + 1).padStart(2)}: editor ${ratio(ed.ms / b.ms)} bare, buffer ${ratio(buf.ms / b.ms)} ` +
        `(${fmt(b.ms)} bare, ${fmt(buf.ms)} buffer, ${fmt(ed.ms)} editor; allocated per edit ${bytes(b.bytes / edits)} bare, ${bytes(buf.bytes / edits)} buffer, ${bytes(ed.bytes / edits)} editor)`,
    )
  }
  for (const replayer of replayers) {
    if (replayer.text() !== trace.endContent) throw new Error(`${name}: the ${replayer.label} replay did not reach endContent`)
  }
  console.log(`trace ${name} per tenth vs bare Y.Text: editor ${editorRatios.map(ratio).join(' ')}; buffer ${bufferRatios.map(ratio).join(' ')}`)
  const [b, buf, ed] = totals as [{ ms: number; bytes: number }, { ms: number; bytes: number }, { ms: number; bytes: number }]
  console.log(
    `trace ${name}: TextEditor#setTextInBufferRange ${ratio(ed.ms / b.ms)} bare Y.Text overall, worst tenth ${ratio(Math.max(...editorRatios))}, last tenth ${ratio(editorRatios[TENTHS - 1]! / editorRatios[0]!)} the first (target <= 2x in every tenth); ` +
      `TextBuffer ${ratio(buf.ms / b.ms)} (${fmt(b.ms)} bare, ${fmt(buf.ms)} buffer, ${fmt(ed.ms)} editor; ${bytes(b.bytes / ops)}, ${bytes(buf.bytes / ops)}, ${bytes(ed.bytes / ops)} allocated per edit)`,
  )
}
