/**
 * The first language query on a 5 MB JavaScript file (opening it and asking the scope at the cursor, the
 * indentation of a new line, the comment tokens), against what that query cost when it parsed the whole file:
 * a full parse of the same text, measured in the same run. Each round is a fresh language mode.
 * Run: npx tsx bench/language-first-query.bench.ts
 */
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { BufferInput } from '../core/language/buffer-input.ts'
import { createLanguageMode } from '../core/language/language-mode.ts'
import { languageSpec } from '../core/language/languages/index.ts'
import { javascriptSource } from './documents.ts'
import { median } from './measure.ts'

const BYTES = 5 * 1024 * 1024
const ROUNDS = 3
const TARGET_MS = 50

function time<T>(fn: () => T): number {
  const start = performance.now()
  fn()
  return performance.now() - start
}

const buffer = new TextBuffer({ text: javascriptSource({ bytes: BYTES }) })
const parser = languageSpec('javascript')!.parser
const rows = buffer.getLineCount()
console.log(`language: 5 MB JavaScript, ${rows} rows (machine shared with other jobs: figures are noisy)`)

const full: number[] = []
const scope: number[] = []
const indent: number[] = []
const comment: number[] = []
const middle: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  // Baseline: a full parse, what the first query cost when it parsed the whole file.
  full.push(time(() => parser.parse(new BufferInput(buffer))))
  let mode = createLanguageMode('javascript', buffer)
  scope.push(time(() => mode.scopeDescriptorForPosition([1, 10])))
  mode.destroy()
  mode = createLanguageMode('javascript', buffer)
  indent.push(time(() => mode.suggestedIndentForBufferRow(4, { tabLength: 2 })))
  mode.destroy()
  mode = createLanguageMode('javascript', buffer)
  comment.push(time(() => mode.commentStringsForPosition([5, 8])))
  mode.destroy()
  if (round === 0) {
    // Once: a first query in the middle of the file still parses the half above it.
    mode = createLanguageMode('javascript', buffer)
    middle.push(time(() => mode.scopeDescriptorForPosition([Math.floor(rows / 2), 4])))
    mode.destroy()
  }
  console.log(
    `  round ${round + 1}: full parse ${full[round]!.toFixed(0)} ms; first query: scope ${scope[round]!.toFixed(1)} ms, ` +
      `indent ${indent[round]!.toFixed(1)} ms, comment ${comment[round]!.toFixed(1)} ms` + (round === 0 ? `, scope mid-file ${middle[0]!.toFixed(0)} ms` : ''),
  )
}
const fullMs = median(full)
const scopeMs = median(scope)
console.log(
  `language: first scope query on a 5 MB JS file: ${scopeMs.toFixed(1)} ms (target <= ${TARGET_MS} ms: ${scopeMs <= TARGET_MS ? 'met' : 'NOT met'}), ` +
    `${(fullMs / scopeMs).toFixed(0)}x faster than the full parse it used to wait for (${fullMs.toFixed(0)} ms); ` +
    `indent ${median(indent).toFixed(1)} ms, comment ${median(comment).toFixed(1)} ms, scope mid-file ${middle[0]!.toFixed(0)} ms (medians)`,
)
buffer.destroy()
