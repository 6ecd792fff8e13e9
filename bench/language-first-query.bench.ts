/**
 * The first language query on a 5 MB JavaScript file (opening it and asking the scope at the cursor, the
 * indentation of a new line, the comment tokens), at the top and in the middle of the file. Before/after in one
 * run: "before" is a mode without a work budget (a query parses from the top up to its position, as the mode
 * did before windows), "after" the default mode (64 KB budget, then a window around the position). Baseline: a
 * full parse of the same text. Each query is on a fresh language mode.
 * Run: npx tsx bench/language-first-query.bench.ts
 */
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { BufferInput } from '../core/language/buffer-input.ts'
import { createLanguageMode, type LanguageMode } from '../core/language/language-mode.ts'
import { languageSpec } from '../core/language/languages/index.ts'
import { javascriptSource } from './documents.ts'
import { median } from './measure.ts'

const BYTES = 5 * 1024 * 1024
const ROUNDS = 5
const TARGET_MS = 50

function time(fn: () => unknown): number {
  const start = performance.now()
  fn()
  return performance.now() - start
}

const buffer = new TextBuffer({ text: javascriptSource({ bytes: BYTES }) })
const parser = languageSpec('javascript')!.parser
const rows = buffer.getLineCount()
const mid = Math.floor(rows / 2)
console.log(`language: 5 MB JavaScript, ${rows} rows, mid-file = row ${mid} (machine shared with other jobs: figures are noisy)`)

type Query = (mode: LanguageMode) => unknown
const queries: Record<string, Query> = {
  'scope top': (mode) => mode.scopeDescriptorForPosition([1, 10]),
  'indent top': (mode) => mode.suggestedIndentForBufferRow(4, { tabLength: 2 }),
  'comment top': (mode) => mode.commentStringsForPosition([5, 8]),
  'scope mid': (mode) => mode.scopeDescriptorForPosition([mid + 1, 10]),
  'indent mid': (mode) => mode.suggestedIndentForBufferRow(mid + 4, { tabLength: 2 }),
  'comment mid': (mode) => mode.commentStringsForPosition([mid + 5, 8]),
}

/** The first query `query` on a fresh mode, in milliseconds. */
function first(query: Query, parseBudget?: number): number {
  const mode = createLanguageMode('javascript', buffer, parseBudget === undefined ? {} : { parseBudget })
  const ms = time(() => query(mode))
  mode.destroy()
  return ms
}

// Before (once each: the mid-file one parses half of the file) and the full-parse baseline.
const fullMs = time(() => parser.parse(new BufferInput(buffer)))
const beforeTop = first(queries['scope top']!, Infinity)
const beforeMid = first(queries['scope mid']!, Infinity)
console.log(`  before (no budget): first scope query top ${beforeTop.toFixed(1)} ms, mid-file ${beforeMid.toFixed(0)} ms; full parse ${fullMs.toFixed(0)} ms`)

const after: Record<string, number[]> = {}
for (let round = 0; round < ROUNDS; round++) {
  const line: string[] = []
  for (const [name, query] of Object.entries(queries)) {
    const ms = first(query)
    ;(after[name] ??= []).push(ms)
    line.push(`${name} ${ms.toFixed(1)}`)
  }
  console.log(`  after, round ${round + 1} (ms): ${line.join(', ')}`)
}

const verdict = (ms: number) => `${ms.toFixed(1)} ms (target <= ${TARGET_MS} ms: ${ms <= TARGET_MS ? 'met' : 'NOT met'})`
const topMs = median(after['scope top']!)
const midMs = median(after['scope mid']!)
console.log(`language: first scope query at the top of a 5 MB JS file: ${verdict(topMs)}; before ${beforeTop.toFixed(1)} ms`)
console.log(
  `language: first scope query mid-file in a 5 MB JS file: ${verdict(midMs)}; before ${beforeMid.toFixed(0)} ms ` +
    `(${(beforeMid / midMs).toFixed(0)}x); full parse ${fullMs.toFixed(0)} ms`,
)
console.log(
  `language: medians after: indent top ${median(after['indent top']!).toFixed(1)} ms, comment top ${median(after['comment top']!).toFixed(1)} ms, ` +
    `indent mid ${median(after['indent mid']!).toFixed(1)} ms, comment mid ${median(after['comment mid']!).toFixed(1)} ms`,
)
buffer.destroy()
